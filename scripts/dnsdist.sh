#!/bin/sh
# dnsdist.sh DESTDIR
#
# Unpacks Debian's own binary package `dnsdist` into DESTDIR, a second
# dnstap producer for the tap's integration test (tests/integration/
# test_tap_dnsdist.c): dnsdist in front of the lab's resolver, logging its client
# queries and responses with DnstapLogAction and DnstapLogResponseAction.
# As scripts/stock-unbound.sh does for the stock unbound:
# scripts/apt-source.sh --binary fetches the .deb through a private copy of
# the machine's own apt sources, and `dpkg -x` unpacks it, so no maintainer
# script runs and no service is started or enabled; nothing outside
# DESTDIR changes.  The shared libraries it links are ordinary packages
# (`make deps-dnsdist`).  Does nothing when DESTDIR/usr/bin/dnsdist is there.
set -eu

[ $# -eq 1 ] || { echo "usage: $0 DESTDIR" >&2; exit 2; }
dest=$1
[ -x "$dest/usr/bin/dnsdist" ] && exit 0
mkdir -p "$dest/.debs"
dest=$(cd "$dest" && pwd)
rm -f "$dest"/.debs/*.deb
sh "$(dirname "$0")/apt-source.sh" --binary "$dest/.debs" dnsdist
dpkg -x "$dest"/.debs/dnsdist_*.deb "$dest"
"$dest/usr/bin/dnsdist" --version | head -n 1
