#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Usage: qemu/mkinitramfs.sh OUT KERNEL_SRC KERNEL_BUILD [DIR...]
#
# Builds a gzip'd newc initramfs at OUT with the kernel's own
# usr/gen_init_cpio (KERNEL_BUILD/usr/gen_init_cpio, else compiled from
# KERNEL_SRC/usr/gen_init_cpio.c with the host cc), /bin/busybox from
# busybox-static with a link for every applet, /init from guest/init,
# /lib/guest.sh from guest/lib.sh (the helpers of every guest script),
# /lib/suite-runner.sh from guest/suite-runner.sh (what /init runs),
# /lib/ktap_helpers.sh from KERNEL_SRC's kselftest (their KTAP writer),
# /etc/kernel-reports from guest/kernel-reports (the patterns of a kernel
# report, as qemu/judge.py reads them on the host), /etc/passwd
# and /etc/group with root (0) and tester (1000), the harness's test
# modules built against the kernel (KERNEL_BUILD/kmod/*.ko,
# kernel/build-kmod.sh) in /lib/kmod/, the user programs built against it
# (KERNEL_BUILD/user/bin/*, kernel/build-user.sh) in /bin/, and each DIR
# copied recursively to /tests/<basename of DIR>/ (exec bits kept).
# Output is reproducible: every mtime is SOURCE_DATE_EPOCH (default 0).
# Env: BUSYBOX (default /bin/busybox).
set -eu
. "$(dirname "$0")/../util/common.sh"

usage() {
	echo "usage: $0 OUT KERNEL_SRC KERNEL_BUILD [DIR...]" >&2
	exit 2
}
[ $# -ge 3 ] || usage
out=$1
ksrc=$2
kbuild=$3
shift 3

busybox=${BUSYBOX:-/bin/busybox}
epoch=${SOURCE_DATE_EPOCH:-0}

[ -x "$busybox" ] || { echo "$0: no busybox at $busybox" >&2; exit 1; }
for f in init lib.sh suite-runner.sh; do
	[ -f "$TOP/guest/$f" ] || { echo "$0: no $TOP/guest/$f" >&2; exit 1; }
done
[ -f "$TOP/guest/kernel-reports" ] ||
	{ echo "$0: no $TOP/guest/kernel-reports" >&2; exit 1; }
ktap=$ksrc/tools/testing/selftests/kselftest/ktap_helpers.sh
[ -f "$ktap" ] || { echo "$0: no $ktap" >&2; exit 1; }
if file "$busybox" 2>/dev/null | grep -q 'dynamically linked'; then
	echo "$0: $busybox is not static (install busybox-static)" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

gen=$kbuild/usr/gen_init_cpio
if ! [ -x "$gen" ]; then
	[ -f "$ksrc/usr/gen_init_cpio.c" ] ||
		{ echo "$0: no $gen and no $ksrc/usr/gen_init_cpio.c" >&2; exit 1; }
	gen=$tmp/gen_init_cpio
	"${HOSTCC:-cc}" -O2 -o "$gen" "$ksrc/usr/gen_init_cpio.c"
fi

cat >"$tmp/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
tester:x:1000:1000:tester:/home/tester:/bin/sh
EOF
cat >"$tmp/group" <<'EOF'
root:x:0:
tester:x:1000:
EOF
printf '/bin/sh\n' >"$tmp/shells"

list=$tmp/list
{
	for d in /bin /dev /etc /lib /proc /sys /root /tests /home; do
		echo "dir $d 0755 0 0"
	done
	echo "dir /tmp 1777 0 0"
	echo "dir /home/tester 0755 1000 1000"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	echo "dir /usr 0755 0 0"
	echo "slink /sbin bin 0777 0 0"
	echo "slink /usr/bin ../bin 0777 0 0"
	echo "slink /usr/sbin ../bin 0777 0 0"
	echo "file /bin/busybox $busybox 0755 0 0"
	{ echo sh; "$busybox" --list; } | LC_ALL=C sort -u |
		while read -r applet; do
			case "$applet" in
			'' | busybox | */*) continue ;;
			esac
			echo "slink /bin/$applet busybox 0777 0 0"
		done
	echo "file /init $TOP/guest/init 0755 0 0"
	echo "file /lib/guest.sh $TOP/guest/lib.sh 0644 0 0"
	echo "file /lib/suite-runner.sh $TOP/guest/suite-runner.sh 0755 0 0"
	echo "file /lib/ktap_helpers.sh $ktap 0644 0 0"
	echo "file /etc/kernel-reports $TOP/guest/kernel-reports 0644 0 0"
	echo "file /etc/passwd $tmp/passwd 0644 0 0"
	echo "file /etc/group $tmp/group 0644 0 0"
	echo "file /etc/shells $tmp/shells 0644 0 0"
	for prog in "$kbuild"/user/bin/*; do
		if [ -f "$prog" ]; then echo "file /bin/${prog##*/} $prog 0755 0 0"; fi
	done
	echo "dir /lib/kmod 0755 0 0"
	for ko in "$kbuild"/kmod/*.ko; do
		if [ -f "$ko" ]; then echo "file /lib/kmod/${ko##*/} $ko 0644 0 0"; fi
	done
} >"$list"

for src in "$@"; do
	[ -d "$src" ] || { echo "$0: $src is not a directory" >&2; exit 1; }
	src=$(cd "$src" && pwd)
	dest=/tests/$(basename "$src")
	echo "dir $dest 0755 0 0" >>"$list"
	(cd "$src" && find . -mindepth 1 | LC_ALL=C sort) |
		while IFS= read -r rel; do
			rel=${rel#./}
			case "$rel" in
			*[[:space:]]*)
				echo "$0: whitespace in $src/$rel" >&2
				exit 1
				;;
			esac
			path=$src/$rel
			if [ -L "$path" ]; then
				echo "slink $dest/$rel $(readlink "$path") 0777 0 0"
			elif [ -d "$path" ]; then
				echo "dir $dest/$rel 0755 0 0"
			elif [ -f "$path" ]; then
				mode=0644
				[ -x "$path" ] && mode=0755
				echo "file $dest/$rel $path $mode 0 0"
			fi
		done >>"$list"
done

"$gen" -t "$epoch" "$list" >"$tmp/initramfs.cpio"
gzip -9 -n <"$tmp/initramfs.cpio" >"$tmp/initramfs.cpio.gz"
mv "$tmp/initramfs.cpio.gz" "$out"
