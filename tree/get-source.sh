#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install Debian's linux-source-6.12 at the version pinned in base/VERSION
# (or, loudly, the one served if the pin is gone) and unpack it into the
# cache.  Prints the unpacked tree's path.
set -eu
. "$(dirname "$0")/../util/common.sh"

pin=$(cat "$TOP/base/VERSION")
pkg=linux-source-6.12
have=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)

# apt_step KEY LABEL ARG...: apt-get ARG..., the step KEY, with its last
# time and the time so far shown (util/progress.py) and only apt's errors
# and warnings; never on standard output, which is the tree's path
apt_step() {
	apt_key=$1 apt_label=$2; shift 2
	python3 "$TOP/util/progress.py" --label "get-source: $apt_label" \
		--step "$apt_key" --quiet '^(?![EW]: )' -- apt-get -q "$@" >&2
}

if [ "$have" != "$pin" ]; then
	export DEBIAN_FRONTEND=noninteractive
	msg "installing $pkg $pin with apt (about 150 MB)"
	if ! apt-cache policy "$pkg" | grep -q " $pin "; then
		apt_step apt-update "updating the package lists" update
	fi
	if apt-cache policy "$pkg" | grep -q " $pin "; then
		apt_step get-source-install "installing $pkg $pin" install -y --no-install-recommends "$pkg=$pin"
	else
		served=$(apt-cache policy "$pkg" | sed -n 's/^ *Candidate: //p')
		if [ -z "$served" ] || [ "$served" = "(none)" ]; then
			die "$pkg is not served by any configured Debian repository"
		fi
		cat >&2 <<MSG
########################################################################
get-source: WARNING: pinned $pkg $pin is no longer served.
get-source: WARNING: using $served instead; update base/VERSION if it works.
########################################################################
MSG
		[ "$have" = "$served" ] ||
			apt_step get-source-install "installing $pkg $served" install -y --no-install-recommends "$pkg=$served"
	fi
	have=$(dpkg-query -W -f='${Version}' "$pkg")
fi

dest=$SRC_DIR/$have
if [ ! -f "$dest/.unpacked" ]; then
	rm -rf "$dest"
	mkdir -p "$dest"
	# tar -v names every entry: 92452 in 6.12.118-1~deb12u1
	python3 "$TOP/util/progress.py" --label "get-source: unpacking $pkg" \
		--about "$have into $dest" --step get-source-unpack --unit files \
		--count . --total 92452 --quiet '^linux-source-6\.12/' -- \
		tar -C "$dest" -xvf /usr/src/linux-source-6.12.tar.xz >&2
	touch "$dest/.unpacked"
fi
echo "$dest/linux-source-6.12"
