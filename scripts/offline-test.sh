#!/bin/sh
# offline-test.sh DIR
#
# `make check-offline`: `make test` passes in a fresh clone of this
# repository's HEAD (no build/, nothing fetched before) with the network
# cut.  The clone goes to DIR/idnguard (made again each run); `make test`
# runs there in a network namespace of its own with only the loopback
# interface (unshare, below), so a rule that fetches anything fails the
# run.  Committed work only: uncommitted changes are not in the clone, and
# it says so.
# The packages of `make deps` must be installed; JOBS (default 2) is make's
# -j.  Prints the time `make test` took there.
set -eu

[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
dir=$1
jobs=${JOBS:-2}
top=$(git rev-parse --show-toplevel)
head=$(git -C "$top" rev-parse HEAD)
[ -z "$(git -C "$top" status --porcelain --untracked-files=no)" ] \
    || echo "offline: uncommitted changes are not tested: the clone is HEAD, $head"

rm -rf "$dir/idnguard"
mkdir -p "$dir"
git clone -q --no-checkout "$top" "$dir/idnguard"
git -C "$dir/idnguard" checkout -q --detach "$head"

# A network namespace of our own, the user staying who it is: root as
# root (unshare -n; under unshare -rn, root of a user namespace cannot
# become nobody, which a suite that drops root does), any other user in a
# user namespace that maps it to itself (unshare -cn).
if [ "$(id -u)" -eq 0 ]; then
    cut='unshare -n'
else
    cut='unshare -cn'
fi
$cut true 2>/dev/null || {
    echo "offline: '$cut' cannot make a network namespace here" >&2
    exit 1
}

# The loopback interface up (the suites may use 127.0.0.1), no other
# interface; the parent make's settings left behind.
start=$(date +%s)
rc=0
# shellcheck disable=SC2016
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES $cut sh -c '
    ip link set lo up 2>/dev/null || true
    if [ -n "$(sed -n "3,\$s/^ *\([^:]*\):.*/\1/p" /proc/net/dev | grep -vx lo)" ]; then
        echo "offline: the namespace has a network interface besides lo" >&2
        exit 1
    fi
    exec make -C "$1" -j"$2" test' offline "$dir/idnguard" "$jobs" >"$dir/test.log" 2>&1 || rc=$?
took=$(($(date +%s) - start))
tail -n 3 "$dir/test.log"
if [ "$rc" -ne 0 ]; then
    echo "offline: make test failed in a fresh clone of $head without network (${took}s); log: $dir/test.log" >&2
    exit 1
fi
echo "offline: make test passed in a fresh clone of $head without network, in ${took}s"
