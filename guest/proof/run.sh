#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The bisect proof's guest side (scripts/bisect-proof.sh): the one case named
# by proof_case= on the kernel command line, on the emulated INT33C0 (and,
# for callback-mutex, pmqos_bench.ko beside this script; for lpss-restore
# and lpss-powered, test_lpss_driver.ko).  Prints KTAP: a plan
# of one case, "ok 1 <case>: <what was seen>" or "not ok 1 <case>: <what
# was seen>"; exits 0 if it passed.
# Only public interfaces, so that it runs on every commit of the upstream
# form: the attribute, the registers through /dev/mem, the two modules.
# shellcheck source=../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
TMP=$(mktemp -d /tmp/proof.XXXXXX)
ERR=$TMP/err IN=$TMP/in
case_=$(cmdline_arg proof_case) || case_=

# say pass|fail DETAIL: the result of the case, "<case>: DETAIL"
say() {
	[ "$1" = pass ]
	ktap_result $? "$case_: $2"
}

# ltr_ns: NS = the snoop latency SW_LTR allows, in ns (LTR format: value
# bits 9:0, scale 12:10 with a unit of 2^(5*scale) ns, requirement bit 15);
# REQ = 1 when the requirement bit is set
ltr_ns() {
	ln_v=$(($(lpss_reg $SW_LTR) & 0xffff))
	REQ=$(((ln_v >> 15) & 1))
	NS=$(((ln_v & 0x3ff) << (5 * ((ln_v >> 10) & 7))))
}

# tolerate US...: write each tolerance; pass if SW_LTR requires at most it
tolerate() {
	t_ok=pass t_seen=
	for t_us in "$@"; do
		write_value "$LPSS_ATTR" "$t_us"
		ltr_ns
		t_seen="$t_seen $t_us us -> $NS ns (req $REQ, $WRITE_RESULT);"
		if [ "$WRITE_RESULT" != OK ] || [ "$REQ" != 1 ] || [ "$NS" -gt $((t_us * 1000)) ]; then
			t_ok=fail
		fi
	done
	say $t_ok "${t_seen# }"
}

# While device A's callback sleeps 500 ms, each operation on other devices
# (pmqos_bench.ko: a latency tolerance update, a resume latency update, a
# device removal) takes less than 100 ms
isolated() {
	if ! insmod ./pmqos_bench.ko kpath=0 isolation=1 rate=0 reps=1 slow_ms=500; then
		say fail "insmod pmqos_bench.ko failed"
		return
	fi
	rmmod pmqos_bench
	i_ok=pass i_seen=
	for i_op in lt_other resume_other remove_other; do
		i_ns=$(dmesg | sed -n "s/.*pmqos_bench: isolation op=$i_op idle=0 .* ns=\([0-9]*\) .*/\1/p" | tail -n 1)
		[ -n "$i_ns" ] || i_ns=999999999999
		i_seen="$i_seen $i_op $((i_ns / 1000)) us;"
		[ "$i_ns" -lt 100000000 ] || i_ok=fail
	done
	say $i_ok "while A's callback sleeps 500 ms:${i_seen%;}"
}

# With 900 us set, wipe SW_LTR and the mode bit behind the driver's back,
# then a suspend/resume cycle (pm_test=platform: every device phase, no
# sleep) must program them again; with auto set, software mode brought
# back behind its back (as a hibernation image's saved registers would)
# must be cleared by the next cycle; with 500 us set and the registers
# wiped, a driver's probe (->activate(), test_lpss_driver.ko) must
# program them again
restored() {
	echo 900 >"$LPSS_ATTR"
	lpss_set_reg $SW_LTR 0
	lpss_set_reg $GENERAL $(($(lpss_reg $GENERAL) & ~MODE_SW))
	echo 1 >/sys/module/suspend/parameters/pm_test_delay 2>/dev/null
	if ! [ -w /sys/power/pm_test ] || ! echo platform >/sys/power/pm_test; then
		say fail "no /sys/power/pm_test (CONFIG_PM_DEBUG)"
		return
	fi
	echo mem >/sys/power/state
	ltr_ns
	r_mode=$(($(lpss_reg $GENERAL) & MODE_SW))
	echo auto >"$LPSS_ATTR"
	lpss_set_reg $GENERAL $(($(lpss_reg $GENERAL) | MODE_SW))
	echo mem >/sys/power/state
	echo none >/sys/power/pm_test
	r_auto=$(($(lpss_reg $GENERAL) & MODE_SW))
	echo 500 >"$LPSS_ATTR"
	lpss_set_reg $SW_LTR 0
	lpss_set_reg $GENERAL $(($(lpss_reg $GENERAL) & ~MODE_SW))
	echo test_lpss_driver >"$LPSS_DEV/driver_override"
	insmod ./test_lpss_driver.ko
	r_probe=$(($(lpss_reg $SW_LTR) & 0xffff))
	rmmod test_lpss_driver
	r_seen="after resume: $NS ns (req $REQ), mode bit $r_mode; auto, after resume: mode bit $r_auto; 500 us, after probe: $(printf '0x%04x' $r_probe)"
	# 500 us = 488 x 1024 ns: 0x89e8 (PCIe r6.0 sec 7.8.2.2)
	if [ "$REQ" = 1 ] && [ "$NS" -gt 0 ] && [ "$NS" -le 900000 ] && [ "$r_mode" = $MODE_SW ] && [ "$r_auto" = 0 ] && [ $r_probe = $((0x89e8)) ]; then
		say pass "$r_seen"
	else
		say fail "$r_seen"
	fi
}

# while_down N: the device powered down (guest/lib.sh's lpss_while_down,
# with test_lpss_driver.ko beside this script): its N checks must pass
while_down() {
	lpss_while_down ./test_lpss_driver.ko >"$TMP/down"
	wd_seen=$(sed 's/$/;/' "$TMP/down" | tr '\n' ' ')
	if grep -q '^fail' "$TMP/down" || [ "$(grep -c '^pass' "$TMP/down")" != "$1" ]; then
		say fail "$wd_seen"
	else
		say pass "$wd_seen"
	fi
}

ktap_print_header
ktap_set_plan 1
if ! [ -f "$LPSS_ATTR" ]; then
	say fail "$LPSS_ATTR is missing"
	rm -rf "$TMP"
	ktap_finished
fi
case $case_ in
lpss-round-down) tolerate 1000 2000 ;;
lpss-restore) restored ;;
callback-mutex) isolated ;;
lpss-powered) while_down 7 ;;
*) say fail "unknown case" ;;
esac
echo auto >"$LPSS_ATTR"
rm -rf "$TMP"
ktap_finished
