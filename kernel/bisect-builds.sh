#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every commit of the postings builds in the configurations that leave out
# what the series' code depends on (make bisect-builds; not part of make
# check: hours on two cores).  For each VARIANT below, in the order given
# (default: all), the kernel of pristine, then of each commit of
# pristine..up in turn, is built whole (make vmlinux), incrementally in
# $BUILD/bisect-VARIANT, from a worktree of its own ($CACHE/linux-bisect):
# kbuild rebuilds every object that includes a header a commit changes,
# not only the files it touches.  A commit fails on an error or on a
# warning that pristine's build of the variant does not give (line
# numbers aside).  The config is tinyconfig + configs/test.config + the
# variant's lines, made again at pristine and at every commit that
# changes a Kconfig file; the variant's symbol must be off after it.
#   pm-off    CONFIG_PM=n (the PM QoS and PM core stubs)
#   acpi-off  CONFIG_ACPI=n (LPSS and the _DSM code out)
#   aspm-off  CONFIG_PCIEASPM=n (pci_configure_ltr() and the LTR backend out)
#   32bit     CONFIG_64BIT=n (i386)
# Prints "ok N VARIANT subject" or "not ok N VARIANT subject" per build
# (N 0: pristine), then "N passed, M failed"; logs in $OUT/bisect-builds/.
# A tree that built ok in a variant is listed in VARIANT.ok there and not
# built again ("ok N VARIANT subject (tree built before)"), so a run after
# a rebase builds only the trees the rebase made.
#   bisect-builds.sh [VARIANT...]
set -u
. "$(dirname "$0")/../util/common.sh"

# variant_lines VARIANT: its config lines; the first one is the symbol
# that must be off
variant_lines() {
	case $1 in
	pm-off) printf '%s\n' '# CONFIG_PM is not set' '# CONFIG_SUSPEND is not set' \
		'# CONFIG_HIBERNATION is not set' ;;
	acpi-off) echo '# CONFIG_ACPI is not set' ;;
	aspm-off) echo '# CONFIG_PCIEASPM is not set' ;;
	32bit) echo '# CONFIG_64BIT is not set' ;;
	*) return 1 ;;
	esac
}

[ $# -gt 0 ] || set -- pm-off acpi-off aspm-off 32bit
for v in "$@"; do
	variant_lines "$v" >/dev/null || die "no variant $v (pm-off, acpi-off, aspm-off, 32bit)"
done
git -C "$TREE" rev-parse -q --verify up >/dev/null || die "no branch up in $TREE (make tree)"

wt=$CACHE/linux-bisect
logs=$OUT/bisect-builds
worktree_at "$wt" pristine
mkdir -p "$logs"

# configure VARIANT: its .config from the fragments, at the checked-out commit
configure() {
	c_out=$BUILD/bisect-$1
	mkdir -p "$c_out"
	variant_lines "$1" >"$c_out/variant.config"
	kmake "$wt" "$c_out" tinyconfig >/dev/null &&
		(cd "$c_out" && "$wt/scripts/kconfig/merge_config.sh" -m -O "$c_out" .config \
			"$TOP/configs/test.config" "$c_out/variant.config" >/dev/null) &&
		kmake "$wt" "$c_out" olddefconfig >/dev/null || return 1
	c_sym=$(head -n 1 "$c_out/variant.config" | sed 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/')
	! grep -q "^$c_sym=" "$c_out/.config" || { msg "$1: $c_sym is still set"; return 1; }
}

# warnings LOG: its warning lines, without line and column numbers
warnings() {
	grep 'warning:' "$1" | sed 's/:[0-9][0-9]*:[0-9][0-9]*:/:/; s/:[0-9][0-9]*:/:/' | sort -u
}

# build N VARIANT SUBJECT RECONFIGURE TREE: one build; prints its ok/not ok
# line
build() {
	b_out=$BUILD/bisect-$2 b_log=$logs/$2-$1.log
	if [ "$4" = 1 ] && ! configure "$2" >"$b_log" 2>&1; then
		echo "not ok $1 $2 $3 (config, see $b_log)"
		return 1
	fi
	if ! kmake "$wt" "$b_out" -j"$(nproc)" vmlinux >>"$b_log" 2>&1 || grep -q 'error:' "$b_log"; then
		echo "not ok $1 $2 $3 (see $b_log)"
		return 1
	fi
	if [ "$1" = 0 ]; then
		warnings "$b_log" >"$logs/$2-pristine.warnings"
	elif warnings "$b_log" | grep -vxF -f "$logs/$2-pristine.warnings" | grep -q .; then
		echo "not ok $1 $2 $3 (new warnings, see $b_log)"
		return 1
	fi
	echo "$5" >>"$logs/$2.ok"
	echo "ok $1 $2 $3"
}

# built_before VARIANT TREE: TREE is listed in VARIANT.ok (pristine never is)
built_before() {
	[ "$n" != 0 ] && grep -qxF "$2" "$logs/$1.ok" 2>/dev/null
}

passed=0 failed=0
n=0
for c in $(git -C "$TREE" rev-parse pristine) $(git -C "$TREE" rev-list --reverse pristine..up); do
	subj=$(git -C "$TREE" log -1 --format=%s "$c")
	tree=$(git -C "$TREE" rev-parse "$c^{tree}")
	todo=
	for v in "$@"; do
		if built_before "$v" "$tree"; then
			echo "ok $n $v $subj (tree built before)"
			passed=$((passed + 1))
		else
			todo="$todo $v"
		fi
	done
	if [ -n "$todo" ]; then
		git -C "$wt" checkout -q --force "$c" || die "cannot check out $c in $wt"
		for v in $todo; do
			# its build directory was last built at $last
			eval "last=\${last_$(echo "$v" | tr - _):-}"
			reconf=0
			if [ -z "$last" ] || git -C "$wt" diff --name-only "$last" "$c" | grep -q 'Kconfig'; then
				reconf=1
			fi
			if build "$n" "$v" "$subj" "$reconf" "$tree"; then
				passed=$((passed + 1))
			else
				failed=$((failed + 1))
			fi
			eval "last_$(echo "$v" | tr - _)=\$c"
		done
	fi
	n=$((n + 1))
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
