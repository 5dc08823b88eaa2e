#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every commit of the series builds on its own: check out each commit of
# base..lt (or FROM..BRANCH: pristine..upstream for the upstream form, see
# tree/mkupstream.sh) in a worktree of its own ($CACHE/linux-step) and
# compile, with W=1, the C files it touches, plus the in-tree users of the API
# (configs/api-users) from the first commit that declares
# dev_pm_qos_expose_latency_tolerance() on.  Any error or warning fails
# that commit.  The config is the test kernel's ($BUILD/test/.config, so
# build the test kernel first), brought to each commit with olddefconfig
# (copied anew where a commit changes a Kconfig file); the build
# directory is $BUILD/step.
# Prints "ok N subject" or "not ok N subject" per commit, then
# "N passed, M failed".
#   each-patch-builds.sh [FROM BRANCH]
set -u
. "$(dirname "$0")/../util/common.sh"

USERS=$(api_users_objs)
wt=$CACHE/linux-step
out=$BUILD/step
[ -f "$BUILD/test/.config" ] || die "no $BUILD/test/.config: build the test kernel first"
from=${1:-base} branch=${2:-lt}
git -C "$TREE" rev-parse -q --verify "$from" >/dev/null || die "no $from in $TREE (make tree)"

worktree_at "$wt" "$from"
mkdir -p "$out"

n=0 passed=0 failed=0
for c in $(git -C "$TREE" rev-list --reverse "$from..$branch"); do
	n=$((n + 1))
	subj=$(git -C "$TREE" log -1 --format=%s "$c")
	log=$out/commit-$n.log
	git -C "$wt" checkout -q --force "$c" || die "cannot check out $c in $wt"
	# The test kernel's config again at the first commit and at every
	# commit that changes a Kconfig file: olddefconfig drops the symbols a
	# commit does not know yet, so a config carried on would give a symbol
	# added later (CONFIG_PCIE_LTR_QOS) its default, not the test kernel's
	# value.  Other commits keep the last config (and the objects built
	# with it: copying it anew at every commit costs minutes).
	if [ "$n" = 1 ] || git -C "$wt" diff --name-only "$c~1" "$c" | grep -q 'Kconfig'; then
		cp "$BUILD/test/.config" "$out/.config"
	fi
	objs=$(git -C "$wt" diff --name-only "$c~1" "$c" -- '*.c' |
		grep -v '^tools/' | sed 's/\.c$/.o/')
	if git -C "$wt" grep -q dev_pm_qos_expose_latency_tolerance -- include/linux/pm_qos.h; then
		objs="$objs $USERS"
	fi
	# shellcheck disable=SC2086 # object lists
	if kmake "$wt" "$out" olddefconfig >"$log" 2>&1 && kmake "$wt" "$out" -j"$(nproc)" W=1 $objs >>"$log" 2>&1 &&
		! grep -E 'warning:|error:' "$log"; then
		passed=$((passed + 1))
		echo "ok $n $subj"
	else
		failed=$((failed + 1))
		echo "not ok $n $subj (see $log)"
		tail -n 20 "$log" | sed 's/^/# /'
	fi
	echo "# built: $(printf '%s\n' "$objs" | tr '\n' ' ')"
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
