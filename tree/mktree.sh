#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Make (or reuse) the kernel git tree.  Its first commit, tagged "base",
# is the pristine linux-source-6.12 with upstream's latency tolerance
# removed by base/strip.py; tag "pristine" is the source as Debian ships
# it.  Branch "up", the one checked out and built, is pristine plus the
# postings of upstream/ applied with git am: the kernel work's one
# hand-kept form.  Branch "lt", the stripped-base series, is made from
# up's end tree by tree/mkstripped.sh.  A branch up with commits that were
# never exported is left alone (run 'make export' first, or FORCE=1 to
# throw them away), and so are uncommitted changes: the builds use them,
# with a warning.  STRICT=1 (make check) refuses both: what is tested is
# exactly upstream/.
set -eu
. "$(dirname "$0")/../util/common.sh"

pristine=$("$TOP/tree/get-source.sh")
# Never change the tree under a running kernel build.
wait_build_lock
exec 9>"$CACHE/build.lock"
flock 9
version=$(basename "$(dirname "$pristine")")
# The base is identified by what the strip step produces, so a change to
# base/strip.py that strips the same way keeps the tree (and the builds).
stripped_id() {
	t=$(mktemp -d)
	for f in $(python3 "$TOP/base/strip.py" --list); do
		mkdir -p "$t/$(dirname "$f")"
		cp "$pristine/$f" "$t/$f"
	done
	cp -r "$pristine/drivers/base/power/." "$t/drivers/base/power/"
	python3 "$TOP/base/strip.py" "$t" >/dev/null || { rm -rf "$t"; exit 1; }
	(cd "$t" && find . -type f | LC_ALL=C sort | xargs sha256sum) | sha256sum | cut -c1-16
	rm -rf "$t"
}
base_id="$version $(stripped_id)"
series_id=$(upstream_id)

# Deterministic commit dates, so the base commit's id depends on content only.
base_identity

# timed KEY LABEL CMD...: CMD, the step tree-KEY, with its last time and
# the time so far shown (util/progress.py)
timed() {
	timed_key=$1 timed_label=$2; shift 2
	python3 "$TOP/util/progress.py" --label "mktree: $timed_label" \
		--step "tree-$timed_key" -- "$@" >&2
}

make_base() {
	msg "making the base tree ($base_id): copy, strip, git add, commit, worktree"
	rm -rf "$TREE.new" "$TREE" "$BASE_TREE"
	timed copy "copying the source" cp -a "$pristine" "$TREE.new"
	python3 "$TOP/base/strip.py" "$TREE.new"
	git -C "$TREE.new" init -q -b up
	printf '/.build*/\n' >> "$TREE.new/.git/info/exclude"
	# Debian's .gitignore ignores "/*": -f.  --verbose names each file.
	python3 "$TOP/util/progress.py" --label "mktree: git add" --step tree-add --unit files \
		--count "^add '" --quiet "^add '" \
		--total "$(find "$TREE.new" -path "$TREE.new/.git" -prune -o ! -type d -print | wc -l)" -- \
		git -C "$TREE.new" add -A -f --verbose >&2
	timed commit "git commit" git -C "$TREE.new" commit -q -m "base: linux-source-6.12 $version without latency tolerance

Debian's linux-source-6.12 $version with upstream's latency-tolerance
device PM QoS code removed by base/strip.py, so that the series can
implement it again."
	git -C "$TREE.new" tag base
	echo "$base_id" > "$TREE.new/.git/pmqos-base"
	mv "$TREE.new" "$TREE"
	timed worktree "checking out the base alone in $BASE_TREE" \
		git -C "$TREE" worktree add -q --detach "$BASE_TREE" base
}

# The tree's state is mktree.sh's alone: .git/pmqos-base names the base
# the tree was made from, .git/pmqos-applied "SERIES_ID COMMIT" the last
# commit known to be exactly upstream/ (SERIES_ID: util/common.sh's
# upstream_id of that upstream/).  Nothing else writes or reads them.
applied() { cat "$TREE/.git/pmqos-applied" 2>/dev/null || true; }
# exports_as_patches: exporting pristine..up (tree/export.sh) gives
# upstream/ byte for byte
exports_as_patches() {
	[ "$(git -C "$TREE" rev-parse HEAD)" != "$(git -C "$TREE" rev-parse pristine)" ] || return 1
	eap=$(mktemp -d)
	if "$TOP/tree/export.sh" "$eap" 2>/dev/null &&
		diff -r -x cover.txt -x postings "$eap" "$TOP/upstream" >/dev/null 2>&1; then
		rm -rf "$eap"
		return 0
	fi
	rm -rf "$eap"
	return 1
}
# builds_on_patches: the first commits of pristine..HEAD have the diffs
# of upstream/, in order (git patch-id): whatever follows is work of its
# own
builds_on_patches() {
	bop_want=$(all_posting_files | while read -r p; do
		git patch-id --stable <"$TOP/$p" | cut -d' ' -f1; done)
	bop_have=$(git -C "$TREE" rev-list --reverse pristine..HEAD |
		head -n "$(all_posting_files | wc -l)" | while read -r c; do
		git -C "$TREE" show "$c" | git patch-id --stable | cut -d' ' -f1; done)
	[ -n "$bop_want" ] && [ "$bop_want" = "$bop_have" ]
}
# commit_state: what the tree's commits are, against upstream/
#   matches   they are upstream/ (remembered in .git/pmqos-applied)
#   stale     upstream/ changed and the tree has nothing of its own: apply it
#   ahead     commits not in upstream/ yet (make export): made on the
#             upstream/ of the last apply, or on top of that of upstream/ now
#   diverged  such commits on other patches than those of upstream/
commit_state() {
	cs_head=$(git -C "$TREE" rev-parse HEAD)
	if [ "$(applied)" = "$series_id $cs_head" ]; then
		echo matches
	elif exports_as_patches; then
		echo "$series_id $cs_head" >"$TREE/.git/pmqos-applied"
		echo matches
	elif [ -z "$(applied)" ] || [ "$(applied | cut -d' ' -f2)" = "$cs_head" ]; then
		echo stale
	elif [ "$(applied | cut -d' ' -f1)" = "$series_id" ] || builds_on_patches; then
		echo ahead
	else
		echo diverged
	fi
}

# fresh: no tree yet, or one made from another base (whose commits must
# all have been exported, unless FORCE=1)
if [ "$(cat "$TREE/.git/pmqos-base" 2>/dev/null)" != "$base_id" ]; then
	if [ -d "$TREE/.git" ] && [ "${FORCE:-0}" != 1 ]; then
		[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
			die "the base changed but $TREE has uncommitted changes; commit and 'make export', or FORCE=1"
		[ "$(applied | cut -d' ' -f2)" = "$(git -C "$TREE" rev-parse HEAD)" ] ||
			exports_as_patches ||
			die "the base changed but $TREE has unexported commits; 'make export' or FORCE=1"
	fi
	make_base
fi
# Tag pristine: the source as Debian ships it, which the postings apply to
ptree=$(pristine_tree "$pristine")
if [ "$(git -C "$TREE" rev-parse -q --verify 'pristine^{tree}' 2>/dev/null)" != "$ptree" ]; then
	c=$(git -C "$TREE" commit-tree -m "linux-source-6.12 $version as Debian ships it" "$ptree")
	git -C "$TREE" tag -f pristine "$c" >/dev/null
fi

# The work is on branch up.  lt is made by tree/mkstripped.sh: a tree
# with lt checked out has the layout from before up existed, and is
# applied anew.  Anything else (a rebase under way, another branch) is
# the developer's business: left alone, but never tested as upstream/.
case $(git -C "$TREE" symbolic-ref -q HEAD || echo "a detached HEAD") in
refs/heads/up) ;;
refs/heads/lt) rm -f "$TREE/.git/pmqos-applied" ;;
*)
	[ "${STRICT:-0}" != 1 ] ||
		die "$TREE is not on branch up (a rebase under way?); finish it, or git checkout up"
	msg "warning: $TREE is not on branch up (a rebase under way?); the builds use it as it is"
	exit 0 ;;
esac

# dirty: uncommitted changes to tracked files: kept (the builds use them)
# unless STRICT=1, which wants the tree to be exactly upstream/.
dirty=$(git -C "$TREE" status --porcelain --untracked-files=no)
if [ -n "$dirty" ]; then
	if [ "${FORCE:-0}" = 1 ]; then
		git -C "$TREE" reset -q --hard
		dirty=
		msg "dropped the uncommitted changes in $TREE (FORCE=1)"
	elif [ "${STRICT:-0}" = 1 ]; then
		die "$TREE has uncommitted changes; commit and 'make export' (or FORCE=1 to drop them)"
	else
		msg "warning: $TREE has uncommitted changes; the builds use them"
	fi
fi

# stripped: branch lt from up (tree/mkstripped.sh); a failure only warns
# unless STRICT=1: the builds use up, not lt
stripped() {
	"$TOP/tree/mkstripped.sh" up && return 0
	[ "${STRICT:-0}" != 1 ] || exit 1
	msg "warning: branch lt (the stripped-base series) is not made; fix stripped/series"
}

state=$(commit_state)
case $state in
matches)
	stripped
	msg "tree matches upstream/: $TREE"
	exit 0 ;;
ahead)
	if [ "${FORCE:-0}" != 1 ]; then
		[ "${STRICT:-0}" != 1 ] ||
			die "$TREE has commits not in upstream/; 'make export' or FORCE=1"
		stripped
		msg "tree has commits not in upstream/ yet (make export): using it as is"
		exit 0
	fi ;;
diverged)
	[ "${FORCE:-0}" = 1 ] ||
		die "$TREE has commits not in upstream/, on other patches than upstream/; 'make export' or FORCE=1" ;;
esac
if [ -n "$dirty" ]; then
	die "$TREE has uncommitted changes; commit and 'make export', or FORCE=1"
fi

# stale (or FORCE=1): pristine + upstream/ with git am, then lt from it.
# Forget the last apply first: one that stops half way is stale next time.
rm -f "$TREE/.git/pmqos-applied"
am_postings "$TREE" up >/dev/null
echo "$series_id $(git -C "$TREE" rev-parse HEAD)" > "$TREE/.git/pmqos-applied"
stripped
msg "applied $(all_posting_files | wc -l) patches of upstream/: $TREE (branch up)"
