# SPDX-License-Identifier: GPL-2.0
# Shared settings for the scripts; sourced, never run.
# shellcheck shell=sh

# The one place the paths are written (make CACHE=... OUT=... override
# them; the Makefile asks lib/where.sh).  Every host script is one
# directory below the top: lib/, scripts/, tree/, kernel/, qemu/, bench/.
TOP=$(cd "$(dirname "$0")/.." && pwd)
: "${CACHE:=$HOME/.cache/pmqos-lt}"  # sources, trees, builds, ccache: kept
: "${OUT:=$TOP/out}"                  # logs, images, the dist patch: make clean
SRC_DIR=$CACHE/src            # pristine unpacked linux-source-6.12
TREE=$CACHE/linux             # git tree: base commit + the series (branch lt)
BASE_TREE=$CACHE/linux-base   # worktree of the base commit alone
BUILD=$CACHE/build            # out-of-tree build directories, one per kernel
export CACHE OUT TOP SRC_DIR TREE BASE_TREE BUILD

# The kernels, the one place they are written.  recipe NAME sets KSRC (the
# tree it is built from) and KFRAGS (its config fragments on top of
# tinyconfig, in order, relative to the top or absolute); it is built in $BUILD/NAME
# (kernel/build-kernel.sh NAME), its image is "bzimage NAME".
# shellcheck disable=SC2034 # KSRC and KFRAGS are for the caller
recipe() {
	KFRAGS="configs/test.config"
	case $1 in
	test) KSRC=$TREE ;;
	base)
		KSRC=$BASE_TREE
		mkdir -p "$BUILD"
		api_users_off >"$BUILD/base-api-users.config"
		KFRAGS="$KFRAGS $BUILD/base-api-users.config configs/base.config" ;;
	debug) KSRC=$TREE KFRAGS="$KFRAGS configs/debug.config" ;;
	bench-ours) KSRC=$TREE KFRAGS="$KFRAGS configs/bench.config" ;;
	bench-upstream)
		KSRC=$("$TOP/tree/get-source.sh") || return 1
		KFRAGS="$KFRAGS configs/bench.config" ;;
	# the same with two CPUs, for make bench's bench_mode=smp boots
	bench-ours-smp)
		KSRC=$TREE KFRAGS="$KFRAGS configs/bench.config configs/bench-smp.config" ;;
	bench-upstream-smp)
		KSRC=$("$TOP/tree/get-source.sh") || return 1
		KFRAGS="$KFRAGS configs/bench.config configs/bench-smp.config" ;;
	*) return 1 ;;
	esac
}
# The in-tree users of the API (configs/api-users): api_users_objs their
# objects, one a line; api_users_off a config fragment leaving them out.
api_users() { grep -v -e '^#' -e '^$' "$TOP/configs/api-users"; }
api_users_objs() { api_users | cut -d' ' -f1; }
api_users_off() {
	echo "# made by lib/common.sh from configs/api-users: the base has no API for them"
	api_users | cut -d' ' -f2- | tr ' ' '\n' | sed 's/.*/# CONFIG_& is not set/'
}
# The LPSS MMIO base, read from the #define in qemu/lpss-ssdt.asl, the one
# place it is written (the guest gets it as lpss_base= on its command line)
lpss_base() {
	sed -n 's/^#define[[:space:]]\{1,\}LPSS_MMIO_BASE[[:space:]]\{1,\}\(0x[0-9A-Fa-f]\{1,\}\).*/\1/p' \
		"$TOP/qemu/lpss-ssdt.asl" | grep . || die "no LPSS_MMIO_BASE in qemu/lpss-ssdt.asl"
}
bzimage() { printf '%s\n' "$BUILD/$1/arch/x86/boot/bzImage"; }

# Kernel builds: ccache in the cache, reproducible build stamps.
export CCACHE_DIR="${CCACHE_DIR:-$CACHE/ccache}"
export CCACHE_BASEDIR="$CACHE" CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
export KBUILD_BUILD_TIMESTAMP='2024-11-17' KBUILD_BUILD_USER=pmqos KBUILD_BUILD_HOST=lt
# kmake SRC OUT ARGS...: make in the kernel tree SRC, out of tree in OUT,
# with ccache.  One kernel build at a time on this machine: every build
# takes the lock.
# KMAKE_VERBOSE=1 leaves out -s: kbuild's "  CC      x.o" lines, for
# lib/progress.py to count.
kmake() {
	kmake_src=$1 kmake_out=$2
	shift 2
	wait_build_lock
	if [ "${KMAKE_VERBOSE:-0}" = 1 ]; then set -- --no-print-directory "$@"; else set -- -s "$@"; fi
	flock "$CACHE/build.lock" make -C "$kmake_src" O="$kmake_out" \
		CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}
# Say so when another kernel build holds the lock (it may take minutes).
wait_build_lock() {
	mkdir -p "$CACHE"
	flock -n "$CACHE/build.lock" true ||
		msg "waiting for another kernel build to finish ($CACHE/build.lock)"
}

msg() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die() { msg "error: $*"; exit 1; }

# The patch file names listed in patches/series, one a line.
series_list() { grep -v -e '^#' -e '^$' "$TOP/patches/series" || true; }
# The upstream form's patches, in order (upstream/series)
upstream_list() { grep -v -e '^#' -e '^$' "$TOP/upstream/series" || true; }

# Identity of patches/ (series plus the files it lists).
series_id() {
	(cd "$TOP/patches" && { cat series; series_list | while read -r p; do
		cat "$p"; done; } | sha256sum | cut -c1-16)
}
