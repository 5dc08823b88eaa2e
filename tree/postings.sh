#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The postings of upstream/ under the submitter's own identity, ready to
# read and send: every commit of branch up (pristine..up) made again with
# the author, committer and Signed-off-by: of git's user.name and
# user.email (git config, as git send-email will use them), then written
# out as tree/export.sh does, one folder per posting, in OUTDIR.  Nothing
# of the identity the commits carried before is left; that is checked.
# Branch up and upstream/ are left as they are.
#   postings.sh [OUTDIR]    (default: $OUT/postings)
set -eu
. "$(dirname "$0")/../util/common.sh"

out=${1:-$OUT/postings}
name=$(git -C "$TOP" config user.name || true)
email=$(git -C "$TOP" config user.email || true)
[ -n "$name" ] ||
	die "git config user.name is not set: the postings carry your name (git config --global user.name 'Your Name')"
[ -n "$email" ] ||
	die "git config user.email is not set: the postings carry your address (git config --global user.email you@example.org)"
old_name=$(git -C "$TREE" log -1 --format=%an up)
old_email=$(git -C "$TREE" log -1 --format=%ae up)

# Each commit again, on the same tree, with the new identity: plumbing
# only, so the work tree (which may have changes) is not touched.
GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email
GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
new=$(git -C "$TREE" rev-parse pristine)
for c in $(git -C "$TREE" rev-list --reverse pristine..up); do
	[ "$(git -C "$TREE" log -1 --format='%an <%ae>' "$c")" = "$old_name <$old_email>" ] ||
		die "$(git -C "$TREE" log -1 --format='%h %s' "$c") is by another author; postings.sh signs one author's series"
	GIT_AUTHOR_DATE=$(git -C "$TREE" log -1 --format=%aD "$c")
	GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
	export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
	git -C "$TREE" log -1 --format=%B "$c" |
		OLD="Signed-off-by: $old_name <$old_email>" NEW="Signed-off-by: $name <$email>" \
			awk '$0 == ENVIRON["OLD"] { print ENVIRON["NEW"]; next } { print }' >"$tmp"
	grep -qxF "Signed-off-by: $name <$email>" "$tmp" ||
		die "$(git -C "$TREE" log -1 --format='%h %s' "$c") has no Signed-off-by: of its author to replace"
	new=$(git -C "$TREE" commit-tree -p "$new" -F "$tmp" "$(git -C "$TREE" rev-parse "$c^{tree}")")
done
git -C "$TREE" branch -f postings-signed "$new"
trap 'rm -f "$tmp"; git -C "$TREE" branch -D -q postings-signed' EXIT

# Posting folders of an earlier run that upstream/postings no longer names
# must not be sent by mistake: only this run's are left.
for d in "$out"/[0-9]*-*/; do
	if [ -f "$d/series" ]; then rm -rf "$d"; fi
done
UP_BRANCH=postings-signed "$TOP/tree/export.sh" "$out"
if [ "$old_name <$old_email>" != "$name <$email>" ]; then
	set --
	[ "$old_email" = "$email" ] || set -- "$@" -e "$old_email"
	[ "$old_name" = "$name" ] || set -- "$@" -e "$old_name"
	left=$(grep -rlF "$@" "$out" || true)
	[ -z "$left" ] || die "the former identity is still in: $left"
fi
msg "wrote the postings as $name <$email> to $out: read them, then send each folder with git send-email"
