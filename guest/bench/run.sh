#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench, in the guest (run by /init as /tests/bench/run.sh), on either
# kernel (and on the test kernel for bench_mode=pcie).  bench/bench.sh puts
# beside it: params (sourced, see below), pmqos_bench.ko built for this
# kernel, the static sysfs-write-bench (for bench_mode=pcie: params and the
# static hold-bench).
# The kernel command line picks what to do:
#   bench_mode=timing   user path (sysfs-write-bench; power/control as
#                       an untouched control) and kernel path
#                       (pmqos_bench.ko) costs, then operations on other
#                       devices while a callback sleeps (the module's
#                       isolation workload) and update rates on other
#                       devices while a callback is kept busy (its rate
#                       workload), one round
#   bench_mode=smp      updates from two CPUs at once on two devices (the
#                       module's smp workload alone), one round, in a boot
#                       of the two-CPU kernel with two CPUs
#   bench_mode=traffic  LTR fidelity sweep and register traffic, in a boot
#                       with the mmio-count QEMU plugin: every change is
#                       done between two marker reads that open and close
#                       one of the plugin's counting windows
#   bench_mode=pcie     PCIe LTR fidelity sweep, in a boot of the test
#                       kernel (its test host bridge, test_pcie_ltr_qos.ko of
#                       kmod/, loaded with the pcie_snoop= and pcie_nosnoop=
#                       of the command line; the LPSS device unused): every
#                       tolerance of the sweep, then auto and any, written to
#                       ep0's attribute, its Max Snoop/No-Snoop Latency
#                       register words read back after each (debugfs)
# Every result is a line starting with "BENCH ", parsed on the host by
# bench/report.py; a step that fails prints a "BENCH error" line and makes
# the exit status 1 (the other lines are still printed).
# shellcheck source=../../guest/lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
MARK_OPEN=0xF00 MARK_CLOSE=0xF04

# params (bench_mode=pcie uses BENCH_SWEEP and BENCH_HOLD_*): BENCH_COUNTS (request
# counts for the module), BENCH_ITERS (timed updates per measurement),
# BENCH_WRITES (timed sysfs writes per measurement), BENCH_REPS
# (measurements of each kind), BENCH_SLOW_MS (how long the slow callback of
# the isolation workload sleeps, default 500), BENCH_RATE_MS (each counting
# window of the rate workload, default 500), BENCH_BUSY_MS (how long the
# busy callback sleeps per call, default 10), BENCH_SWEEP (the tolerances
# of the fidelity sweep, us, ascending), BENCH_HOLD_MS and
# BENCH_HOLD_WRITES (bench_mode=pcie: bench/hold-bench.c's counting window
# and timed writes)
# shellcheck source=/dev/null # written by bench/bench.sh
. ./params

# bench_error TEXT: the "BENCH error TEXT" line of a step that failed;
# the exit status will be 1
failed=0
bench_error() {
	echo "BENCH error $*"
	failed=1
}

# mark OFFSET: read LPSS + OFFSET, a window marker of the mmio-count plugin
mark() { devmem $((LPSS + $1)) 32 >/dev/null; }

# bench_module ARG...: load pmqos_bench.ko with ARGs, pass its result lines
# on as BENCH lines, unload it; on failure its error lines, then ours
bench_module() {
	dmesg -c >/dev/null
	if insmod ./pmqos_bench.ko "$@"; then
		dmesg | sed -n -e 's/.*pmqos_bench: \(kpath .*\)/BENCH \1/p' \
			-e 's/.*pmqos_bench: \(isolation .*\)/BENCH \1/p' \
			-e 's/.*pmqos_bench: \(rate .*\)/BENCH \1/p' \
			-e 's/.*pmqos_bench: \(smp .*\)/BENCH \1/p'
		rmmod pmqos_bench || bench_error "rmmod pmqos_bench failed"
	else
		# the module's own error lines first: the report quotes the first
		dmesg | sed -n 's/.*\(pmqos_bench: .*error.*\)/BENCH error \1/p'
		bench_error "insmod failed"
		dmesg | grep pmqos_bench
	fi
}

mode=$(cmdline_arg bench_mode) || mode=

echo "BENCH kernel $(uname -r)"
if [ "$mode" != pcie ] && [ ! -f "$LPSS_ATTR" ]; then
	bench_error "$LPSS_ATTR is missing"
	exit 1
fi

# traffic LABEL VALUE: write VALUE inside a counting window
traffic() {
	mark $MARK_OPEN
	if echo "$2" >"$LPSS_ATTR" 2>/dev/null; then rc=0; else rc=1; fi
	mark $MARK_CLOSE
	echo "BENCH window $window $1 value=$2 rc=$rc"
	window=$((window + 1))
}

case "$mode" in
timing)
	for m in alternate same; do
		rep=0
		while [ $rep -lt "$BENCH_REPS" ]; do
			out=$(./sysfs-write-bench "$LPSS_ATTR" "$BENCH_WRITES" $m 10 20) ||
				bench_error "sysfs-write-bench $m failed"
			echo "BENCH $out rep=$rep"
			rep=$((rep + 1))
		done
	done
	# control: an attribute the series does not touch, same device, same way
	rep=0
	while [ $rep -lt "$BENCH_REPS" ]; do
		out=$(./sysfs-write-bench "${LPSS_ATTR%/*}/control" "$BENCH_WRITES" same on on) ||
			bench_error "sysfs-write-bench control failed"
		echo "BENCH $out rep=$rep" | sed 's/^BENCH upath same /BENCH upath control /'
		rep=$((rep + 1))
	done
	echo auto >"$LPSS_ATTR"
	bench_module counts="$BENCH_COUNTS" iters="$BENCH_ITERS" \
		reps="$BENCH_REPS" isolation=1 slow_ms="${BENCH_SLOW_MS:-500}" \
		rate=1 rate_ms="${BENCH_RATE_MS:-500}" busy_ms="${BENCH_BUSY_MS:-10}"
	;;
smp)
	echo "BENCH cpus $(grep -c '^processor' /proc/cpuinfo)"
	bench_module kpath=0 isolation=0 rate=0 smp=1 iters="$BENCH_ITERS" \
		reps="$BENCH_REPS"
	;;
traffic)
	window=0
	traffic auto-to-value 500
	for t in $BENCH_SWEEP; do
		traffic sweep "$t"
		sw=$(lpss_reg 0x10) gen=$(lpss_reg 0x08)
		echo "BENCH ltr t=$t rc=$rc sw=$sw gen=$gen"
	done
	traffic sweep 700
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		traffic same-value 700
	done
	traffic value-to-any any
	traffic any-to-auto auto
	traffic auto-again auto
	;;
pcie)
	# ep0 of the test host bridge: its PCI device name and register words
	ep=/sys/kernel/debug/test_pcie_ltr_qos/ep0
	if ! load_kmod test_pcie_ltr_qos "snoop=$(cmdline_arg pcie_snoop)" \
		"nosnoop=$(cmdline_arg pcie_nosnoop)"; then
		bench_error "cannot load test_pcie_ltr_qos.ko"
		exit 1
	fi
	if ! [ -f "$ep/name" ]; then
		bench_error "$ep is missing"
		exit 1
	fi
	read -r name <"$ep/name"
	attr=/sys/bus/pci/devices/$name/$ATTR
	if ! [ -f "$attr" ]; then
		bench_error "$attr is missing"
		exit 1
	fi
	for t in $BENCH_SWEEP auto any; do
		if echo "$t" >"$attr" 2>/dev/null; then
			read -r snoop <"$ep/snoop"
			read -r nosnoop <"$ep/nosnoop"
			echo "BENCH pcie us=$t snoop=$snoop nosnoop=$nosnoop"
		else
			bench_error "pcie: writing $t to $attr failed"
		fi
	done
	echo auto >"$attr"
	# Requests held through /dev/latency_tolerance (bench/hold-bench.c)
	if ! [ -c /dev/latency_tolerance ]; then
		bench_error "no /dev/latency_tolerance"
	elif out=$(./hold-bench "$attr" "$BENCH_HOLD_MS" "$BENCH_HOLD_WRITES" 1 100 10000); then
		printf '%s\n' "$out" | sed 's/^/BENCH /'
	else
		bench_error "hold-bench failed"
	fi
	;;
*)
	bench_error "no bench_mode= on the kernel command line"
	exit 1
	;;
esac
echo "BENCH end"
exit "$failed"
