#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Concurrency and hot-unplug under the debug kernel, bounded in time
# (STRESS_SECONDS, default 20): three user-space writers on
# power/pm_qos_latency_tolerance_us (valid and invalid values), kernel
# requests added, updated and removed through the test module (own and
# ancestor requests), expose/hide, readers, and a target with a child
# removed ("keep" or not) and added again, all at once.  Removal stops
# after three quarters of the time, so that the re-added target collects
# requests for the final check.
# Every operation may only fail the way the race allows (the file or
# device is gone, the request ID is in use or unknown, invalid input).
# Afterwards, for every target, the callback's last value is the minimum
# of its live requests (user and kernel), or -1 (auto) without requests,
# and nothing leaked.  STRESS_SECONDS is read from the environment only.
# shellcheck source=../../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
use_test_module

DURATION=${STRESS_SECONDS:-20}
STOP=$TMP/stop
STOP_UNPLUG=$TMP/stop-unplug
GRACE=120

# Targets: sa; sp with sc (no callback, for ancestor requests on sp);
# hx with hc (ancestor requests on hx), both removed and re-added all along.
# D_*: their debugfs directories; S_*: their devices in sysfs.
D_sa=$CTL/sa D_sp=$CTL/sp D_sc=$CTL/sc D_hx=$CTL/hx D_hc=$CTL/hc
S_sa=$DEVS/sa S_sp=$DEVS/sp S_sc=$DEVS/sp/sc S_hx=$DEVS/hx S_hc=$DEVS/hx/hc

# random_below N: RAND = pseudo-random number in 0..N-1 (per-worker SEED)
random_below() {
	SEED=$(((SEED * 1103515245 + 12345) % 2147483648))
	RAND=$((SEED / 65536 % $1))
}

# pick WORD...: P = one of the words
pick() {
	random_below $#
	shift "$RAND"
	P=$1
}

# echo_to_file FILE TEXT: echo TEXT to FILE with the shell builtin (no fork);
# WRITE_RESULT = OK or the error name.  A file that has gone gives ENOENT, or
# EACCES if its directory is still there (ash opens with O_CREAT, and
# neither sysfs nor debugfs directories can create files); an open file
# whose device is being removed gives ENODEV (sysfs) or EIO (debugfs).
echo_to_file() {
	if { echo "$2" >"$1"; } 2>"$E"; then
		WRITE_RESULT=OK
	else
		write_result_from_file "$E"
	fi
}

# note ALLOWED WHAT: count WRITE_RESULT; record it unless it is in ALLOWED
note() {
	ops=$((ops + 1))
	[ "$WRITE_RESULT" = OK ] && oks=$((oks + 1))
	case " $1 " in
	*" $WRITE_RESULT "*) ;;
	*)
		bad=$((bad + 1))
		[ "$bad" -le 5 ] && echo "$2: $WRITE_RESULT" >>"$TMP/bad.$W"
		;;
	esac
}

# note_gone ALLOWED WHAT: note, also allowing the errors that say that the
# file or device has gone (see echo_to_file)
note_gone() { note "$1 ENOENT ENODEV EIO EACCES" "$2"; }

# worker_end: the result line of worker $W; its presence means done
worker_end() { echo "$ops $oks $bad" >"$TMP/res.$W"; }

# Valid values go through, invalid ones get EINVAL, unless the attribute
# is gone (hidden, or its device removed).
w_user() {
	W=user$1 SEED=$1 E=$TMP/err.$W ops=0 oks=0 bad=0
	while [ ! -e "$STOP" ]; do
		pick "$S_sa" "$S_sp" "$S_hx" "$S_hc"
		f=$P/$ATTR
		random_below 10
		case $RAND in
		0) v=auto ;;
		1) v=any ;;
		2) v=2147483646 ;;
		3) v=-5 ;;
		4) v=12x ;;
		*) random_below 1000; v=$RAND ;;
		esac
		echo_to_file "$f" "$v"
		case $v in -5 | 12x) want=EINVAL ;; *) want=OK ;; esac
		note_gone "$want" "write $v to $f"
	done
	worker_end
}

# Kernel requests (IDs 1-4) for sa, hx and hc; negative values get EINVAL.
w_kreq() {
	W=kreq SEED=7 E=$TMP/err.$W ops=0 oks=0 bad=0
	while [ ! -e "$STOP" ]; do
		pick "$D_sa" "$D_hx" "$D_hc"
		f=$P/requests
		random_below 4; id=$((RAND + 1))
		random_below 12
		case $RAND in
		0) v=-7 ;;
		1) v=$ANY ;;
		*) random_below 2000; v=$RAND ;;
		esac
		random_below 3
		case $RAND in
		0) c="add $id $v" ;;
		1) c="update $id $v" ;;
		2) c="remove $id" v=0 ;;
		esac
		echo_to_file "$f" "$c"
		case $v in -*) want=EINVAL ;; *) want=OK ;; esac
		note_gone "$want EEXIST" "$c to $f"
	done
	worker_end
}

# Ancestor requests (IDs 11-14) from sc (for sp) and hc (for hx).
w_anc() {
	W=ancestor SEED=11 E=$TMP/err.$W ops=0 oks=0 bad=0
	while [ ! -e "$STOP" ]; do
		pick "$D_sc" "$D_hc"
		f=$P/requests
		random_below 4; id=$((RAND + 11))
		random_below 3000; v=$RAND
		random_below 3
		case $RAND in
		0) c="ancestor $id $v" ;;
		1) c="update $id $v" ;;
		2) c="remove $id" ;;
		esac
		echo_to_file "$f" "$c"
		note_gone "OK EEXIST" "$c to $f"
	done
	worker_end
}

w_expose() {
	W=expose SEED=13 E=$TMP/err.$W ops=0 oks=0 bad=0
	while [ ! -e "$STOP" ]; do
		pick "$D_sa" "$D_sp" "$D_hx" "$D_hc"
		d=$P
		pick expose hide
		echo_to_file "$d/$P" 1
		note_gone OK "$P $d"
	done
	worker_end
}

# Remove hc and hx (alternately with "keep", so that the core has to drop
# their requests) and add them again; always a whole cycle, sometimes with
# a pause so that the others find them.
w_unplug() {
	W=unplug SEED=17 E=$TMP/err.$W ops=0 oks=0 bad=0
	while [ ! -e "$STOP_UNPLUG" ]; do
		random_below 4
		[ "$RAND" = 0 ] && usleep 20000
		keep=
		[ $((ops % 8)) = 0 ] && keep=" keep"
		echo_to_file "$CTL/remove_target" "hc$keep"; note OK "remove hc$keep"
		echo_to_file "$CTL/remove_target" "hx$keep"; note OK "remove hx$keep"
		echo_to_file "$CTL/add_target" hx; note OK "add hx"
		echo_to_file "$CTL/add_target" "hc parent=hx"; note OK "add hc"
	done
	worker_end
}

# Reads every attribute of every target.
w_read() {
	W=read SEED=19 E=$TMP/err.$W ops=0 oks=0 bad=0
	while [ ! -e "$STOP" ]; do
		for ds in "$D_sa|$S_sa" "$D_sp|$S_sp" "$D_sc|$S_sc" \
				"$D_hx|$S_hx" "$D_hc|$S_hc"; do
			d=${ds%|*} s=${ds#*|}
			for f in "$s/$ATTR" "$d/cb_last" "$d/cb_count" \
					"$d/requests" "$d/last_ret"; do
				ops=$((ops + 1))
				{ read -r x <"$f"; } 2>/dev/null && oks=$((oks + 1))
			done
		done
	done
	: "$x"
	worker_end
}

WORKERS="user1 user2 user3 kreq ancestor expose unplug read"

# Value of requests for target $1 in callback terms, one a line: the user
# request (attribute) and every kernel request whose device is $1.
live_requests() {
	a=$(line_of "$(eval "printf '%s' \"\$S_$1\"")/$ATTR")
	case $a in
	any) echo "$ANY" ;;
	auto | '<missing>') ;;
	*) echo "$a" ;;
	esac
	for d in "$D_sa" "$D_sp" "$D_sc" "$D_hx" "$D_hc"; do
		cat "$d/requests"
	done | awk -v t="$1" '$3 == t { print $2 }'
}

# check_target NAME: cb_last is the minimum of the live requests, or -1
check_target() {
	d=$(eval "printf '%s' \"\$D_$1\"")
	vals=$(live_requests "$1")
	want=$(printf '%s\n' "$vals" |
		awk 'NF { if (m == "" || $1 + 0 < m + 0) m = $1 } END { print (m == "" ? -1 : m) }')
	got=$(line_of "$d/cb_last")
	diag "$1: requests [$(printf '%s' "$vals" | tr '\n' ' ')], callback last $got ($(line_of "$d/cb_count") calls)"
	[ "$got" = none ] && got=-1
	check_eq "$1 cb_last" "$got" "$want"
}

ktap_print_header
ktap_set_plan 16

ok=0
add_target sa && add_target sp && add_target sc "parent=sp nocb" && add_target hx && add_target hc "parent=hx" || ok=1
ktap_result $ok "setup: targets sa, sp/sc, hx/hc"

diag "running $WORKERS for ${DURATION}s"
w_user 1 & w_user 2 & w_user 3 &
w_kreq & w_anc & w_expose & w_unplug & w_read &
sleep $((DURATION * 3 / 4))
: >"$STOP_UNPLUG"
sleep $((DURATION - DURATION * 3 / 4))
: >"$STOP"

# Join, but do not wait forever for a worker stuck in the kernel.
waited=0
while [ $waited -lt $GRACE ]; do
	left=
	for w in $WORKERS; do [ -e "$TMP/res.$w" ] || left="$left $w"; done
	[ -z "$left" ] && break
	sleep 1
	waited=$((waited + 1))
done
if [ -n "$left" ]; then
	ktap_result 1 "workers finish within ${GRACE}s of the deadline (stuck:$left)"
	[ -w /proc/sysrq-trigger ] && echo w >/proc/sysrq-trigger
	# no clean-up: it could block on the stuck workers
	ktap_exit_fail_msg "giving up: workers stuck in the kernel"
fi
wait
ktap_result 0 "workers finished ${waited}s after the deadline"

total=0
for w in $WORKERS; do
	read -r ops oks bad <"$TMP/res.$w"
	total=$((total + ops))
	diag "$w: $ops operations, $oks succeeded, $bad unexpected results"
	[ -s "$TMP/bad.$w" ] && diag "$(cat "$TMP/bad.$w")"
	[ "$bad" = 0 ] && [ "$ops" -gt 0 ]
	ktap_result $? "$w: only errors the race allows"
done
diag "stress: $total operations in ${DURATION}s"

for t in sa sp hx hc; do
	check_target "$t"
	ktap_result $? "$t: callback last value is the minimum of the live requests"
done

ok=0
check_eq "sc cb_last" "$(line_of "$D_sc/cb_last")" none || ok=1
remove_all_targets || ok=1
check_eq leaked_requests "$(line_of "$CTL/leaked_requests")" 0 || ok=1
for d in "$D_sa" "$D_sp" "$D_hx" "$S_sa" "$S_sp" "$S_hx"; do
	[ -e "$d" ] && { diag "$d still present"; ok=1; }
done
ktap_result $ok "all targets removed, no leaked requests"

ok=0
add_target sa && write_ok "$(target_attr sa)" 42 && check_eq sa "$(callback_state sa)" 42/1 || ok=1
ktap_result $ok "a new target works after the stress"

finish_suite
