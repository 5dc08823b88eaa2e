# SPDX-License-Identifier: GPL-2.0
# Shared settings for the scripts; sourced, never run.
# shellcheck shell=sh

# The one place the paths are written (make CACHE=... OUT=... override
# them; the Makefile asks util/where.sh).  Every host script is one
# directory below the top: util/, scripts/, tree/, kernel/, qemu/, bench/.
TOP=$(cd "$(dirname "$0")/.." && pwd)
: "${CACHE:=$HOME/.cache/pmqos-lt}"  # sources, trees, builds, ccache: kept
: "${OUT:=$TOP/out}"                  # logs, images, the dist patch: make clean
SRC_DIR=$CACHE/src            # pristine unpacked linux-source-6.12
TREE=$CACHE/linux             # git tree: pristine + upstream/ (branch up), base + series (lt)
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
	kcsan) KSRC=$TREE KFRAGS="$KFRAGS configs/kcsan.config" ;;
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
	echo "# made by util/common.sh from configs/api-users: the base has no API for them"
	api_users | cut -d' ' -f2- | tr ' ' '\n' | sed 's/.*/# CONFIG_& is not set/'
}
# The LPSS MMIO base, read from the #define in qemu/ssdt.asl, the one
# place it is written (the guest gets it as lpss_base= on its command line)
lpss_base() {
	sed -n 's/^#define[[:space:]]\{1,\}LPSS_MMIO_BASE[[:space:]]\{1,\}\(0x[0-9A-Fa-f]\{1,\}\).*/\1/p' \
		"$TOP/qemu/ssdt.asl" | grep . || die "no LPSS_MMIO_BASE in qemu/ssdt.asl"
}
bzimage() { printf '%s\n' "$BUILD/$1/arch/x86/boot/bzImage"; }

# Kernel builds: ccache in the cache, reproducible build stamps.
export CCACHE_DIR="${CCACHE_DIR:-$CACHE/ccache}"
export CCACHE_BASEDIR="$CACHE" CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
export KBUILD_BUILD_TIMESTAMP='2024-11-17' KBUILD_BUILD_USER=pmqos KBUILD_BUILD_HOST=lt
# kmake [-w CMD] SRC OUT ARGS...: make in the kernel tree SRC, out of tree
# in OUT, with ccache.  One kernel build at a time on this machine: every
# build takes the lock.
# -w CMD: CMD (one word, e.g. a function running util/progress.py) runs
# the locked make line, its arguments; make leaves out -s then: kbuild's
# "  CC      x.o" lines, for util/progress.py to count.
kmake() {
	kmake_w=
	[ "$1" != -w ] || { kmake_w=$2; shift 2; }
	kmake_src=$1 kmake_out=$2
	shift 2
	wait_build_lock
	if [ -n "$kmake_w" ]; then set -- --no-print-directory "$@"; else set -- -s "$@"; fi
	# shellcheck disable=SC2086 # kmake_w: nothing or one word
	$kmake_w flock "$CACHE/build.lock" make -C "$kmake_src" O="$kmake_out" \
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
# The scripts split lists of paths at blanks: none may hold one.
case $TOP$CACHE$OUT in
*[[:space:]]*) die "a path with a blank: $TOP, $CACHE or $OUT" ;;
esac

# series_files DIR: the patch file names listed in DIR/series, one a line
series_files() { grep -v -e '^#' -e '^$' "$TOP/$1/series" || true; }
# postings: the upstream form's postings in order, "NAME|first subject" a
# line (upstream/postings)
postings() { grep -v -e '^#' -e '^$' "$TOP/upstream/postings"; }
# all_posting_files: every patch of the upstream form in the order they
# apply, "upstream/NAME/FILE" a line
all_posting_files() {
	postings | while IFS='|' read -r apf_name _; do
		series_files "upstream/$apf_name" | sed "s#^#upstream/$apf_name/#"
	done
}
# checkpatch PATCH [OPTION...]: checkpatch --strict on PATCH in the kernel
# tree, with Debian's python3 (with ply and git) for its SPDX check
checkpatch() {
	cp_patch=$1; shift
	(cd "$TREE" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict --quiet "$@" "$cp_patch")
}

# am_series DIR SERIES START BRANCH: in the worktree DIR, drop any git am in
# progress and local changes, check out BRANCH at START and git am the patches
# listed in SERIES/series (SERIES: upstream/NAME); APPLIED = how many.
am_series() {
	git -C "$1" am --abort >/dev/null 2>&1 || true
	git -C "$1" checkout -q --force -B "$4" "$3"
	APPLIED=0
	for as_p in $(series_files "$2"); do
		git -C "$1" am -q --keep-cr "$TOP/$2/$as_p" ||
			die "$2/$as_p does not apply (git -C $1 am --show-current-patch=diff)"
		APPLIED=$((APPLIED + 1))
	done
}

# am_postings DIR BRANCH: in the worktree DIR, BRANCH = tag pristine plus
# the postings of upstream/, in order (am_series); prints a line per
# posting: "NAME START END COUNT" (commit ids)
am_postings() {
	[ -n "$(postings)" ] || die "upstream/postings names no posting"
	ap_start=pristine
	postings | while IFS='|' read -r ap_name _; do
		am_series "$1" "upstream/$ap_name" "$ap_start" "$2"
		ap_end=$(git -C "$1" rev-parse HEAD)
		echo "$ap_name $(git -C "$1" rev-parse "$ap_start") $ap_end $APPLIED"
		ap_start=$ap_end
	done
}

# base_identity: the git identity and dates of the commits the tooling
# makes itself (the base, the pristine tag, git am), so that their ids
# depend on content only.
base_identity() {
	GIT_AUTHOR_DATE='2024-11-17 00:00:00 +0000'
	GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
	GIT_AUTHOR_NAME='pmqos-lt base'
	GIT_AUTHOR_EMAIL='base@pmqos-lt.invalid'
	GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME
	GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
	export GIT_AUTHOR_DATE GIT_COMMITTER_DATE GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL \
		GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
}

# worktree_at DIR REF: make DIR a detached worktree of $TREE at REF unless
# it is one already (then it is left as it is)
worktree_at() {
	git -C "$1" rev-parse -q --verify HEAD >/dev/null 2>&1 && return 0
	rm -rf "$1"
	git -C "$TREE" worktree prune
	msg "checking out a worktree in $1 (once)"
	git -C "$TREE" worktree add -q --detach "$1" "$2" || die "cannot make $1"
}

# pristine_tree PRISTINE: the git tree object of the unpacked pristine
# source PRISTINE, made in $TREE: the base's tree with the files the base
# step edits put back as Debian ships them.
pristine_tree() {
	pt_idx=$(mktemp)
	GIT_INDEX_FILE=$pt_idx git -C "$TREE" read-tree base
	for pt_f in $(python3 "$TOP/base/strip.py" --list); do
		pt_blob=$(git -C "$TREE" hash-object -w "$1/$pt_f")
		GIT_INDEX_FILE=$pt_idx git -C "$TREE" update-index --cacheinfo "100644,$pt_blob,$pt_f"
	done
	GIT_INDEX_FILE=$pt_idx git -C "$TREE" write-tree
	rm -f "$pt_idx"
}

# Identity of upstream/ (postings, each series, the patches they list).
upstream_id() {
	(cd "$TOP" && { cat upstream/postings upstream/*/series
		all_posting_files | while read -r p; do cat "$p"; done; } |
		sha256sum | cut -c1-16)
}
