#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The upstream form: branch "upstream" of the kernel tree is a pristine
# linux-source-6.12 (tag "pristine") plus upstream/series applied with
# git am, in the worktree $CACHE/linux-upstream.  Its end tree must be the
# tree of branch lt (base + patches/), every file: the last line says
#   upstream: N patches, end tree identical
# or names the files that differ (and the exit status is 1).
# Branch "up" is left alone: it is where the upstream form is edited
# (tree/export.sh --upstream writes it back to upstream/).
set -eu
. "$(dirname "$0")/../util/common.sh"

"$TOP/tree/mktree.sh"
pristine=$("$TOP/tree/get-source.sh")
wt=$CACHE/linux-upstream

base_identity

ptree=$(pristine_tree "$pristine")
# A tag that has that tree is kept (branch "up" may be built on it).
if [ "$(git -C "$TREE" rev-parse -q --verify 'pristine^{tree}' 2>/dev/null)" != "$ptree" ]; then
	version=$(basename "$(dirname "$pristine")")
	c=$(git -C "$TREE" commit-tree -m "linux-source-6.12 $version as Debian ships it" "$ptree")
	git -C "$TREE" tag -f pristine "$c" >/dev/null
fi

wait_build_lock
exec 9>"$CACHE/build.lock"
flock 9
worktree_at "$wt" pristine
am_series "$wt" upstream pristine upstream
exec 9>&-

differ=$(git -C "$TREE" diff --name-status upstream lt)
if [ -z "$differ" ]; then
	echo "upstream: $APPLIED patches, end tree identical"
else
	echo "$differ" | sed 's/^/differs: /'
	echo "upstream: $APPLIED patches, end tree differs from base + patches/ in $(echo "$differ" | wc -l) files"
	exit 1
fi
