#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the project needs (idempotent, quiet when
# everything is there already).  Needs root on Debian 12.
set -eu

pkgs="build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils
python3 git ccache sparse qemu-system-x86 busybox-static acpica-tools
shellcheck kmod gnuplot-nox python3-ply python3-git python3-docutils procps"

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

[ "$(id -u)" = 0 ] || { echo "deps: need root to install:$missing" >&2; exit 1; }
echo "deps: installing with apt:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# apt's own lines are shown only when they are errors or warnings;
# util/progress.py shows the step's last time (or estimate), the time so
# far and the packages set up.  On a
# fresh machine python3 may be one of the missing packages: then apt's
# output is shown as it comes.
apt_step() {
	label=$1; shift
	if ! command -v python3 >/dev/null; then
		echo "deps: $label" >&2
		while [ "$1" != -- ]; do shift; done
		shift
		"$@" >&2
		return
	fi
	python3 "$(dirname "$0")/../util/progress.py" --label "deps: $label" \
		--quiet '^(?![EW]: )' "$@" >&2
}
apt_step "updating the package lists" --step apt-update -- apt-get update -q
# shellcheck disable=SC2086 # word splitting of the list is intended
n=$(apt-get install -s -q --no-install-recommends $missing | grep -c '^Inst ' || true)
# shellcheck disable=SC2086
apt_step "installing $n packages" --step deps --unit "packages set up" --count '^Setting up ' \
	--total "$n" -- apt-get install -y -q --no-install-recommends $missing
