#!/bin/sh
# apt-source.sh DESTDIR PACKAGE...
# apt-source.sh --binary DESTDIR PACKAGE...
#
# Downloads and unpacks Debian source packages (or, with --binary, downloads
# binary .deb files into DESTDIR, for `dpkg -x`: never installed) without
# touching the system's apt configuration or package lists: the machine's
# own sources (deb822 *.sources files and one-line *.list files) are copied
# into a private folder, their type turned into deb-src for sources, and
# apt-get runs against that folder alone.  No mirror host is named here;
# whatever the machine uses is what we use.  The one home of that rule:
# scripts/stock-unbound.sh and mk/deb.mk fetch binary packages through it.
set -eu

kind=deb-src
if [ "${1:-}" = --binary ]; then
    kind=deb
    shift
fi
if [ $# -lt 2 ]; then
    echo "usage: $0 [--binary] DESTDIR PACKAGE..." >&2
    exit 2
fi
dest=$1; shift
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
priv=$dest/.apt-$kind
mkdir -p "$priv/sources.list.d" "$priv/lists/partial" "$priv/cache/archives/partial"

n=0
for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    sed -e "s/^Types:.*/Types: $kind/" "$f" > "$priv/sources.list.d/src$n.sources"
    n=$((n + 1))
done
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    sed -n -e "s/^[[:space:]]*deb[[:space:]]/$kind /p" "$f" > "$priv/sources.list.d/src$n.list"
    n=$((n + 1))
done
if [ "$n" -eq 0 ]; then
    echo "$0: no apt sources found in /etc/apt to derive deb-src entries from" >&2
    exit 1
fi

aptopts="-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts=$priv/sources.list.d \
 -o Dir::State::Lists=$priv/lists -o Dir::Cache=$priv/cache -o APT::Sandbox::User=root"
# shellcheck disable=SC2086
apt-get -qq $aptopts update
cd "$dest"
if [ "$kind" = deb ]; then
    # shellcheck disable=SC2086
    apt-get -qq $aptopts download "$@"
    exit 0
fi
for p in "$@"; do
    # shellcheck disable=SC2086
    apt-get -qq $aptopts source "$p"
done
