#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Write the upstream form, branch up of the kernel tree (pristine..up, or
# pristine..$UP_BRANCH; see tree/mkupstream.sh), back to upstream/, one
# folder per posting, as git format-patch files, a cover letter and the
# series file; with --stripped, the stripped-base series tree/mkstripped.sh
# made (base..lt) to $OUT/stripped, with its cover letter from
# stripped/cover.txt.
#   export.sh [OUTDIR]               (default: upstream/)
#   export.sh --stripped [OUTDIR]    (default: $OUT/stripped)
# upstream/postings names the postings in order, each with the subject of
# its first commit; the posting runs up to the next one's first commit.
# Each posting's folder gets its own cover letter (from NAME/cover.txt),
# numbering and series file, and its recipients from
# scripts/get_maintainer.pl run on its patches with the MAINTAINERS file
# of the branch: maintainers in To:, reviewers and lists in Cc:.
# Exporting the same commits twice gives the same bytes.  It only exports:
# whether the tree is upstream/ is tree/mktree.sh's to say (and remember).
set -eu
. "$(dirname "$0")/../util/common.sh"

tmp=$(mktemp -d)
# The postings' tips are branches while they are exported (see format()).
cleanup() {
	rm -rf "$tmp"
	git -C "$TREE" for-each-ref --format='delete %(refname)' \
		refs/heads/export-posting/ | git -C "$TREE" update-ref --stdin
}
trap cleanup EXIT

# format FROM TIP COVER OUT [format-patch option...]: the commits FROM..TIP
# (TIP a branch, whose description git makes the cover letter from) as
# patch files in OUT, reproducibly
format() {
	f_from=$1 f_tip=$2 f_cover=$3 f_out=$4; shift 4
	# The cover letter's text lives in cover.txt (subject line, blank
	# line, body); git puts it, the shortlog and the diffstat together.
	git -C "$TREE" config "branch.$f_tip.description" "$(cat "$f_cover")"
	rm -rf "$f_out" && mkdir -p "$f_out"
	# Blob ids in the "index" lines are abbreviated to a fixed length:
	# git's automatic length grows with the number of objects in the
	# repository, which would make the bytes depend on the tree's history.
	git -C "$TREE" -c core.abbrev=12 format-patch -q --abbrev=12 \
		--zero-commit --no-signature --cover-letter \
		--cover-from-description=subject --thread=shallow \
		--subject-prefix=PATCH "$@" -o "$f_out" "$f_from..$f_tip"
	# The cover letter is dated "now": date it like the newest commit.
	f_date=$(git -C "$TREE" log -1 --format='%aD' "$f_tip")
	sed -i "s/^Date: .*/Date: $f_date/" "$f_out"/0000-cover-letter.patch
	# Message-Ids carry a time stamp: derive them from the content instead.
	for f in "$f_out"/*.patch; do
		id=$(grep -vi -e '^Message-Id:' -e '^In-Reply-To:' -e '^References:' "$f" |
			sha256sum | cut -c1-24)
		sed -i "s/^Message-Id: <.*>/Message-Id: <$id@pmqos-lt>/I" "$f"
	done
	f_first=$(sed -n 's/^Message-Id: //Ip' "$f_out"/0000-cover-letter.patch)
	sed -i -e "s/^In-Reply-To: .*/In-Reply-To: $f_first/I" \
		-e "s/^References: .*/References: $f_first/I" "$f_out"/0*.patch
	sed -i -e '/^In-Reply-To: /Id' -e '/^References: /Id' \
		"$f_out"/0000-cover-letter.patch
}

# install FROM OUT DESC: the patch files of FROM (a format() folder) to
# OUT, with a series file saying what they apply to
install() {
	mkdir -p "$2"
	find "$2" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' -delete
	cp "$1"/*.patch "$2"/
	{
		echo "# Order in which the patches apply to $3 (see tree/README.md)."
		for f in "$2"/[0-9][0-9][0-9][0-9]-*.patch; do
			case ${f##*/} in 0000-*) ;; *) echo "${f##*/}" ;; esac
		done
	} > "$2/series"
}

# recipients MAINTAINERS PATCH...: --to and --cc options for the patches,
# from get_maintainer.pl: maintainers in To:, reviewers and lists not
# already there in Cc:, each sorted.  The tree has no mainline history: --no-git, and
# the git errors get_maintainer.pl prints looking up Fixes: ids are
# dropped.
recipients() {
	r_m=$1; shift
	(cd "$TREE" && perl scripts/get_maintainer.pl --mpath "$r_m" --no-git \
		--no-git-fallback --no-rolestats --m --no-r --no-l "$@" 2>/dev/null) >"$tmp/to.raw" ||
		die "get_maintainer.pl failed"
	# its order changes from run to run (perl's hashes)
	LC_ALL=C sort -u "$tmp/to.raw" >"$tmp/to"
	(cd "$TREE" && perl scripts/get_maintainer.pl --mpath "$r_m" --no-git \
		--no-git-fallback --no-rolestats --no-m --r --l "$@" 2>/dev/null) |
		grep -vxF -f "$tmp/to" | LC_ALL=C sort -u >"$tmp/cc"
	sed 's/^/--to=/' "$tmp/to"
	sed 's/^/--cc=/' "$tmp/cc"
}

# The cover letter is from whoever runs git: make it the newest commit's
# author, so that the caller's identity (tree/mktree.sh exports the
# base's) does not change the bytes.
identity() {
	GIT_AUTHOR_NAME=$(git -C "$TREE" log -1 --format='%an' "$1")
	GIT_AUTHOR_EMAIL=$(git -C "$TREE" log -1 --format='%ae' "$1")
	GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
	export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
}

if [ "${1:-}" = --stripped ]; then
	out=${2:-$OUT/stripped}
	[ -n "$(git -C "$TREE" rev-list base..lt)" ] || die "no commits on lt above base"
	identity lt
	format base lt "$TOP/stripped/cover.txt" "$tmp/p"
	install "$tmp/p" "$out" "the base"
	msg "exported $(grep -vc '^#' "$out/series") patches to $out"
	exit 0
fi

branch=${UP_BRANCH:-up}
out=${1:-$TOP/upstream}
[ -n "$(git -C "$TREE" rev-list "pristine..$branch")" ] ||
	die "no commits on $branch above pristine"
identity "$branch"
git -C "$TREE" show "$branch:MAINTAINERS" >"$tmp/MAINTAINERS"

# The first commit of each posting, in upstream/postings' order
git -C "$TREE" log --reverse --format='%H %s' "pristine..$branch" >"$tmp/commits"
postings | while IFS='|' read -r name subject; do
	first=$(awk -v s="$subject" 'substr($0, 42) == s { print $1 }' "$tmp/commits")
	[ "$(echo "$first" | wc -w)" = 1 ] ||
		die "upstream/postings: no single commit on $branch is \"$subject\" ($name)"
	echo "$name $first"
done >"$tmp/firsts"
[ -s "$tmp/firsts" ] || die "upstream/postings names no posting"
[ "$(head -n 1 "$tmp/firsts" | cut -d' ' -f2)" = \
	"$(git -C "$TREE" rev-list --reverse "pristine..$branch" | head -n 1)" ] ||
	die "the first posting does not start at $branch's first commit"

# NAME FIRST END: a posting ends just before the next one starts
awk -v last="$branch" 'NR > 1 { print name, first, $2 "~1" } { name = $1; first = $2 }
	END { print name, first, last }' "$tmp/firsts" >"$tmp/ranges"
applies="a pristine linux-source-6.12"
while read -r name first end; do
	git -C "$TREE" merge-base --is-ancestor "$first" "$end" ||
		die "upstream/postings: $name starts after the next posting"
	git -C "$TREE" branch -f -q "export-posting/$name" "$end"
	format "$first~1" "export-posting/$name" "$TOP/upstream/$name/cover.txt" \
		"$tmp/$name.plain"
	# one option a line: names have blanks
	set -f; old_ifs=$IFS; IFS='
'
	# shellcheck disable=SC2046 # split at newlines only
	set -- $(recipients "$tmp/MAINTAINERS" $(find "$tmp/$name.plain" \
		-name '[0-9]*.patch' ! -name '0000-*' | sort))
	IFS=$old_ifs; set +f
	format "$first~1" "export-posting/$name" "$TOP/upstream/$name/cover.txt" \
		"$tmp/$name" "$@"
	install "$tmp/$name" "$out/$name" "$applies"
	msg "exported $(grep -vc '^#' "$out/$name/series") patches to $out/$name"
	applies="posting $name"
done <"$tmp/ranges"
