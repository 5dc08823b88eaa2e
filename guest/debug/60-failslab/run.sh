#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Allocation failure on the latency tolerance request paths, with failslab
# aimed by the stack trace filter (require-start/require-end = one
# function, found in /proc/kallsyms) and /proc/self/fail-nth: for
# N = 1, 2, ... the N-th slab allocation made under that function by the
# writing process fails.  Every try must either fail with ENOMEM and leave
# the device exactly as it was, or succeed with the right result; the
# sweep ends at the first try that succeeds with no failure injected (all
# allocations of the path covered).  Paths: first user request, user
# update (which must not allocate at all: it succeeds at the first try
# with no failure injected, under the filter that user_first proves
# hits), user request over a kernel request, first kernel request, first
# ancestor request, expose, and registering a device with a callback.
# Leaks are checked by the kmemleak test that runs last.
# shellcheck source=../../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
use_test_module

FS=/sys/kernel/debug/failslab
MAXN=64
TIMES0=1000000
PATHS="user_first user_update user_over_kernel kernel_first ancestor_first
expose add_device"

# range SYMBOL: RSTART and REND, the address range of a text symbol (up to
# the next symbol), from /proc/kallsyms; the symbol itself, else its only
# clone (SYMBOL.constprop.0, ...); fails unless exactly one matches.
range() {
	# shellcheck disable=SC2046 # two words or "- COUNT"
	set -- $(awk -v f="$1" '
		NR == FNR {
			if ($2 != "t" && $2 != "T")
				next
			if ($3 == f) { n++; s = $1 }
			else if (index($3, f ".") == 1 && $3 !~ /\.cold$/) { nc++; sc = $1 }
			next
		}
		FNR == 1 && n == 0 && nc == 1 { n = 1; s = sc }
		n == 1 && ("x" $1) > ("x" s) && (e == "" || ("x" $1) < ("x" e)) { e = $1 }
		END { if (n == 1 && e != "") print "0x" s, "0x" e; else print "-", n + 0 }' \
		/proc/kallsyms /proc/kallsyms)
	[ "$1" != - ] || { diag "$SYM: $2 matching text symbols in /proc/kallsyms"; return 1; }
	RSTART=$1 REND=$2
}

# nth_write N FILE VALUE: write VALUE (printf %b) to FILE with dd, failing
# the N-th slab allocation within the filter's range; WRITE_RESULT is OK or
# the error, INJ the number of failures injected (0 or 1).
nth_write() {
	printf '%b' "$3" >"$IN"
	echo "$TIMES0" >"$FS/times"
	# fail-nth is per task and survives exec; only allocations under the
	# aimed function count, so dd's own start-up does not
	if sh -c 'echo "$1" >/proc/self/fail-nth && exec dd if="$2" of="$3" bs=4096 conv=notrunc' \
			sh "$1" "$IN" "$2" >/dev/null 2>"$ERR"; then
		WRITE_RESULT=OK
	else
		write_result_from_file "$ERR"
	fi
	INJ=$((TIMES0 - $(cat "$FS/times")))
}

# Fresh target(s) named $@, parents first (removed first if present)
fresh() {
	f_rev=
	for f_t in "$@"; do f_rev="$f_t $f_rev"; done
	for f_t in $f_rev; do
		case " $TARGETS " in *" $f_t "*) remove_target "$f_t" || return 1 ;; esac
	done
	for f_t in "$@"; do
		case $f_t in
		fq) add_target fq "parent=fp nocb" ;;
		*) add_target "$f_t" ;;
		esac || return 1
	done
}

# Per path: SYM, prep (state before each try), do (the write, with fail-nth
# $n), state (what must not change on failure), done (check after success).
user_first_prep() { SYM=pm_qos_latency_tolerance_us_store; fresh fa; }
user_first_do() { nth_write "$n" "$(target_attr fa)" 100; }
user_first_state() { echo "$(line_of "$(target_attr fa)") $(callback_state fa)"; }
user_first_done() { check_eq fa "$(user_first_state)" "100 100/1"; }

user_update_prep() {
	SYM=pm_qos_latency_tolerance_us_store NOALLOC=1
	fresh fb && write_ok "$(target_attr fb)" 100
}
user_update_do() { nth_write "$n" "$(target_attr fb)" 200; }
user_update_state() { echo "$(line_of "$(target_attr fb)") $(callback_state fb)"; }
user_update_done() { check_eq fb "$(user_update_state)" "200 200/2"; }

user_over_kernel_prep() {
	SYM=pm_qos_latency_tolerance_us_store
	fresh fc && write_ok "$(target_debugfs fc)/requests" "add 1 300"
}
user_over_kernel_do() { nth_write "$n" "$(target_attr fc)" 100; }
user_over_kernel_state() { echo "$(line_of "$(target_attr fc)") $(callback_state fc)"; }
user_over_kernel_done() { check_eq fc "$(user_over_kernel_state)" "100 100/2"; }

# Aimed at the test module's handler of "requests" writes, because
# dev_pm_qos_add_request() may be a tail call (it is: into the function that
# records the owner), which leaves no trace on the stack.  The module's own
# allocations fail first (last_ret stays 0), then the API's (last_ret -12).
kernel_first_prep() { SYM=pmh_requests_write; fresh fd; }
kernel_first_do() { nth_write "$n" "$(target_debugfs fd)/requests" "add 1 50"; }
kernel_first_state() { echo "$(cat "$(target_debugfs fd)/requests") $(line_of "$(target_attr fd)") $(callback_state fd)"; }
kernel_first_done() { check_eq fd "$(kernel_first_state)" "1 50 fd auto 50/1"; }
kernel_first_failed() {
	read_line "$(target_debugfs fd)/last_ret"
	case $LINE in
	-12) API_FAILS=$((API_FAILS + 1)) ;;
	0) ;;
	*) diag "fd last_ret: got $LINE, expected 0 or -12"; return 1 ;;
	esac
}
kernel_first_end() {
	[ "$API_FAILS" -gt 0 ] || { diag "no failure inside the PM QoS API"; return 1; }
}

ancestor_first_prep() { SYM=dev_pm_qos_add_ancestor_request; fresh fp fq; }
ancestor_first_do() { nth_write "$n" "$(target_debugfs fq)/requests" "ancestor 1 30"; }
ancestor_first_state() { echo "$(cat "$(target_debugfs fq)/requests") $(line_of "$(target_attr fp)") $(callback_state fp)"; }
ancestor_first_done() { check_eq fp "$(ancestor_first_state)" "1 30 fp auto 30/1"; }
ancestor_first_failed() { check_eq "fq last_ret" "$(line_of "$(target_debugfs fq)/last_ret")" -12; }

expose_prep() {
	SYM=dev_pm_qos_expose_latency_tolerance
	fresh fe && write_ok "$(target_attr fe)" 70 && write_ok "$(target_debugfs fe)/hide" 1
}
expose_do() { nth_write "$n" "$(target_debugfs fe)/expose" 1; }
expose_state() { echo "$(line_of "$(target_attr fe)") $(callback_state fe)"; }
expose_done() {
	check_eq fe "$(expose_state)" "auto -1/2" &&
		check_eq "mode of $ATTR" "$(stat -c %a "$(target_attr fe)")" 644 &&
		write_ok "$(target_attr fe)" 60 && check_eq fe "$(expose_state)" "60 60/3"
}

# device_add() of a target with a callback: dpm_sysfs_add() adds the
# attribute; on failure the target must not exist.
add_device_prep() {
	SYM=dpm_sysfs_add
	case " $TARGETS " in *" fg "*) remove_target fg ;; esac
}
add_device_do() {
	nth_write "$n" "$CTL/add_target" fg
	# a top-level target: target_sysfs and target_attr find it without a
	# TARGET_SYSFS_fg
	[ "$WRITE_RESULT" = OK ] && TARGETS="$TARGETS fg"
}
add_device_state() {
	if [ -e "$DEVS/fg" ]; then echo present; else echo absent; fi
	if [ -e "$(target_debugfs fg)" ]; then echo present; else echo absent; fi
	line_of "$CTL/leaked_requests"
}
add_device_done() {
	check_eq fg "$(line_of "$(target_attr fg)") $(callback_state fg)" "auto none/0" &&
		write_ok "$(target_attr fg)" 5 && check_eq fg "$(callback_state fg)" 5/1
}

# sweep PATH: see the top of the file
sweep() {
	p=$1 n=0 nfail=0 ninj=0 bad=0 complete=0 API_FAILS=0 NOALLOC=0
	while [ $n -lt $MAXN ]; do
		n=$((n + 1))
		"${p}_prep" || { diag "try $n: preparing failed"; bad=1; break; }
		if [ $n = 1 ]; then
			range "$SYM" || { bad=1; break; }
			echo "$RSTART" >"$FS/require-start"
			echo "$REND" >"$FS/require-end"
			diag "$p: aiming at $SYM [$RSTART, $REND)"
		fi
		before=$("${p}_state")
		"${p}_do"
		ninj=$((ninj + INJ))
		case $WRITE_RESULT in
		OK)
			"${p}_done" || { diag "try $n: wrong state after success"; bad=1; }
			[ "$INJ" = 0 ] && { complete=1; break; }
			;;
		ENOMEM)
			nfail=$((nfail + 1))
			[ "$INJ" = 1 ] || { diag "try $n: ENOMEM without injection"; bad=1; }
			after=$("${p}_state")
			[ "$after" = "$before" ] ||
				{ diag "try $n: state changed from '$before' to '$after'"; bad=1; }
			if command -v "${p}_failed" >/dev/null; then
				"${p}_failed" || bad=1
			fi
			;;
		*)
			diag "try $n: $WRITE_RESULT (injected $INJ)"
			bad=1
			;;
		esac
	done
	echo 0 >"$FS/require-start"
	echo 18446744073709551615 >"$FS/require-end"
	diag "$p: $n tries, $ninj failures injected, $nfail writes failed with ENOMEM"
	[ $complete = 1 ] || { diag "$p: no clean success within $MAXN tries"; bad=1; }
	WHAT="every allocation failure gives ENOMEM and changes nothing"
	if [ "$NOALLOC" = 1 ]; then
		WHAT="succeeds without allocating memory"
		[ $ninj = 0 ] || { diag "$p: allocates memory, expected none"; bad=1; }
	else
		[ $nfail -gt 0 ] || { diag "$p: no write failed: the filter missed the path"; bad=1; }
	fi
	if command -v "${p}_end" >/dev/null; then
		"${p}_end" || bad=1
	fi
	return $bad
}

n_paths=0
for p in $PATHS; do n_paths=$((n_paths + 1)); done
ktap_print_header
ktap_set_plan $((n_paths + 2))

ok=0
for f in probability interval times space verbose task-filter ignore-gfp-wait \
		cache-filter stacktrace-depth require-start require-end; do
	[ -e "$FS/$f" ] || { diag "$FS/$f missing"; ok=1; }
done
[ -e /proc/self/fail-nth ] || { diag "/proc/self/fail-nth missing"; ok=1; }
if [ $ok = 0 ]; then
	echo 0 >"$FS/probability"
	echo 1 >"$FS/interval"
	echo 0 >"$FS/space"
	echo 1 >"$FS/verbose"
	echo N >"$FS/task-filter"
	echo N >"$FS/ignore-gfp-wait"
	echo N >"$FS/cache-filter"
	echo 32 >"$FS/stacktrace-depth"
fi
ktap_result $ok "failslab with stack trace filter and fail-nth available"
if [ $ok != 0 ]; then
	for p in $PATHS; do ktap_result 1 "$p: not run (no failslab)"; done
	ktap_result 1 "cleanup not run"
	finish_suite
fi

for p in $PATHS; do
	sweep "$p"
	ktap_result $? "$p: $WHAT"
done

echo Y >"$FS/ignore-gfp-wait"
echo 1 >"$FS/times"
finish_with_removal_check
