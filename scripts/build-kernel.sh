#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build a kernel out of tree with ccache.
#   build-kernel.sh NAME SRCTREE FRAGMENT...
# The config is tinyconfig with the fragments merged in order; every
# fragment line must survive into .config or the build stops.  The build
# directory is $BUILD/NAME; bzImage ends up in $BUILD/NAME/arch/x86/boot/.
# EXTRA_MAKE adds make arguments (e.g. "W=1 C=1"), TARGETS the targets.
set -eu
. "$(dirname "$0")/common.sh"

[ $# -ge 3 ] || die "usage: build-kernel.sh NAME SRCTREE FRAGMENT..."
name=$1 src=$2
shift 2
frags=
for f in "$@"; do
	[ -f "$f" ] || die "no config fragment $f"
	frags="$frags $(cd "$(dirname "$f")" && pwd)/$(basename "$f")"
done
# shellcheck disable=SC2086 # paths without spaces
set -- $frags
out=$BUILD/$name
mkdir -p "$out"

# Reconfigure only when the fragments (or their order) changed.
stamp=$(cat "$@" | sha256sum | cut -c1-16)
if [ "$(cat "$out/.fragments" 2>/dev/null)" != "$stamp" ] || [ ! -f "$out/.config" ]; then
	msg "configuring $name"
	kmake "$src" "$out" tinyconfig >/dev/null
	(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" .config "$@" >/dev/null)
	kmake "$src" "$out" olddefconfig >/dev/null
	# The last fragment to name an option wins, as in merge_config.sh.
	bad=$(awk '
		/^CONFIG_[A-Za-z0-9_]+=/ { o = $0; sub(/=.*/, "", o); want[o] = $0 }
		/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { want[$2] = "unset" }
		END { for (o in want) print o, want[o] }' "$@" |
	while read -r opt line; do
		if [ "$line" = unset ]; then
			! grep -q "^$opt=" "$out/.config" || msg "$opt should not be set"
		else
			grep -qxF "$line" "$out/.config" || msg "'$line' is not in .config"
		fi
	done 2>&1 | tee /dev/stderr | wc -l)
	[ "$bad" = 0 ] || die "config for $name does not match its fragments"
	echo "$stamp" > "$out/.fragments"
fi

msg "building $name in $out"
# shellcheck disable=SC2086 # EXTRA_MAKE and TARGETS are word lists
kmake "$src" "$out" -j"$(nproc)" ${EXTRA_MAKE:-} ${TARGETS:-bzImage}
echo "$out/arch/x86/boot/bzImage"
