#!/bin/sh
# engines_bench.sh OUTDIR
#
# What idnguard costs each Lua engine (docs/engines.md): Knot Resolver
# (kresd), PowerDNS Recursor (pdns) and dnsdist in front of the Unbound
# built here without the module, each run as the lab runs it
# (scripts/lab.sh, tests/integration/engines/FLAVOUR.sh) from the engines'
# Debian root, with idnguard (lua/) and without it (LAB_ENGINE_GUARD=no:
# the same configuration, caches and forwarding, without the line that
# loads idnguard), measured side by side under dnsperf on loopback.
#
# NSD serves the integration zones and bench/zones/bench.zone (a wildcard
# for cache misses); every engine reaches bench. through the lab's own
# forwarding (kresd and pdns forward to NSD, dnsdist's backend stubs the
# root to it).  Two workloads, those of bench/resolver_bench.sh:
#   hits    its 20 names (65% ASCII, 30% valid IDNs, 5% fake A-labels),
#           asked once each before the timed run so that they are cached
#           (a name idnguard refuses is refused every time, never cached)
#   misses  unique names under the wildcard, same mix: each one resolved
# idnguard's settings log nothing (resolver_bench.sh's configuration 2):
# log-queries: no, log-rejected: no, on-mixed-script / on-mixed-number:
# pass.
#
# Each run starts a fresh engine (empty caches; one thread, one process),
# runs dnsperf for BENCH_SECONDS (default 10), reads the engine's CPU time
# (user and system, from /proc; dnsdist's backend not counted) and stops
# it.  BENCH_REPEAT rounds (default 3); in each, for each engine and
# workload, without and with idnguard in an order that alternates from
# round to round.  Reported per engine and workload: the median QPS each
# way with its min and max, the ratio with/without taken within each
# round, as median (min-max), and CPU microseconds per query; the load
# average at the start and at the end.
#
# Where the guarded hits stay under the goal (0.95 of the unguarded QPS),
# two more hits runs, without and with idnguard, are profiled with `perf
# record -g` (when perf is installed): the engine's CPU time per query by
# shared object each way, from `perf report --no-children`, and the top
# symbols with idnguard go after the table.  BENCH_PERF=no profiles
# nothing, BENCH_PERF=all every engine.  bench/engines_notes.md (the
# reading of the figures, written by hand) follows.
#
# Writes OUTDIR/engines-runs.csv (every run), engines.csv and engines.md.
# BENCH_ENGINES="kresd pdns dnsdist" and BENCH_WORKLOADS="hits misses"
# restrict the runs; BENCH_CLIENTS and BENCH_OUTSTANDING set dnsperf's -c
# and -q.  The library, the Lua files, the zones, the engines' root and
# dnsdist's backend Unbound are the lab's (IDNGUARD_LIB, IDNGUARD_LUA,
# IDNGUARD_ZONES, IDNGUARD_ENGINES_ROOT, IDNGUARD_UNBOUND).  Loopback only,
# free ports, a fresh temporary directory, always cleaned up; every daemon
# stopped by its PID.
set -eu

out=$1
seconds=${BENCH_SECONDS:-10}
repeat=${BENCH_REPEAT:-3}
engines=${BENCH_ENGINES:-kresd pdns dnsdist}
workloads=${BENCH_WORKLOADS:-hits misses}
clients=${BENCH_CLIENTS:-8}
outstanding=${BENCH_OUTSTANDING:-100}
goal=0.95
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lab.sh"
. "$top/bench/bench_lib.sh"
bench_begin engines_bench
bench_need nsd drill dnsperf ss
for e in $engines; do
    case $e in kresd | pdns | dnsdist) ;; *) echo "engines_bench: no engine $e" >&2; exit 2 ;; esac
done
mkdir -p "$out"

# ---- NSD: the integration zones plus the wildcard zone ----
# (NSD's response rate limiting off, as in resolver_bench.sh: every miss
# matches the same wildcard.)
printf 'server:\n    rrl-ratelimit: 0\n    rrl-whitelist-ratelimit: 0\n' > "$dir/nsd-extra"
printf 'idnguard:\n    log-queries: no\n    log-rejected: no\n    on-mixed-script: pass\n    on-mixed-number: pass\n' \
    > "$dir/idnguard-quiet.conf"
LAB_THREADS=1 LAB_NSD_EXTRA=$dir/nsd-extra LAB_CONF=$dir/idnguard-quiet.conf \
    LAB_ZONE_FILES="bench.=$top/bench/zones/bench.zone" LAB_START_SECONDS=30 LAB_ONLY=nsd
lab_start "$dir" || exit 1
port=$LAB_PORT
root=$LAB_ENGINES_ROOT

# ---- query files ----
bench_hits "$top" > "$dir/hits.txt"
[ "$(wc -l < "$dir/hits.txt")" -eq 20 ] || { echo "engines_bench: hits list not found" >&2; exit 1; }
bench_misses $((seconds * 60000)) > "$dir/misses.txt"

# ---- one run ----

# The engine's CPU time so far, in clock ticks (user + system, all threads).
cpu_ticks() { # PID
    read -r s < "/proc/$1/stat" 2>/dev/null || { echo 0; return; }
    # shellcheck disable=SC2086
    set -- ${s##*) }
    echo $((${12} + ${13}))
}
hz=$(getconf CLK_TCK)

# Starts ENGINE with idnguard (GUARD yes) or without (no), with empty
# caches: kresd's is a file in the lab's directory.
start_engine() { # ENGINE GUARD
    rm -rf "$dir/kresd-cache"
    LAB_FLAVOUR=$1 LAB_ENGINE_GUARD=$2 LAB_LOGFILE=$dir/engine-$1-$2.log
    lab_unbound_start || { echo "engines_bench: $1 (guard $2) did not come up" >&2; exit 1; }
    engine_pid=$LAB_UB_PID
    # Cache hits are answered from the cache from the first timed query.
    [ "$3" != hits ] ||
        dnsperf -s 127.0.0.1 -p "$port" -d "$dir/hits.txt" -n 1 -c 1 -q 1 -t 5 > /dev/null 2>&1 || true
}

# dnsperf against the started engine; prints "QPS COMPLETED LOST CPU_US_PER_QUERY".
measure() { # WORKLOAD
    c0=$(cpu_ticks "$engine_pid")
    dnsperf -s 127.0.0.1 -p "$port" -d "$dir/$1.txt" -l "$seconds" -c "$clients" \
        -q "$outstanding" -t 5 > "$dir/dnsperf.out" 2>&1 || true
    c1=$(cpu_ticks "$engine_pid")
    set -- $(bench_dnsperf_fields < "$dir/dnsperf.out")
    awk -v q="$1" -v d="$2" -v l="$3" -v t="$((c1 - c0))" -v hz="$hz" \
        'BEGIN { printf "%s %s %s %.2f\n", q, d, l, (d > 0 ? t * 1e6 / hz / d : 0) }'
}

runs="$out/engines-runs.csv"
echo "engine,workload,guard,round,qps,completed,lost,cpu_us_per_query" > "$runs"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
t_start=$(date +%s)
echo "engines_bench: NSD on :$LAB_NSD_PORT, engines on :$port; $repeat rounds of ${seconds}s runs," \
    "dnsperf -c $clients -q $outstanding; engines: $engines"
round=1
while [ "$round" -le "$repeat" ]; do
    order="no yes"
    [ $((round % 2)) = 1 ] || order="yes no"
    for e in $engines; do
        for wl in $workloads; do
            for guard in $order; do
                start_engine "$e" "$guard" "$wl"
                set -- $(measure "$wl")
                lab_unbound_stop
                echo "$e,$wl,$guard,$round,$1,$2,$3,$4" >> "$runs"
                tail -n 1 "$runs"
            done
        done
    done
    round=$((round + 1))
done
t_end=$(date +%s)
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- summary ----
md=$out/engines.md
awk -F, -v csv="$out/engines.csv" -v md="$md" -v goal="$goal" "$bench_stats_awk"'
    NR == 1 { next }
    { g = $1 "," $2; k = g "," $3
      if (!(g in seen)) { seen[g] = 1; groups[++ng] = g }
      n[k]++; q[k, n[k]] = $5; cpu[k, n[k]] = $8; at[k, $4] = $5
      rounds[g] = rounds[g] > $4 ? rounds[g] : $4 }
    function stats(k, a,    v, j) {
        for (j = 1; j <= n[k]; j++) v[j] = a == "q" ? q[k, j] : cpu[k, j]
        return bench_stats(v, n[k])
    }
    function ratio(g,    r, m, v) {
        m = 0
        for (r = 1; r <= rounds[g]; r++)
            if ((g ",yes", r) in at && (g ",no", r) in at && at[g ",no", r] > 0)
                v[++m] = at[g ",yes", r] / at[g ",no", r]
        return bench_stats(v, m)
    }
    END {
        print "engine,workload,runs,qps_without,min_without,max_without,qps_with,min_with,max_with,ratio,ratio_min,ratio_max,cpu_us_without,cpu_us_with" > csv
        print "# idnguard in the Lua engines: queries a second with and without it" > md
        print "" > md
        print "| engine | workload | without idnguard, QPS (min-max) | with idnguard, QPS (min-max) | with / without, per round (min-max) | CPU µs per query, without / with |" > md
        print "|---|---|---:|---:|---|---:|" > md
        for (i = 1; i <= ng; i++) {
            g = groups[i]; split(g, f, ",")
            split(stats(g ",no", "q"), a, " "); split(stats(g ",yes", "q"), b, " ")
            split(stats(g ",no", "c"), ca, " "); split(stats(g ",yes", "c"), cb, " ")
            split(ratio(g), r, " ")
            printf "%s,%d,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.3f,%.3f,%.3f,%.2f,%.2f\n", g, n[g ",yes"],
                a[1], a[2], a[3], b[1], b[2], b[3], r[1], r[2], r[3], ca[1], cb[1] > csv
            bold = f[2] == "hits" && r[1] < goal ? "**" : ""
            printf "| %s | %s | %.0f (%.0f-%.0f) | %.0f (%.0f-%.0f) | %s%.3f%s (%.3f-%.3f) | %.1f / %.1f |\n",
                f[1], f[2], a[1], a[2], a[3], b[1], b[2], b[3], bold, r[1], bold, r[2], r[3], ca[1], cb[1] > md
        }
    }' "$runs"

# The engines' versions, from the root's package list.
versions=$(awk '/^Package: / { p = $2 } /^Version: / { v[p] = $2 }
    END { printf "Knot Resolver %s, PowerDNS Recursor %s, dnsdist %s", v["knot-resolver"],
          v["pdns-recursor"], v["dnsdist"] }' "$root/var/lib/dpkg/status")
{
    echo
    echo "dnsperf -c $clients -q $outstanding, ${seconds}s per run, $repeat rounds (without and with"
    echo "idnguard in alternating order), a fresh engine (one thread, empty caches) for every run;"
    echo "$versions (Debian 13's, from the engines' root); dnsdist's backend: the Unbound built"
    echo "here, without the module. Ratio: QPS with idnguard over QPS without, taken within each"
    echo "round (the two runs side by side), median (min-max); in bold where the goal of $goal on"
    echo "cache hits is missed. CPU: the engine's user and system time over the timed run per"
    echo "completed query, median (dnsdist's backend not counted). idnguard's settings log nothing"
    echo "(log-queries: no, log-rejected: no, on-mixed-script and on-mixed-number: pass). Hits: the"
    echo "20 names of bench/resolver_bench.sh (one, a fake A-label, refused by idnguard and so never"
    echo "cached); misses: unique names under bench/zones/bench.zone's wildcard, same mix. Load"
    echo "average at start: $load_start; at end: $load_end ($(nproc) cores, shared); the runs took"
    echo "$((t_end - t_start)) s."
} >> "$md"

# ---- profiles where the goal is missed ----

# perf over a hits run of ENGINE with idnguard (GUARD yes) or without (no),
# into $dir/perf-ENGINE-GUARD.data; prints dnsperf's QPS and the engine's
# CPU microseconds per query in that run.
profile() { # ENGINE GUARD
    start_engine "$1" "$2" hits
    perf record -g -o "$dir/perf-$1-$2.data" -p "$engine_pid" -- sleep "$seconds" \
        > "$dir/perf-$1-$2.out" 2>&1 &
    bench_pid=$!
    set -- $(measure hits)
    wait "$bench_pid" || true
    bench_pid=""
    lab_unbound_stop
    echo "$1 $4"
}

# CPU microseconds per query by shared object: perf's share of the
# engine's samples times its CPU time per query ("[JIT] tid N" as [JIT]).
dso_us() { # DATA CPU_US
    perf report -i "$1" --no-children --stdio -g none --sort dso 2>/dev/null |
        awk -v cpu="$2" '/^ *[0-9.]+%/ {
            p = $1; sub(/%/, "", p); $1 = ""; d = $0
            sub(/^ +/, "", d); sub(/ +$/, "", d); sub(/ tid [0-9]+$/, "", d)
            printf "%s\t%.3f\n", d, p * cpu / 100 }'
}

perf_mode=${BENCH_PERF:-missed}
if [ "$perf_mode" != no ] && command -v perf > /dev/null 2>&1; then
    for e in $engines; do
        case " $workloads " in *" hits "*) ;; *) break ;; esac
        missed=$(awk -F, -v e="$e" -v goal="$goal" '$1 == e && $2 == "hits" { print ($10 < goal) }' \
            "$out/engines.csv")
        [ "$perf_mode" = all ] || [ "$missed" = 1 ] || continue
        set -- $(profile "$e" no) $(profile "$e" yes)
        dso_us "$dir/perf-$e-no.data" "$2" > "$dir/dso-no.tsv"
        dso_us "$dir/perf-$e-yes.data" "$4" > "$dir/dso-yes.tsv"
        {
            echo
            echo "### Profile: $e, hits"
            echo
            echo "\`perf record -g -p PID\` over a ${seconds}s hits run each way (under perf: $1 QPS,"
            echo "$2 µs of CPU per query without idnguard; $3 QPS, $4 µs with it), then \`perf report"
            echo "--no-children\`. The engine's CPU time per query by shared object (its share of the"
            echo "samples times the run's CPU time per query), largest first; libraries from the root"
            echo "are stripped, so the symbols below are mostly addresses. LuaJIT's interpreter, its"
            echo "FFI calls from the interpreter and the engine's own C-to-Lua calls are in libluajit;"
            echo "the code it compiled is [JIT]; libidnguard is the guard's C."
            echo
            echo "| shared object | µs per query without | with | added |"
            echo "|---|---:|---:|---:|"
            awk -F'\t' 'NR == FNR { no[$1] = $2; next }
                { printf "| %s | %.2f | %.2f | %+.2f |\n", $1, no[$1], $2, $2 - no[$1]; seen[$1] = 1 }
                END { for (d in no) if (!(d in seen) && no[d] >= 0.05)
                          printf "| %s | %.2f | 0.00 | %+.2f |\n", d, no[d], -no[d] }' \
                "$dir/dso-no.tsv" "$dir/dso-yes.tsv" | awk -F'|' '$3 + 0 >= 0.05 || $4 + 0 >= 0.05'
            echo
            echo "The top symbols with idnguard (share of the engine's samples):"
            echo
            echo '```'
            perf report -i "$dir/perf-$e-yes.data" --no-children --stdio -g none --sort dso,sym 2>/dev/null |
                grep -v '^#' | grep -v '^$' | head -n 20
            echo '```'
        } >> "$md"
    done
fi

if [ -f "$top/bench/engines_notes.md" ]; then
    { echo; echo "## Reading the figures"; echo; cat "$top/bench/engines_notes.md"; } >> "$md"
fi
cat "$md"
