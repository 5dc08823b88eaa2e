#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Permissions of power/pm_qos_latency_tolerance_us: mode 0644, owned by
# root; user "tester" (uid 1000) reads "auto", numbers and "any", but every
# write, valid or not, fails with EACCES and changes neither the attribute
# nor the device's effective value; the test module's control files are
# closed to it too.  Root still writes afterwards.
# shellcheck source=../../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
use_test_module

WRITES="50 0 auto any 2147483646 junk"

# as_tester CMD: run CMD as tester, its stderr in $ERR
as_tester() { su -s /bin/sh tester -c "$1" 2>"$ERR"; }

# tester_write FILE VALUE: WRITE_RESULT is OK or the error name
tester_write() {
	if as_tester "printf '%s' '$2' | dd of='$1' conv=notrunc"; then
		WRITE_RESULT=OK
	else
		write_result_from_file "$ERR"
	fi
}

n=0
for v in $WRITES; do n=$((n + 1)); done
ktap_print_header
ktap_set_plan $((n + 7))

ok=0
add_target pa && add_target pb || ok=1
check_eq "mode and owner" "$(stat -c '%a %U %G' "$(target_attr pa)")" "644 root root" || ok=1
ktap_result $ok "$ATTR is 0644 root:root"

for v in auto 123 any; do
	ok=0
	[ "$v" = auto ] || write_ok "$(target_attr pa)" "$v" || ok=1
	check_eq "tester reads" "$(as_tester "cat '$(target_attr pa)'")" "$v" || ok=1
	ktap_result $ok "tester reads '$v'"
done

# pa: user request any; pb: user 80 over a kernel request of 90
if ! write_ok "$(target_attr pb)" 80 || ! write_ok "$(target_debugfs pb)/requests" "add 1 90"; then
	diag "setting up pb failed"
fi
for v in $WRITES; do
	ok=0
	for t in pa pb; do
		before="$(line_of "$(target_attr "$t")") $(callback_state "$t")"
		tester_write "$(target_attr "$t")" "$v"
		check_eq "tester writes $v to $t" "$WRITE_RESULT" EACCES || ok=1
		check_eq "$t after the write" "$(line_of "$(target_attr "$t")") $(callback_state "$t")" "$before" || ok=1
	done
	ktap_result $ok "tester writing '$v' gets EACCES, nothing changes"
done

ok=0
for f in "$CTL/add_target" "$CTL/remove_target" "$(target_debugfs pb)/requests" \
		"$(target_debugfs pb)/expose" "$(target_debugfs pb)/hide"; do
	tester_write "$f" "pb"
	check_eq "tester writes ${f#"$CTL"/}" "$WRITE_RESULT" EACCES || ok=1
done
check_eq pb "$(cat "$(target_debugfs pb)/requests") $(line_of "$(target_attr pb)") $(callback_state pb)" "1 90 pb 80 80/1" || ok=1
ktap_result $ok "tester cannot use the test module's control files"

ok=0
write_ok "$(target_attr pb)" auto && check_eq pb "$(callback_state pb)" 90/2 || ok=1
write_ok "$(target_attr pa)" 7 && check_eq pa "$(callback_state pa)" 7/3 || ok=1
ktap_result $ok "root still writes: auto and 7"

finish_with_removal_check
