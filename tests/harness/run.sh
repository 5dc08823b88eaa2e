#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/harness/run.sh
#
# Host-only self-test of scripts/ktap-check.py against the logs in
# tests/harness/fixtures/: the good log must pass, each bad one must fail
# with the expected reason.  Prints KTAP and a final "N passed, M failed";
# exits non-zero on any failure.  Not a guest test: do not pack it.
# Env: KTAP_CHECK, the checker to test (default scripts/ktap-check.py; e.g.
# an older one from git show, to see the tests fail with it).
set -u

here=$(cd "$(dirname "$0")" && pwd)
check=${KTAP_CHECK:-$here/../../scripts/ktap-check.py}
fix=$here/fixtures
out=$(mktemp)
trap 'rm -f "$out"' EXIT

n=0
passed=0
failed=0

# expect WANT_RC PATTERN LOG [ARGS...]: run the checker on LOG, require exit
# status 0 (WANT_RC=0) or non-zero (WANT_RC=1) and PATTERN in its output.
expect() {
	want=$1 pattern=$2 log=$3
	shift 3
	n=$((n + 1))
	python3 "$check" "$@" "$fix/$log" >"$out" 2>&1
	rc=$?
	got=0
	[ "$rc" = 0 ] || got=1
	desc="$log ${*:+$* }-> rc $want, /$pattern/"
	if [ "$got" = "$want" ] && grep -q -e "$pattern" "$out"; then
		passed=$((passed + 1))
		echo "ok $n - $desc"
	else
		failed=$((failed + 1))
		echo "not ok $n - $desc (rc $rc)"
		sed 's/^/# /' "$out"
	fi
}

echo "KTAP version 1"
echo "# Subtest: harness"
echo "1..26"
expect 0 '^9 passed, 0 failed, 2 skipped$' good.log \
	--expect kunit --expect lpss_ltr --expect sysfs_abi
expect 0 '^PASS kunit: 2.1.3 ltr_encode/ltr_encode_round_down/33554432 ns$' \
	good.log
expect 1 '^FAIL harness: expected document nosuch not found$' good.log \
	--expect kunit --expect nosuch
expect 1 '^FAIL lpss_ltr: 2 write 1000 reads back 1000$' not-ok.log
expect 1 '^FAIL harness: lpss_ltr: no plan$' missing-plan.log
expect 1 '^FAIL harness: lpss_ltr: planned 3, got 2 results$' short-plan.log
expect 1 '^FAIL harness: lpss_ltr: result numbered 3 at line 5, expected 2$' \
	misnumbered.log
expect 1 '^FAIL harness: kernel report at line 39: WARNING: CPU: 0 PID: 1 at drivers/base/power/qos.c:123' \
	warning.log
expect 1 '^FAIL harness: GUEST-END missing' no-end.log
expect 0 '^9 passed, 0 failed, 2 skipped$' no-end.log --no-end
expect 1 '^FAIL kunit: 2.1.2 ltr_encode/ltr_encode_round_down/1000 ns$' \
	kunit-fail.log
expect 1 '^FAIL harness: kunit: subtest ltr_encode did not finish$' crash.log
expect 1 '^FAIL harness: kernel report at line 25: BUG: kernel NULL pointer' \
	crash.log
expect 1 '^FAIL harness: cannot read log' nonexistent.log
# qemu/init's line on a script that exited non-zero or timed out fails the
# run, naming the script, even though its plan is complete and passes
expect 1 '^FAIL harness: /tests/20-lpss-ltr/run.sh exited with status 2$' \
	exit-status.log
expect 1 '^FAIL harness: /tests/20-lpss-ltr/run.sh killed after 240 s timeout$' \
	timeout.log
# a document that skipped everything is counted as a skip, and fails when
# it is expected to run; so does one whose every case was skipped
expect 0 '^SKIP power_qos: 1..0 SKIP test_power_qos not available' skip-all.log
expect 0 '^2 passed, 0 failed, 1 skipped$' skip-all.log --expect lpss_ltr
expect 1 '^FAIL harness: expected document power_qos skipped all its cases$' \
	skip-all.log --expect lpss_ltr --expect power_qos
expect 1 '^FAIL harness: expected document lpss_ltr skipped all its cases$' \
	all-skipped.log --expect lpss_ltr --expect sysfs_abi
# a kernel report is one failure and is shown whole (to its end marker),
# raw, or decoded by the tree's decode_stacktrace.sh with --vmlinux/--tree
expect 1 '^2 passed, 1 failed, 0 skipped$' warning-trace.log
expect 1 '^#   \[    1.500007\]  pm_qos_latency_tolerance_us_store+0x5a/0x120$' \
	warning-trace.log
expect 1 '^#   \[    1.500014\] ---\[ end trace 0000000000000000 \]---$' \
	warning-trace.log
expect 1 '^#   \[    1.500007\]  pm_qos_latency_tolerance_us_store+0x5a/0x120 drivers/base/power/sysfs.c:262 (vmlinux)$' \
	warning-trace.log --vmlinux "$fix/decode-tree/vmlinux" --tree "$fix/decode-tree"
# the patterns come from a file (qemu/kernel-reports, shipped to the guest
# as /etc/kernel-reports), "!" lines being benign
expect 1 '^FAIL harness: kernel report at line 38: random: crng init done$' \
	good.log --patterns "$fix/reports-custom"
expect 0 '^9 passed, 0 failed, 2 skipped$' good.log \
	--patterns "$here/../../qemu/kernel-reports"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
