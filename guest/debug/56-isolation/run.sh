#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One slow device stalls nobody else.  Target ia's callback sleeps SLOW_MS
# (cb_delay_ms); while it sleeps, three operations on other devices are
# done, one sleep each: a latency tolerance request added for ib (its
# callback runs), a resume latency request of ic updated, and target id
# (with a latency tolerance request) removed.  Each must complete while
# ia's callback is still sleeping: had it waited for that callback, it
# could only return after the callback did.  Then the attribute of a
# device ie is hidden while ie's callback sleeps: the hide waits for the
# callback to drop ie's user space request, but holds no lock that exposing
# ib's attribute needs meanwhile.  Then ia itself is removed while its
# callback sleeps: that waits for the callback, and the callback's last
# value is the request's.
#
# This is an ordering test, not a timed one: the sleeps are seconds long so
# that a loaded host only shrinks the margin, and the durations printed are
# for the log.  How long these operations take is measured by `make bench`
# (its isolation workload).
# shellcheck source=../../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
use_test_module

SLOW_MS=4000

# during_slow VALUE FILE TEXT: while ia's callback sleeps (its request set
# to VALUE), time writing TEXT to FILE; BUSY = whether ia's callback was
# still sleeping afterwards
during_slow() {
	BUSY=0
	slow_start "$1" || { TIMED_MS=-1; TIMED_RESULT=none; return; }
	timed_write "$2" "$3"
	callback_sleeping ia && BUSY=1
	wait "$SLOW_PID"
}

# slow_start: update ia's request in the background, wait until its
# callback is sleeping (at most 2 s)
slow_start() {
	{ echo "update 1 $1" >"$(target_debugfs ia)/requests"; } 2>/dev/null &
	SLOW_PID=$!
	wait_callback_sleeping ia
}

ktap_print_header
ktap_set_plan 7

ok=0
add_target ia && add_target ib && add_target ic nocb && add_target id || ok=1
write_ok "$(target_debugfs ia)/requests" "add 1 100" || ok=1
write_ok "$(target_debugfs ic)/requests" "resume 1 100" || ok=1
write_ok "$(target_debugfs id)/requests" "add 1 100" || ok=1
write_ok "$(target_debugfs ia)/cb_delay_ms" "$SLOW_MS" || ok=1
slow_start 200 || ok=1
wait "$SLOW_PID"
ktap_result $ok "ia's callback sleeps $SLOW_MS ms"

during_slow 250 "$(target_debugfs ib)/requests" "add 1 300"
ms_b=$TIMED_MS res_b=$TIMED_RESULT busy_b=$BUSY
cb_b=$(callback_state ib)
during_slow 200 "$(target_debugfs ic)/requests" "update 1 50"
ms_c=$TIMED_MS res_c=$TIMED_RESULT busy_c=$BUSY
during_slow 250 "$CTL/remove_target" "id"
ms_d=$TIMED_MS res_d=$TIMED_RESULT busy_d=$BUSY
diag "while ia's callback slept: ib latency tolerance add $ms_b ms, ic resume latency update $ms_c ms, id removal $ms_d ms (ia still sleeping after each: $busy_b $busy_c $busy_d)"
forget_target id

ok=0
[ "$res_b" = OK ] && [ "$cb_b" = 300/1 ] && [ "$busy_b" = 1 ] || ok=1
ktap_result $ok "latency tolerance request of another device, its callback included, done while ia's callback slept ($res_b, $cb_b)"
ok=0
[ "$res_c" = OK ] && [ "$busy_c" = 1 ] || ok=1
ktap_result $ok "resume latency request of another device done while ia's callback slept ($res_c)"
ok=0
[ "$res_d" = OK ] && [ "$busy_d" = 1 ] && ! [ -e "$(target_sysfs id)" ] || ok=1
ktap_result $ok "removal of another device done while ia's callback slept ($res_d)"

# Hiding ie's attribute while ie's callback sleeps (run by an ancestor
# request of its child iec, so that no lock of the test module is held for
# ie): the hide waits for the callback, exposing ib's attribute does not.
# The callback sleeps HIDE_SLOW_MS: the shell polls twice (the callback
# started, the attribute gone, at most 2 s each) before it exposes ib's
# attribute, and the expose only counts if the callback still sleeps after
# it.
HIDE_SLOW_MS=$((SLOW_MS + 2000))
ok=0
add_target ie && add_target iec "nocb parent=ie" || ok=1
write_ok "$(target_attr ie)" 500 || ok=1
write_ok "$(target_debugfs ie)/cb_delay_ms" "$HIDE_SLOW_MS" || ok=1
{ echo "ancestor 1 100" >"$(target_debugfs iec)/requests"; } 2>/dev/null &
slow_pid=$!
wait_callback_sleeping ie || ok=1
{ echo 1 >"$(target_debugfs ie)/hide"; } 2>/dev/null &
hide_pid=$!
i=0
while [ -e "$(target_attr ie)" ] && [ "$i" -lt 200 ]; do
	sleep 0.01
	i=$((i + 1))
done
[ -e "$(target_attr ie)" ] && { diag "ie's attribute is still there"; ok=1; }
timed_write "$(target_debugfs ib)/expose" 1
busy=$(line_of "$(target_debugfs ie)/cb_busy")
wait "$hide_pid" || ok=1
wait "$slow_pid" || ok=1
diag "while ie's callback slept and its attribute was being hidden: ib's attribute exposed in $TIMED_MS ms ($TIMED_RESULT; ie still sleeping after: $busy)"
[ "$TIMED_RESULT" = OK ] && [ "$busy" = 1 ] || ok=1
check_eq "ie's callback after the hide" "$(callback_state ie)" 100/2 || ok=1
write_ok "$(target_debugfs ie)/cb_delay_ms" 0 || ok=1
remove_target iec && remove_target ie || ok=1
ktap_result $ok "another device's attribute exposed while the attribute of a device whose callback sleeps is being hidden"

# Removing ia waits for its own running callback, which still completes
ok=0
slow_start 300 || ok=1
timed_write "$CTL/remove_target" "ia keep"
busy=$(line_of "$CTL/ia/cb_busy")
wait "$SLOW_PID" 2>/dev/null
[ "$TIMED_RESULT" = OK ] && [ "$TIMED_MS" -ge $((SLOW_MS / 2)) ] && [ "$busy" = '<missing>' ] || ok=1
forget_target ia
ktap_result $ok "removal of ia waited for its own callback: $TIMED_MS ms ($TIMED_RESULT)"

finish_with_removal_check
