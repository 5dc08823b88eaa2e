#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Permissions of power/pm_qos_latency_tolerance_us: mode 0644, owned by
# root; user "tester" (uid 1000) reads "auto", numbers and "any", but every
# write, valid or not, fails with EACCES and changes neither the attribute
# nor the device's effective value; the test module's control files are
# closed to it too.  Root still writes afterwards.
SUITE=power_qos_permissions
# shellcheck source=../../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
use_test_module

WRITES="50 0 auto any 2147483646 junk"

# as_tester CMD: run CMD as tester, its stderr in $ERR
as_tester() { su -s /bin/sh tester -c "$1" 2>"$ERR"; }

# tester_write FILE VALUE: RES is OK or the error name
tester_write() {
	if as_tester "printf '%s' '$2' | dd of='$1' conv=notrunc"; then
		RES=OK
	else
		err_name "$ERR"
	fi
}

n=0
for v in $WRITES; do n=$((n + 1)); done
ktap_begin "$SUITE" $((n + 7))

ok=0
mk pa && mk pb || ok=1
check_eq "mode and owner" "$(stat -c '%a %U %G' "$(lt pa)")" "644 root root" || ok=1
result $ok "$ATTR is 0644 root:root"

for v in auto 123 any; do
	ok=0
	[ "$v" = auto ] || wr_ok "$(lt pa)" "$v" || ok=1
	check_eq "tester reads" "$(as_tester "cat '$(lt pa)'")" "$v" || ok=1
	result $ok "tester reads '$v'"
done

# pa: user request any; pb: user 80 over a kernel request of 90
if ! wr_ok "$(lt pb)" 80 || ! wr_ok "$(td pb)/requests" "add 1 90"; then
	diag "setting up pb failed"
fi
for v in $WRITES; do
	ok=0
	for t in pa pb; do
		before="$(rd "$(lt "$t")") $(cb_state "$t")"
		tester_write "$(lt "$t")" "$v"
		check_eq "tester writes $v to $t" "$RES" EACCES || ok=1
		check_eq "$t after the write" "$(rd "$(lt "$t")") $(cb_state "$t")" "$before" || ok=1
	done
	result $ok "tester writing '$v' gets EACCES, nothing changes"
done

ok=0
for f in "$CTL/add_target" "$CTL/remove_target" "$(td pb)/requests" \
		"$(td pb)/expose" "$(td pb)/hide"; do
	tester_write "$f" "pb"
	check_eq "tester writes ${f#"$CTL"/}" "$RES" EACCES || ok=1
done
check_eq pb "$(cat "$(td pb)/requests") $(rd "$(lt pb)") $(cb_state pb)" "1 90 pb 80 80/1" || ok=1
result $ok "tester cannot use the test module's control files"

ok=0
wr_ok "$(lt pb)" auto && check_eq pb "$(cb_state pb)" 90/2 || ok=1
wr_ok "$(lt pa)" 7 && check_eq pa "$(cb_state pa)" 7/3 || ok=1
result $ok "root still writes: auto and 7"

end_suite
