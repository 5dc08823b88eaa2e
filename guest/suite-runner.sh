#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the suites of a guest run as one KTAP document, "guest":
#   suite-runner.sh TIMEOUT DIR...
# guest/init runs it as /lib/suite-runner.sh on /tests/*/; the harness
# tests (tests/harness/run.sh) run it on the host under busybox.
# Each DIR with a run.sh is a subtest named after the folder (its
# basename, e.g. 20-lpss-ltr).  run.sh runs in DIR with stdin /dev/null,
# in a process group of its own; its output (standard output and error)
# is shown as it comes, indented by two spaces (the host answers some
# lines while the script waits).  The subtest's result line:
#   ok N NAME                     exit status 0
#   ok N NAME # SKIP              exit status 4 (kselftest's KSFT_SKIP)
#   not ok N NAME # TIMEOUT T s   killed after TIMEOUT seconds
#   not ok N NAME # exit=S        any other exit status S
# What a script leaves running is killed when it ends.  POSIX sh for
# busybox.

timeout_s=$1
shift
work=$(mktemp -d) || exit 1
fifo=$work/output

# run_suite N DIR: subtest N, the suite in DIR
run_suite() {
	rs_name=${2%/}
	rs_name=${rs_name##*/}
	echo "  # Subtest: $rs_name"
	rm -f "$fifo"
	mkfifo "$fifo" || { echo "not ok $1 $rs_name # no fifo"; return; }
	awk '{ print "  " $0; fflush() }' <"$fifo" &
	rs_reader=$!
	rs_t0=$(date +%s)
	(cd "$2" && exec setsid timeout "$timeout_s" sh ./run.sh) </dev/null >"$fifo" 2>&1 &
	rs_pid=$!
	wait "$rs_pid"
	rs_rc=$?
	rs_took=$(($(date +%s) - rs_t0))
	# its process group: whatever the script left behind
	kill -KILL -- "-$rs_pid" 2>/dev/null
	# the reader ends with the last writer; one stuck in the kernel may
	# hold the pipe open: wait two seconds at most
	rs_i=0
	while kill -0 "$rs_reader" 2>/dev/null && [ "$rs_i" -lt 20 ]; do
		sleep 0.1
		rs_i=$((rs_i + 1))
	done
	kill "$rs_reader" 2>/dev/null
	wait "$rs_reader" 2>/dev/null
	echo "# $rs_name: $rs_took s"
	case $rs_rc in
	0) echo "ok $1 $rs_name" ;;
	4) echo "ok $1 $rs_name # SKIP" ;;
	124 | 137 | 143)
		if [ "$rs_took" -ge "$timeout_s" ]; then
			echo "not ok $1 $rs_name # TIMEOUT $timeout_s s"
		else
			echo "not ok $1 $rs_name # exit=$rs_rc"
		fi ;;
	*) echo "not ok $1 $rs_name # exit=$rs_rc" ;;
	esac
}

for dir in "$@"; do
	shift
	[ -f "$dir/run.sh" ] && set -- "$@" "$dir"
done
# an empty line first: the console's line may hold the firmware's text
echo
echo "KTAP version 1"
echo "# Subtest: guest"
echo "1..$#"
n=0
for dir in "$@"; do
	n=$((n + 1))
	run_suite "$n" "$dir"
done
rm -rf "$work"
