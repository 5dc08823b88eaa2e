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
# shellcheck source=../../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
use_test_module

SLOW_MS=3000
DRV=$TEST_DRV

# write_in_background TAG FILE TEXT: write TEXT to FILE in the
# background; the result (OK or the error name) goes to $TMP/TAG once done
write_in_background() {
	{
		if { echo "$3" >"$2"; } 2>"$TMP/err.$1"; then
			echo OK >"$TMP/$1"
		else
			write_result_from_file "$TMP/err.$1"
			echo "$WRITE_RESULT" >"$TMP/$1"
		fi
	} &
}

# background_result TAG: print the result of write_in_background TAG
background_result() { line_of "$TMP/$1"; }

# during NAME TAG FILE TEXT: write TEXT to FILE; its result and whether the
# call of NAME's callback that was sleeping before still slept after it
# (the same number of calls had ended) are appended to $TMP/during, how
# long it took (for the log) to $TMP/times
during() {
	read_line "$CTL/$1/cb_count"
	d_count=$LINE
	timed_write "$3" "$4"
	echo "$2 $TIMED_MS ms" >>"$TMP/times"
	d_busy=no
	callback_sleeping "$1" && read_line "$CTL/$1/cb_count" && [ "$LINE" = "$d_count" ] && d_busy=yes
	echo "$2 $TIMED_RESULT $d_busy" >>"$TMP/during"
}

# slow_target NAME USER [OPTIONS]: add target NAME (add_target OPTIONS)
# with a user space request of USER us and kernel request 1 of 300 us, its
# callback sleeping SLOW_MS from now on
slow_target() {
	add_target "$1" ${3:+"$3"} &&
		write_ok "$(target_attr "$1")" "$2" &&
		write_ok "$(target_debugfs "$1")/requests" "add 1 300" &&
		write_ok "$(target_debugfs "$1")/cb_delay_ms" "$SLOW_MS"
}

ktap_print_header
ktap_set_plan 8

# store
ok=0
add_target sb && add_target sc && slow_target sa 500 drv || ok=1
write_in_background store "$(target_attr sa)" 100
wait_callback_sleeping sa || ok=1
write_in_background del_sa "$(target_debugfs sa)/delete" 1
sleep 0.5
during sa add "$CTL/add_target" sd
during sa remove "$CTL/remove_target" sb
during sa chown "$(target_debugfs sc)/chown" "1000 1000"
forget_target sb
TARGETS="$TARGETS sd"
write_in_background unbind "$DRV/unbind" sa
wait
diag "while sa's callback slept: $(tr '\n' ';' <"$TMP/during") ($(tr '\n' ';' <"$TMP/times"))"
ktap_result $ok "store: sa's callback sleeps while a write waits for it and sa is deleted"
# device_change_owner() ends with -EINVAL for a device without a class,
# after it has changed the owner of the device's attributes
ok=0
check_eq "operations on other devices (result, sa still sleeping)" \
	"$(tr '\n' ';' <"$TMP/during")" "add OK yes;remove OK yes;chown EINVAL yes;" || ok=1
check_eq "owner of sc's attribute" "$(stat -c %u:%g "$(target_attr sc)")" 1000:1000 || ok=1
ktap_result $ok "store: another device added, one removed, one's owner changed while sa's removal waited"
ok=0
check_eq "pending write" "$(background_result store)" OK || ok=1
check_eq "delete" "$(background_result del_sa)" OK || ok=1
check_eq "unbind" "$(background_result unbind)" OK || ok=1
[ -e "$(target_sysfs sa)" ] && { diag "sa still in sysfs"; ok=1; }
ktap_result $ok "store: the write, the removal and the unbind all returned"
remove_target sa || ok=1

# remove
ok=0
slow_target ra 100 || ok=1
write_in_background hide "$(target_debugfs ra)/hide" 1
wait_callback_sleeping ra || ok=1
write_in_background del_ra "$(target_debugfs ra)/delete" 1
sleep 0.5
write_in_background remove "$(target_debugfs ra)/requests" "remove 1"
wait
ktap_result $ok "remove: ra's callback sleeps (hide), ra is deleted, its kernel request removed"
ok=0
check_eq "hide" "$(background_result hide)" OK || ok=1
check_eq "delete" "$(background_result del_ra)" OK || ok=1
case $(background_result remove) in
OK | ENODEV) ;;
*) diag "remove: $(background_result remove)"; ok=1 ;;
esac
check_eq "requests held" "$(cat "$(target_debugfs ra)/requests")" '' || ok=1
ktap_result $ok "remove: the request was freed after the call returned ($(background_result remove)), nothing left"
remove_target ra || ok=1

# hide
ok=0
slow_target ha 500 || ok=1
write_in_background update "$(target_debugfs ha)/requests" "update 1 200"
wait_callback_sleeping ha || ok=1
write_in_background hide "$(target_debugfs ha)/hide" 1
sleep 0.5
write_in_background del_ha "$(target_debugfs ha)/delete" 1
wait
ktap_result $ok "hide: ha's callback sleeps (update), its attribute is hidden, ha is deleted"
ok=0
check_eq "update" "$(background_result update)" OK || ok=1
check_eq "hide" "$(background_result hide)" OK || ok=1
check_eq "delete" "$(background_result del_ha)" OK || ok=1
read_callback_state ha
check_eq "callback's last value" "${CALLBACK_STATE%/*}" -1 || ok=1
ktap_result $ok "hide: all returned, the callback got -1 last"
remove_target ha || ok=1

finish_with_removal_check
