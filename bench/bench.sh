#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench: our latency tolerance against upstream's, side by side, in
# one run on this machine.  Builds two kernels with the same config
# (configs/test.config + configs/bench.config): "upstream" from the pristine
# linux-source-6.12, "ours" from pristine + upstream/ ($TREE, branch up), and the
# same two with two CPUs (+ configs/bench-smp.config); builds
# bench/module/pmqos_bench.ko against each, bench/sysfs-write-bench and the
# bench/mmio-count.c QEMU plugin, and the test kernel (recipe test: the
# series, with the test host bridge of kmod/); boots each kernel on the
# same QEMU rig:
#   - once with the plugin (bench_mode=traffic): LTR fidelity sweep and
#     register accesses per change;
#   - the test kernel once (bench_mode=pcie, ours only: mainline has no
#     PCIe LTR backend): the same sweep written to the test host bridge's
#     Endpoint ep0, its Max Snoop/No-Snoop Latency read back, firmware's
#     values (the ceiling) set to the largest latency the registers hold
#     (0x17ff: 1023 x 2^25 ns = 34.3 s, above the sweep) on the command
#     line; an initramfs with the guest script alone (the test kernel has
#     no module support);
#   - ROUNDS times without the plugin (bench_mode=timing, one CPU), the
#     two kernels taking turns (and turns about which goes first), for the
#     user and kernel path costs, isolation and update rates beside a busy
#     callback, each round with its own code layout (see relink below);
#     in each round, after those, the two-CPU kernels once each with
#     -smp 2 (bench_mode=smp, same order): updates from two CPUs at once;
# then bench/report.py prints the table (per-round ratios ours/upstream,
# their median and spread) and writes the plot.
# Everything goes to $OUT/bench/ (round R of kernel K: K/round-R.log and
# K/smp-R.log; the test kernel's boot: ours/pcie.log).  No pass/fail on
# timings; a guest run that fails is named after the report, and make
# bench exits non-zero.
# Boots run with norandmaps: one source of per-boot variance less for the
# user path.  Env: QUICK=1 (3 rounds, fewer request counts, iterations,
# sweep points (the PCIe sweep's too), shorter counting windows: a smoke
# test, the report says so and gives no verdict), ROUNDS=N (overrides the
# number of rounds: 9 by default), BENCH_SMP=0 (no two-CPU kernels and
# boots).
set -eu
. "$(dirname "$0")/../util/common.sh"

dir=$OUT/bench
if [ "${QUICK:-0}" = 1 ]; then
	rounds=${ROUNDS:-3} per_decade=5 quick=--quick
	params='BENCH_COUNTS=1,100,10000 BENCH_ITERS=5000 BENCH_WRITES=5000 BENCH_REPS=3 BENCH_RATE_MS=200 BENCH_HOLD_MS=300 BENCH_HOLD_WRITES=1000'
else
	rounds=${ROUNDS:-9} per_decade=20 quick=
	params='BENCH_COUNTS=1,10,100,1000,10000 BENCH_ITERS=20000 BENCH_WRITES=20000 BENCH_REPS=5 BENCH_RATE_MS=500 BENCH_HOLD_MS=1000 BENCH_HOLD_WRITES=5000'
fi
case "$rounds" in '' | *[!0-9]* | 0) die "ROUNDS must be a positive number" ;; esac
case "${BENCH_SMP:-1}" in 0 | 1) ;; *) die "BENCH_SMP must be 0 or 1" ;; esac

# The tolerances of the fidelity sweep, in us: every boundary of the LTR
# scales (1023 units of 1, 32, 1024, 32768 and 1048576 ns, and the units
# themselves), upstream's own (1023/1024 us: its 1 us scale is full;
# 2999/3000 us: its cut-off), then per_decade log-spaced points from 1 us to
# 10 s (2147483647 us is "any").
sweep=$({
	echo 0 1 2 32 33 1023 1024 1025 1047 1048 1049 2999 3000 3001 \
		32767 32768 33521 33522 33554 33555 1072693 1072694 \
		1073741 1073742 10000000 | tr ' ' '\n'
	awk -v p="$per_decade" 'BEGIN {
		for (i = 0; i <= 7 * p; i++)
			printf "%d\n", int(exp(log(10) * i / p) + 0.5)
	}'
} | sort -n -u | tr '\n' ' ')

rm -rf "$dir"
mkdir -p "$dir"
timings=$dir/timings.txt
: >"$timings"
# timed LABEL CMD...: run CMD, note its wall time
timed() {
	label=$1; shift
	t0=$(date +%s)
	"$@"
	echo "$label $(($(date +%s) - t0))" >>"$timings"
}

[ -d "$TREE/.git" ] || die "no kernel tree at $TREE (make tree)"

# kernel NAME: the kernel bench-NAME (util/common.sh's recipes), then
# pmqos_bench.ko against it and the initramfs, in $dir/NAME (NAME is
# upstream or ours; K-smp, the two-CPU kernel of K, goes to $dir/K/smp)
kernel() {
	name=$1 build=$BUILD/bench-$1
	case $name in
	*-smp) kdir=$dir/${name%-smp}/smp ;;
	*) kdir=$dir/$name ;;
	esac
	recipe "bench-$name" || die "no kernel bench-$name"
	src=$KSRC
	unlayout "$build"	# left by an interrupted run
	TARGETS="bzImage modules" timed "build-$name" \
		"$TOP/kernel/build-kernel.sh" "bench-$name" >/dev/null
	mkdir -p "$kdir/module" "$kdir/bench"
	cp "$TOP/bench/module/Kbuild" "$TOP/bench/module/pmqos_bench.c" "$kdir/module/"
	msg "building pmqos_bench.ko for $name"
	kmake "$src" "$build" M="$kdir/module" modules
	cp "$TOP/guest/bench/run.sh" "$kdir/module/pmqos_bench.ko" \
		"$dir/sysfs-write-bench" "$kdir/bench/"
	write_params >"$kdir/bench/params"
}

# write_params: the guest script's params file
write_params() {
	for p in $params; do echo "$p"; done
	echo "BENCH_SWEEP='$sweep'"
}

# The ceiling of ep0's Max Snoop and No-Snoop Latency in the bench_mode=pcie
# boot (firmware's values, test_pcie_ltr_qos.ko's snoop= and nosnoop=):
# scale 5, value 1023, the largest latency the registers hold (34.3 s):
# every tolerance of the sweep is below it, the encoder alone is measured
PCIE_CEILING=0x17ff

# pcie_kernel: the test kernel (recipe test, as make check builds it: a
# no-op when it is up to date) and the guest script with its params and
# hold-bench (no module), in $dir/ours/pcie
pcie_kernel() {
	TARGETS=bzImage timed build-test "$TOP/kernel/build-kernel.sh" test >/dev/null
	pdir=$dir/ours/pcie
	mkdir -p "$pdir/bench"
	cp "$TOP/guest/bench/run.sh" "$dir/hold-bench" "$pdir/bench/"
	write_params >"$pdir/bench/params"
}

msg "building the user space helper and the QEMU plugin"
gcc -static -O2 -Wall -o "$dir/sysfs-write-bench" "$TOP/bench/sysfs-write-bench.c"
gcc -static -O2 -Wall -I"$TREE/include/uapi" -o "$dir/hold-bench" "$TOP/bench/hold-bench.c"
gcc -shared -fPIC -O2 -Wall -fvisibility=hidden -o "$dir/mmio-count.so" \
	"$TOP/bench/mmio-count.c"
# Code layout.  Under QEMU's TCG what a function costs depends on where it
# lies in its 4 KiB page: a jump across a page boundary is not chained, it
# looks the next block up.  Two kernels differ in where every function
# after their first difference lies, so one build of each compares two
# layouts as much as two sources: identical code (power/control's store())
# measured up to 7% apart.  So each round R has its own layout: both
# kernels relinked with everything after .head.text moved by the same
# layout_pad R bytes (0 to 4096, steps of 4096 / ROUNDS, a multiple of the
# 16-byte function alignment), the rounds sampling layouts instead of
# keeping one.  Only the timing boots; traffic counts are exact whatever
# the layout, and the two-CPU rows are not close.
layout_pad() { echo $((($1 - 1) * 4096 / rounds / 16 * 16)); }
# the regular linker script of a build and its copy with a round's pad
lds=arch/x86/kernel/vmlinux.lds layout_lds=arch/x86/kernel/vmlinux-layout.lds

# relink NAME R: the image of kernel bench-NAME with round R's layout, in
# $dir/NAME/layout-R.bzImage: a copy of its linker script with the pad
# after .head.text, passed as KBUILD_LDS (vmlinux.o is not rebuilt)
relink() {
	build=$BUILD/bench-$1 pad=$(layout_pad "$2")
	out=$dir/$1/layout-$2.bzImage
	if [ "$pad" = 0 ]; then
		cp "$(bzimage "bench-$1")" "$out"
		return
	fi
	[ "$(grep -c 'KEEP(\*(\.head\.text))' "$build/$lds")" = 1 ] ||
		die "no single KEEP(*(.head.text)) in $build/$lds"
	sed "s/KEEP(\*(\.head\.text))/&\n  . += $pad;/" "$build/$lds" \
		>"$build/$layout_lds"
	timed "relink-$1-$2" env EXTRA_MAKE="KBUILD_LDS=$layout_lds" \
		TARGETS=bzImage "$TOP/kernel/build-kernel.sh" "bench-$1" >/dev/null
	cp "$(bzimage "bench-$1")" "$out"
	unlayout "$build"
}

# unlayout BUILD: make the next regular build of BUILD link with the regular
# script again (newer than the vmlinux linked with round R's)
unlayout() {
	if [ -f "$1/$layout_lds" ]; then
		touch "$1/$lds"
		rm -f "$1/$layout_lds"
	fi
}

kernel upstream
kernel ours
layouts=$dir/layouts.txt
: >"$layouts"
r=1
while [ "$r" -le "$rounds" ]; do
	relink upstream "$r"
	relink ours "$r"
	echo "$r $(layout_pad "$r")" >>"$layouts"
	r=$((r + 1))
done
pcie_kernel
if [ "${BENCH_SMP:-1}" = 1 ]; then
	kernel upstream-smp
	kernel ours-smp
fi

# boot NAME MODE LOG [QEMU_ARGS]: one boot of kernel NAME (upstream or
# ours) with guest/profiles/bench; bench_mode=smp boots its two-CPU kernel
# with two CPUs, bench_mode=pcie (ours) the test kernel with ep0's
# ceiling; bench_mode=timing the image of round $r's layout
boot() {
	msg "booting $1 ($2): $3"
	b_name=$1 b_mode=$2 b_log=$3 b_args=${4:-}
	case $b_mode in
	timing) set -- --kernel "bench-$b_name" --image "$dir/$b_name/layout-$r.bzImage" \
		--suite "$dir/$b_name/bench" ;;
	smp) set -- --kernel "bench-$b_name-smp" --cpus 2 --suite "$dir/$b_name/smp/bench" ;;
	pcie) set -- --kernel test --suite "$dir/$b_name/pcie/bench" --append \
		"pcie_snoop=$PCIE_CEILING pcie_nosnoop=$PCIE_CEILING" ;;
	*) set -- --kernel "bench-$b_name" --suite "$dir/$b_name/bench" ;;
	esac
	[ -z "$b_args" ] || set -- "$@" --qemu-args "$b_args"
	# a failed run costs its rows, not the others: named after the report
	"$TOP/qemu/run" bench "$@" --append "bench_mode=$b_mode" --log "$b_log" \
		>"$b_log.verdict" 2>&1 || echo "$b_log.verdict" >>"$dir/failed-runs"
}

t0=$(date +%s)
for k in upstream ours; do
	boot $k traffic "$dir/$k/traffic.log" \
		"-plugin $dir/mmio-count.so,base=$(lpss_base),out=$dir/$k/mmio.txt"
done
boot ours pcie "$dir/ours/pcie.log"
r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) = 1 ]; then order="upstream ours"; else order="ours upstream"; fi
	for k in $order; do
		boot "$k" timing "$dir/$k/round-$r.log"
	done
	if [ "${BENCH_SMP:-1}" = 1 ]; then
		for k in $order; do
			boot "$k" smp "$dir/$k/smp-$r.log"
		done
	fi
	r=$((r + 1))
done
echo "boots $(($(date +%s) - t0))" >>"$timings"

# the report's exit status counts (a log with an error line): not through tee
rc=0
# shellcheck disable=SC2086 # $quick is empty or one word
python3 "$TOP/bench/report.py" --rounds "$rounds" --timings "$timings" \
	--layouts "$layouts" $quick \
	"$dir" >"$dir/report.txt" || rc=$?
cat "$dir/report.txt"
[ "$rc" = 0 ] || die "bench/report.py found a problem (exit status $rc); see above"
[ ! -s "$dir/failed-runs" ] ||
	die "guest runs failed (their rows are missing above): $(tr '\n' ' ' <"$dir/failed-runs")"
