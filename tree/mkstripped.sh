#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Make branch lt, the stripped-base series, from the end tree of the
# upstream form: tag base (linux-source-6.12 less upstream's latency
# tolerance, base/strip.py) plus one commit per area of stripped/series,
# in its order.  A line there is
#   MESSAGE-FILE PATHSPEC...
# and the commit takes, from the end tree, every file that differs from
# the base and matches one of the pathspecs (and no earlier line's); its
# message is stripped/MESSAGE-FILE with a Signed-off-by: of the end
# commit's author.  A file that no line claims, or a line that claims
# none, is an error: the series must end at the end tree, and does.
# Nothing is checked out: the commits are made from tree objects, with the
# author and date of the end commit, so the same end commit (tree, author,
# date) gives the same commits.
#   mkstripped.sh [END]   (default: up)
set -eu
. "$(dirname "$0")/../util/common.sh"

end=${1:-up}
git -C "$TREE" rev-parse -q --verify "$end^{commit}" >/dev/null || die "no $end in $TREE (make tree)"
list=$TOP/stripped/series
idx=$(mktemp)
claimed=$(mktemp)
trap 'rm -f "$idx" "$claimed" "$claimed.lines"' EXIT

GIT_AUTHOR_NAME=$(git -C "$TREE" log -1 --format=%an "$end")
GIT_AUTHOR_EMAIL=$(git -C "$TREE" log -1 --format=%ae "$end")
GIT_AUTHOR_DATE=$(git -C "$TREE" log -1 --format=%aD "$end")
author="$GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>"
GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE \
	GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_COMMITTER_DATE

# changed [PATHSPEC...]: the files that differ between the base and the
# end tree (renames as a deletion and an addition), one a line
changed() { git -C "$TREE" diff --no-renames --name-only base "$end" -- "$@"; }

parent=$(git -C "$TREE" rev-parse base)
GIT_INDEX_FILE=$idx git -C "$TREE" read-tree base
set -f	# pathspecs are git's to expand
n=0
grep -n -v -e '^#' -e '^$' "$list" >"$claimed.lines"
while IFS=: read -r line rest; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # the words of the line
	set -- $rest
	file=$1; shift
	[ -f "$TOP/stripped/$file" ] || die "stripped/series:$line: no stripped/$file"
	for ps in "$@"; do
		[ -n "$(changed "$ps")" ] ||
			die "stripped/series:$line: no file of the end tree differs from the base in $ps"
	done
	files=$(changed "$@" | grep -vxF -f "$claimed" || true)
	[ -n "$files" ] || die "stripped/series:$line ($file): earlier lines took all its files"
	for f in $files; do
		echo "$f" >>"$claimed"
		if entry=$(git -C "$TREE" ls-tree "$end" -- "$f") && [ -n "$entry" ]; then
			# mode type blob path
			# shellcheck disable=SC2086 # split into its fields
			set -- $entry
			GIT_INDEX_FILE=$idx git -C "$TREE" update-index --add --cacheinfo "$1,$3,$f"
		else
			GIT_INDEX_FILE=$idx git -C "$TREE" update-index --force-remove "$f"
		fi
	done
	tree=$(GIT_INDEX_FILE=$idx git -C "$TREE" write-tree)
	parent=$({ cat "$TOP/stripped/$file"; printf '\nSigned-off-by: %s\n' "$author"; } |
		git -C "$TREE" commit-tree -p "$parent" "$tree")
done <"$claimed.lines"

left=$(git -C "$TREE" diff --no-renames --name-only "$parent" "$end")
[ -z "$left" ] || die "stripped/series claims no line for: $(echo "$left" | tr '\n' ' ')"
git -C "$TREE" update-ref refs/heads/lt "$parent"
msg "branch lt: base + $n commits of stripped/series, at the tree of $end"
