#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install Debian's linux-source-6.12 at the version pinned in base/VERSION
# (or, loudly, the one served if the pin is gone) and unpack it into the
# cache.  Prints the unpacked tree's path.
set -eu
. "$(dirname "$0")/common.sh"

pin=$(cat "$TOP/base/VERSION")
pkg=linux-source-6.12
have=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)

if [ "$have" != "$pin" ]; then
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-cache policy "$pkg" | grep -q " $pin "; then
		apt-get update -qq
	fi
	if apt-cache policy "$pkg" | grep -q " $pin "; then
		apt-get install -y -qq --no-install-recommends "$pkg=$pin" >/dev/null
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
			apt-get install -y -qq --no-install-recommends "$pkg=$served" >/dev/null
	fi
	have=$(dpkg-query -W -f='${Version}' "$pkg")
fi

dest=$SRC_DIR/$have
if [ ! -f "$dest/.unpacked" ]; then
	msg "unpacking $pkg $have"
	rm -rf "$dest"
	mkdir -p "$dest"
	tar -C "$dest" -xf /usr/src/linux-source-6.12.tar.xz
	touch "$dest/.unpacked"
fi
echo "$dest/linux-source-6.12"
