#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The upstream form: branch "upstream" of the kernel tree is a pristine
# linux-source-6.12 (tag "pristine") plus the postings of upstream/postings,
# each applied in order with git am, in the worktree $CACHE/linux-upstream.
# Then, per posting: every commit builds (kernel/each-patch-builds.sh: W=1,
# the files it touches and the API's in-tree users; the config is the test
# kernel's, built first if missing) and checkpatch --strict is clean; one
# line each:
#   upstream: 1-fixes: 11 patches apply, 11 of 11 build, checkpatch clean
# The last line says whether the end tree is the tree of branch lt (the
# stripped-base series tree/mkstripped.sh made from branch up), every file:
#   upstream: 4 postings, 41 patches, end tree identical to the stripped-base series
# or names the files that differ.  Exit status 1 if anything failed.
# Logs in $OUT/upstream/.  --apply-only: make the branch and compare the
# trees, no builds, no checkpatch (scripts/bisect-proof.sh).
# Branch "up" is left alone: it is where the upstream form is edited
# (tree/export.sh writes it back to upstream/); tree/mktree.sh makes the
# tag pristine and branch lt.
set -eu
. "$(dirname "$0")/../util/common.sh"

apply_only=0
[ "${1:-}" = --apply-only ] && apply_only=1

"$TOP/tree/mktree.sh"
wt=$CACHE/linux-upstream
logs=$OUT/upstream
rm -rf "$logs" && mkdir -p "$logs"

base_identity

# Apply: NAME START END COUNT a line in $logs/ranges
wait_build_lock
exec 9>"$CACHE/build.lock"
flock 9
worktree_at "$wt" pristine
am_postings "$wt" upstream >"$logs/ranges"
exec 9>&-

# checkpatch_posting NAME: checkpatch --strict on its patches; prints the
# files it has something to say about.  The tree is an unpacked tarball
# without mainline's history: it cannot look up the commits named by
# Fixes: tags (their form it checks).  New files go under the MAINTAINERS
# entries that already own their directories, so a patch that adds one
# need not touch MAINTAINERS: checkpatch's FILE_PATH_CHANGES question is
# get_maintainer.pl's to answer (tree/export.sh asks it for the
# recipients).
checkpatch_posting() {
	for cp_p in $(series_files "upstream/$1"); do
		checkpatch "$TOP/upstream/$1/$cp_p" --ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES \
			>"$logs/$1-checkpatch-${cp_p%%-*}.log" 2>&1 ||
			echo "${cp_p%%-*}"
	done
}

failed=0
if [ "$apply_only" = 0 ] && [ ! -f "$BUILD/test/.config" ]; then
	msg "building the test kernel first: each commit is built with its config"
	"$TOP/kernel/build-kernel.sh" test >"$logs/build-test.log" 2>&1 ||
		die "the test kernel does not build (see $logs/build-test.log)"
fi
while read -r name from to count; do
	line="upstream: $name: $count patches apply"
	if [ "$apply_only" = 0 ]; then
		# the builds' output to the log, their progress to ours
		python3 "$TOP/util/progress.py" --label "building each commit of $name" \
			--step "upstream-$name" --unit commits --count '^(ok|not ok) ' \
			--total "$count" --log "$logs/$name-builds.log" -- \
			"$TOP/kernel/each-patch-builds.sh" "$from" "$to" >/dev/null || true
		built=$(grep -c '^ok ' "$logs/$name-builds.log" || true)
		line="$line, $built of $count build"
		[ "$built" = "$count" ] || { failed=1; line="$line (see $logs/$name-builds.log)"; }
		remarks=$(checkpatch_posting "$name")
		if [ -z "$remarks" ]; then
			line="$line, checkpatch clean"
		else
			failed=1
			line="$line, checkpatch: $(echo "$remarks" | tr '\n' ' ')(see $logs/$name-checkpatch-*.log)"
		fi
	fi
	echo "$line"
done <"$logs/ranges"

n=$(wc -l <"$logs/ranges")
patches=$(awk '{ n += $4 } END { print n }' "$logs/ranges")
differ=$(git -C "$TREE" diff --name-status upstream lt)
if [ -z "$differ" ]; then
	echo "upstream: $n postings, $patches patches, end tree identical to the stripped-base series"
else
	echo "$differ" | sed 's/^/differs: /'
	echo "upstream: $n postings, $patches patches, end tree differs from the stripped-base series in $(echo "$differ" | wc -l) files"
	[ "$(git -C "$TREE" rev-parse 'up^{tree}')" = "$(git -C "$TREE" rev-parse 'upstream^{tree}')" ] ||
		echo "upstream: branch up is not what upstream/ holds (commits not exported yet? make export)"
	failed=1
fi
[ "$failed" = 0 ]
