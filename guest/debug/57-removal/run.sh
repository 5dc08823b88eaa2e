#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Device removal while the device's callback runs.  A target's "delete"
# file calls device_del() and leaves the target's files working, so that
# these race with dev_pm_qos_constraints_destroy(), each where it happens:
#
# store:  a write to the attribute is waiting for the device's slow
#         callback when the device is deleted; meanwhile another device is
#         added, another removed and a third one changes owner, and each
#         is done while the callback still sleeps (removing the device
#         drains the attribute, which must not hold a global lock); then
#         the driver is unbound: its remove() frees the data the callback
#         uses, after clearing the callback, which must wait for it.
# remove: hiding the attribute runs the callback (the user space request
#         goes); the device is deleted, then a kernel request of it is
#         removed and freed while removal waits for the callback.
# hide:   a kernel request update runs the callback; the attribute is
#         hidden, then the device deleted, both waiting for the callback.
#
# Use-after-free is what KASAN reports (kasan_multi_shot: every one); the
# judge fails the run on any report.  The "done while the callback still
# sleeps" checks are ordering checks, not timed ones (make bench times
# them).
SUITE=power_qos_removal
# shellcheck source=../../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
use_test_module

SLOW_MS=3000
DRV=/sys/bus/test_power_qos/drivers/tpq

# bg TAG FILE TEXT: write TEXT to FILE in the background; the result
# (OK or the error name) goes to $TMP/TAG once done
bg() {
	{
		if { echo "$3" >"$2"; } 2>"$TMP/err.$1"; then
			echo OK >"$TMP/$1"
		else
			err_name "$TMP/err.$1"
			echo "$RES" >"$TMP/$1"
		fi
	} &
}

# res TAG: the result of bg TAG
res() { rd "$TMP/$1"; }

# during NAME TAG FILE TEXT: write TEXT to FILE; its result and whether the
# call of NAME's callback that was sleeping before still slept after it
# (the same number of calls had ended) are appended to $TMP/during, how
# long it took (for the log) to $TMP/times
during() {
	rdv "$CTL/$1/cb_count"
	d_count=$RD
	timed "$3" "$4"
	echo "$2 $MS ms" >>"$TMP/times"
	d_busy=no
	busy "$1" && rdv "$CTL/$1/cb_count" && [ "$RD" = "$d_count" ] && d_busy=yes
	echo "$2 $T_RES $d_busy" >>"$TMP/during"
}

# slow_target NAME USER [OPTIONS]: add target NAME (mk OPTIONS) with a user
# space request of USER us and kernel request 1 of 300 us, its callback
# sleeping SLOW_MS from now on
slow_target() {
	mk "$1" ${3:+"$3"} &&
		wr_ok "$(lt "$1")" "$2" &&
		wr_ok "$(td "$1")/requests" "add 1 300" &&
		wr_ok "$(td "$1")/cb_delay_ms" "$SLOW_MS"
}

ktap_begin "$SUITE" 8

# store
ok=0
mk sb && mk sc && slow_target sa 500 drv || ok=1
bg store "$(lt sa)" 100
wait_busy sa || ok=1
bg del_sa "$(td sa)/delete" 1
sleep 0.5
during sa add "$CTL/add_target" sd
during sa remove "$CTL/remove_target" sb
during sa chown "$(td sc)/chown" "1000 1000"
forget sb
TARGETS="$TARGETS sd"
bg unbind "$DRV/unbind" sa
wait
diag "while sa's callback slept: $(tr '\n' ';' <"$TMP/during") ($(tr '\n' ';' <"$TMP/times"))"
result $ok "store: sa's callback sleeps while a write waits for it and sa is deleted"
# device_change_owner() ends with -EINVAL for a device without a class,
# after it has changed the owner of the device's attributes
ok=0
check_eq "operations on other devices (result, sa still sleeping)" \
	"$(tr '\n' ';' <"$TMP/during")" "add OK yes;remove OK yes;chown EINVAL yes;" || ok=1
check_eq "owner of sc's attribute" "$(stat -c %u:%g "$(lt sc)")" 1000:1000 || ok=1
result $ok "store: another device added, one removed, one's owner changed while sa's removal waited"
ok=0
check_eq "pending write" "$(res store)" OK || ok=1
check_eq "delete" "$(res del_sa)" OK || ok=1
check_eq "unbind" "$(res unbind)" OK || ok=1
[ -e "$(sd sa)" ] && { diag "sa still in sysfs"; ok=1; }
result $ok "store: the write, the removal and the unbind all returned"
rmt sa || ok=1

# remove
ok=0
slow_target ra 100 || ok=1
bg hide "$(td ra)/hide" 1
wait_busy ra || ok=1
bg del_ra "$(td ra)/delete" 1
sleep 0.5
bg remove "$(td ra)/requests" "remove 1"
wait
result $ok "remove: ra's callback sleeps (hide), ra is deleted, its kernel request removed"
ok=0
check_eq "hide" "$(res hide)" OK || ok=1
check_eq "delete" "$(res del_ra)" OK || ok=1
case $(res remove) in OK | ENODEV) ;; *) diag "remove: $(res remove)"; ok=1 ;; esac
check_eq "requests held" "$(cat "$(td ra)/requests")" '' || ok=1
result $ok "remove: the request was freed after the call returned ($(res remove)), nothing left"
rmt ra || ok=1

# hide
ok=0
slow_target ha 500 || ok=1
bg update "$(td ha)/requests" "update 1 200"
wait_busy ha || ok=1
bg hide "$(td ha)/hide" 1
sleep 0.5
bg del_ha "$(td ha)/delete" 1
wait
result $ok "hide: ha's callback sleeps (update), its attribute is hidden, ha is deleted"
ok=0
check_eq "update" "$(res update)" OK || ok=1
check_eq "hide" "$(res hide)" OK || ok=1
check_eq "delete" "$(res del_ha)" OK || ok=1
cbv ha
check_eq "callback's last value" "${CB%/*}" -1 || ok=1
result $ok "hide: all returned, the callback got -1 last"
rmt ha || ok=1

end_suite
