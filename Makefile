# SPDX-License-Identifier: GPL-2.0
# The front door.  `make help` lists the targets; README.md explains them.

CACHE ?= $(HOME)/.cache/pmqos-lt
OUT ?= $(CURDIR)/out
export CACHE OUT

TREE := $(CACHE)/linux
BZIMAGE := $(CACHE)/build/test/arch/x86/boot/bzImage

.PHONY: help deps tree export kernel base-kernel demo demo-intro check debug-check dist clean bench

help:
	@echo "make demo         build everything from nothing and show the feature working"
	@echo "make check        run every test; last line: N passed, M failed"
	@echo "make tree         kernel tree at $(TREE): base + patches/ (git am)"
	@echo "make export       write the tree's commits back to patches/"
	@echo "make kernel       build the test kernel ($(BZIMAGE))"
	@echo "make base-kernel  build the base alone (no series)"
	@echo "make debug-check  build the debug kernel, run guest/debug/* under it"
	@echo "make bench        ours against upstream 6.12, one table ($(OUT)/bench/; QUICK=1: minutes)"
	@echo "make dist         one patch for a pristine linux-source-6.12 ($(OUT)/)"
	@echo "make clean        remove $(OUT) (the cache $(CACHE) stays)"

deps:
	@scripts/deps.sh

tree: deps
	@tree/mktree.sh

export:
	@tree/export.sh

kernel: tree
	@kernel/build-kernel.sh test $(TREE) configs/test.config

base-kernel: tree
	@kernel/build-kernel.sh base $(CACHE)/linux-base configs/test.config configs/base.config

# Said first: a cold make demo is quiet for nothing, but long.
demo: demo-intro kernel
	@scripts/demo.sh
demo-intro:
	@echo "make demo: packages, kernel source, tree, test kernel, then the feature in QEMU"
	@echo "make demo: from nothing about 12 min on 2 cores (apt 1, source and tree 2, kernel 8, QEMU 1); a minute once built"

check: deps
	@scripts/check.sh

debug-check: tree
	@kernel/build-kernel.sh debug $(TREE) configs/test.config configs/debug.config
	@qemu/guest-image.sh debug $(OUT)/initramfs-debug.cpio.gz
	@qemu/run-suites.sh $(OUT)/initramfs-debug.cpio.gz

bench: tree
	@QUICK=$(QUICK) bench/bench.sh

dist: tree
	@tree/dist.sh $(OUT)/pmqos-lt-linux-6.12.patch

clean:
	rm -rf $(OUT)
