#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The bisect proof of the upstream form (make bisect-proof): for each fix
# below, the kernel of the commit just before it and the kernel of the fix
# itself, both from branch upstream (tree/mkupstream.sh), boot with
# guest/proof/run.sh (qemu/run proof), which runs the case the fix is
# about.  The case must fail before the fix and pass after it.
# The kernels are built in a worktree of their own ($CACHE/linux-proof)
# and $BUILD/proof, with configs/test.config + configs/bench.config
# (modules, for bench/module/pmqos_bench.ko and kmod/test_lpss_driver.ko,
# which use public APIs only and so build on every commit); logs in
# $OUT/proof/.
# Prints "before"/"after" lines per fix; the last line is
#   bisect proof: N of M shown (fail before, pass after)
set -eu
. "$(dirname "$0")/../util/common.sh"

# CASE|the start of the fix's subject
fixes='lpss-round-down|ACPI: LPSS: Do not let an LPSS device add more latency
lpss-restore|ACPI: LPSS: Write the LTR again when the device has been powered up
callback-mutex|PM: QoS: Run latency tolerance callbacks under a per-device lock
lpss-powered|ACPI: LPSS: Write the LTR registers only while the device is powered'

"$TOP/tree/mkupstream.sh" --apply-only
dir=$OUT/proof
wt=$CACHE/linux-proof
build=$BUILD/proof
rm -rf "$dir"
mkdir -p "$dir/proof" "$dir/module"
worktree_at "$wt" pristine

# boot COMMIT CASE: build the kernel of COMMIT and print "PROOF CASE pass:
# ..." or "PROOF CASE fail: ..." from the judge's line of the case, or a
# fail line saying why there is none.  Its standard input is /dev/null:
# QEMU reads its own, which is the list of fixes.
boot() {
	git -C "$wt" checkout -q --force "$1" || die "cannot check out $1 in $wt"
	log=$dir/$2-$(git -C "$wt" rev-parse --short=12 HEAD).log
	TARGETS="bzImage modules" "$TOP/kernel/build-kernel.sh" proof "$wt" \
		"$TOP/configs/test.config" "$TOP/configs/bench.config" >"$log.build" 2>&1 ||
		{ echo "PROOF $2 fail: the kernel does not build (see $log.build)"; return; }
	cp "$TOP/bench/module/pmqos_bench.c" "$TOP/kmod/test_lpss_driver.c" "$dir/module/"
	echo 'obj-m += pmqos_bench.o test_lpss_driver.o' >"$dir/module/Kbuild"
	kmake "$wt" "$build" M="$dir/module" modules >>"$log.build" 2>&1 ||
		{ echo "PROOF $2 fail: the test modules do not build (see $log.build)"; return; }
	cp "$TOP/guest/proof/run.sh" "$dir/module/pmqos_bench.ko" \
		"$dir/module/test_lpss_driver.ko" "$dir/proof/"
	# the judge fails the run when the case fails: expected before the fix
	judged=0
	"$TOP/qemu/run" proof --suite "$dir/proof" --append "proof_case=$2" \
		--log "$log" >"$log.judge" 2>&1 || judged=$?
	line=$(sed -n "s/^PASS guest: 1\.1 proof\/$2: /PROOF $2 pass: /p
		s/^FAIL guest: 1\.1 proof\/$2: /PROOF $2 fail: /p" "$log.judge")
	case $judged:$line in
	*:) echo "PROOF $2 fail: no result (see $log and $log.judge)" ;;
	0:* | *:*" fail: "*) echo "$line" ;;
	*) echo "PROOF $2 fail: the case passed but the run failed (see $log.judge)" ;;
	esac
}

shown=0 total=$(echo "$fixes" | wc -l)
echo "$fixes" | {
	while IFS='|' read -r case_ subject; do
		c=$(git -C "$TREE" log --format='%H %s' pristine..upstream |
			grep -F " $subject" | cut -d' ' -f1)
		[ "$(echo "$c" | wc -w)" = 1 ] || die "no single commit on upstream: $subject"
		echo "fix: $(git -C "$TREE" log -1 --format=%s "$c")"
		before=$(boot "$c~1" "$case_" </dev/null)
		after=$(boot "$c" "$case_" </dev/null)
		echo "  before: ${before#PROOF }"
		echo "  after:  ${after#PROOF }"
		case $before in *" fail: "*) ;; *) continue ;; esac
		case $after in *" pass: "*) shown=$((shown + 1)) ;; esac
	done
	echo "bisect proof: $shown of $total shown (fail before, pass after)"
	[ "$shown" = "$total" ]
}
