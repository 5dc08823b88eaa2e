#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Hostile input to power/pm_qos_latency_tolerance_us under the debug
# kernel: every write below must fail with EINVAL and
# change neither the attribute nor the device's effective value (cb_last,
# cb_count of the test module's target), in three states: no request
# (auto), a user request of 123 under a kernel request of 500, and "any".
# Also: open+truncate without a write changes nothing, writes of more than
# a page are cut to one page and still rejected, and valid writes work
# afterwards.
# shellcheck source=../../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
use_test_module

# CLASS:INPUT, INPUT in printf %b notation: \0040 space, \0011 tab,
# \0000 NUL, \n newline, \r CR.  @NAME inputs are made by mkbig below.
INPUTS='
EINVAL:\n
EINVAL:\0000
EINVAL:\0040
EINVAL:\0040\0040\0040\0040
EINVAL:\0011
EINVAL:\0040\0011\n
EINVAL:\r\n
EINVAL:\n\n
EINVAL:\0040100
EINVAL:100\0040
EINVAL:100\0040\n
EINVAL:\0011100
EINVAL:100\0011
EINVAL:100\r
EINVAL:\n100
EINVAL:100\n\n
EINVAL:100\n100
EINVAL:\0000100
EINVAL:-1
EINVAL:--1
EINVAL:-100
EINVAL:-2147483648
EINVAL:-2147483649
EINVAL:-4294967196
EINVAL:0x
EINVAL:0b101
EINVAL:1e2
EINVAL:1E2
EINVAL:1.0
EINVAL:.5
EINVAL:1,000
EINVAL:1_000
EINVAL:100us
EINVAL:100\0040us
EINVAL:100ms
EINVAL:inf
EINVAL:nan
EINVAL:AUTO
EINVAL:Auto
EINVAL:aUtO
EINVAL:ANY
EINVAL:Any
EINVAL:auto\0040
EINVAL:\0040auto
EINVAL:autox
EINVAL:auto\0040junk
EINVAL:auto\n\n
EINVAL:auto100
EINVAL:any1
EINVAL:anyway
EINVAL:au
EINVAL:none
EINVAL:off
EINVAL:\0377
EINVAL:1\0377
EINVAL:\0357\0274\0221\0357\0274\0220\0357\0274\0220
EINVAL:\0331\0243
EINVAL:@A4K
EINVAL:@SPACES4K
EINVAL:@SPACES8K
EINVAL:2147483648
EINVAL:2147483650
EINVAL:2147483748
EINVAL:4294967295
EINVAL:4294967296
EINVAL:4294967396
EINVAL:21474836460
EINVAL:9223372036854775807
EINVAL:9223372036854775808
EINVAL:18446744073709551615
EINVAL:18446744073709551616
EINVAL:18446744073709551716
EINVAL:99999999999999999999999999\n
EINVAL:@NINES4K
'

# repeat N CHAR: N times CHAR (one byte; \0000 allowed), no newline
repeat() {
	head -c "$1" /dev/zero | tr '\0' "$(printf '%b' "$2")"
}

# mkbig NAME: write the bytes of input @NAME to $IN
mkbig() {
	case "$1" in
	A4K) repeat 4096 a ;;
	SPACES4K) { printf 1; repeat 4095 ' '; } ;;
	SPACES8K) { printf 100; repeat 8189 ' '; } ;;
	NINES4K) repeat 4096 9 ;;
	esac >"$IN"
}

# Human-readable form of an input for the result line.
readable() {
	printf '%s\n' "$1" | sed -e 's/\\0040/<sp>/g' -e 's/\\0011/<tab>/g' \
		-e 's/\\0000/<nul>/g' -e 's/\\n/<nl>/g' -e 's/\\r/<cr>/g' \
		-e 's/\\0\([0-7][0-7][0-7]\)/<\\\1>/g'
}

STATES="ha hn hy"

# read_snapshot NAME: SNAP = attribute and callback record of target NAME
# (no fork); snapshot NAME prints it
read_snapshot() {
	read_line "$DEVS/$1/$ATTR"
	rs_attr=$LINE
	read_callback_state "$1"
	SNAP="$rs_attr $CALLBACK_STATE"
}
snapshot() { read_snapshot "$1"; printf '%s\n' "$SNAP"; }

# check_rejected CLASS INPUT: write INPUT in every state; it must fail with
# CLASS and change nothing (says what it got if not)
check_rejected() {
	cr_ret=0
	case "$2" in
	@*) mkbig "${2#@}" ;;
	*) printf '%b' "$2" >"$IN" ;;
	esac
	for s in $STATES; do
		read_snapshot "$s"
		before=$SNAP
		write_from_file "$DEVS/$s/$ATTR" "$IN"
		if [ "$WRITE_RESULT" != "$1" ]; then
			diag "$s: got $WRITE_RESULT, expected $1"
			cr_ret=1
		fi
		read_snapshot "$s"
		if [ "$SNAP" != "$before" ]; then
			diag "$s: state changed from '$before' to '$SNAP'"
			cr_ret=1
		fi
	done
	return $cr_ret
}

n_inputs=0
for i in $INPUTS; do n_inputs=$((n_inputs + 1)); done

ktap_print_header
ktap_set_plan $((n_inputs + 5))

# The three states: auto; user 123 with kernel 500; any.
ok=0
add_target ha && add_target hn && add_target hy || ok=1
write_ok "$(target_attr hn)" 123 && write_ok "$(target_debugfs hn)/requests" "add 1 500" &&
	write_ok "$(target_attr hy)" any || ok=1
check_eq ha "$(snapshot ha)" "auto none/0" || ok=1
check_eq hn "$(snapshot hn)" "123 123/1" || ok=1
check_eq hy "$(snapshot hy)" "any $ANY/1" || ok=1
ktap_result $ok "setup: states auto, 123 (kernel 500) and any"

diag "$n_inputs hostile inputs, each in states: $STATES"
for i in $INPUTS; do
	class=${i%%:*}
	input=${i#*:}
	check_rejected "$class" "$input"
	ktap_result $? "'$(readable "$input")' gets $class, nothing changes"
done

# Opening for writing with O_TRUNC and no write(2) never calls ->store().
ok=0
for s in $STATES; do
	before=$(snapshot "$s")
	: >"$(target_attr "$s")" || ok=1
	dd if=/dev/null of="$(target_attr "$s")" 2>/dev/null || ok=1
	check_eq "$s after open/truncate" "$(snapshot "$s")" "$before" || ok=1
done
ktap_result $ok "open with O_TRUNC and an empty dd change nothing"

# A page of digits is parsed in full: 4096 bytes reach ->store().  4095
# zeros and a 1 are octal 1 (kstrtos32() in base 0); cut short, they
# would be 0.
ok=0
repeat 4095 ' ' >"$IN"
check_eq "size of a 4095-byte input" "$(wc -c <"$IN")" 4095 || ok=1
{ repeat 4095 0; printf 1; } >"$IN"
write_from_file "$(target_attr ha)" "$IN"
check_eq "4095 zeros and a 1" "$WRITE_RESULT" OK || ok=1
check_eq ha "$(snapshot ha)" "1 1/1" || ok=1
echo auto >"$(target_attr ha)" || ok=1
ktap_result $ok "4096-byte number reaches the parser in full: 1"

# Still working: valid values after all that.
ok=0
write_ok "$(target_attr ha)" 0 && check_eq ha "$(snapshot ha)" "0 0/3" || ok=1
write_ok "$(target_attr hn)" 2147483646 && check_eq hn "$(snapshot hn)" "2147483646 500/2" || ok=1
write_ok "$(target_attr hy)" 'auto\n' && check_eq hy "$(snapshot hy)" "auto -1/2" || ok=1
ktap_result $ok "valid writes still work: 0, 2147483646, auto"

finish_with_removal_check
