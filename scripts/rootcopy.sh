# shellcheck shell=sh
# rootcopy.sh: fresh copies of a cached Debian root (scripts/debroot.sh),
# sourced by the tests that run inside one (scripts/deb-install-test.sh,
# scripts/readme-test.sh).  As root.  A copy gets /proc mounted (dpkg,
# maintainer scripts and daemons read it); rootcopy_unmount takes every
# mount made away again, and must run whatever happens (the callers' EXIT
# trap).

rootcopy_mounted=""

# DIR becomes a fresh copy of CACHE (cp -a), /proc mounted.  A copy left by
# an earlier run is removed first, once its /proc is unmounted (rm -rf
# must not go into a mounted /proc).
rootcopy_new() { # CACHE DIR
    if [ -d "$2/proc" ] && mountpoint -q "$2/proc"; then
        umount "$2/proc" || { echo "rootcopy: $2/proc is still mounted" >&2; return 1; }
    fi
    rootcopy_remove "$2" || return 1
    cp -a "$1" "$2" || return 1
    mount -t proc proc "$2/proc" || return 1
    rootcopy_mounted="$rootcopy_mounted $2/proc"
}

# Removes the copy DIR, but never while anything is mounted under it (its
# /proc, or a mount a package's scripts made): rm -rf would walk into the
# host's file systems.  The mount table names real paths, hence pwd -P.
rootcopy_remove() { # DIR
    [ -e "${1:?}" ] || return 0
    rootcopy_real=$(cd "$1" && pwd -P) || return 1
    if awk -v d="$rootcopy_real/" 'index($2 "/", d) == 1 { found = 1 } END { exit !found }' \
        /proc/self/mounts; then
        echo "rootcopy: not removing $1: something is still mounted under it" >&2
        return 1
    fi
    rm -rf "$1"
}

rootcopy_unmount() {
    for rootcopy_m in $rootcopy_mounted; do
        umount "$rootcopy_m" 2>/dev/null || umount -l "$rootcopy_m" 2>/dev/null || true
    done
    rootcopy_mounted=""
}
