# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034 # the constants are for the guest scripts
# The helpers of every guest script (/init, guest/suites, guest/debug,
# guest/demo, guest/proof, guest/bench), installed as /lib/guest.sh by
# qemu/mkinitramfs.sh and sourced from there: the kernel command line, the
# emulated LPSS device's registers, KTAP output, writes that report errno,
# the targets of the harness's test module pmqos_harness (kmod/pmqos_harness.c).
# Sourcing it only sets constants and defines functions.  POSIX sh for
# busybox.
# (The kernel's own selftest, tools/testing/selftests/power_qos, keeps its
# helpers to itself: it runs from a copy of its directory alone.)
#
# KTAP: every KTAP line is printed by kselftest's ktap_helpers.sh (the
# kernel tree's tools/testing/selftests/kselftest/ktap_helpers.sh, in the
# image as /lib/ktap_helpers.sh).  guest/suite-runner.sh prints the
# "# Subtest:" line of a suite (named after its folder), indents the
# suite's output and prints its result line from the exit status.  A suite prints ktap_print_header,
# ktap_set_plan N, one result per case (ktap_result STATUS DESC, or
# ktap_test_pass/fail/skip DESC) and ends with ktap_finished (exit 0 if
# every planned case passed or was skipped, else 1) after its own clean-up:
# finish_suite does both.  ktap_helpers.sh echoes descriptions unquoted:
# they must hold no * ? [ (ktap_result turns globbing off all the same)
# and no runs of blanks (they collapse).
# shellcheck source=/dev/null # the kernel tree's file, not this repository's
. /lib/ktap_helpers.sh

# cmdline_arg NAME: the value of NAME=... on the kernel command line;
# false (and nothing printed) if it has none
cmdline_arg() {
	read -r ca_line </proc/cmdline || return 1
	for ca_arg in $ca_line; do
		case $ca_arg in "$1"=*) printf '%s\n' "${ca_arg#*=}"; return 0 ;; esac
	done
	return 1
}

# The emulated Intel LPSS device (ACPI INT33C0, qemu/ssdt.asl): its
# MMIO base is on the kernel command line (lpss_base=, qemu/run-qemu.sh
# reads it from the SSDT's #define, the one place it is written); its
# private registers are at LPSS + 0x800 (GENERAL 0x08, SW_LTR 0x10,
# AUTO_LTR 0x14 from there); MODE_SW is GENERAL's software LTR mode bit.
LPSS=$(cmdline_arg lpss_base) || LPSS=
GENERAL=0x08 SW_LTR=0x10 MODE_SW=4
LPSS_DEV=/sys/bus/platform/devices/INT33C0:00
ATTR=power/pm_qos_latency_tolerance_us
LPSS_ATTR=$LPSS_DEV/$ATTR
# lpss_reg OFFSET: print the private register at OFFSET, read through
# /dev/mem; lpss_set_reg OFFSET VALUE writes it
lpss_reg() {
	[ -n "$LPSS" ] || { echo "no-lpss_base-on-the-kernel-command-line"; return 1; }
	devmem $((LPSS + 0x800 + $1)) 32
}
lpss_set_reg() {
	[ -n "$LPSS" ] || return 1
	devmem $((LPSS + 0x800 + $1)) 32 "$2"
}
# lpss_ltr_state: "SW_LTR MODE", the low half of SW_LTR and GENERAL's
# software mode bit (MODE_SW: a tolerance is programmed, 0: the hardware
# decides)
lpss_ltr_state() {
	printf '0x%04x %d\n' $(($(lpss_reg $SW_LTR) & 0xffff)) \
		$(($(lpss_reg $GENERAL) & MODE_SW))
}

# The test module's debugfs directory (its control files, a directory per
# target), its devices in sysfs, its bus's driver (the "drv" targets'),
# PM_QOS_LATENCY_ANY (passed to the callback for "any").  The test module
# is the harness's kmod/pmqos_harness.c (load_test_module), not the kernel's
# lib/test_power_qos.c: a copy of it under names of its own.
CTL=/sys/kernel/debug/pmqos_harness
DEVS=/sys/devices/pmqos_harness
TEST_DRV=/sys/bus/pmqos_harness/drivers/pmh
ANY=2147483647
# The targets made by add_target and not removed yet, in order
TARGETS=

# diag TEXT: TEXT as KTAP diagnostic lines, "# " before each of its lines;
# what ktap_print_msg prints, but with TEXT kept as it is (no globbing, no
# blanks collapsed: it may hold kernel output)
diag() { printf '%s\n' "$*" | sed 's/^/# /'; }

# ktap_result STATUS DESC: the result line of the next case, ok if STATUS
# is 0 (ktap_test_pass), else not ok (ktap_test_fail); DESC is not globbed
ktap_result() {
	case $- in
	*f*) kr_glob=off ;;
	*) kr_glob=on; set -f ;;
	esac
	if [ "$1" = 0 ]; then
		ktap_test_pass "$2"
	else
		ktap_test_fail "$2"
	fi
	[ "$kr_glob" = off ] || set +f
}

# wait_for N CMD...: run CMD until it succeeds, N more times at most, 0.1 s
# apart; false if it never does
wait_for() {
	wf_n=$1
	shift
	until "$@"; do
		[ "$wf_n" -gt 0 ] || return 1
		wf_n=$((wf_n - 1))
		sleep 0.1
	done
}

# rpm_is DEV STATUS: the runtime PM status of the device DEV (its sysfs
# folder's power/runtime_status) is STATUS
rpm_is() { [ "$(cat "$1/power/runtime_status")" = "$2" ]; }

# rpm_wait DEV STATUS: wait up to 5 s for rpm_is DEV STATUS; false if not
rpm_wait() { wait_for 50 rpm_is "$1" "$2"; }

# lpss_rpm_wait STATUS: rpm_wait for the LPSS device
lpss_rpm_wait() { rpm_wait "$LPSS_DEV" "$1"; }

# lpss_while_down KO: while the acpi_lpss PM domain has the LPSS device
# powered down (runtime suspend, or no driver after ->dismiss()), a new
# latency tolerance must leave the LTR registers alone: on real hardware
# the write is lost, and acpi_lpss_restore_ctx() puts back at resume what
# it saved at suspend.  It must be written when the device is powered up
# again, by ->activate() too.  KO is kmod/test_lpss_driver.ko, a driver that does runtime
# PM only; it is bound through driver_override, and unbound (the device
# left powered down) at the end.  Prints a line per check, "pass DESC" or
# "fail DESC".  The words (PCIe r6.0 sec 7.8.2.2, scale 2 = 1024 ns):
# 500 us 0x89e8 (488 x 1024 ns), 700 us 0x8aab (683 x 1024 ns).
lpss_while_down() {
	lwd_dev=${LPSS_DEV##*/} lwd_ctl=$LPSS_DEV/power/control
	lwd_drv=/sys/bus/platform/drivers/test_lpss_driver
	echo 500 >"$LPSS_ATTR"
	echo test_lpss_driver >"$LPSS_DEV/driver_override"
	insmod "$1" && lpss_rpm_wait suspended
	lwd_ok $? "a driver bound, the device runtime-suspended"
	echo 700 >"$LPSS_ATTR"
	lwd_word 0x89e8 "700 us while runtime-suspended: SW_LTR left alone"
	echo on >"$lwd_ctl" && lpss_rpm_wait active
	lwd_word 0x8aab "700 us after runtime resume: SW_LTR"
	echo auto >"$lwd_ctl" && lpss_rpm_wait suspended
	echo auto >"$LPSS_ATTR"
	[ $(($(lpss_reg $GENERAL) & MODE_SW)) = $MODE_SW ]
	lwd_ok $? "auto while runtime-suspended: GENERAL.SW left set"
	echo on >"$lwd_ctl" && lpss_rpm_wait active
	[ $(($(lpss_reg $GENERAL) & MODE_SW)) = 0 ]
	lwd_ok $? "auto after runtime resume: GENERAL.SW clear"
	echo 500 >"$LPSS_ATTR"
	echo "$lwd_dev" >"$lwd_drv/unbind"
	echo 700 >"$LPSS_ATTR"
	lwd_word 0x89e8 "700 us with the driver unbound: SW_LTR left alone"
	lpss_set_reg $SW_LTR 0	# as a power-off would leave it
	echo "$lwd_dev" >"$lwd_drv/bind"
	lwd_word 0x8aab "700 us, SW_LTR lost, the driver bound again: SW_LTR"
	echo auto >"$LPSS_ATTR"
	echo "$lwd_dev" >"$lwd_drv/unbind"
	rmmod test_lpss_driver
	echo >"$LPSS_DEV/driver_override"
}
lwd_ok() {
	if [ "$1" = 0 ]; then echo "pass $2"; else echo "fail $2"; fi
}
lwd_word() {
	lww_v=$(($(lpss_reg $SW_LTR) & 0xffff))
	[ $lww_v = $(($1)) ]
	lwd_ok $? "$2 $(printf '0x%04x' $lww_v), expected $1"
}

# suspend_cycle: every suspend and resume phase of the devices (the noirq
# ones too, where the PCI core saves and restores), pm_test=platform
suspend_cycle() {
	echo 1 >/sys/module/suspend/parameters/pm_test_delay 2>/dev/null
	if ! [ -w /sys/power/pm_test ] || ! grep -qw mem /sys/power/state; then
		return 1
	fi
	echo platform >/sys/power/pm_test
	sc_rc=1
	echo mem >/sys/power/state && sc_rc=0
	echo none >/sys/power/pm_test
	return $sc_rc
}

# load_kmod NAME [PARAM=VALUE...]: load the harness's test module NAME
# (kmod/, in the initramfs as /lib/kmod/NAME.ko) unless it is loaded;
# status 1, with insmod's message on standard error, if it cannot be
load_kmod() {
	lk_name=$1
	shift
	[ -d "/sys/module/$lk_name" ] && return 0
	insmod "/lib/kmod/$lk_name.ko" "$@"
}

# cannot_run REASON: for a suite that cannot run, instead of its plan: a
# plan of one case that fails with REASON; exits 1
cannot_run() {
	ktap_print_header
	ktap_set_plan 1
	ktap_result 1 "$1"
	ktap_finished
}

# write_result_from_msg MSG: WRITE_RESULT = symbolic name of an error
# message from dd (strerror text) or from ash's own redirection messages;
# OK if MSG is empty.
write_result_from_msg() {
	case "$1" in
	'') WRITE_RESULT=OK ;;
	*"Invalid argument"*) WRITE_RESULT=EINVAL ;;
	*"Numerical result out of range"* | *"Result not representable"*) WRITE_RESULT=ERANGE ;;
	*"Permission denied"*) WRITE_RESULT=EACCES ;;
	*"Cannot allocate memory"* | *"Out of memory"*) WRITE_RESULT=ENOMEM ;;
	*"No such device"*) WRITE_RESULT=ENODEV ;;
	*"Input/output error"* | *"I/O error"*) WRITE_RESULT=EIO ;;
	*"No such file"* | *"no such file"* | *"nonexistent directory"*) WRITE_RESULT=ENOENT ;;
	*"File exists"*) WRITE_RESULT=EEXIST ;;
	*"busy"*) WRITE_RESULT=EBUSY ;;
	*) WRITE_RESULT="OTHER($1)" ;;
	esac
}

# write_result_from_file FILE: WRITE_RESULT for the first line of FILE (the
# error message of a write; no fork)
write_result_from_file() {
	wrf_msg=
	read -r wrf_msg <"$1" 2>/dev/null
	write_result_from_msg "$wrf_msg"
}

# write_from_file FILE INFILE: write the bytes of INFILE to FILE in one
# write(2) (at most 16 KiB); WRITE_RESULT is OK or the error name.
write_from_file() {
	if dd if="$2" of="$1" bs=16384 conv=notrunc >/dev/null 2>"$ERR"; then
		WRITE_RESULT=OK
	else
		write_result_from_file "$ERR"
	fi
}

# write_value FILE VALUE: write VALUE, in printf %b notation (\0040 space,
# \0000 NUL, ...), to FILE in one write(2); WRITE_RESULT is OK or the error
# name
write_value() {
	printf '%b' "$2" >"$IN"
	write_from_file "$1" "$IN"
}

# write_expect FILE VALUE RESULT: write_value, check that WRITE_RESULT is
# RESULT (says what it got if not)
write_expect() {
	write_value "$1" "$2"
	[ "$WRITE_RESULT" = "$3" ] && return 0
	diag "writing '$2' to ${1#"$CTL"/}: got $WRITE_RESULT, expected $3"
	return 1
}

# write_ok FILE VALUE: write_expect FILE VALUE OK
write_ok() { write_expect "$1" "$2" OK; }

# read_line FILE: LINE = the first line of FILE, <missing> if there is no
# FILE, <unreadable> if it cannot be read (no fork)
read_line() {
	LINE='<missing>'
	[ -e "$1" ] && { read -r LINE <"$1" || LINE="<unreadable>"; }
}

# line_of FILE: print the first line of FILE (read_line)
line_of() {
	read_line "$1"
	printf '%s\n' "$LINE"
}

# check_eq WHAT ACTUAL EXPECTED: ACTUAL is EXPECTED (says so if not)
check_eq() {
	[ "$2" = "$3" ] && return 0
	diag "$1: got '$2', expected '$3'"
	return 1
}

# target_debugfs NAME: print the debugfs directory of target NAME (cb_*,
# requests, expose, ...)
target_debugfs() { printf '%s\n' "$CTL/$1"; }
# target_sysfs NAME: print the sysfs directory of the device of target
# NAME (TARGET_SYSFS_NAME, set by add_target; else the top-level one)
target_sysfs() { eval "printf '%s\\n' \"\${TARGET_SYSFS_$1:-$DEVS/$1}\""; }
# target_attr NAME: print the latency tolerance attribute of target NAME
target_attr() { printf '%s\n' "$(target_sysfs "$1")/$ATTR"; }

# load_test_module: load the test module pmqos_harness (load_kmod) unless
# it is loaded; status 1 if it cannot be or $CTL is missing after all
# (prints nothing itself: insmod's message goes to standard error)
load_test_module() { load_kmod pmqos_harness && [ -d "$CTL" ]; }

# add_target NAME [OPTIONS]: add target NAME ([A-Za-z0-9_]: it is used in
# a variable name) with OPTIONS "parent=P", "nocb", "drv"; remember it
# in TARGETS.  Loads the test module first if need be.
add_target() {
	load_test_module || { diag "cannot load the test module pmqos_harness.ko (kmod/)"; return 1; }
	at_dir=$DEVS
	case "${2:-}" in
	*parent=*)
		at_p=${2#*parent=}
		at_dir=$(target_sysfs "${at_p%% *}") ;;
	esac
	write_ok "$CTL/add_target" "$1${2:+ $2}" || return 1
	# names are [A-Za-z0-9_]: safe to expand inside eval
	eval "TARGET_SYSFS_$1=$at_dir/$1"
	TARGETS="$TARGETS $1"
}

# remove_target NAME [keep]: remove target NAME, forget it
remove_target() {
	write_ok "$CTL/remove_target" "$1${2:+ $2}" || return 1
	forget_target "$1"
}

# forget_target NAME: drop target NAME from TARGETS (it is gone)
forget_target() {
	ft_new=
	for ft_t in $TARGETS; do
		[ "$ft_t" = "$1" ] || ft_new="$ft_new $ft_t"
	done
	TARGETS=$ft_new
}

# remove_all_targets: remove every target of TARGETS, last made first
remove_all_targets() {
	rat_rev=
	for rat_t in $TARGETS; do rat_rev="$rat_t $rat_rev"; done
	rat_ret=0
	for rat_t in $rat_rev; do remove_target "$rat_t" || rat_ret=1; done
	return $rat_ret
}

# now_ms: NOW_MS = uptime in ms (10 ms resolution, no fork)
now_ms() {
	read -r nm_up _ </proc/uptime
	NOW_MS=$(((${nm_up%.*} * 100 + 1${nm_up#*.} - 100) * 10))
}

# timed_write FILE TEXT: write TEXT to FILE (builtin echo, no fork);
# TIMED_MS = how long it took, TIMED_RESULT = OK or the error name
timed_write() {
	now_ms
	tw_0=$NOW_MS
	if { echo "$2" >"$1"; } 2>"$ERR"; then
		TIMED_RESULT=OK
	else
		write_result_from_file "$ERR"
		TIMED_RESULT=$WRITE_RESULT
	fi
	now_ms
	TIMED_MS=$((NOW_MS - tw_0))
}

# callback_sleeping NAME: whether the callback of target NAME is sleeping
# (cb_busy; no fork)
callback_sleeping() {
	read_line "$CTL/$1/cb_busy"
	[ "$LINE" = 1 ]
}

# wait_callback_sleeping NAME: wait until the callback of target NAME
# sleeps (at most 2 s); says so and fails if it does not
wait_callback_sleeping() {
	wcs_i=0
	while ! callback_sleeping "$1" && [ "$wcs_i" -lt 200 ]; do
		sleep 0.01
		wcs_i=$((wcs_i + 1))
	done
	callback_sleeping "$1" || { diag "$1's callback did not start"; return 1; }
}

# read_callback_state NAME: CALLBACK_STATE = "cb_last/cb_count" of target
# NAME, the last value passed to its callback and the number of calls (no
# fork)
read_callback_state() {
	rcs_d=$CTL/$1
	read_line "$rcs_d/cb_last"
	CALLBACK_STATE=$LINE
	read_line "$rcs_d/cb_count"
	CALLBACK_STATE=$CALLBACK_STATE/$LINE
}

# callback_state NAME: print "cb_last/cb_count" of target NAME
callback_state() {
	read_callback_state "$1"
	printf '%s\n' "$CALLBACK_STATE"
}

# finish_suite: remove the targets left and the temporary files, then
# ktap_finished: the totals line, exit status 0 if every planned case
# passed (or was skipped), else 1.  (/init prints how long the suite took.)
finish_suite() {
	remove_all_targets >/dev/null 2>&1
	rm -rf "$TMP"
	ktap_finished
}

# finish_with_removal_check: the last case of a suite: remove every target,
# check that the test module holds no request any more; then finish_suite
finish_with_removal_check() {
	fwrc_ok=0
	remove_all_targets || fwrc_ok=1
	check_eq leaked_requests "$(line_of "$CTL/leaked_requests")" 0 || fwrc_ok=1
	ktap_result $fwrc_ok "targets removed, no leaked requests"
	finish_suite
}

# use_test_module: for the suites that drive the test module, before their
# plan: load it (load_test_module), cannot_run if it cannot be; else
# temporary files TMP (a directory), ERR (the error message of a write), IN
# (the bytes to write)
use_test_module() {
	load_test_module || cannot_run "cannot load the test module pmqos_harness.ko (kmod/)"
	TMP=$(mktemp -d /tmp/guesttest.XXXXXX)
	ERR=$TMP/err IN=$TMP/in
}
