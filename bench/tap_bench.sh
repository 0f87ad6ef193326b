#!/bin/sh
# tap_bench.sh STOCK_UNBOUND IDNGUARD OUTDIR
#
# What `idnguard tap` costs and how fast it reads, in one run on
# loopback, Debian's stock unbound (dnstap built in) in front of NSD (the
# lab of scripts/lab.sh, flavour stock: no idnguard module at all).
#
# The query file: the 20 cached names of bench/resolver_bench.sh (13 ASCII,
# 6 valid IDNs, 1 fake A-label) and five names of the integration zone evil.
# (a fake A-label, three raw 8-bit names, a CNAME to one): all answered from
# the cache after their first query.
#
# First a capture: a fresh Unbound (num-threads: 1) streams its client
# queries and responses over dnstap to fstrm_capture while dnsperf sends
# BENCH_TAP_QUERIES (default 150,000) queries; the capture, two messages per
# query, is decoded by every reader below.
#
# Then BENCH_REPEAT rounds (default 5); in each, configurations in rotated
# order:
#   decode: each reader decodes the capture to /dev/null, pinned to one core
#           (taskset -c 1, when there are two): idnguard (`tap -r`), Go's
#           dnstap (`-r`, its default quiet text; `-y` YAML too), dnstap-ldns
#           (`-q`, quiet text); messages per second from the wall time
#   resolver: dnsperf for BENCH_SECONDS (default 10) against a fresh Unbound
#           with num-threads 1 and 2, each streaming dnstap to nothing (no
#           dnstap: clause), to fstrm_capture writing a file, and to
#           `idnguard tap -u SOCKET -w FILE`; cache-hit QPS
# Ratios are taken within a round (idnguard against each peer, tap against
# fstrm_capture) and reported as median, min and max over the rounds.
# Writes OUTDIR/tap.csv (every run) and OUTDIR/tap.md (the tables and the
# commands), and bench/tap_notes.md (the reading of the figures, written by
# hand) after the tables.  BENCH_TAP_BASELINE=PATH times another build of
# the CLI (an older commit's, say) as one more reader, "idnguard-before",
# so that a change is measured before and after in one run.
# BENCH_TAP_KEEP=FILE keeps a copy of the capture (for a
# profile of the readers).  BENCH_CLIENTS and BENCH_OUTSTANDING set dnsperf's -c and -q.
# Loopback only, free ports, a fresh temporary directory, always cleaned up.
set -eu

stock=$1
idng=$2
out=$3
seconds=${BENCH_SECONDS:-10}
repeat=${BENCH_REPEAT:-5}
queries=${BENCH_TAP_QUERIES:-150000}
clients=${BENCH_CLIENTS:-8}
outstanding=${BENCH_OUTSTANDING:-100}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lab.sh"
. "$top/bench/bench_lib.sh"
bench_begin tap_bench
BENCH_NEED_HINT="make deps-tapbench" bench_need nsd drill dnsperf ss fstrm_capture dnstap dnstap-ldns
[ -x "$stock" ] || { echo "tap_bench: $stock not unpacked (make stock)" >&2; exit 1; }
bench_built "$idng"
baseline=${BENCH_TAP_BASELINE:-}
[ -z "$baseline" ] || [ -x "$baseline" ] || { echo "tap_bench: $baseline not built" >&2; exit 1; }
mkdir -p "$out"
# One core for the readers: the second, when there is one (the first takes
# more of the machine's interrupts).
pin=""
if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -ge 2 ]; then
    pin="taskset -c 1"
fi

# ---- the lab: NSD, then a fresh stock Unbound per run ----
LAB_FLAVOUR=stock LAB_UNBOUND=$stock LAB_THREADS=1 LAB_START_SECONDS=15 LAB_ONLY=nsd
lab_start "$dir" || exit 1
port=$LAB_PORT

bench_hits "$top" > "$dir/queries.txt"
cat >> "$dir/queries.txt" <<'EOF'
xn--ab-m1t.evil A
\195\188.evil A
\195\188.xn--ab-m1t.evil A
rawc.evil A
0\195\160.\215\144.evil A
EOF
nq=$(wc -l < "$dir/queries.txt")

# A dnstap reader on $dir/dt.sock: fstrm_capture or the tap, started before
# Unbound (which connects at its start) and waited for until the socket is
# there, for LAB_START_SECONDS at most.
reader_start() { # fstrm|tap OUTFILE
    rm -f "$dir/dt.sock" "$2"
    case $1 in
    fstrm) fstrm_capture -t protobuf:dnstap.Dnstap -u "$dir/dt.sock" -w "$2" \
        > "$dir/reader.err" 2>&1 & ;;
    tap) "$idng" tap -u "$dir/dt.sock" -w "$2" > "$dir/reader.err" 2>&1 & ;;
    esac
    bench_pid=$!
    n=$((LAB_START_SECONDS * 20))
    while [ ! -S "$dir/dt.sock" ]; do
        lab_alive "$bench_pid" && [ "$n" -gt 0 ] || {
            echo "tap_bench: $1 did not listen on $dir/dt.sock" >&2
            cat "$dir/reader.err" >&2
            exit 1
        }
        sleep 0.05
        n=$((n - 1))
    done
}
reader_stop() {
    # shellcheck disable=SC2086
    lab_kill $bench_pid
    bench_pid=""
}
# CPU time (user + system, in clock ticks) a process has used so far, from
# /proc/PID/stat; fields counted after the command name's closing ")".
clk_tck=$(getconf CLK_TCK)
cpu_ticks() { # PID
    [ -n "$1" ] && [ -r "/proc/$1/stat" ] || { echo 0; return; }
    sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}
# The tap's summary fields (FIELD=N ...) from its stderr.
tap_field() { # FILE NAME
    sed -n "s/.* $2=\\([0-9]*\\).*/\\1/p" "$1" | tail -n 1
}

# Unbound with or without a dnstap: clause to $dir/dt.sock.
unbound_start() { # THREADS none|fstrm|tap
    rm -f "$dir/unbound.log"
    LAB_THREADS=$1 LAB_DNSTAP="" LAB_LOGFILE=$dir/unbound.log
    [ "$2" = none ] || LAB_DNSTAP=$dir/dt.sock
    lab_unbound_start || { echo "tap_bench: Unbound ($1 threads, $2) did not come up" >&2; exit 1; }
}

# ---- the capture ----
rounds_through=$(((queries + nq - 1) / nq))
reader_start fstrm "$dir/capture.fstrm"
unbound_start 1 fstrm
capture_cmd="dnsperf -s 127.0.0.1 -p PORT -d QUERIES -n $rounds_through -c $clients -q $outstanding -t 5"
dnsperf -s 127.0.0.1 -p "$port" -d "$dir/queries.txt" -n "$rounds_through" -c "$clients" \
    -q "$outstanding" -t 5 > "$dir/capture.dnsperf" 2>&1 || true
lab_unbound_stop
reader_stop
"$idng" tap -r "$dir/capture.fstrm" > "$dir/capture.lines" 2> "$dir/capture.sum" || true
messages=$(tap_field "$dir/capture.sum" messages)
capture_lines=$(wc -l < "$dir/capture.lines")
ldns_messages=$(dnstap-ldns -q -r "$dir/capture.fstrm" | wc -l)
capture_bytes=$(wc -c < "$dir/capture.fstrm")
set -- $(bench_dnsperf_fields < "$dir/capture.dnsperf")
capture_completed=$2
echo "tap_bench: capture of $messages messages ($capture_bytes bytes, $capture_completed queries" \
    "completed; dnstap-ldns reads $ldns_messages), $capture_lines lines"
[ "${messages:-0}" -ge 200000 ] || echo "tap_bench: fewer than 200,000 messages (BENCH_TAP_QUERIES)" >&2
rm -f "$dir/capture.lines"
[ -z "${BENCH_TAP_KEEP:-}" ] || cp "$dir/capture.fstrm" "$BENCH_TAP_KEEP"

# ---- the rounds ----
decoders="idnguard dnstap dnstap-yaml dnstap-ldns${baseline:+ idnguard-before}"
decode_cmd() { # NAME: the command line, FILE for the capture
    case $1 in
    idnguard) echo "idnguard tap -r FILE" ;;
    idnguard-before) echo "idnguard-before tap -r FILE   (BENCH_TAP_BASELINE)" ;;
    dnstap) echo "dnstap -r FILE" ;;
    dnstap-yaml) echo "dnstap -y -r FILE" ;;
    dnstap-ldns) echo "dnstap-ldns -q -r FILE" ;;
    esac
}
decode() { # NAME
    case $1 in
    idnguard) $pin "$idng" tap -r "$dir/capture.fstrm" ;;
    idnguard-before) $pin "$baseline" tap -r "$dir/capture.fstrm" ;;
    dnstap) $pin dnstap -r "$dir/capture.fstrm" ;;
    dnstap-yaml) $pin dnstap -y -r "$dir/capture.fstrm" ;;
    dnstap-ldns) $pin dnstap-ldns -q -r "$dir/capture.fstrm" ;;
    esac > /dev/null 2>&1
}
configs="1-none 1-fstrm 1-tap 2-none 2-fstrm 2-tap"
rotate() { # ROUND WORD...: the words, starting at the ROUND-th
    r=$1
    shift
    echo "$@" | awk -v r="$r" '{ for (i = 0; i < NF; i++) printf "%s ", $((i + r - 1) % NF + 1) }'
}

runs="$out/tap.csv"
echo "part,config,threads,round,seconds,messages,per_second,completed,lost,dnstap_messages,tap_lines,tap_dropped,unbound_dnstap_log,resolver_cpu_s,reader_cpu_s" > "$runs"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
cat "$dir/capture.fstrm" > /dev/null
round=1
while [ "$round" -le "$repeat" ]; do
    for d in $(rotate "$round" $decoders); do
        t0=$(date +%s%N)
        decode "$d" || [ "${d%-before}" = idnguard ] || { echo "tap_bench: $d failed" >&2; exit 1; }
        t1=$(date +%s%N)
        awk -v d="$d" -v r="$round" -v ns=$((t1 - t0)) -v m="$messages" 'BEGIN {
            printf "decode,%s,1,%d,%.4f,%d,%.0f,,,,,,,,\n", d, r, ns / 1e9, m, m / (ns / 1e9) }' >> "$runs"
        tail -n 1 "$runs"
    done
    for c in $(rotate "$round" $configs); do
        th=${c%%-*} kind=${c#*-}
        [ "$kind" = none ] || reader_start "$kind" "$dir/dt.out"
        unbound_start "$th" "$kind"
        # The CPU time each process uses while dnsperf runs: the reader
        # shares the two cores with Unbound.
        ub_t0=$(cpu_ticks "$LAB_UB_PID") rd_t0=$(cpu_ticks "$bench_pid")
        dnsperf -s 127.0.0.1 -p "$port" -d "$dir/queries.txt" -l "$seconds" -c "$clients" \
            -q "$outstanding" -t 5 > "$dir/dnsperf.out" 2>&1 || true
        ub_cpu=$(awk -v a="$ub_t0" -v b="$(cpu_ticks "$LAB_UB_PID")" -v hz="$clk_tck" \
            'BEGIN { printf "%.3f", (b - a) / hz }')
        rd_cpu=""
        [ "$kind" = none ] || rd_cpu=$(awk -v a="$rd_t0" -v b="$(cpu_ticks "$bench_pid")" \
            -v hz="$clk_tck" 'BEGIN { printf "%.3f", (b - a) / hz }')
        lab_unbound_stop
        dt_msgs="" tap_lines="" tap_dropped=""
        case $kind in
        fstrm)
            reader_stop
            "$idng" tap -r "$dir/dt.out" > /dev/null 2> "$dir/dt.sum" || true
            dt_msgs=$(tap_field "$dir/dt.sum" messages) ;;
        tap)
            reader_stop
            dt_msgs=$(tap_field "$dir/reader.err" messages)
            tap_lines=$(tap_field "$dir/reader.err" lines)
            tap_dropped=$(tap_field "$dir/reader.err" dropped) ;;
        esac
        # Its start-up notices aside, what Unbound said about dnstap
        # (errors, and "info:" at verbosity 1).
        ub_log=$(grep -i dnstap "$dir/unbound.log" | grep -vc ' notice: ' || true)
        set -- $(bench_dnsperf_fields < "$dir/dnsperf.out")
        echo "resolver,$kind,$th,$round,$seconds,,$1,$2,$3,$dt_msgs,$tap_lines,$tap_dropped,$ub_log,$ub_cpu,$rd_cpu" >> "$runs"
        tail -n 1 "$runs"
        rm -f "$dir/dt.out"
    done
    round=$((round + 1))
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)


# ---- the report ----
md="$out/tap.md"
{
    echo "# \`idnguard tap\`: decoding speed and what it costs the resolver"
    echo
    echo "\`make bench-tap\` (bench/tap_bench.sh), $(date -u +%Y-%m-%d). Machine:"
    echo "$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo), $(nproc) CPUs, shared with"
    echo "other jobs. Load average before: $load_start; after: $load_end. Resolver:"
    echo "Debian's unbound $("$stock" -V | awk '/^Version/ {print $2; exit}') (unpacked, stock flavour of scripts/lab.sh: no idnguard"
    echo "module), NSD behind it; readers: idnguard $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo '?'),"
    echo "fstrm_capture and dnstap-ldns (Debian's fstrm-bin and dnstap-ldns), Go's dnstap"
    echo "(golang-github-dnstap-golang-dnstap-cli). $repeat rounds; in each, the readers and then the"
    echo "resolver configurations in rotated order. Raw runs: tap.csv."
    echo
    awk -F, -v messages="$messages" -v ldns_messages="$ldns_messages" -v bytes="$capture_bytes" \
        -v completed="$capture_completed" -v lines="$capture_lines" -v nq="$nq" \
        -v through="$rounds_through" -v pin="$pin" "$bench_stats_awk"'
        NR == 1 { next }
        { k = $1 "," $2 "," $3; n[k]++; v[k, n[k]] = $7; per[k, $4] = $7; rounds[$4] = 1
          if ($1 == "resolver" && $2 != "none") {
              done[k] += $8; got[k] += $10; drop[k] += $12; ublog[k] += $13
          }
          if ($1 == "resolver" && $14 != "") {
              nc[k]++; ucpu[k, nc[k]] = $14 / $5
              if ($15 != "") {
                  rcpu[k, nc[k]] = $15 / $5
                  if ($10 > 0) rpm[k, nc[k]] = 1e6 * $15 / $10
              }
          } }
        # "median min max" of column array A over the runs of K
        function cstats(A, k,    i, a) {
            for (i = 1; i <= nc[k]; i++) a[i] = A[k, i]
            return bench_stats(a, nc[k])
        }
        function cpurow(label, k,    u, r, p) {
            if (!nc[k]) return
            split(cstats(ucpu, k), u, " ")
            printf "| %s | %.2f (%.2f-%.2f) |", label, u[1], u[2], u[3]
            if (((k, 1) in rcpu)) {
                split(cstats(rcpu, k), r, " "); split(cstats(rpm, k), p, " ")
                printf " %.2f (%.2f-%.2f) | %.2f | %.2f |\n", r[1], r[2], r[3], u[1] + r[1], p[1]
            } else
                printf " - | %.2f | - |\n", u[1]
        }
        # "median min max" of the values of K, times F
        function stats(k, f,    i, a) {
            for (i = 1; i <= n[k]; i++) a[i] = f * v[k, i]
            return bench_stats(a, n[k])
        }
        # the same of the ratio A / (F * B), round by round
        function ratio(ka, kb, f,    r, m, a) {
            m = 0
            for (r in rounds)
                if ((ka, r) in per && (kb, r) in per && per[kb, r] > 0)
                    a[++m] = per[ka, r] / (f * per[kb, r])
            return bench_stats(a, m)
        }
        function row(label, k, f,    s) {
            split(stats(k, f), s, " ")
            printf "| %s | %.0f | %.0f | %.0f | %d |\n", label, s[1], s[2], s[3], n[k]
        }
        function rrow(label, ka, kb, f, goal,    s, verdict) {
            split(ratio(ka, kb, f), s, " ")
            verdict = goal == "" ? "" : s[1] >= goal ? "met" : "missed"
            printf "| %s | %.3f | %.3f | %.3f | %s | %s |\n", label, s[1], s[2], s[3],
                goal == "" ? "-" : ">= " goal, verdict
        }
        END {
            print "## 1. Decoding a capture on one core"
            print ""
            printf "The capture: %d dnstap messages (CLIENT_QUERY and CLIENT_RESPONSE, %d bytes;\n", messages, bytes
            printf "dnstap-ldns reads %d) of %d completed queries: the %d-name query file %d times\n", ldns_messages, completed, nq, through
            printf "through. `idnguard tap -r` makes %d lines of it.\nEach reader writes to /dev/null, %s;\n", lines,
                pin == "" ? "not pinned (no taskset, or one core)" : "pinned with `" pin "`"
            print "messages per second from the wall time of the whole command."
            print ""
            print "| reader | median msgs/s | min | max | runs |"
            print "|---|---:|---:|---:|---:|"
            row("`idnguard tap -r FILE`", "decode,idnguard,1", 1)
            row("`dnstap -r FILE` (Go; its default, quiet text)", "decode,dnstap,1", 1)
            row("`dnstap -y -r FILE` (Go; YAML)", "decode,dnstap-yaml,1", 1)
            row("`dnstap-ldns -q -r FILE` (quiet text)", "decode,dnstap-ldns,1", 1)
            if (("decode,idnguard-before,1") in n)
                row("`idnguard-before tap -r FILE` (BENCH_TAP_BASELINE)", "decode,idnguard-before,1", 1)
            row("to keep up: 2 x the cache-hit QPS (num-threads: 1, no dnstap)", "resolver,none,1", 2)
            print ""
            print "| ratio (within each round) | median | min | max | goal | |"
            print "|---|---:|---:|---:|---:|---|"
            rrow("idnguard / dnstap (quiet text)", "decode,idnguard,1", "decode,dnstap,1", 1, 5)
            rrow("idnguard / dnstap -y", "decode,idnguard,1", "decode,dnstap-yaml,1", 1, "")
            rrow("idnguard / dnstap-ldns -q", "decode,idnguard,1", "decode,dnstap-ldns,1", 1, 5)
            rrow("idnguard msgs/s / (2 x cache-hit QPS)", "decode,idnguard,1", "resolver,none,1", 2, 3)
            if (("decode,idnguard-before,1") in n)
                rrow("idnguard / idnguard-before", "decode,idnguard,1", "decode,idnguard-before,1", 1, "")
            print ""
            print "## 2. The resolver streaming dnstap: cache-hit QPS"
            print ""
            print "| configuration | median QPS | min | max | runs |"
            print "|---|---:|---:|---:|---:|"
            for (t = 1; t <= 2; t++) {
                row("num-threads: " t ", no dnstap", "resolver,none," t, 1)
                row("num-threads: " t ", dnstap to `fstrm_capture -w`", "resolver,fstrm," t, 1)
                row("num-threads: " t ", dnstap to `idnguard tap -u -w`", "resolver,tap," t, 1)
            }
            print ""
            print "| ratio (within each round) | median | min | max | goal | |"
            print "|---|---:|---:|---:|---:|---|"
            for (t = 1; t <= 2; t++) {
                rrow("num-threads: " t ": tap / fstrm_capture", "resolver,tap," t, "resolver,fstrm," t, 1, 0.97)
                rrow("num-threads: " t ": fstrm_capture / no dnstap", "resolver,fstrm," t, "resolver,none," t, 1, "")
                rrow("num-threads: " t ": tap / no dnstap", "resolver,tap," t, "resolver,none," t, 1, "")
            }
            print ""
            print "Over all rounds: the messages each reader received against two per query dnsperf saw"
            print "completed (the readiness probes add a handful; queries dnsperf counted lost may still"
            print "have been logged), the lines the tap counted dropped (its summary line), and the lines"
            print "of Unbound'"'"'s log about dnstap other than its start-up notices (errors, and its"
            print "verbosity-1 info: lines). Unbound 1.17 drops a message silently when its queue is"
            print "full: a ratio below 1 is where that would show."
            print ""
            print "| configuration | received / (2 x completed) | tap: dropped | Unbound log: dnstap errors |"
            print "|---|---:|---:|---:|"
            for (t = 1; t <= 2; t++) {
                k = "resolver,fstrm," t
                printf "| num-threads: %d, fstrm_capture | %.4f | - | %d |\n", t, done[k] ? got[k] / (2 * done[k]) : 0, ublog[k]
                k = "resolver,tap," t
                printf "| num-threads: %d, idnguard tap | %.4f | %d | %d |\n", t, done[k] ? got[k] / (2 * done[k]) : 0, drop[k], ublog[k]
            }
            print ""
            print "CPU time while dnsperf runs, in cores (CPU seconds over wall seconds, user and"
            print "system, from /proc/PID/stat; median, min-max over the rounds), and the reader'"'"'s CPU"
            print "time per message it received. The machine has 2 cores: what the reader takes, the"
            print "resolver'"'"'s threads and dnsperf cannot have."
            print ""
            print "| configuration | Unbound, cores | reader, cores | both | reader, CPU us per message |"
            print "|---|---:|---:|---:|---:|"
            for (t = 1; t <= 2; t++) {
                cpurow("num-threads: " t ", no dnstap", "resolver,none," t)
                cpurow("num-threads: " t ", fstrm_capture", "resolver,fstrm," t)
                cpurow("num-threads: " t ", idnguard tap", "resolver,tap," t)
            }
        }' "$runs"
    echo
    if [ -f "$top/bench/tap_notes.md" ]; then
        echo "## Reading the figures"
        echo
        cat "$top/bench/tap_notes.md"
        echo
    fi
    echo "## Commands"
    echo
    echo "Capture (Unbound num-threads: 1, its dnstap: clause as scripts/lab.sh --dnstap writes it):"
    echo
    echo "    fstrm_capture -t protobuf:dnstap.Dnstap -u SOCK -w FILE"
    echo "    $capture_cmd"
    echo
    echo "Readers, each \`${pin:+$pin }COMMAND > /dev/null\`:"
    echo
    for d in $decoders; do echo "    $(decode_cmd "$d")"; done
    echo
    echo "Resolver runs: a fresh Unbound each, then"
    echo
    echo "    fstrm_capture -t protobuf:dnstap.Dnstap -u SOCK -w FILE    (or)"
    echo "    idnguard tap -u SOCK -w FILE                               (or no dnstap: clause)"
    echo "    dnsperf -s 127.0.0.1 -p PORT -d QUERIES -l $seconds -c $clients -q $outstanding -t 5"
    echo
    echo "The query file (QUERIES):"
    echo
    sed 's/^/    /' "$dir/queries.txt"
} > "$md"
cat "$md"
