#!/bin/sh
# run.sh UNBOUND MODULE [PORT [NSD_PORT]]
#
# `make run`: the lab (scripts/lab.sh) with the demo zones: NSD serving
# tests/integration/zones, with the signed sig. zones, as prepared by
# tests/integration/prepare-zones.sh into $IDNGUARD_ZONES (default
# build/zones), but not the tests' attack data, on NSD_PORT (default the
# first free port from PORT + 1000); in front of it the Unbound daemon built
# here with the idnguard module on 127.0.0.1:PORT (default 5300, not
# mDNS's 5353), validating with sig.'s trust anchor.  Once both answer, the
# daemon's log (the human-readable query lines) follows in this terminal.
# Ctrl-C stops both.
set -eu

unbound=$1
module=$2
port=${3:-5300}
nsd_port=${4:-}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lab.sh"

dir=$(mktemp -d "${TMPDIR:-/tmp}/idnguard-run.XXXXXX")
tail_pid=""
cleanup() {
    [ -z "$tail_pid" ] || kill "$tail_pid" 2>/dev/null || true
    lab_stop
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if lab_in_use "$port"; then
    echo "run.sh: port $port on 127.0.0.1 is in use; try: make run PORT=$((port + 1))" >&2
    exit 1
fi
if [ -n "$nsd_port" ]; then
    if lab_in_use "$nsd_port"; then
        echo "run.sh: NSD's port $nsd_port on 127.0.0.1 is in use; try another NSD_PORT=" >&2
        exit 1
    fi
else
    nsd_port=$((port + 1000))
    while lab_in_use "$nsd_port"; do nsd_port=$((nsd_port + 1)); done
fi

# Unbound logs to its stderr (unbound.out), which is followed below.
LAB_UNBOUND=$unbound LAB_MODULE=$module LAB_PORT=$port LAB_NSD_PORT=$nsd_port LAB_THREADS=2 \
    LAB_TEST_ZONES=no LAB_LOGFILE=""
lab_start "$dir" || exit 1

cat <<MSG
idnguard demo: Unbound with the idnguard module on 127.0.0.1 port $port,
in front of NSD on port $nsd_port serving the zones in $LAB_ZONES.
Settings: $dir/idnguard.conf (a copy of conf/idnguard.conf.example).

Try, from another terminal:
  drill -p $port @127.0.0.1 xn--bcher-kva.example       # bücher: valid, answered
  drill -p $port @127.0.0.1 xn--ls8h.example            # emoji: valid under uts46, answered
  drill -p $port @127.0.0.1 xn--pypal-4ve.example       # Latin + Cyrillic a: logged, mixed-script
  drill -D -p $port @127.0.0.1 xn--ab-m1t.example       # fake A-label: REFUSED, EDE 15 shown
  drill -p $port @127.0.0.1 alias.example               # CNAME to a fake A-label: REFUSED
  drill -p $port @127.0.0.1 _dmarc.example TXT          # ordinary name, never judged
  drill -p $port @127.0.0.1 'b\\195\\188cher.example'      # raw UTF-8: normalized via CNAME
  drill -D -p $port @127.0.0.1 www.sig                 # signed zone: validated (ad flag)

The query log follows. Ctrl-C stops everything.
MSG
# Until Unbound exits, or Ctrl-C (or SIGTERM: a wait, unlike a command in
# the foreground, lets the trap run at once).
tail -n +1 -f --pid="$LAB_UB_PID" "$dir/unbound.out" &
tail_pid=$!
wait "$tail_pid"
