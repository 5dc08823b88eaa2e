# SPDX-License-Identifier: GPL-2.0
# The front door.  `make help` lists the targets; README.md explains them.

# The paths are written once, in util/common.sh: make CACHE=... OUT=...
# override them (make passes both to the scripts); $(call where,X) asks.
where = $(shell CACHE='$(CACHE)' OUT='$(OUT)' util/where.sh $(1))

.PHONY: help deps tree export stripped postings upstream bisect-proof bisect-builds kernel base-kernel demo demo-intro check debug-check kcsan-check dist clean bench

help:
	@echo "make demo         build everything from nothing and show the feature working"
	@echo "make check        run every test; last line: N passed, M failed"
	@echo "make tree         kernel tree at $(call where,TREE): branch up = pristine 6.12 + upstream/ (git am), branch lt = the stripped-base series made from it"
	@echo "make export       write branch up (pristine..up) back to upstream/, one folder per posting"
	@echo "make postings     the postings under your git identity (user.name, user.email), in $(call where,OUT)/postings/, to send"
	@echo "make stripped     the stripped-base series (stripped/series) as patch files in $(call where,OUT)/stripped/"
	@echo "make upstream     pristine 6.12 + the postings of upstream/: per posting, applies, builds, checkpatch; then its end tree against the stripped-base series"
	@echo "make bisect-proof each fix of upstream/ in QEMU: its case fails before it, passes after"
	@echo "make bisect-builds every commit of upstream/ built whole with PM=n, ACPI=n, PCIEASPM=n, 32-bit (hours; VARIANTS=... for some)"
	@echo "make kernel       build the test kernel ($(call where,bzimage test))"
	@echo "make base-kernel  build the base alone (no series)"
	@echo "make debug-check  build the debug kernel, run guest/debug/* under it"
	@echo "make kcsan-check  build a KCSAN kernel, run the racing suites on two CPUs"
	@echo "make bench        ours against upstream 6.12, one table ($(call where,OUT)/bench/; QUICK=1: a smoke test)"
	@echo "make dist         one patch for a pristine linux-source-6.12 ($(call where,OUT)/)"
	@echo "make clean        remove $(call where,OUT) (the cache $(call where,CACHE) stays)"

deps:
	@scripts/deps.sh

tree: deps
	@tree/mktree.sh

export:
	@tree/export.sh

# What goes out is made from upstream/ exactly: STRICT=1 refuses a tree
# with unexported commits or uncommitted changes.
stripped: deps
	@STRICT=1 tree/mktree.sh && tree/export.sh --stripped

postings: deps
	@STRICT=1 tree/mktree.sh && tree/postings.sh

upstream: deps
	@tree/mkupstream.sh

bisect-proof: deps
	@scripts/bisect-proof.sh

bisect-builds: deps
	@STRICT=1 tree/mktree.sh && kernel/bisect-builds.sh $(VARIANTS)

kernel: tree
	@kernel/build-kernel.sh test

base-kernel: tree
	@kernel/build-kernel.sh base

# Said first: a cold make demo is quiet for nothing, but long (the steps'
# last times or estimates: util/progress.py; none before python3 is there).
demo: demo-intro kernel
	@scripts/demo.sh
demo-intro:
	@echo "make demo: packages, kernel source, tree, test kernel, then the feature in QEMU"
	@CACHE='$(call where,CACHE)' python3 util/progress.py --estimate deps \
		get-source-install get-source-unpack tree kernel-test guest-demo 2>/dev/null | \
		sed 's/^/make demo: each step, if it has to run: /'

check: deps
	@scripts/check.sh

debug-check: tree
	@kernel/build-kernel.sh debug
	@qemu/run debug

kcsan-check: tree
	@kernel/build-kernel.sh kcsan
	@qemu/run kcsan

bench: tree
	@QUICK=$(QUICK) bench/bench.sh

dist: deps
	@STRICT=1 tree/mktree.sh && tree/dist.sh

clean:
	rm -rf $(call where,OUT)
