#!/bin/sh
# tap-producer.sh PRODUCER DIR PORT NSD_PORT
#
# Runs one of Debian 13's dnstap producers for `idnguard tap`'s
# integration test (tests/integration/test_tap.c, `make
# check-tap-producers`), in the foreground: named (BIND 9.20), kresd
# (Knot Resolver 5.7), recursor (PowerDNS Recursor 5.4) or dnsdist (1.9)
# from the engines root (mk/engines.mk), unbound (1.26) from the trixie
# root (mk/trixie.mk).  It answers on 127.0.0.1#PORT, resolves through the
# lab's NSD on 127.0.0.1#NSD_PORT, and sends its dnstap to DIR/tap.sock,
# where `idnguard tap -u` listens.
#
# Its configuration is tests/integration/tap-PRODUCER.conf.in
# (tap-recursor.yml.in for PowerDNS Recursor), filled in with lab.sh's
# lab_fill (@DIR@, @PORT@, @NSD_PORT@), and, in place of its line
# @DNSTAP@, the block docs/tap.md marks `<!-- tap-producer: PRODUCER -->`
# with the socket path it names, /run/idnguard/dnstap.sock, replaced by
# DIR/tap.sock: the settings the documentation gives an operator are the
# ones the test runs.  The file goes into DIR, the daemon's state too.
#
# The daemon then takes this shell's place: scripts/inroot.sh runs it in
# its Debian root with DIR bind-mounted at the same path, and every step
# execs the next, so the caller's child PID is the daemon's, and SIGTERM
# to it stops the daemon.  Roots: $IDNGUARD_ENGINES_ROOT (else
# build/roots/engines) and $IDNGUARD_TRIXIE_ROOT (else build/roots/trixie).
set -eu

[ $# -eq 4 ] || { echo "usage: $0 named|kresd|recursor|dnsdist|unbound DIR PORT NSD_PORT" >&2; exit 2; }
producer=$1
top=$(cd "$(dirname "$0")/.." && pwd)
engines=${IDNGUARD_ENGINES_ROOT:-$top/build/roots/engines}
trixie=${IDNGUARD_TRIXIE_ROOT:-$top/build/roots/trixie}
# lab.sh as a library, for lab_fill (its names begin with lab_ and LAB_):
# the ports given, its defaults for the rest.
. "$top/scripts/lab.sh"
LAB_PORT=$3 LAB_NSD_PORT=$4
lab_defaults "$2"
lab_zones=$LAB_ZONES

template=$top/tests/integration/tap-$producer.conf.in
conf=$LAB_DIR/tap-$producer.conf
case $producer in
named)
    root=$engines
    set -- /usr/sbin/named -g -4 -c "$conf"
    ;;
kresd)
    root=$engines
    mkdir -p "$LAB_DIR/kresd"
    set -- /usr/sbin/kresd -n -c "$conf" "$LAB_DIR/kresd"
    ;;
recursor)
    # It reads DIR/recursor-NAME.yml for --config-name=NAME.
    root=$engines
    template=$top/tests/integration/tap-recursor.yml.in
    conf=$LAB_DIR/recursor-tap.yml
    set -- /usr/sbin/pdns_recursor --config-dir="$LAB_DIR" --config-name=tap --daemon=no \
        --write-pid=no --disable-syslog
    ;;
dnsdist)
    root=$engines
    set -- /usr/bin/dnsdist --supervised --disable-syslog -C "$conf"
    ;;
unbound)
    root=$trixie
    set -- /usr/sbin/unbound -d -c "$conf"
    ;;
*)
    echo "$0: no producer $producer (named, kresd, recursor, dnsdist, unbound)" >&2
    exit 2
    ;;
esac
[ -d "$root/usr" ] || { echo "$0: no Debian root $root (make check-tap-producers makes it)" >&2; exit 1; }

block=$LAB_DIR/tap-$producer.block
sh "$top/scripts/quickstart-blocks.sh" --marker tap-producer "$top/docs/tap.md" "$producer" >"$block"
grep -q /run/idnguard/dnstap.sock "$block" || {
    echo "$0: docs/tap.md's block for $producer does not name /run/idnguard/dnstap.sock" >&2
    exit 1
}
lab_fill "$template" inner | awk -v block="$block" -v sock="$LAB_DIR/tap.sock" '
    $0 == "@DNSTAP@" {
        while ((getline l < block) > 0) {
            # Literal replacement: index, not a pattern.
            while ((i = index(l, "/run/idnguard/dnstap.sock")) > 0)
                l = substr(l, 1, i - 1) sock substr(l, i + 25)
            print l
        }
        found = 1
        next
    }
    { print }
    END { if (!found) { print "no @DNSTAP@ line" > "/dev/stderr"; exit 1 } }' >"$conf"

exec sh "$top/scripts/inroot.sh" "$root" --bind "$LAB_DIR" -- "$@"
