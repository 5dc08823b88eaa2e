# SPDX-License-Identifier: GPL-2.0
# Shared settings for the scripts; sourced, never run.
# shellcheck shell=sh

: "${CACHE:=$HOME/.cache/pmqos-lt}"
TOP=$(cd "$(dirname "$0")/.." && pwd)
SRC_DIR=$CACHE/src            # pristine unpacked linux-source-6.12
TREE=$CACHE/linux             # git tree: base commit + the series (branch lt)
BASE_TREE=$CACHE/linux-base   # worktree of the base commit alone
BUILD=$CACHE/build            # out-of-tree build directories, one per config
export CACHE TOP SRC_DIR TREE BASE_TREE BUILD

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

# Identity of patches/ (series plus the files it lists).
series_id() {
	(cd "$TOP/patches" && { cat series; series_list | while read -r p; do
		cat "$p"; done; } | sha256sum | cut -c1-16)
}
