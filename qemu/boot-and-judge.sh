#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Boot a kernel with a test initramfs in QEMU and judge the run.
#   boot-and-judge.sh BZIMAGE INITRAMFS LOG TIMEOUT SUITE...
# The console goes to LOG.  If lpss_host is among the SUITEs,
# qemu/qmp-watch.py answers the guest's HOST-XP requests (register reads
# through the QEMU monitor) and writes its lpss_host document, as it goes,
# to a file of its own: LOG with -host.log for .log (never into LOG: only
# the guest writes GUEST-END there).  Then
# qemu/judge.py judges LOG and that file, expecting every SUITE:
# any failed test, missing suite or kernel report fails (reports decoded
# against the vmlinux next to BZIMAGE).  The last line is "N passed,
# M failed, K skipped".  QEMU_MEM and QEMU_APPEND go to qemu/run-qemu.sh.
# While the guest runs it shows the time so far (see util/progress.py).
set -u
. "$(dirname "$0")/../util/common.sh"

[ $# -ge 5 ] || die "usage: boot-and-judge.sh BZIMAGE INITRAMFS LOG TIMEOUT SUITE..."
kernel=$1 initrd=$2 log=$3 limit=$4
shift 4
[ -f "$kernel" ] || die "no kernel $kernel"
[ -f "$initrd" ] || die "no initramfs $initrd"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
hostlog=${log%.log}-host.log
rm -f "$log" "$hostlog"
export QMP_SOCK="$tmp/qmp.sock"
# the watcher outlives QEMU's own timeout; it is stopped below anyway;
# only for runs that expect its document (lpss_host)
watcher=
case " $* " in
*" lpss_host "*)
	TIMEOUT=$((limit + 60)) python3 "$TOP/qemu/qmp-watch.py" "$QMP_SOCK" \
		"$log" "$hostlog" &
	watcher=$! ;;
esac
start=$(date +%s)
# how long it usually takes under TCG on 2 cores, said first; then the
# time so far (util/progress.py)
name=$(basename "${kernel%/arch/x86/boot/bzImage}")
case $name in
test) about="usually about 40 s" ;;
debug) about="usually 3 to 5 min: KASAN, lockdep" ;;
*) about="time limit $limit s" ;;
esac
python3 "$TOP/util/progress.py" --label "running the $name kernel in QEMU" \
	--about "($about; console in $log)" -- \
	"$TOP/qemu/run-qemu.sh" "$kernel" "$initrd" "$log" "$limit"
echo "guest: $(($(date +%s) - start)) s"
# the watcher ends at GUEST-END; a guest that never got there fails anyway
if [ -n "$watcher" ]; then
	for _ in 1 2 3 4 5; do kill -0 "$watcher" 2>/dev/null && sleep 1; done
	kill "$watcher" 2>/dev/null
	wait "$watcher"
fi
for s in "$@"; do set -- "$@" --expect "$s"; shift; done
[ -z "$watcher" ] || set -- --host-log "$hostlog" "$@"
# kernel reports decoded against the build's vmlinux, if it is there
vmlinux=${kernel%/arch/x86/boot/bzImage}/vmlinux
if [ "$vmlinux" != "$kernel/vmlinux" ] && [ -f "$vmlinux" ] && [ -d "$TREE" ]; then
	set -- --vmlinux "$vmlinux" --tree "$TREE" "$@"
fi
python3 "$TOP/qemu/judge.py" "$@" "$log"
