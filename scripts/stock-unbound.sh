#!/bin/sh
# stock-unbound.sh DESTDIR
#
# Unpacks Debian's own binary packages `unbound` and `python3-unbound` (the
# stock daemon with its python module, and unboundmodule.py) into DESTDIR,
# for the python flavour of the integration tests and the benchmark: the
# stock-package path without installing the package.  scripts/apt-source.sh
# --binary fetches the .deb files through a private copy of the machine's
# own apt sources, and `dpkg -x` unpacks them: no maintainer script runs, so no `unbound` user,
# no /etc/unbound, no service is started or enabled, and nothing outside
# DESTDIR changes.  The shared libraries the daemon links are ordinary
# packages (`make deps-stock`).  Does nothing when DESTDIR/usr/sbin/unbound
# is there.
set -eu

[ $# -eq 1 ] || { echo "usage: $0 DESTDIR" >&2; exit 2; }
dest=$1
[ -x "$dest/usr/sbin/unbound" ] && [ -f "$dest/usr/lib/python3/dist-packages/unboundmodule.py" ] && exit 0
mkdir -p "$dest/.debs"
dest=$(cd "$dest" && pwd)
rm -f "$dest"/.debs/*.deb
sh "$(dirname "$0")/apt-source.sh" --binary "$dest/.debs" unbound python3-unbound
cd "$dest/.debs"
for d in ./unbound_*.deb ./python3-unbound_*.deb; do
    dpkg -x "$d" "$dest"
done
"$dest/usr/sbin/unbound" -V | head -n 1
