#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print a path as util/common.sh sets it, for the Makefile (which does not
# write them again): where.sh CACHE|OUT|TREE, or where.sh bzimage NAME.
set -eu
. "$(dirname "$0")/common.sh"

case ${1:-} in
CACHE) echo "$CACHE" ;;
OUT) echo "$OUT" ;;
TREE) echo "$TREE" ;;
bzimage) [ $# = 2 ] || die "usage: where.sh bzimage NAME"; bzimage "$2" ;;
*) die "usage: where.sh CACHE|OUT|TREE|bzimage NAME" ;;
esac
