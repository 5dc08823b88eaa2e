#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Write the kernel tree's branch (base..lt) back to patches/ as
# git format-patch files, a cover letter and the series file; with
# --upstream, the upstream form (pristine..up, or pristine..$UP_BRANCH;
# see tree/mkupstream.sh) to upstream/.
#   export.sh [--upstream] [OUTDIR]    (default: patches/ or upstream/)
# Exporting the same commits twice gives the same bytes.  It only exports:
# whether the tree is patches/ is tree/mktree.sh's to say (and remember).
set -eu
. "$(dirname "$0")/../util/common.sh"

from=base branch=lt dir=patches applies="the base"
if [ "${1:-}" = --upstream ]; then
	from=pristine branch=${UP_BRANCH:-up} dir=upstream
	applies="a pristine linux-source-6.12"
	shift
fi
out=${1:-$TOP/$dir}
mkdir -p "$out"
[ -n "$(git -C "$TREE" rev-list "$from..$branch")" ] ||
	die "no commits on $branch above $from"

# The cover letter's text lives in $dir/cover.txt (subject line, blank
# line, body); git puts it, the shortlog and the diffstat together.
git -C "$TREE" config "branch.$branch.description" "$(cat "$TOP/$dir/cover.txt")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Blob ids in the "index" lines are abbreviated to a fixed length: git's
# automatic length grows with the number of objects in the repository,
# which would make the bytes depend on the tree's history.  The cover
# letter is from whoever runs git: make it the newest commit's author, so
# that the caller's identity (tree/mktree.sh exports the base's) does not
# change the bytes.
GIT_AUTHOR_NAME=$(git -C "$TREE" log -1 --format='%an' "$branch")
GIT_AUTHOR_EMAIL=$(git -C "$TREE" log -1 --format='%ae' "$branch")
GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
git -C "$TREE" -c core.abbrev=12 format-patch -q --abbrev=12 \
	--zero-commit --no-signature --cover-letter \
	--cover-from-description=subject --thread=shallow \
	--subject-prefix=PATCH -o "$tmp" "$from..$branch"
# The cover letter is dated "now": date it like the newest commit instead.
date=$(git -C "$TREE" log -1 --format='%aD' "$branch")
sed -i "s/^Date: .*/Date: $date/" "$tmp"/0000-cover-letter.patch
# Message-Ids carry a time stamp: derive them from the content instead.
for f in "$tmp"/*.patch; do
	id=$(grep -vi -e '^Message-Id:' -e '^In-Reply-To:' -e '^References:' "$f" |
		sha256sum | cut -c1-24)
	sed -i "s/^Message-Id: <.*>/Message-Id: <$id@pmqos-lt>/I" "$f"
done
first=$(sed -n 's/^Message-Id: //Ip' "$tmp"/0000-cover-letter.patch)
sed -i -e "s/^In-Reply-To: .*/In-Reply-To: $first/I" \
	-e "s/^References: .*/References: $first/I" "$tmp"/0*.patch
sed -i -e '/^In-Reply-To: /Id' -e '/^References: /Id' "$tmp"/0000-cover-letter.patch

find "$out" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' -delete
cp "$tmp"/*.patch "$out"/
{
	echo "# Order in which the patches apply to $applies (see tree/README.md)."
	for f in "$out"/[0-9][0-9][0-9][0-9]-*.patch; do
		case ${f##*/} in 0000-*) ;; *) echo "${f##*/}" ;; esac
	done
} > "$out/series"
msg "exported $(grep -vc '^#' "$out/series") patches to $out"
