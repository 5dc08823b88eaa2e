#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Usage: qemu/run-qemu.sh BZIMAGE INITRD LOG [TIMEOUT_SECONDS]
#
# Boots BZIMAGE with INITRD under qemu-system-x86_64 (q35, TCG, 512 MiB
# unless QEMU_MEM says otherwise, one CPU unless QEMU_CPUS does) with the LPSS SSDT
# (qemu/ssdt.asl, compiled here), the memmap= reservation that backs
# its MMIO page with RAM, lpss_base= (the page's address, for the guest
# scripts: /lib/guest.sh reads it) and an NVMe disk.
# The serial console (and QEMU's own messages) go to LOG.  QEMU is killed
# after TIMEOUT_SECONDS (default 300); the script then exits 124.
# Otherwise it exits with QEMU's status (0 after poweroff or a panic).
#
# The compiled SSDT and the NVMe disk's file are made anew in a temporary
# directory of each run: runs share nothing.
#
# Env:
#   QEMU_APPEND  extra kernel command line arguments
#   QEMU_MEM     guest memory in MiB (default 512)
#   QEMU_CPUS    number of guest CPUs (default 1; more need a kernel with
#                CONFIG_SMP, e.g. configs/bench-smp.config)
#   QEMU_ARGS    extra qemu-system-x86_64 arguments, split at spaces (e.g.
#                a TCG plugin: -plugin PATH.so,ARG=VALUE)
#   QMP_SOCK     QMP unix socket path (default: in the temporary directory); a host
#                script can read guest memory while the guest runs (as
#                qemu/qmp-watch.py does)
#   VERBOSE=1    also copy the console to stdout (and, if stdin is a
#                terminal, keep it attached: use with QEMU_APPEND=rdinit_shell=1)
set -eu
. "$(dirname "$0")/../util/common.sh"

usage() {
	echo "usage: $0 BZIMAGE INITRD LOG [TIMEOUT_SECONDS]" >&2
	exit 2
}
if [ $# -lt 3 ] || [ $# -gt 4 ]; then usage; fi
kernel=$1
initrd=$2
log=$3
limit=${4:-300}
case "$limit" in
'' | *[!0-9]*) usage ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
QMP_SOCK=${QMP_SOCK:-$tmp/qmp.sock}
export QMP_SOCK

# The one place the LPSS MMIO address is written is the SSDT source.
base=$(lpss_base)

# Compile the SSDT (iasl is chatty: show its output only on failure).
aml=$tmp/ssdt.aml
if ! iasl -p "$tmp/ssdt" "$TOP/qemu/ssdt.asl" >"$tmp/iasl.out" 2>&1; then
	cat "$tmp/iasl.out" >&2
	exit 1
fi

# 1 MiB raw NVMe backing file (snapshot=on: never written)
disk=$tmp/nvme.img
dd if=/dev/zero of="$disk" bs=1024 count=1024 2>/dev/null

append="console=ttyS0 panic=-1 memmap=4K\$$base lpss_base=$base ${QEMU_APPEND:-}"

echo "run-qemu: QMP socket: $QMP_SOCK" >&2

if [ "${VERBOSE:-0}" = 1 ] && [ -t 0 ]; then
	# interactive: timeout must stay in the foreground to let QEMU read the tty
	fg=--foreground
	stdin=/dev/stdin
else
	fg=
	stdin=/dev/null
fi

run() {
	status=0
	# shellcheck disable=SC2086 # $fg is empty or one word, QEMU_ARGS a word list
	timeout $fg -k 10 "$limit" qemu-system-x86_64 ${QEMU_ARGS:-} \
		-machine q35 -m "${QEMU_MEM:-512}" -smp "${QEMU_CPUS:-1}" -cpu max \
		-nographic -no-reboot -nic none \
		-kernel "$kernel" -initrd "$initrd" \
		-append "$append" \
		-acpitable file="$aml" \
		-drive file="$disk",if=none,id=nvm,format=raw,snapshot=on \
		-device nvme,serial=pmqoslt,drive=nvm \
		-qmp unix:"$QMP_SOCK",server=on,wait=off \
		<"$stdin" 2>&1 || status=$?
	echo "$status" >"$tmp/rc"
}

if [ "${VERBOSE:-0}" = 1 ]; then
	run | tee "$log"
else
	run >"$log"
fi
rc=$(cat "$tmp/rc")
rm -f "$QMP_SOCK"

if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "run-qemu: QEMU killed after ${limit}s timeout" | tee -a "$log" >&2
	exit 124
fi
exit "$rc"
