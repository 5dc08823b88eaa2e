# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Helpers for the debug-kernel guest tests (guest/debug/*/run.sh), sourced
# from their directory: KTAP output, writes that report errno, the
# test_power_qos targets (lib/test_power_qos.c in the kernel tree).
# POSIX sh for busybox.

CTL=/sys/devices/test_power_qos
ATTR=power/pm_qos_latency_tolerance_us
# PM_QOS_LATENCY_ANY, passed to the callback for "any"
# shellcheck disable=SC2034 # used by the tests
ANY=2147483647
TMP=$(mktemp -d /tmp/debugtest.XXXXXX)
ERR=$TMP/err
IN=$TMP/in
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

# td NAME: directory of target NAME (set by mk)
td() { eval "printf '%s\\n' \"\${TD_$1:-$CTL/$1}\""; }
lt() { printf '%s\n' "$(td "$1")/$ATTR"; }

# mk NAME [OPTIONS]: add target NAME ([A-Za-z0-9_]: it is used in a
# variable name) with OPTIONS "parent=P", "nocb"
mk() {
	mk_dir=$CTL
	case "${2:-}" in
	*parent=*)
		mk_p=${2#*parent=}
		mk_dir=$(td "${mk_p%% *}") ;;
	esac
	wr_ok "$CTL/add_target" "$1${2:+ $2}" || return 1
	# names are [A-Za-z0-9_-]: safe to expand inside eval
	eval "TD_$1=$mk_dir/$1"
	TARGETS="$TARGETS $1"
}

# rmt NAME [keep]: remove target NAME
rmt() {
	wr_ok "$CTL/remove_target" "$1${2:+ $2}" || return 1
	rmt_new=
	for rmt_t in $TARGETS; do
		[ "$rmt_t" = "$1" ] || rmt_new="$rmt_new $rmt_t"
	done
	TARGETS=$rmt_new
}

# Remove every target made by mk, last made first.
rm_all() {
	rm_rev=
	for rm_t in $TARGETS; do rm_rev="$rm_t $rm_rev"; done
	rm_ret=0
	for rm_t in $rm_rev; do rmt "$rm_t" || rm_ret=1; done
	return $rm_ret
}

# cbv NAME: CB = "cb_last/cb_count" of target NAME (no fork, NAME must
# have been made by mk)
cbv() {
	cbv_d=$CTL/$1
	eval "cbv_d=\${TD_$1:-\$cbv_d}"
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
	echo "# $SUITE: pass:$((KTAP_N - KTAP_FAIL)) fail:$KTAP_FAIL"
	finish
}

[ -d "$CTL" ] || {
	echo "KTAP version 1"
	echo "# Subtest: ${SUITE:-debug}"
	echo "1..1"
	echo "not ok 1 $CTL missing (CONFIG_TEST_POWER_QOS)"
	exit 1
}
