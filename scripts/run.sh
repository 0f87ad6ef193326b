#!/bin/sh
# run.sh UNBOUND MODULE [PORT [NSD_PORT]]
#
# `make run`: NSD serving the demo zones (tests/integration/zones, with the
# signed sig. zones, as prepared by tests/integration/prepare-zones.sh into
# $IDNGUARD_ZONES, default build/zones) on a free loopback port, and in
# front of it, in the foreground, the Unbound daemon built here with the
# idnguard module on 127.0.0.1:PORT (default 5300, not mDNS's 5353; NSD on
# NSD_PORT, default the first free port from PORT + 1000), validating with sig.'s
# trust anchor.  The human-readable query log goes to this terminal.
# Ctrl-C stops both.
set -eu

unbound=$1
module=$2
port=${3:-5300}
nsd_port=${4:-}
top=$(cd "$(dirname "$0")/.." && pwd)
zones=${IDNGUARD_ZONES:-$top/build/zones}
[ -f "$zones/sig.anchor" ] || {
    echo "run.sh: no prepared zones in $zones (make zones)" >&2
    exit 1
}
dir=$(mktemp -d "${TMPDIR:-/tmp}/idnguard-run.XXXXXX")
nsd_pid=""

cleanup() {
    [ -n "$nsd_pid" ] && kill "$nsd_pid" 2>/dev/null && wait "$nsd_pid" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

in_use() {
    ss -Hln "( sport = :$1 )" 2>/dev/null | grep -q .
}
if in_use "$port"; then
    echo "run.sh: port $port on 127.0.0.1 is in use; try: make run PORT=$((port + 1))" >&2
    exit 1
fi
if [ -n "$nsd_port" ]; then
    if in_use "$nsd_port"; then
        echo "run.sh: NSD's port $nsd_port on 127.0.0.1 is in use; try another NSD_PORT=" >&2
        exit 1
    fi
else
    nsd_port=$((port + 1000))
    while in_use "$nsd_port"; do nsd_port=$((nsd_port + 1)); done
fi

fill() {
    sed -e "s|@DIR@|$dir|g" -e "s|@ZONES@|$zones|g" \
        -e "s|@NSD_PORT@|$nsd_port|g" -e "s|@PORT@|$port|g" -e "s|@THREADS@|2|g" \
        -e "s|@MODULE@|$module|g" -e "s|@LOGFILE@||g" \
        -e "s|@MODULES@|dynlib validator iterator|g" -e "s|@SERVER_EXTRA@||g" "$1"
}
# The tests' attack data (evil.) stays out of the demo.
fill "$top/tests/integration/nsd.conf.in" | sed '/^# ---- test data only/,$d' > "$dir/nsd.conf"
fill "$top/tests/integration/unbound.conf.in" > "$dir/unbound.conf"
cp "$top/conf/idnguard.conf.example" "$dir/idnguard.conf"

nsd -d -c "$dir/nsd.conf" &
nsd_pid=$!
tries=0
until drill -Q -p "$nsd_port" @127.0.0.1 example. SOA >/dev/null 2>&1; do
    tries=$((tries + 1))
    if [ "$tries" -gt 100 ] || ! kill -0 "$nsd_pid" 2>/dev/null; then
        echo "run.sh: NSD did not come up; its log:" >&2
        cat "$dir/nsd.log" >&2 2>/dev/null || true
        exit 1
    fi
    sleep 0.1
done

cat <<MSG
idnguard demo: Unbound with the idnguard module on 127.0.0.1 port $port,
in front of NSD on port $nsd_port serving the zones in $zones.
Settings: $dir/idnguard.conf (a copy of conf/idnguard.conf.example).

Try, from another terminal:
  drill -p $port @127.0.0.1 xn--bcher-kva.example       # bücher: valid, answered
  drill -p $port @127.0.0.1 xn--ls8h.example            # emoji: valid under uts46
  drill -D -p $port @127.0.0.1 xn--ab-m1t.example       # fake A-label: REFUSED, EDE 15 shown
  drill -p $port @127.0.0.1 alias.example               # CNAME to a fake A-label: REFUSED
  drill -p $port @127.0.0.1 _dmarc.example TXT          # ordinary name, never judged
  drill -p $port @127.0.0.1 'b\\195\\188cher.example'      # raw UTF-8: normalized via CNAME
  drill -D -p $port @127.0.0.1 www.sig                 # signed zone: validated (ad flag)

The query log follows. Ctrl-C stops everything.
MSG
IDNGUARD_CONF="$dir/idnguard.conf" "$unbound" -d -c "$dir/unbound.conf"
