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
SUITE=power_qos_isolation
# shellcheck source=../../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
use_test_module

SLOW_MS=4000

# during_slow VALUE FILE TEXT: while ia's callback sleeps (its request set
# to VALUE), time writing TEXT to FILE; BUSY = whether ia's callback was
# still sleeping afterwards
during_slow() {
	BUSY=0
	slow_start "$1" || { MS=-1; T_RES=none; return; }
	timed "$2" "$3"
	busy ia && BUSY=1
	wait "$SLOW_PID"
}

# slow_start: update ia's request in the background, wait until its
# callback is sleeping (at most 2 s)
slow_start() {
	{ echo "update 1 $1" >"$(td ia)/requests"; } 2>/dev/null &
	SLOW_PID=$!
	wait_busy ia
}

ktap_begin "$SUITE" 7

ok=0
mk ia && mk ib && mk ic nocb && mk id || ok=1
wr_ok "$(td ia)/requests" "add 1 100" || ok=1
wr_ok "$(td ic)/requests" "resume 1 100" || ok=1
wr_ok "$(td id)/requests" "add 1 100" || ok=1
wr_ok "$(td ia)/cb_delay_ms" "$SLOW_MS" || ok=1
slow_start 200 || ok=1
wait "$SLOW_PID"
result $ok "ia's callback sleeps $SLOW_MS ms"

during_slow 250 "$(td ib)/requests" "add 1 300"
ms_b=$MS res_b=$T_RES busy_b=$BUSY
cb_b=$(cb_state ib)
during_slow 200 "$(td ic)/requests" "update 1 50"
ms_c=$MS res_c=$T_RES busy_c=$BUSY
during_slow 250 "$CTL/remove_target" "id"
ms_d=$MS res_d=$T_RES busy_d=$BUSY
diag "while ia's callback slept: ib latency tolerance add $ms_b ms, ic resume latency update $ms_c ms, id removal $ms_d ms (ia still sleeping after each: $busy_b $busy_c $busy_d)"
forget id

ok=0
[ "$res_b" = OK ] && [ "$cb_b" = 300/1 ] && [ "$busy_b" = 1 ] || ok=1
result $ok "latency tolerance request of another device, its callback included, done while ia's callback slept ($res_b, $cb_b)"
ok=0
[ "$res_c" = OK ] && [ "$busy_c" = 1 ] || ok=1
result $ok "resume latency request of another device done while ia's callback slept ($res_c)"
ok=0
[ "$res_d" = OK ] && [ "$busy_d" = 1 ] && ! [ -e "$(sd id)" ] || ok=1
result $ok "removal of another device done while ia's callback slept ($res_d)"

# Hiding ie's attribute while ie's callback sleeps (run by an ancestor
# request of its child iec, so that no lock of the test module is held for
# ie): the hide waits for the callback, exposing ib's attribute does not.
# The callback sleeps HIDE_SLOW_MS: the shell polls twice (the callback
# started, the attribute gone, at most 2 s each) before it exposes ib's
# attribute, and the expose only counts if the callback still sleeps after
# it.
HIDE_SLOW_MS=$((SLOW_MS + 2000))
ok=0
mk ie && mk iec "nocb parent=ie" || ok=1
wr_ok "$(lt ie)" 500 || ok=1
wr_ok "$(td ie)/cb_delay_ms" "$HIDE_SLOW_MS" || ok=1
{ echo "ancestor 1 100" >"$(td iec)/requests"; } 2>/dev/null &
slow_pid=$!
wait_busy ie || ok=1
{ echo 1 >"$(td ie)/hide"; } 2>/dev/null &
hide_pid=$!
i=0
while [ -e "$(lt ie)" ] && [ "$i" -lt 200 ]; do
	sleep 0.01
	i=$((i + 1))
done
[ -e "$(lt ie)" ] && { diag "ie's attribute is still there"; ok=1; }
timed "$(td ib)/expose" 1
busy=$(rd "$(td ie)/cb_busy")
wait "$hide_pid" || ok=1
wait "$slow_pid" || ok=1
diag "while ie's callback slept and its attribute was being hidden: ib's attribute exposed in $MS ms ($T_RES; ie still sleeping after: $busy)"
[ "$T_RES" = OK ] && [ "$busy" = 1 ] || ok=1
check_eq "ie's callback after the hide" "$(cb_state ie)" 100/2 || ok=1
wr_ok "$(td ie)/cb_delay_ms" 0 || ok=1
rmt iec && rmt ie || ok=1
result $ok "another device's attribute exposed while the attribute of a device whose callback sleeps is being hidden"

# Removing ia waits for its own running callback, which still completes
ok=0
slow_start 300 || ok=1
timed "$CTL/remove_target" "ia keep"
busy=$(rd "$CTL/ia/cb_busy")
wait "$SLOW_PID" 2>/dev/null
[ "$T_RES" = OK ] && [ "$MS" -ge $((SLOW_MS / 2)) ] && [ "$busy" = '<missing>' ] || ok=1
forget ia
result $ok "removal of ia waited for its own callback: $MS ms ($T_RES)"

end_suite
