#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every test the project has, in order; each step's output goes to
# out/check/<step>.log.  The last line is "N passed, M failed".
# Long steps say what they do and how long they took last time, and show
# their progress (util/progress.py) on check's own output: fd 8 in the
# step, PROGRESS_FD=8 (not fd 3 or 4: make's jobserver may be there).
set -u
. "$(dirname "$0")/../util/common.sh"

logs=$OUT/check
rm -rf "$logs"
mkdir -p "$logs"
passed=0 failed=0 skipped=0 stop=0

# logged LOG CMD...: CMD's output to LOG, its progress to ours
logged() {
	logged_log=$1; shift
	(PROGRESS_FD=8; export PROGRESS_FD; "$@") 8>&1 >"$logged_log" 2>&1
}
# ticking LABEL STEP CMD...: CMD, saying LABEL and the last time of STEP
# (or its estimate) first, then the time so far and its messages
# (util/progress.py)
ticking() {
	ticking_label=$1 ticking_step=$2; shift 2
	python3 "$TOP/util/progress.py" --label "$ticking_label" \
		--step "$ticking_step" --echo -- "$@"
}
# commits STEP TOTAL CMD...: CMD (each-patch-builds.sh), counting its commits
commits() {
	commits_step=$1 commits_total=$2; shift 2
	python3 "$TOP/util/progress.py" --label "building each commit" \
		--about "(W=1, the files it touches and the API users)" --step "$commits_step" \
		--unit commits --count '^(ok|not ok) ' --total "$commits_total" -- "$@"
}

pass() { passed=$((passed + 1)); echo "PASS $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1 (see ${2:-$logs/$1.log})"; }

# step NAME CMD...: one check, passes when CMD exits 0
step() {
	name=$1; shift
	if [ "$stop" = 1 ]; then
		skipped=$((skipped + 1)); echo "SKIP $name (an earlier step failed)"; return 1
	fi
	if logged "$logs/$name.log" "$@"; then pass "$name"; else fail "$name"; return 1; fi
}

# counted NAME CMD...: CMD prints "N passed, M failed[, K skipped]" as its
# last line; add N and M to the totals (and one failure if it printed none)
# and show K (skipped cases; a suite that must run fails in its own check).
counted() {
	name=$1; shift
	if [ "$stop" = 1 ]; then
		skipped=$((skipped + 1)); echo "SKIP $name (an earlier step failed)"; return 1
	fi
	logged "$logs/$name.log" "$@"
	rc=$?
	grep -E '^(PASS|FAIL|ok|not ok) ' "$logs/$name.log" | sed "s/^/  $name: /"
	last=$(tail -n 1 "$logs/$name.log")
	p=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\1/p')
	f=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\2/p')
	s=$(echo "$last" | sed -n 's/^[0-9]* passed, [0-9]* failed, \([0-9]*\) skipped.*/\1/p')
	if [ -z "$p" ]; then
		fail "$name"; return 1
	fi
	passed=$((passed + p)); failed=$((failed + f))
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then fail "$name"; fi
	echo "$name: $p passed, $f failed${s:+, $s skipped}"
	[ "$rc" = 0 ]
}

# The repository's own files (git's list; every file outside a checkout),
# but the postings and the harness's fixtures (logs and stand-ins)
own_files() {
	{ git -C "$TOP" ls-files 2>/dev/null ||
		(cd "$TOP" && find . -path ./.git -prune -o -path ./out -prune -o -type f -print |
			sed 's#^\./##'); } | grep -v -e '^upstream/' -e '^tests/harness/fixtures/'
}
# Every shell script: the files that start with #!/bin/sh or say
# "shellcheck shell=sh" (sourced libraries)
shell_scripts() {
	own_files |
		while read -r f; do
			{ head -n 1 "$TOP/$f" | grep -q '^#!/bin/sh' ||
				grep -q '^# shellcheck shell=sh' "$TOP/$f"; } && echo "$f"
		done
}
shellcheck_all() {
	files=$(shell_scripts)
	[ -n "$files" ] || { echo "no shell scripts found"; return 1; }
	echo "$files"
	# shellcheck disable=SC2086 # paths without spaces
	(cd "$TOP" && shellcheck $files)
}
python_files() { own_files | grep '\.py$' | sed "s#^#$TOP/#"; }
# Export the branch tree/mkupstream.sh made of upstream/ again, with git
# set to abbreviate blob ids differently (as a tree with another history
# would): the bytes must be those of upstream/.
export_twice() {
	d=$(mktemp -d) && GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.abbrev \
		GIT_CONFIG_VALUE_0=7 UP_BRANCH=upstream "$TOP/tree/export.sh" "$d" &&
		diff -r -x cover.txt -x postings "$d" "$TOP/upstream" && rm -rf "$d"
}
# The files the series adds or mostly writes, as objects, and the in-tree
# users of the API (configs/api-users).  Not the PCI core files the PCIe
# LTR backend hooks into (probe.c, pci-driver.c, pci-acpi.c, aspm.c):
# sparse warns about their own code; each-patch-builds compiles them with
# W=1.
OBJS="drivers/base/power/qos.o drivers/base/power/sysfs.o
drivers/base/power/qos-test.o drivers/acpi/x86/lpss.o
lib/test_power_qos.o lib/pci_ltr_kunit.o
drivers/pci/pcie/ltr.o
$(api_users_objs)"
no_warnings() { ! grep -E 'warning:|error:' "$1"; }
# The postings made by tree/postings.sh under a test identity carry that
# identity alone: every From: and Signed-off-by:, and nothing of the
# author the commits of branch up have.
postings_identity() {
	pi_d=$(mktemp -d) pi_id='Test Submitter <submitter@example.org>'
	pi_old=$(git -C "$TREE" log -1 --format=%ae up)
	GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0='Test Submitter' \
		GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1=submitter@example.org \
		"$TOP/tree/postings.sh" "$pi_d" || return 1
	pi_ids=$(grep -rh -e '^From: ' -e '^Signed-off-by: ' "$pi_d" | sed 's/^[^:]*: //' | sort)
	printf '%s\n' "$pi_ids" | uniq -c
	for pi_p in "$pi_d"/*/[0-9]*.patch; do
		case $pi_p in */0000-*) continue ;; esac
		grep -qxF "Signed-off-by: $pi_id" "$pi_p" || { echo "not signed: $pi_p"; return 1; }
	done
	[ "$(printf '%s\n' "$pi_ids" | uniq)" = "$pi_id" ] &&
		! grep -rlF "$pi_old" "$pi_d" && rm -rf "$pi_d"
}
# W=1 and sparse (C=2 checks even up-to-date files) on those objects
w1_sparse() {
	EXTRA_MAKE="W=1 C=2" TARGETS="$OBJS" "$TOP/kernel/build-kernel.sh" test 2>&1 |
		tee "$logs/w1-sparse.out"
	no_warnings "$logs/w1-sparse.out"
}

echo "check: every test, in order; each step's output in $logs/<step>.log"
# shellcheck disable=SC2046 # posting names without blanks
python3 "$TOP/util/progress.py" --estimate tree kernel-base kernel-test \
	each-patch-builds $(postings | sed 's/|.*//; s/^/upstream-/') guest-test kernel-debug guest-debug |
	sed 's/^/check: the long steps, if they have to run: /'
# Host-side tests of the tooling itself
counted harness sh "$TOP/tests/harness/run.sh"
step shellcheck shellcheck_all
# shellcheck disable=SC2046 # paths without spaces
step python-compile python3 -m py_compile $(python_files)
pristine=$("$TOP/tree/get-source.sh") || stop=1
counted base-strip sh "$TOP/tests/base/run.sh" "$pristine"

# The kernel tree: pristine + upstream/ (branch up), and the stripped-base
# series made from it (branch lt, written to $OUT/stripped)
step series-applies ticking "making the kernel tree (pristine + upstream/, base + stripped series)" tree \
	env STRICT=1 "$TOP/tree/mktree.sh" || stop=1
step stripped-export "$TOP/tree/export.sh" --stripped "$OUT/stripped" || stop=1
# Its patches take whole files, so MAINTAINERS comes whole in the docs
# patch, not with each new file: checkpatch's FILE_PATH_CHANGES question
# ("does MAINTAINERS need updating?") is answered there.
for p in "$OUT"/stripped/[0-9][0-9][0-9][0-9]-*.patch; do
	p=${p##*/}
	case $p in 0000-*|'[0-9]'*) continue ;; esac
	step "checkpatch-stripped-${p%%-*}" checkpatch "$OUT/stripped/$p" --ignore FILE_PATH_CHANGES
done

# Kernels: the base alone, then the postings' end tree with the in-tree users
step build-base "$TOP/kernel/build-kernel.sh" base
step build-test "$TOP/kernel/build-kernel.sh" test || stop=1
step build-test-no-warnings no_warnings "$logs/build-test.log"
counted each-patch-builds commits each-patch-builds "$(git -C "$TREE" rev-list --count base..lt)" \
	"$TOP/kernel/each-patch-builds.sh"
# The upstream form: its postings apply in order on pristine 6.12, each
# commit builds, checkpatch is clean, and the end tree is the one above
step upstream "$TOP/tree/mkupstream.sh"
sed -n 's/^upstream: /  upstream: /p' "$logs/upstream.log"
step export-reproducible export_twice
step postings-identity postings_identity
step w1-sparse w1_sparse
# the harness's out-of-tree test modules (kmod/), W=1 and sparse
step kmod-w1-sparse env EXTRA_MAKE=C=2 "$TOP/kernel/build-kmod.sh" test

# In QEMU (guest/profiles/test)
counted guest "$TOP/qemu/run" test

# The debug kernel (configs/debug.config: KASAN, lockdep, kmemleak,
# failslab) with guest/debug/*: hostile input, stress, allocation failure
# (guest/profiles/debug)
step build-debug "$TOP/kernel/build-kernel.sh" debug &&
	counted debug-guest "$TOP/qemu/run" debug

step dist "$TOP/tree/dist.sh"

echo
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" = 0 ] && [ "$skipped" = 0 ]
