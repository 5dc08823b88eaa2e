#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build a kernel out of tree with ccache.
#   build-kernel.sh NAME                      a kernel of util/common.sh's recipes
#   build-kernel.sh NAME SRCTREE FRAGMENT...  any other (tests/harness)
# The config is tinyconfig with the fragments merged in order; every
# fragment line must survive into .config or the build stops.  The build
# directory is $BUILD/NAME; bzImage ends up in $BUILD/NAME/arch/x86/boot/.
# EXTRA_MAKE adds make arguments (e.g. "W=1 C=1"), TARGETS the targets
# (default: bzImage, and modules for a config with CONFIG_MODULES; then a
# kernel of the series' tree also gets the harness's test modules,
# kernel/build-kmod.sh).
# It says how long the build took last time (or its estimate) and shows
# its progress (util/progress.py: objects built of the expected total);
# the build's whole output is in $BUILD/NAME/build.log.
set -eu
. "$(dirname "$0")/../util/common.sh"

usage="usage: build-kernel.sh NAME [SRCTREE FRAGMENT...]"
[ $# = 1 ] || [ $# -ge 3 ] || die "$usage"
name=$1
shift
own_recipe=''
if [ $# = 0 ]; then
	own_recipe=1
	recipe "$name" || die "no kernel $name in util/common.sh's recipes; $usage"
	src=$KSRC
	for f in $KFRAGS; do
		case $f in /*) ;; *) f=$TOP/$f ;; esac
		set -- "$@" "$f"
	done
else
	src=$1
	shift
fi
frags=
for f in "$@"; do
	[ -f "$f" ] || die "no config fragment $f"
	frags="$frags $(cd "$(dirname "$f")" && pwd)/$(basename "$f")"
done
# shellcheck disable=SC2086 # paths without spaces
set -- $frags
out=$BUILD/$name
mkdir -p "$out"

# config_drift FRAGMENT...: the fragment lines missing from .config, one
# message each (the last fragment to name an option wins, as in
# merge_config.sh); prints their count.
config_drift() {
	awk '
		/^CONFIG_[A-Za-z0-9_]+=/ { o = $0; sub(/=.*/, "", o); want[o] = $0 }
		/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { want[$2] = "unset" }
		END { for (o in want) print o, want[o] }' "$@" |
	while read -r opt line; do
		if [ "$line" = unset ]; then
			! grep -q "^$opt=" "$out/.config" || msg "$opt should not be set"
		else
			grep -qxF "$line" "$out/.config" || msg "'$line' is not in .config"
		fi
	done 2>&1 | tee /dev/stderr | wc -l
}
reconfigured=
# Reconfigure when the fragments (or their order) changed, and when the
# .config lost a fragment's line: kbuild's syncconfig drops a symbol that
# the tree it last built did not know (the tree checked out at an older
# commit), and the build directory would keep the loss for good.
stamp=$(cat "$@" | sha256sum | cut -c1-16)
if [ "$(cat "$out/.fragments" 2>/dev/null)" != "$stamp" ] || [ ! -f "$out/.config" ] ||
	[ "$(config_drift "$@" 2>/dev/null)" != 0 ]; then
	msg "configuring $name (tinyconfig + fragments)"
	reconfigured=1
	kmake "$src" "$out" tinyconfig >/dev/null
	(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" .config "$@" >/dev/null)
	kmake "$src" "$out" olddefconfig >/dev/null
	[ "$(config_drift "$@")" = 0 ] || die "config for $name does not match its fragments"
	echo "$stamp" > "$out/.fragments"
fi

# Progress: kbuild's "  CC      x.o" lines (make without -s) counted by
# util/progress.py against the objects of the last complete build here
# ($out/.objects), or on a first build against its estimate.  A build from
# nothing or after a config change is timed: the step kernel-NAME.  The
# whole output goes to $out/build.log; warnings and errors stay visible.
targets=${TARGETS:-bzImage}
if [ -z "${TARGETS:-}" ] && grep -q '^CONFIG_MODULES=y' "$out/.config"; then
	targets="bzImage modules"
fi
step='' total=0
case " $targets " in
*" bzImage "*)
	if [ ! -f "$out/vmlinux" ]; then
		about="first build" step=kernel-$name
	else
		about=incremental
		[ -z "$reconfigured" ] || about="config changed" step=kernel-$name
		total=$(cat "$out/.objects" 2>/dev/null ||
			find "$out" -name '*.o' | wc -l)
	fi ;;
*)
	about="only the targets asked for" ;;
esac
# progress MAKE...: kmake's make line, its progress shown
progress() {
	python3 "$TOP/util/progress.py" --label "building $name kernel" \
		--about "in $out, $about" --step "$step" \
		--unit objects --total "$total" --log "$out/build.log" --echo \
		--count '^  [A-Z][A-Z0-9_]*( \[M\])? +[^ ]*\.o$' \
		--quiet '^  [A-Z][A-Z0-9_]*( \[M\])? +[^ ]' -- "$@"
}
rc=0
# shellcheck disable=SC2086 # word lists
kmake -w progress "$src" "$out" -j"$(nproc)" ${EXTRA_MAKE:-} $targets || rc=$?
[ "$rc" = 0 ] || die "building $name failed (exit status $rc); the whole output is in $out/build.log"
case " $targets " in
*" bzImage "*) find "$out" -name '*.o' | wc -l > "$out/.objects" ;;
esac
case " $targets " in
*" modules "*)
	if [ -n "$own_recipe" ] && [ -z "${TARGETS:-}" ] && [ "$src" = "$TREE" ]; then
		"$TOP/kernel/build-kmod.sh" "$name" >/dev/null
		"$TOP/kernel/build-user.sh" "$name"
	fi ;;
esac
echo "$out/arch/x86/boot/bzImage"
