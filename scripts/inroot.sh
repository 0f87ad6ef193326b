#!/bin/sh
# inroot.sh ROOT [--bind PATH]... -- COMMAND [ARG...]
#
# Runs COMMAND inside the Debian root ROOT (made by scripts/debroot.sh),
# as the daemons of the resolver engines are run in the tests: Knot
# Resolver, PowerDNS Recursor, dnsdist and BIND from Debian 13, whose
# binaries need that release's libraries and whose compiled-in paths
# (modules, Lua libraries) name places inside the root.
#
# Each PATH (a directory of this machine: the test's directory, the
# built library, the zones) is bind-mounted at the same path inside ROOT,
# read-write, so every path a configuration names means the same inside
# and out; /dev and /proc are mounted as well.  The mounts are made in a
# private mount namespace (unshare --mount), which dies with the last
# process in it: nothing is mounted on the machine, and a killed test
# leaves no mount behind.  The only trace in ROOT is the empty mount
# points.  unshare, sh and chroot exec one another, so the PID the caller
# started is COMMAND's (lab.sh stops it by that PID).  Needs root.
set -eu

usage() {
    echo "usage: $0 ROOT [--bind PATH]... -- COMMAND [ARG...]" >&2
    exit 2
}
[ $# -ge 3 ] || usage
root=$(cd "$1" && pwd)
shift
[ -x "$root/usr/sbin/chroot" ] || [ -x "$root/usr/bin/env" ] || {
    echo "$0: $root is not a Debian root" >&2
    exit 1
}
binds=""
while [ $# -gt 0 ]; do
    case $1 in
    --bind)
        [ $# -ge 2 ] || usage
        p=$(cd "$2" && pwd) || { echo "$0: no directory $2" >&2; exit 1; }
        case $p in *"'"* | *" "*) echo "$0: $p: quotes and blanks are not supported" >&2; exit 1 ;; esac
        binds="$binds $p"
        shift 2
        ;;
    --) shift; break ;;
    *) usage ;;
    esac
done
[ $# -ge 1 ] || usage

# The script run in the new namespace: $1 is ROOT, then COMMAND and its
# arguments; the bind paths are in INROOT_BINDS.
# shellcheck disable=SC2016
exec env INROOT_BINDS="$binds" unshare --mount --propagation private sh -eu -c '
    root=$1
    shift
    mount --rbind /dev "$root/dev"
    mount -t proc proc "$root/proc"
    for p in $INROOT_BINDS; do
        mkdir -p "$root$p"
        mount --bind "$p" "$root$p"
    done
    exec chroot "$root" "$@"
' inroot "$root" "$@"
