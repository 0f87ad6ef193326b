#!/bin/sh
# soak.sh UNBOUND MODULE
#
# `make soak`: NSD and the Unbound daemon built here with the idnguard
# module (num-threads: 2) on loopback, in a fresh temporary directory on
# free ports, driven by dnsperf for SOAK_SECONDS (default 60) with a mix of
# good IDNs, fake A-labels, raw UTF-8, ASCII names, cache hits and misses,
# while the module's configuration is reloaded (SIGHUP) SOAK_RELOADS times
# (default 4), alternating tests/soak/idnguard-a.conf and -b.conf.
#
# The daemon runs under valgrind (memcheck, --leak-check=full,
# --keep-debuginfo=yes).  Valgrind rather than the ASan-built module,
# because valgrind
#   - sees every allocation of the uninstrumented daemon and unwinds its
#     stacks from DWARF information, so a leak's allocation stack reliably
#     says whether the module (module/, core/, conf/, codec/) made it;
#   - keeps the module's symbols after Unbound dlclose()s it at every
#     reload and at shutdown (--keep-debuginfo), where LeakSanitizer, which
#     reports at exit, would show the module's frames as "<unknown module>";
#   - also reports blocks still reachable at exit and reads of uninitialised
#     memory, which LeakSanitizer and ASan do not.
# The price is speed: the daemon answers a few thousand queries a second
# instead of tens of thousands.  (ASan over the module runs in `make
# asan-check`, on every integration test.)
#
# Environment: SOAK_SECONDS (60), SOAK_RELOADS (4), SOAK_CLIENTS (4),
# SOAK_OUTSTANDING (20), SOAK_KEEP=1 keeps the directory.  Exit status: 0
# when there was no crash, no valgrind error, no byte leaked by the module,
# the module's counters add up, and dnsperf ran; 1 otherwise.
set -eu

unbound=$1
module=$2
top=$(cd "$(dirname "$0")/.." && pwd)
seconds=${SOAK_SECONDS:-60}
reloads=${SOAK_RELOADS:-4}
clients=${SOAK_CLIENTS:-4}
outstanding=${SOAK_OUTSTANDING:-20}
dir=$(mktemp -d "${TMPDIR:-/tmp}/idnguard-soak.XXXXXX")
perf_pid=""
. "$top/scripts/lab.sh"

say() { printf 'soak: %s\n' "$*"; }
die() { printf 'soak: %s\n' "$*" >&2; exit 1; }

cleanup() {
    [ -z "$perf_pid" ] || { kill "$perf_pid" 2>/dev/null; wait "$perf_pid" 2>/dev/null; } || true
    lab_stop
    if [ "${SOAK_KEEP:-0}" = 1 ]; then
        say "kept $dir"
    else
        rm -rf "$dir"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for cmd in valgrind dnsperf nsd drill; do
    command -v "$cmd" >/dev/null 2>&1 || die "$cmd is missing (make deps-hardening deps-integration, as root)"
done
[ -x "$unbound" ] || die "no daemon at $unbound"
[ -f "$module" ] || die "no module at $module"

# ---- the lab's settings ----
# The lab (scripts/lab.sh) on free ports in $dir: the integration zones
# and tests/soak/soak.zone; the integration template of unbound.conf as it
# is: its verbosity 1 makes every worker log "server stats for thread N: Q
# queries, H answers from cache, R recursions" when it is deleted (at each
# reload and at shutdown), which is exactly what the module's counters are
# compared with.  so-reuseport spreads dnsperf's clients over both threads.
printf 'so-reuseport: yes\n' > "$dir/server-extra"
LAB_UNBOUND=$unbound LAB_MODULE=$module LAB_THREADS=2 LAB_SERVER_EXTRA=$dir/server-extra \
    LAB_CONF=$top/tests/soak/idnguard-a.conf LAB_ZONE_FILES="soak.=$top/tests/soak/soak.zone" \
    LAB_START_SECONDS=60 LAB_STOP_SECONDS=120 \
    LAB_WRAP="valgrind --tool=memcheck --leak-check=full --show-leak-kinds=all \
--errors-for-leak-kinds=definite,indirect,possible --keep-debuginfo=yes --num-callers=40 \
--track-origins=no --fullpath-after=$top/ --log-file=$dir/valgrind.log"

# ---- the query mix ----
# dnsperf reads names in presentation format, but Debian's dnsperf 2.10
# decodes \DDD escapes wrongly: it sends b\195\188cher as b 0x01 0x01 cher
# and \065 as '/' (checked with a UDP listener).  A raw octet in the file
# is sent as it is, so raw UTF-8 names are written raw (awk "\303\274");
# the probe below checks that the module sees them as raw-8bit.  One block
# of 16 queries per i: 12 unique names, which miss the cache (good IDNs,
# fake A-labels, raw UTF-8, ASCII, a worst-case label, a CNAME into a fake
# A-label), and 4 repeated ones, which hit it once cached.  Nothing that is
# never cached repeats: two queries for one name in flight together share
# one mesh state and one judgment, which would blur the count below.
names=${SOAK_NAMES:-20000}
awk -v n="$names" 'BEGIN {
    for (i = 0; i < n; i++) {
        printf "xn--bcher-kva.u%d.wild.soak A\n", i
        printf "xn--80aafi6cg.u%d.wild.soak AAAA\n", i
        printf "xn--ab-m1t.u%d.wild.soak A\n", i
        printf "xn--example-nka.u%d.wild.soak A\n", i
        printf "xn--0000h.u%d.wild.soak TXT\n", i
        printf "b\303\274cher-%d.wild.soak A\n", i
        printf "\345\215\224\345\212\233%d.wild.soak A\n", i
        printf "b\303\274cher.u%d.wild.soak AAAA\n", i
        printf "a%d.wild.soak A\n", i
        printf "_dmarc.u%d.wild.soak TXT\n", i
        printf "xn--x-vbbaadbbeccfddgeeyffiggjhh0biiljjmkk7fll6cmm0dnnqoo64spap.u%d.wild.soak A\n", i
        printf "u%d.alias.soak A\n", i
        printf "xn--bcher-kva.example A\n"
        printf "www.example A\n"
        printf "xn--ls8h.example A\n"
        printf "_dmarc.example TXT\n"
    }
}' > "$dir/queries.txt"

# ---- daemons ----
# Ready: Unbound answers local data (valgrind makes start-up take seconds).
wait_ready() {
    lab_unbound_wait || {
        tail -20 "$dir/valgrind.log" >&2 2>/dev/null || true
        die "Unbound did not come up ($1)"
    }
}
lab_start "$dir" || { tail -20 "$dir/valgrind.log" >&2 2>/dev/null || true; die "the lab did not start"; }
port=$LAB_PORT nsd_port=$LAB_NSD_PORT

# dnsperf sends the raw octets: the module must log the raw UTF-8 name as
# raw-8bit (and escape it as \195\188 in its line).
printf 'b\303\274cher.example A\n' > "$dir/probe.txt"
dnsperf -s 127.0.0.1 -p "$port" -d "$dir/probe.txt" -n 1 >"$dir/probe.out" 2>&1 \
    || die "dnsperf probe failed: $(cat "$dir/probe.out")"
tries=0
until grep -q 'b\\195\\188cher\.example\. A IN .* raw-8bit:b\\195\\188cher normalize' "$dir/unbound.log"; do
    tries=$((tries + 1))
    if [ "$tries" -gt 100 ]; then
        grep -a 'cher' "$dir/unbound.log" | tail -3 >&2
        die "dnsperf did not send the raw octets of b\\303\\274cher (see the lines above)"
    fi
    sleep 0.1
done
say "dnsperf sends raw UTF-8 octets as they are (module logged raw-8bit:b\\195\\188cher)"

# ---- the soak ----

say "NSD on 127.0.0.1#$nsd_port, Unbound (valgrind, num-threads 2) on 127.0.0.1#$port;" \
    "dnsperf for ${seconds}s, $clients clients, $outstanding outstanding; $reloads reloads"
dnsperf -s 127.0.0.1 -p "$port" -d "$dir/queries.txt" -l "$seconds" -c "$clients" \
    -q "$outstanding" -t 5 -S 10 >"$dir/dnsperf.out" 2>&1 &
perf_pid=$!
start=$(date +%s)
k=1
while [ "$k" -le "$reloads" ]; do
    at=$(( seconds * k / (reloads + 1) ))
    while [ $(( $(date +%s) - start )) -lt "$at" ]; do
        lab_alive "$LAB_UB_PID" || die "Unbound died during the soak"
        sleep 0.2
    done
    if [ $((k % 2)) = 1 ]; then conf=b; else conf=a; fi
    cp "$top/tests/soak/idnguard-$conf.conf" "$dir/idnguard.conf.new"
    mv "$dir/idnguard.conf.new" "$dir/idnguard.conf"
    kill -HUP "$LAB_UB_PID"
    sleep 1
    wait_ready "reload $k"
    say "reload $k at ${at}s: idnguard-$conf.conf"
    k=$((k + 1))
done
wait "$perf_pid" || { cat "$dir/dnsperf.out" >&2; perf_pid=""; die "dnsperf failed"; }
perf_pid=""
# ---- shutdown: the last module deinit, valgrind's leak check ----

lab_unbound_stop
status=$LAB_UB_STATUS

# ---- the figures ----

sent=$(sed -nE 's/^ *Queries sent: *([0-9]+).*/\1/p' "$dir/dnsperf.out")
done_=$(sed -nE 's/^ *Queries completed: *([0-9]+).*/\1/p' "$dir/dnsperf.out")
lost=$(sed -nE 's/^ *Queries lost: *([0-9]+).*/\1/p' "$dir/dnsperf.out")
qps=$(sed -nE 's/^ *Queries per second: *([0-9.]+).*/\1/p' "$dir/dnsperf.out")
: "${sent:=0}" "${done_:=0}" "${lost:=0}" "${qps:=0}"

# The module's counters: one "stats (shutdown)" line, at the stop (a reload
# logs none); the counters are cumulative across reloads, so it holds them
# all.
stats_lines=$(grep -c 'idnguard stats (shutdown):' "$dir/unbound.log" || true)
last_stats=$(grep -a 'idnguard stats (shutdown):' "$dir/unbound.log" | tail -n 1)
judged=$(printf '%s\n' "$last_stats" \
    | tr ' ' '\n' | sed -nE 's|^[a-z0-9-]+/[a-z]+=([0-9]+)$|\1|p' | awk '{ s += $1 } END { print s + 0 }')
normalized=$(printf '%s\n' "$last_stats" | sed -nE 's/.* normalized=([0-9]+).*/\1/p')
rejected_answers=$(printf '%s\n' "$last_stats" | sed -nE 's/.* answers-rejected=([0-9]+).*/\1/p')
by_class=$(printf '%s\n' "$last_stats" | tr ' ' '\n' \
    | sed -nE 's|^([a-z0-9-]+/[a-z]+)=([0-9]+)$|\1 \2|p' \
    | awk '{ s[$1] += $2 } END { for (k in s) printf "%s=%d ", k, s[k] }')
: "${normalized:=0}" "${rejected_answers:=0}"
# Unbound's own counters, per worker and per reload (see above).
ub_sum() { # FIELD-NUMBER-PATTERN
    grep -a 'server stats for thread [0-9]*: [0-9]* queries' "$dir/unbound.log" \
        | sed -nE "s/.*: ([0-9]+) queries, ([0-9]+) answers from cache, ([0-9]+) recursions.*/\\$1/p" \
        | awk '{ s += $1 } END { print s + 0 }'
}
acc_q=$(ub_sum 1)
acc_hit=$(ub_sum 2)
acc_miss=$(ub_sum 3)
lines=$(grep -ac ' idnguard: 127\.0\.0\.1#' "$dir/unbound.log" || true)
lines_cache=$(grep -ac ' idnguard: 127\.0\.0\.1#.* cache$' "$dir/unbound.log" || true)

# Valgrind: errors, and leaks whose allocation stack passes through the
# module's code (module/, core/, conf/ and the codec it links in).  Frames
# show paths relative to this tree (--fullpath-after), so the module's
# module/unbound.c is told apart from Unbound's own daemon/unbound.c.
vg="$dir/valgrind.log"
vg_errors=$(sed -nE 's/.*ERROR SUMMARY: ([0-9]+) errors.*/\1/p' "$vg" | tail -1)
: "${vg_errors:=unknown}"
module_files='[( ](module|core|conf|codec)/[a-z_0-9]+\.[ch]:|idnguard\.so'
leaks=$(awk -v re="$module_files" '
    /bytes in [0-9,]+ blocks are/ {
        if (rec != "") { flush() }
        rec = $0; mod = 0; next }
    rec != "" && /^==[0-9]+== *$/ { flush(); next }
    rec != "" && $0 ~ re { mod = 1 }
    function flush() {
        if (mod) {
            b = rec; sub(/^==[0-9]+== */, "", b); split(b, w, " ");
            gsub(",", "", w[1]); kind = rec; sub(/.* are /, "", kind); sub(/ in loss record.*/, "", kind);
            bytes[kind] += w[1]; total += w[1] }
        rec = "" }
    END { if (rec != "") flush();
          printf "%d", total + 0;
          for (k in bytes) printf " [%s: %d]", k, bytes[k] }' "$vg")
module_leak_bytes=${leaks%% *}
all_lost=$(sed -nE 's/.*definitely lost: ([0-9,]+) bytes.*/\1/p' "$vg" | tr -d , | tail -1)
module_errors=$(awk -v re="$module_files" '
    /^==[0-9]+== (Invalid|Conditional|Use of uninit|Syscall param|Mismatched|Source and dest)/ { inerr = 1; mod = 0; next }
    inerr && /^==[0-9]+== *$/ { if (mod) n++; inerr = 0; next }
    inerr && $0 ~ re { mod = 1 }
    END { print n + 0 }' "$vg")

if [ "$status" -eq 0 ]; then crash=0; else crash=1; fi
# Every client Unbound counted is answered or dropped by it, one module
# log line and one module count each, except the queries in flight at a
# reload, which are lost.
expected=$acc_q
diff=$((judged - expected))
[ "$diff" -lt 0 ] && adiff=$((-diff)) || adiff=$diff

printf '\n'
printf 'soak summary (%ss, %s reloads, daemon under valgrind)\n' "$seconds" "$reloads"
printf '  %-46s %s\n' "dnsperf queries sent" "$sent"
printf '  %-46s %s\n' "dnsperf queries answered" "$done_"
printf '  %-46s %s\n' "dnsperf queries lost" "$lost (in flight at a reload: at most $((reloads * outstanding)))"
printf '  %-46s %s\n' "dnsperf queries per second" "$qps"
printf '  %-46s %s\n' "unbound: queries (its stats, all deinits)" "$acc_q"
printf '  %-46s %s\n' "unbound: answers from cache / recursions" "$acc_hit / $acc_miss"
printf '  %-46s %s\n' "module: stats (shutdown) lines (1: the stop)" "$stats_lines"
printf '  %-46s %s\n' "module: clients answered (cumulative)" "$judged"
printf '  %-46s %s\n' "module: normalize sub-queries" "$normalized"
printf '  %-46s %s\n' "module: answers rejected (CNAME into fake)" "$rejected_answers"
printf '  %-46s %s\n' "module: log lines (of which cache hits)" "$lines ($lines_cache)"
printf '  %-46s %s\n' "answered - unbound's queries" "$diff (allowed: 0 to -$((reloads * outstanding)), lost at reloads)"
printf '  %-46s %s\n' "crashes (daemon exit status $status)" "$crash"
printf '  %-46s %s\n' "valgrind errors (all / in module code)" "$vg_errors / $module_errors"
printf '  %-46s %s\n' "bytes leaked at shutdown by the module" "$leaks"
printf '  %-46s %s\n' "bytes definitely lost in the whole daemon" "${all_lost:-0}"
printf '  by class/action: %s\n' "$by_class"

fail=0
[ "$crash" = 0 ] || { say "FAIL: the daemon exited with status $status"; fail=1; }
[ "$vg_errors" = 0 ] || { say "FAIL: valgrind reported $vg_errors errors (see $vg)"; fail=1; }
[ "$module_leak_bytes" = 0 ] || { say "FAIL: the module leaked: $leaks"; fail=1; }
[ "$sent" -gt 0 ] && [ "$done_" -gt 0 ] || { say "FAIL: dnsperf sent or got nothing"; fail=1; }
# A reload drops the queries in flight (at most `outstanding` of them);
# any other loss is the daemon's.
[ "$lost" -le $((reloads * outstanding)) ] || {
    say "FAIL: $lost queries lost, more than the $((reloads * outstanding)) a reload can drop"; fail=1; }
[ "$stats_lines" -eq 1 ] || {
    say "FAIL: $stats_lines 'stats (shutdown)' lines, expected 1 (at the stop, none at the reloads)"; fail=1; }
# The counters are the log: one count per line.  And every query Unbound
# counted got its line, but those lost in flight at a reload.
[ "$judged" -eq "$lines" ] || {
    say "FAIL: the module counted $judged client answers, but wrote $lines lines"; fail=1; }
[ "$diff" -le 0 ] && [ "$adiff" -le $((reloads * outstanding)) ] || {
    say "FAIL: the module answered $judged clients; unbound counted $expected queries"; fail=1; }
if [ "$fail" = 0 ]; then
    say "PASS: 0 crashes, 0 valgrind errors, 0 bytes leaked by the module, counters add up"
    [ "${SOAK_KEEP:-0}" = 1 ] || rm -rf "$dir"
else
    SOAK_KEEP=1
fi
exit "$fail"
