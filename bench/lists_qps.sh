#!/bin/sh
# lists_qps.sh UNBOUND MODULE OUT.md
#
# What lists at blocklist scale cost a cache hit: dnsperf against the Unbound
# daemon built here with the module, on loopback with NSD behind it (the lab
# of scripts/lab.sh, as bench/resolver_bench.sh runs it), in two
# configurations, on the hits workload of resolver_bench.sh (20 names,
# answered from Unbound's cache; none of them listed):
#   A  the module, logging off (resolver_bench.sh's configuration 2)
#   B  as A, with a deny-file, an allow-file and a protect-file of
#      BENCH_LISTS_NAMES (default 1,000,000) names each
# BENCH_REPEAT (default 5) rounds, A and B in turn (B first in even rounds),
# BENCH_SECONDS (default 10) per run, a fresh Unbound each run.  Reported:
# each configuration's median QPS (min-max), B/A taken within each round as
# median (min-max), the queries lost, the daemon's VmRSS after each run, and
# the machine's load average at start and end.
set -eu

unbound=$1
module=$2
out=$3
seconds=${BENCH_SECONDS:-10}
repeat=${BENCH_REPEAT:-5}
names=${BENCH_LISTS_NAMES:-1000000}
clients=${BENCH_CLIENTS:-8}
outstanding=${BENCH_OUTSTANDING:-100}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lab.sh"
. "$top/bench/bench_lib.sh"
bench_begin lists_qps
bench_need nsd dnsperf ss
bench_built "$unbound" "$module"

LAB_UNBOUND=$unbound LAB_MODULE=$module LAB_THREADS=1 LAB_START_SECONDS=60 LAB_ONLY=nsd
lab_start "$dir" || exit 1
port=$LAB_PORT

bench_hits "$top" > "$dir/hits.txt"
# The lists: names of the shape a blocklist holds, none of them asked.
awk -v n="$names" 'BEGIN { for (i = 0; i < n; i++) printf "d%d-%x.deny%d.example\n", i, i * 7919, i % 97 }' \
    > "$dir/deny.txt"
awk -v n="$names" 'BEGIN { for (i = 0; i < n; i++) printf "a%d-%x.allow%d.example\n", i, i * 7919, i % 89 }' \
    > "$dir/allow.txt"
awk -v n="$names" 'BEGIN { for (i = 0; i < n; i++)
    printf (i % 10 == 0 ? "b\303\274cher%d.protect%d.example\n" : "brand%d.protect%d.example\n"), i, i % 97 }' \
    > "$dir/protect.txt"
quiet='    log-queries: no\n    log-rejected: no\n    on-mixed-script: pass\n    on-mixed-number: pass\n'
printf "idnguard:\n$quiet" > "$dir/idng-A.conf"
printf "idnguard:\n$quiet    deny-file: %s/deny.txt\n    allow-file: %s/allow.txt\n    protect-file: %s/protect.txt\n" \
    "$dir" "$dir" "$dir" > "$dir/idng-B.conf"

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
runs=$dir/runs.txt
: > "$runs"
round=1
while [ "$round" -le "$repeat" ]; do
    order="A B"
    [ $((round % 2)) -eq 1 ] || order="B A"
    for c in $order; do
        LAB_LOGFILE=$dir/unbound-$c.log LAB_CONF=$dir/idng-$c.conf LAB_SERVER_EXTRA=""
        LAB_MODULES="dynlib validator iterator"
        lab_unbound_start || { echo "lists_qps: Unbound ($c) did not come up" >&2; exit 1; }
        dnsperf -s 127.0.0.1 -p "$port" -d "$dir/hits.txt" -l "$seconds" -c "$clients" \
            -q "$outstanding" -t 5 > "$dir/dnsperf.out" 2>&1 || true
        rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$LAB_UB_PID/status" 2>/dev/null || echo 0)
        lab_unbound_stop
        echo "$round $c $(bench_dnsperf_fields < "$dir/dnsperf.out") $rss" | tee -a "$runs"
    done
    round=$((round + 1))
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

awk -v names="$names" -v secs="$seconds" -v rounds="$repeat" -v c="$clients" -v q="$outstanding" \
    -v ls="$load_start" -v le="$load_end" "$bench_stats_awk"'
    { qps[$2, $1] = $3; lost[$2] += $5; rss[$2] = rss[$2] > $6 ? rss[$2] : $6 }
    function stats(cfg,    a, r) { for (r = 1; r <= rounds; r++) a[r] = qps[cfg, r]; return bench_stats(a, rounds) }
    END {
        split(stats("A"), a, " "); split(stats("B"), b, " ")
        for (r = 1; r <= rounds; r++) v[r] = qps["A", r] > 0 ? qps["B", r] / qps["A", r] : 0
        split(bench_stats(v, rounds), x, " ")
        printf "# Cache hits with lists of %d names\n\n", names
        printf "`make bench-lists` (bench/lists_qps.sh): dnsperf -c %d -q %d on the hits workload of bench/resolver_bench.sh (20 names answered from the cache, none listed), %d s per run, %d rounds, A and B in turn, a fresh Unbound (one thread) each run. Load average at start: %s; at end: %s.\n\n", c, q, secs, rounds, ls, le
        printf "| configuration | QPS, median (min-max) | queries lost | VmRSS after the run, KiB |\n|---|---:|---:|---:|\n"
        printf "| A: the module, logging off | %.0f (%.0f-%.0f) | %d | %d |\n", a[1], a[2], a[3], lost["A"], rss["A"]
        printf "| B: A with a deny-file, an allow-file and a protect-file of %d names each | %.0f (%.0f-%.0f) | %d | %d |\n", names, b[1], b[2], b[3], lost["B"], rss["B"]
        printf "\nB/A, within each round: %.3f (%.3f-%.3f).\n", x[1], x[2], x[3]
    }' "$runs" > "$out"
cat "$out"
