#!/bin/sh
# apt-source.sh DESTDIR PACKAGE...
#
# Downloads and unpacks Debian source packages without touching the system's
# apt configuration: the machine's own binary sources (deb822 *.sources files
# and one-line *.list files) are copied into a private folder with their type
# turned into deb-src, and apt-get runs against that folder alone.  No mirror
# host is named here; whatever the machine uses is what we use.
set -eu

if [ $# -lt 2 ]; then
    echo "usage: $0 DESTDIR PACKAGE..." >&2
    exit 2
fi
dest=$1; shift
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
priv=$dest/.apt
mkdir -p "$priv/sources.list.d" "$priv/lists/partial" "$priv/cache/archives/partial"

n=0
for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    sed -e 's/^Types:.*/Types: deb-src/' "$f" > "$priv/sources.list.d/src$n.sources"
    n=$((n + 1))
done
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    sed -n -e 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" > "$priv/sources.list.d/src$n.list"
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
for p in "$@"; do
    # shellcheck disable=SC2086
    apt-get -qq $aptopts source "$p"
done
