# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034 # the constants are for the guest scripts
# The helpers of every guest script (/init, guest/suites, guest/debug,
# guest/demo, guest/bench), installed as /lib/guest.sh by
# qemu/mkinitramfs.sh and sourced from there: the kernel command line, the
# emulated LPSS device's registers, KTAP output, writes that report errno,
# the test_power_qos targets (lib/test_power_qos.c in the kernel tree).
# Sourcing it only sets constants and defines functions.  POSIX sh for
# busybox.
# (The kernel's own selftest, tools/testing/selftests/power_qos, keeps its
# helpers to itself: it runs from a copy of its directory alone.)

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
# AUTO_LTR 0x14 from there).
LPSS=$(cmdline_arg lpss_base) || LPSS=
LPSS_DEV=/sys/bus/platform/devices/INT33C0:00
ATTR=power/pm_qos_latency_tolerance_us
LPSS_ATTR=$LPSS_DEV/$ATTR
# reg OFFSET: the private register at OFFSET, read through /dev/mem;
# setreg OFFSET VALUE writes it
reg() {
	[ -n "$LPSS" ] || { echo "no-lpss_base-on-the-kernel-command-line"; return 1; }
	devmem $((LPSS + 0x800 + $1)) 32
}
setreg() {
	[ -n "$LPSS" ] || return 1
	devmem $((LPSS + 0x800 + $1)) 32 "$2"
}

# The test module's debugfs directory (its control files, a directory per
# target), its devices in sysfs, the debugfs listing of the latency
# tolerance requests, PM_QOS_LATENCY_ANY (passed to the callback for "any")
CTL=/sys/kernel/debug/test_power_qos
DEVS=/sys/devices/test_power_qos
LISTING=/sys/kernel/debug/pm_qos/latency_tolerance
ANY=2147483647
KTAP_N=0
KTAP_FAIL=0
TARGETS=

diag() { printf '%s\n' "$*" | sed 's/^/# /'; }

# ktap_begin NAME PLAN
ktap_begin() {
	echo "KTAP version 1"
	echo "# Subtest: $1"
	echo "1..$2"
}

# ktap_end NAME: the counts line of a document
ktap_end() { echo "# $1: pass:$((KTAP_N - KTAP_FAIL)) fail:$KTAP_FAIL"; }

# result STATUS DESC: STATUS 0 is ok
result() {
	KTAP_N=$((KTAP_N + 1))
	if [ "$1" = 0 ]; then
		echo "ok $KTAP_N $2"
	else
		echo "not ok $KTAP_N $2"
		KTAP_FAIL=$((KTAP_FAIL + 1))
	fi
}

# errno_of MSG: RES = symbolic name of an error message from dd (strerror
# text) or from ash's own redirection messages; OK if MSG is empty.
errno_of() {
	case "$1" in
	'') RES=OK ;;
	*"Invalid argument"*) RES=EINVAL ;;
	*"Numerical result out of range"* | *"Result not representable"*) RES=ERANGE ;;
	*"Permission denied"*) RES=EACCES ;;
	*"Cannot allocate memory"* | *"Out of memory"*) RES=ENOMEM ;;
	*"No such device"*) RES=ENODEV ;;
	*"Input/output error"* | *"I/O error"*) RES=EIO ;;
	*"No such file"* | *"no such file"* | *"nonexistent directory"*) RES=ENOENT ;;
	*"File exists"*) RES=EEXIST ;;
	*"busy"*) RES=EBUSY ;;
	*) RES="OTHER($1)" ;;
	esac
}

# err_name FILE: RES for the first line of FILE (no fork)
err_name() {
	en_msg=
	read -r en_msg <"$1" 2>/dev/null
	errno_of "$en_msg"
}

# wr_raw FILE INFILE: write the bytes of INFILE to FILE in one write(2)
# (at most 16 KiB); RES is OK or the error name.
wr_raw() {
	if dd if="$2" of="$1" bs=16384 conv=notrunc >/dev/null 2>"$ERR"; then
		RES=OK
	else
		err_name "$ERR"
	fi
}

# wr FILE VALUE: VALUE in printf %b notation (\0040 space, \0000 NUL, ...)
wr() {
	printf '%b' "$2" >"$IN"
	wr_raw "$1" "$IN"
}

# wr_expect FILE VALUE RESULT: write, check that RES is RESULT
wr_expect() {
	wr "$1" "$2"
	[ "$RES" = "$3" ] && return 0
	diag "writing '$2' to ${1#"$CTL"/}: got $RES, expected $3"
	return 1
}

wr_ok() { wr_expect "$1" "$2" OK; }

# rdv FILE: RD = the first line of FILE, or <missing> (no fork)
rdv() {
	RD='<missing>'
	[ -e "$1" ] && { read -r RD <"$1" || RD="<unreadable>"; }
}

# rd FILE: print the first line of FILE, or <missing>
rd() {
	rdv "$1"
	printf '%s\n' "$RD"
}

check_eq() {  # check_eq WHAT ACTUAL EXPECTED
	[ "$2" = "$3" ] && return 0
	diag "$1: got '$2', expected '$3'"
	return 1
}

# td NAME: debugfs directory of target NAME (cb_*, requests, expose, ...)
td() { printf '%s\n' "$CTL/$1"; }
# sd NAME: sysfs directory of the device of target NAME (set by mk)
sd() { eval "printf '%s\\n' \"\${SD_$1:-$DEVS/$1}\""; }
lt() { printf '%s\n' "$(sd "$1")/$ATTR"; }

# mk NAME [OPTIONS]: add target NAME ([A-Za-z0-9_]: it is used in a
# variable name) with OPTIONS "parent=P", "nocb"
mk() {
	mk_dir=$DEVS
	case "${2:-}" in
	*parent=*)
		mk_p=${2#*parent=}
		mk_dir=$(sd "${mk_p%% *}") ;;
	esac
	wr_ok "$CTL/add_target" "$1${2:+ $2}" || return 1
	# names are [A-Za-z0-9_-]: safe to expand inside eval
	eval "SD_$1=$mk_dir/$1"
	TARGETS="$TARGETS $1"
}

# rmt NAME [keep]: remove target NAME
rmt() {
	wr_ok "$CTL/remove_target" "$1${2:+ $2}" || return 1
	forget "$1"
}

# forget NAME: drop target NAME from the ones rm_all removes (it is gone)
forget() {
	fg_new=
	for fg_t in $TARGETS; do
		[ "$fg_t" = "$1" ] || fg_new="$fg_new $fg_t"
	done
	TARGETS=$fg_new
}

# Remove every target made by mk, last made first.
rm_all() {
	rm_rev=
	for rm_t in $TARGETS; do rm_rev="$rm_t $rm_rev"; done
	rm_ret=0
	for rm_t in $rm_rev; do rmt "$rm_t" || rm_ret=1; done
	return $rm_ret
}

# now_ms: NOW = uptime in ms (10 ms resolution, no fork)
now_ms() {
	read -r nm_up _ </proc/uptime
	NOW=$(((${nm_up%.*} * 100 + 1${nm_up#*.} - 100) * 10))
}

# timed FILE TEXT: write TEXT to FILE (builtin echo, no fork); MS = how
# long it took, T_RES = OK or the error name
timed() {
	now_ms
	t_0=$NOW
	if { echo "$2" >"$1"; } 2>"$ERR"; then T_RES=OK; else err_name "$ERR"; T_RES=$RES; fi
	now_ms
	MS=$((NOW - t_0))
}

# busy NAME: whether the callback of target NAME is sleeping (no fork)
busy() {
	rdv "$CTL/$1/cb_busy"
	[ "$RD" = 1 ]
}

# wait_busy NAME: wait until the callback of target NAME sleeps (at most
# 2 s); says so and fails if it does not
wait_busy() {
	wb_i=0
	while ! busy "$1" && [ "$wb_i" -lt 200 ]; do
		sleep 0.01
		wb_i=$((wb_i + 1))
	done
	busy "$1" || { diag "$1's callback did not start"; return 1; }
}

# cbv NAME: CB = "cb_last/cb_count" of target NAME (no fork)
cbv() {
	cbv_d=$CTL/$1
	rdv "$cbv_d/cb_last"
	CB=$RD
	rdv "$cbv_d/cb_count"
	CB=$CB/$RD
}

# cb_state NAME: print "cb_last/cb_count" of target NAME
cb_state() {
	cbv "$1"
	printf '%s\n' "$CB"
}

# Finish: remove leftover targets and temporary files; exit status.
# (The guest's /init prints the time each test took.)
finish() {
	rm_all >/dev/null 2>&1
	rm -rf "$TMP"
	[ "$KTAP_FAIL" = 0 ]
}

# The last result of a suite: remove every target, check that the test
# module holds no request any more; then the counts, and finish.
end_suite() {
	es_ok=0
	rm_all || es_ok=1
	check_eq leaked_requests "$(rd "$CTL/leaked_requests")" 0 || es_ok=1
	result $es_ok "targets removed, no leaked requests"
	ktap_end "$SUITE"
	finish
}

# use_test_module: for the suites that drive test_power_qos (SUITE set):
# temporary files (TMP, ERR, IN), or a failing document and exit if the
# module is missing
use_test_module() {
	TMP=$(mktemp -d /tmp/guesttest.XXXXXX)
	ERR=$TMP/err IN=$TMP/in
	[ -d "$CTL" ] && return 0
	ktap_begin "${SUITE:-debug}" 1
	echo "not ok 1 $CTL missing (CONFIG_TEST_PM_QOS_LATENCY_TOLERANCE)"
	exit 1
}
