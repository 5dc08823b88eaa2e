#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The demo transcript (runs in the guest): the emulated LPSS device, then
# values written to power/pm_qos_latency_tolerance_us next to what the
# device was programmed with, read back from its registers through
# /dev/mem; a request held by a process while it runs (latency-tolerance
# hold, /dev/latency_tolerance), with the tool's list of holders; the
# same for the Endpoint of the test PCI host bridge, its
# Max Snoop/No-Snoop Latency read from debugfs.  The host prints what is
# between DEMO-BEGIN and DEMO-END (/init indents it: the host strips that).
# Every line of the transcript is either indented or one of its own (the
# "==" headings, "Kernel:", DEMO-*): none looks like KTAP at the level
# /init nests the script at.  The exit status is 1 if a step failed (a
# valid value rejected, a bad one accepted, a write or read of the test
# devices failing), else 0 (on a kernel without the series too).
# shellcheck source=../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
failed=0

# decode SW_LTR: "<mode> <requirement/latency>"
decode() {
	v=$(($1 & 0x3ff)) s=$((($1 >> 10) & 7))
	if [ $(($1 & 0x8000)) = 0 ]; then
		echo "no requirement"
	else
		echo "$((v << (5 * s))) ns"
	fi
}

show() {
	gen=$(lpss_reg 0x08) sw=$(lpss_reg 0x10)
	if [ $((gen & 4)) = 0 ]; then
		mode=auto allows="hardware decides (SW_LTR unused)"
	else
		mode=sw allows=$(decode "$sw")
	fi
	printf '  %-12s %-12s %-6s %-10s %s\n' "$1" "$(cat "$LPSS_ATTR")" "$mode" \
		"$(printf '0x%04x' $((sw & 0xffff)))" "$allows"
}

echo DEMO-BEGIN
echo "Kernel: $(uname -r)"
echo
echo "== The emulated Intel LPSS device (ACPI INT33C0, MMIO at $LPSS)"
if [ ! -d "$LPSS_DEV" ]; then
	echo "  $LPSS_DEV is missing: the LPSS device was not enumerated"
	echo DEMO-END
	exit 1
fi
echo "  $LPSS_DEV"
echo "  driver-visible LTR registers: $(cd "$LPSS_DEV/lpss_ltr" && echo *)"
printf '  GENERAL=0x%08x SW_LTR=0x%08x AUTO_LTR=0x%08x\n' \
	"$(lpss_reg 0x08)" "$(lpss_reg 0x10)" "$(lpss_reg 0x14)"
echo
echo "== power/pm_qos_latency_tolerance_us"
if [ ! -f "$LPSS_ATTR" ]; then
	echo "  not present: this kernel has no latency tolerance support"
	echo "  (the base tree; apply the series to get it)"
	echo DEMO-END
	exit 0
fi
printf '  %-12s %-12s %-6s %-10s %s\n' written "reads back" mode SW_LTR "device allows"
for v in 1 10 1000 1023 2999 3000 33000 100000 any auto 50; do
	if echo "$v" > "$LPSS_ATTR" 2>/dev/null; then
		show "$v"
	else
		printf '  %-12s rejected\n' "$v"
		failed=1
	fi
done
echo
echo "== Bad input is rejected and changes nothing"
for v in -1 10us AUTO 2147483648; do
	err=$( (echo "$v" > "$LPSS_ATTR") 2>&1 | sed 's/.*: //')
	printf '  %-12s -> %s; still reads %s\n' "$v" "${err:-accepted}" "$(cat "$LPSS_ATTR")"
	[ -n "$err" ] || failed=1
done
echo auto > "$LPSS_ATTR" || failed=1
echo
echo "== A process holds a tolerance while it runs: latency-tolerance hold"
if ! command -v latency-tolerance >/dev/null || [ ! -c /dev/latency_tolerance ]; then
	echo "  no latency-tolerance tool or no /dev/latency_tolerance"
	failed=1
else
	dev=${LPSS_DEV##*/}
	echo "  \$ latency-tolerance hold $dev 50 -- sleep 2 &"
	latency-tolerance hold "$dev" 50 -- sleep 2 &
	hp=$!
	i=0
	while [ $(($(lpss_reg 0x08) & 4)) = 0 ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	printf '  %-12s %-12s %-6s %-10s %s\n' "" attribute mode SW_LTR "device allows"
	show "while held"
	echo "  \$ latency-tolerance list"
	latency-tolerance list | sed 's/^/    /'
	wait $hp || failed=1
	show "after exit"
	echo "  (the request ends with the process: also if it is killed)"
fi
echo
echo "== A PCIe Endpoint with LTR (the test host bridge, kmod/test_pcie_ltr_qos.c)"
EP=/sys/kernel/debug/test_pcie_ltr_qos/ep0
load_kmod test_pcie_ltr_qos || failed=1
if [ ! -r "$EP/name" ]; then
	echo "  no test PCI host bridge (test_pcie_ltr_qos.ko)"
	failed=1
else
	# A Max Latency word has no requirement bit: decode it as one with it
	read -r ep <"$EP/name" || failed=1
	read -r sn <"$EP/snoop" || failed=1
	read -r ns <"$EP/nosnoop" || failed=1
	echo "  $ep: firmware left Max Snoop $sn ($(decode $((0x8000 | sn))))," \
		"Max No-Snoop $ns ($(decode $((0x8000 | ns))))"
	printf '  %-12s %-10s %-14s %-10s %s\n' written snoop "allows" no-snoop allows
	for v in 1 100 1000 3000 5000 100000 any auto; do
		echo "$v" > "/sys/bus/pci/devices/$ep/$ATTR" || failed=1
		read -r sn <"$EP/snoop" || failed=1
		read -r ns <"$EP/nosnoop" || failed=1
		printf '  %-12s %-10s %-14s %-10s %s\n' "$v" "$sn" \
			"$(decode $((0x8000 | sn)))" "$ns" "$(decode $((0x8000 | ns)))"
	done
	echo "  (each register never above what firmware left in it)"
	# One component, one LTR: Function 1 has no LTR capability
	T=/sys/kernel/debug/test_pcie_ltr_qos
	read -r f0 <"$T/mf0/name" || failed=1
	read -r f1 <"$T/mf1/name" || failed=1
	echo 100 > "/sys/bus/pci/devices/$f1/$ATTR" || failed=1
	read -r sn <"$T/mf0/snoop" || failed=1
	echo "  $f1 (Function 1, no LTR capability) <- 100: Function 0 $f0" \
		"Max Snoop $sn ($(decode $((0x8000 | sn))))"
	echo auto > "/sys/bus/pci/devices/$f1/$ATTR" || failed=1
fi
echo
echo "== Who sets the latency tolerance: trace events"
T=/sys/kernel/tracing
load_test_module || failed=1
if [ ! -d "$CTL" ]; then
	echo "  no test module (pmqos_harness.ko)"
else
	for ev in dev_pm_qos_latency_tolerance dev_pm_qos_add_request; do
		echo 1 > "$T/events/power/$ev/enable" 2>/dev/null
	done
	: > "$T/trace" 2>/dev/null
	echo demo > "$CTL/add_target" || failed=1
	echo "  user space: echo 100 > .../demo/power/pm_qos_latency_tolerance_us"
	echo 100 > "$DEVS/demo/power/pm_qos_latency_tolerance_us" || failed=1
	echo "  kernel:     dev_pm_qos_add_request(demo, 50) (pmqos_harness)"
	echo "add 1 50" > "$CTL/demo/requests" || failed=1
	echo "  LPSS:       echo 30 > $LPSS_ATTR"
	echo 30 > "$LPSS_ATTR" || failed=1
	echo "  \$ grep dev_pm_qos $T/trace"
	grep dev_pm_qos "$T/trace" 2>/dev/null |
		sed -e 's/^ *//' -e 's/^[^:]*: //' -e 's/^/    /'
	for ev in dev_pm_qos_latency_tolerance dev_pm_qos_add_request; do
		echo 0 > "$T/events/power/$ev/enable" 2>/dev/null
	done
	echo auto > "$LPSS_ATTR" || failed=1
	echo demo > "$CTL/remove_target" || failed=1
fi
echo DEMO-END
exit "$failed"
