#!/bin/sh
# unpack-debs.sh DESTDIR FILE PACKAGE...
#
# Fetches Debian's binary PACKAGEs (scripts/apt-source.sh --binary: a private
# copy of the machine's own apt sources) and unpacks them into DESTDIR with
# `dpkg -x`: never installed, so no maintainer script runs, no user or
# service is created or started, and nothing outside DESTDIR changes.  For
# tools the tests run from a package that would start a service if installed
# (promtool of `prometheus`).  Does nothing when DESTDIR/FILE exists; prints
# that file's path at the end.
set -eu

[ $# -ge 3 ] || { echo "usage: $0 DESTDIR FILE PACKAGE..." >&2; exit 2; }
dest=$1 file=$2
shift 2
[ -e "$dest/$file" ] && exit 0
mkdir -p "$dest/.debs"
dest=$(cd "$dest" && pwd)
rm -f "$dest"/.debs/*.deb
sh "$(dirname "$0")/apt-source.sh" --binary "$dest/.debs" "$@"
for p in "$@"; do
    dpkg -x "$(ls "$dest"/.debs/"${p}"_*.deb | head -n 1)" "$dest"
done
[ -e "$dest/$file" ] || { echo "$0: $file is not in $*" >&2; exit 1; }
echo "$dest/$file"
