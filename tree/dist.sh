#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Write one patch that turns a pristine unpacked linux-source-6.12 into the
# postings' end tree (pristine..up), for users of a stock 6.12.y kernel,
# and check it by applying it to a fresh unpack.
#   dist.sh [OUTFILE]   (default $OUT/pmqos-lt-linux-6.12.patch)
set -eu
. "$(dirname "$0")/../util/common.sh"

[ $# -le 1 ] || die "usage: dist.sh [OUTFILE]"
outfile=${1:-$OUT/pmqos-lt-linux-6.12.patch}
pristine=$("$TOP/tree/get-source.sh")
mkdir -p "$(dirname "$outfile")"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

version=$(basename "$(dirname "$pristine")")
{
	echo "Latency tolerance device PM QoS for linux-source-6.12 $version"
	echo
	echo "Apply with: cd linux-source-6.12 && patch -p1 < ${outfile##*/}"
	echo
	git -C "$TREE" diff --stat=72 pristine up
	echo
	git -C "$TREE" diff --full-index pristine up
} > "$outfile"

# Check: a fresh unpack plus the patch must equal the patched tree.
tar -C "$tmp" -xf /usr/src/linux-source-6.12.tar.xz
patch -s -p1 -d "$tmp/linux-source-6.12" < "$outfile" ||
	die "$outfile does not apply to a fresh unpack"
for f in $(git -C "$TREE" diff --no-renames --name-only pristine up); do
	if git -C "$TREE" cat-file -e "up:$f" 2>/dev/null; then
		git -C "$TREE" show "up:$f" | cmp -s - "$tmp/linux-source-6.12/$f" ||
			die "$f differs after applying $outfile"
	elif [ -e "$tmp/linux-source-6.12/$f" ]; then
		die "$f should have been deleted by $outfile"
	fi
done
msg "wrote $outfile ($(git -C "$TREE" diff --no-renames --name-only pristine up | wc -l) files); applies to a fresh unpack"
