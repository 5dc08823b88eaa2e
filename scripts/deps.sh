#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the project needs (idempotent, quiet when
# everything is there already).  Needs root on Debian 12.
set -eu

pkgs="build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils
python3 git ccache sparse qemu-system-x86 busybox-static acpica-tools
shellcheck kmod gnuplot-nox python3-ply python3-git python3-docutils"

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "deps: installing:$missing" >&2
[ "$(id -u)" = 0 ] || { echo "deps: need root to install:$missing" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086 # word splitting of the list is intended
apt-get install -y -qq --no-install-recommends $missing >/dev/null
