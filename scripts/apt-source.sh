#!/bin/sh
# apt-source.sh [--suite SUITE] DESTDIR PACKAGE...
# apt-source.sh [--suite SUITE] --binary DESTDIR PACKAGE...
#
# Downloads and unpacks Debian source packages (or, with --binary, downloads
# binary .deb files into DESTDIR, for `dpkg -x`: never installed) without
# touching the system's apt configuration or package lists: the machine's
# own sources (deb822 *.sources files and one-line *.list files) are copied
# into a private folder, their type turned into deb-src for sources, and
# apt-get runs against that folder alone.  No mirror host is named here;
# whatever the machine uses is what we use.  The one home of that rule:
# scripts/stock-unbound.sh and mk/deb.mk fetch binary packages through it.
# --suite SUITE: the machine's release renamed to SUITE in the copied
# sources (bookworm-updates becomes trixie-updates for SUITE=trixie), to
# fetch another release's packages from the same mirror.
set -eu

kind=deb-src
suite=
if [ "${1:-}" = --suite ] && [ $# -ge 2 ]; then
    suite=$2
    shift 2
fi
if [ "${1:-}" = --binary ]; then
    kind=deb
    shift
fi
if [ $# -lt 2 ]; then
    echo "usage: $0 [--suite SUITE] [--binary] DESTDIR PACKAGE..." >&2
    exit 2
fi
dest=$1; shift
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
priv=$dest/.apt-$kind${suite:+-$suite}
# The release name the machine's sources use, and the rename for --suite.
rename=
if [ -n "$suite" ]; then
    host_suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    [ -n "$host_suite" ] || { echo "$0: no VERSION_CODENAME in /etc/os-release" >&2; exit 1; }
    rename="s/\\<$host_suite\\>/$suite/g"
fi
mkdir -p "$priv/sources.list.d" "$priv/lists/partial" "$priv/cache/archives/partial"

n=0
for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    sed -e "s/^Types:.*/Types: $kind/" -e "/^Suites:/${rename:-b}" "$f" \
        > "$priv/sources.list.d/src$n.sources"
    n=$((n + 1))
done
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    sed -n -e "s/^[[:space:]]*deb[[:space:]]/$kind /" -e "/^$kind /{${rename:+$rename;}p;}" "$f" \
        > "$priv/sources.list.d/src$n.list"
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
