#!/bin/sh
# stock-unbound.sh DESTDIR
#
# Unpacks Debian's own binary packages `unbound` and `python3-unbound` (the
# stock daemon with its python module, and unboundmodule.py) into DESTDIR,
# for the python flavour of the integration tests and the benchmark: the
# stock-package path without installing the package.  `apt-get download`
# fetches the .deb files through the machine's own apt sources (the
# package lists are refreshed first when there are none, as root), and
# `dpkg -x` unpacks them: no maintainer script runs, so no `unbound` user,
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
cd "$dest/.debs"
rm -f ./*.deb
if ! apt-get -qq -o APT::Sandbox::User=root download unbound python3-unbound 2>/dev/null; then
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update -qq
        apt-get -qq -o APT::Sandbox::User=root download unbound python3-unbound
    else
        echo "$0: apt-get download unbound python3-unbound failed (refresh the package lists as root)" >&2
        exit 1
    fi
fi
for d in ./unbound_*.deb ./python3-unbound_*.deb; do
    dpkg -x "$d" "$dest"
done
"$dest/usr/sbin/unbound" -V | head -n 1
