#!/bin/sh
# resolver_bench.sh UNBOUND MODULE OUTDIR
#
# dnsperf against the Unbound daemon built here, on loopback, with NSD behind
# it (tests/integration/nsd.conf.in and unbound.conf.in, the integration
# zones, and bench/zones/bench.zone: a wildcard for cache misses), in eight
# configurations:
#   1 no-module     module-config "validator iterator"
#   2 module        the idnguard module, default policy, logging off
#                   (log-queries: no, log-rejected: no; see below)
#   3 module-log    the module logging every query to its own log-file
#   4 unbound-log   no module; Unbound's log-queries and log-replies to its logfile
#   5 module-deny100k  as 2, with a deny list of 100,000 names (none of them
#                   asked): what a big list costs each query
#   6 module-logrej as 2, but log-rejected: yes (the default): a line in
#                   Unbound's own log for every query refused
#   7 module-protect100k  as 2, with 100,000 protected names (UTS #39, a
#                   tenth of them IDNs) in a protect-file: what rule 6's
#                   confusable check costs each query
#   8 module-lookalike-log  as 2, but the lookalike classes at their
#                   default action, log: a line in Unbound's own log for
#                   every query of a mixed-script name (two of the 20 hits,
#                   p<Cyrillic a>ypal and an Arabic name with a code point
#                   outside UTS #39's Allowed set)
# "Logging off" (2, 5, 6, 7) is log-queries: no, log-rejected: no, and
# on-mixed-script / on-mixed-number: pass, so that no query makes a line;
# the lookalike rules are still judged (they are counted, and they decide
# how a name is shown).
# and three workloads:
#   hits    a small set of names, repeated: answered from Unbound's cache
#           (names the module refuses are answered by the module every time)
#           65% ASCII names, 30% valid IDNs (xn-- labels), 5% fake A-labels
#   misses  unique names under the wildcard: every query goes to NSD, same mix
#   fake20  as hits with 20% fake A-labels (four of them): the module refuses
#           each one without caching, plain Unbound answers it from its cache
#
# Every run starts a fresh Unbound (empty cache) with num-threads from
# BENCH_THREADS (default "1 2", each in turn), runs dnsperf for
# BENCH_SECONDS (default 10), reads the daemon's VmRSS, and stops it.
# BENCH_REPEAT (default 3) rounds, the configurations in a rotated order
# each round.  Reported per workload and thread count: the median QPS of
# each configuration with its min and max, and the ratios between
# configurations taken within a round (same load), as median (min-max).
# Writes OUTDIR/resolver-runs.csv, resolver.csv, memory.csv, resolver.md.
# For experiments: BENCH_CONFIGS="1 2" and BENCH_WORKLOADS=hits restrict the
# runs; BENCH_CLIENTS and BENCH_OUTSTANDING set dnsperf's -c and -q.
#
# BENCH_MODE=instructions counts instead of timing: each configuration
# (BENCH_CONFIGS, default "1 2 3 8") runs once per workload with one thread
# under valgrind's callgrind, which counts the instructions the daemon
# executes in user space while it handles the queries (from a datagram's
# arrival, comm_point_udp_callback, to its reply; an upstream answer's
# handling too); BENCH_QUERIES (default 4000) queries at a steady 3000 a
# second, after one pass over the names to fill the cache.  A count does
# not move with the machine's load, so the 2% of the goals can be seen;
# the kernel's part (two thirds of the daemon's time on cache hits, by
# perf) is not in it, so a ratio of counts overstates what the module
# costs in time.  Writes OUTDIR/resolver-instructions.csv and .md.
# Loopback only, free ports, a fresh temporary directory, always cleaned up.
set -eu

unbound=$1
module=$2
out=$3
mode=${BENCH_MODE:-qps}
seconds=${BENCH_SECONDS:-10}
repeat=${BENCH_REPEAT:-3}
threads_list=${BENCH_THREADS:-1 2}
queries=${BENCH_QUERIES:-4000}
clients=${BENCH_CLIENTS:-8}
outstanding=${BENCH_OUTSTANDING:-100}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lab.sh"
. "$top/bench/bench_lib.sh"
bench_begin resolver_bench
bench_need nsd drill dnsperf ss
[ "$mode" != instructions ] || bench_need valgrind callgrind_annotate callgrind_control
bench_built "$unbound" "$module"
mkdir -p "$out"

# ---- NSD: the integration zones plus the wildcard zone ----
# The lab (scripts/lab.sh) on free ports in $dir: NSD first, with the
# integration zones as prepared by tests/integration/prepare-zones.sh
# (`make zones`) and bench/zones/bench.zone; a fresh Unbound for each run.
# NSD's response rate limiting (Debian builds it in, 200 answers a second
# per client network by default) would drop most of the cache misses, which
# all match the same wildcard: switched off here.
printf 'server:\n    rrl-ratelimit: 0\n    rrl-whitelist-ratelimit: 0\n' > "$dir/nsd-extra"
printf 'stub-zone:\n    name: "bench."\n    stub-addr: 127.0.0.1@@NSD_PORT@\n' > "$dir/unbound-extra"
LAB_UNBOUND=$unbound LAB_MODULE=$module LAB_THREADS=1 LAB_NSD_EXTRA=$dir/nsd-extra \
    LAB_UNBOUND_EXTRA=$dir/unbound-extra LAB_ZONE_FILES="bench.=$top/bench/zones/bench.zone" \
    LAB_START_SECONDS=15 LAB_ONLY=nsd
lab_start "$dir" || exit 1
port=$LAB_PORT nsd_port=$LAB_NSD_PORT

# ---- query files ----
# Hits: 20 names, each class in proportion (13 ASCII, 6 IDN, 1 fake), all
# served by the integration zones.
cat > "$dir/hits.txt" <<'EOF'
www.example A
example SOA
ns.example A
example NS
_dmarc.example TXT
r3---sn-abc.example A
a--b.example A
-x.example A
www2.example A
sub.www.example A
ok.www.example A
www.example AAAA
good-alias.example A
xn--bcher-kva.example A
xn--bcher-kva.example AAAA
xn--80aafi6cg.example A
xn--mgba3gch31f060k.example A
xn--pypal-4ve.example A
xn--fa-hia.example A
xn--ab-m1t.example A
EOF
# Fake20: the 16 valid names of hits and four fake A-labels of the
# integration zone (contextj, above U+10FFFF, bidi rule 1, not NFC), each
# with an A record, so plain Unbound answers all 20 from its cache.
{ grep -v 'xn--ab-m1t' "$dir/hits.txt" | head -n 16
  printf '%s A\n' xn--ab-m1t.example xn--0000h.example xn--1-0hc.example xn--cafe-yvc.example
} > "$dir/fake20.txt"
# Misses: unique names under the wildcard, enough for the run at well over
# the QPS this machine reaches; each run starts with an empty cache.
bench_misses $((seconds * 60000)) > "$dir/misses.txt"

# ---- configurations ----
quiet='    on-mixed-script: pass\n    on-mixed-number: pass\n'
printf "idnguard:\n    log-queries: no\n    log-rejected: no\n$quiet" > "$dir/idng-2.conf"
printf "idnguard:\n    log-queries: no\n$quiet" > "$dir/idng-6.conf"
printf 'idnguard:\n    log-queries: no\n    log-rejected: no\n' > "$dir/idng-8.conf"
printf 'idnguard:\n    log-queries: yes\n    log-file: "%s/idnguard-3.log"\n' "$dir" > "$dir/idng-3.conf"
{ printf "idnguard:\n    log-queries: no\n    log-rejected: no\n$quiet"
  awk 'BEGIN { for (i = 0; i < 100000; i++) printf "    deny: d%d.deny%d.example.\n", i, i % 97 }'
} > "$dir/idng-5.conf"
awk 'BEGIN { for (i = 0; i < 100000; i++)
    printf (i % 10 == 0 ? "b\303\274cher%d.protect%d.example\n" : "brand%d.protect%d.example\n"), i, i % 97 }' \
    > "$dir/protect.txt"
printf "idnguard:\n    log-queries: no\n    log-rejected: no\n$quiet    protect-file: \"%s/protect.txt\"\n" \
    "$dir" > "$dir/idng-7.conf"
# Unbound's settings for configuration N: no module in 1 and 4, Unbound's
# own query log in 4, a log file each.
printf 'log-queries: yes\nlog-replies: yes\n' > "$dir/server-extra-4"
lab_configure() { # N
    LAB_LOGFILE=$dir/unbound-$1.log LAB_CONF=$dir/idng-$1.conf LAB_SERVER_EXTRA=""
    LAB_MODULES="dynlib validator iterator"
    case $1 in 1 | 4) LAB_MODULES="validator iterator" ;; esac
    [ "$1" != 4 ] || LAB_SERVER_EXTRA=$dir/server-extra-4
}
: > "$dir/idng-1.conf"
: > "$dir/idng-4.conf"
cfg_name() {
    case $1 in
    1) echo no-module ;; 2) echo module ;; 3) echo module-log ;; 4) echo unbound-log ;;
    5) echo module-deny100k ;; 6) echo module-logrej ;; 7) echo module-protect100k ;;
    8) echo module-lookalike-log ;;
    esac
}

start_unbound() { # N THREADS
    rm -f "$dir/unbound-$1.log" "$dir/idnguard-3.log" "$dir"/callgrind.out*
    lab_configure "$1"
    LAB_THREADS=$2
    [ "$mode" != instructions ] || LAB_WRAP="valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no
        --toggle-collect=comm_point_udp_callback --callgrind-out-file=$dir/callgrind.out"
    lab_unbound_start || { echo "resolver_bench: Unbound (config $1) did not come up" >&2; exit 1; }
    ub_pid=$LAB_UB_PID
}
stop_unbound() {
    lab_unbound_stop
}
rss_kb() {
    awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0
}

if [ "$mode" = instructions ]; then
    LAB_START_SECONDS=120
    icsv="$out/resolver-instructions.csv"
    echo "workload,config,name,queries,instructions,per_query,module_own_per_query" > "$icsv"
    head -n "$queries" "$dir/misses.txt" > "$dir/misses-n.txt"
    for wl in ${BENCH_WORKLOADS:-hits misses fake20}; do
        for c in ${BENCH_CONFIGS:-1 2 3 8}; do
            start_unbound "$c" 1
            input=$dir/$wl.txt
            if [ "$wl" = misses ]; then
                input=$dir/misses-n.txt passes=1
            else
                # one pass fills the cache; then enough passes for the count
                dnsperf -s 127.0.0.1 -p "$port" -d "$input" -n 1 -c 1 -q 1 > /dev/null 2>&1 || true
                passes=$((queries / $(wc -l < "$input")))
            fi
            callgrind_control -i on "$ub_pid" > /dev/null 2>&1 ||
                { echo "resolver_bench: callgrind_control failed" >&2; exit 1; }
            dnsperf -s 127.0.0.1 -p "$port" -d "$input" -n "$passes" -c 1 -q 10 -Q 3000 -t 30 \
                > "$dir/dnsperf.out" 2>&1 || true
            stop_unbound
            done_q=$(awk '/Queries completed:/ { print $3 }' "$dir/dnsperf.out")
            [ -s "$dir/callgrind.out" ] && [ "${done_q:-0}" -gt 0 ] ||
                { echo "resolver_bench: no count for $wl, config $c" >&2; exit 1; }
            callgrind_annotate --threshold=100 --auto=no "$dir/callgrind.out" 2>/dev/null |
                awk -v wl="$wl" -v c="$c" -v name="$(cfg_name "$c")" -v q="$done_q" \
                    -v top="$top" '
                    /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
                    # the module'"'"'s functions, inlined ones included, by their source
                    $0 ~ ("%\\)  (" top "/)?(codec|core|conf|module)/") {
                        v = $1; gsub(",", "", v); own += v }
                    END { printf "%s,%s,%s,%d,%d,%.0f,%.0f\n", wl, c, name, q, total,
                              total / q, own / q }' >> "$icsv"
            tail -n 1 "$icsv"
        done
    done
    awk -F, -v md="$out/resolver-instructions.md" '
        NR == 1 { next }
        { if (!($1 in seen)) { seen[$1] = 1; wls[++nw] = $1 }
          per[$1, $2] = $6; own[$1, $2] = $7; cfgs[$2] = 1 }
        function r(a, b) { return per[wl, a] && per[wl, b] ? sprintf("%.3f", per[wl, a] / per[wl, b]) : "-" }
        function v(x) { return x == "" ? "-" : x }
        END {
            print "| workload | (1) no module | (2) module | (3) module, query log | (8) module, lookalikes logged | (2)/(1) | (3)/(1) | (8)/(1) | the module'"'"'s own, in (2) | in (3) |" > md
            print "|---|---:|---:|---:|---:|---|---|---|---:|---:|" > md
            for (i = 1; i <= nw; i++) {
                wl = wls[i]
                printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", wl, v(per[wl, 1]),
                    v(per[wl, 2]), v(per[wl, 3]), v(per[wl, 8]), r(2, 1), r(3, 1), r(8, 1),
                    v(own[wl, 2]), v(own[wl, 3]) > md
            }
        }' "$icsv"
    {
        echo
        echo "Instructions per query in the daemon's user space, callgrind, one thread, $queries"
        echo "queries at 3000 a second after a pass that fills the cache (misses: $queries unique"
        echo "names). \"The module's own\": instructions in the module's own functions (codec, core,"
        echo "conf and module sources, inlined ones included);"
        echo "the rest of a configuration's difference is Unbound's work on the module's behalf"
        echo "(its callbacks, and for a refused name the mesh state no cache hit needs)."
    } >> "$out/resolver-instructions.md"
    cat "$out/resolver-instructions.md"
    exit 0
fi

# What loading the 100,000-name list costs: the CLI's check-conf (the
# module's parser, building the same hashed set, then printing the settings)
# on (5)'s settings and on (2)'s, 5 times each; the medians' difference.
cli=$(dirname "$module")/idnguard
load_note="(not measured: $cli not built)"
if [ -x "$cli" ]; then
    for c in 2 5; do
        for i in 1 2 3 4 5; do
            t0=$(date +%s%N)
            "$cli" check-conf "$dir/idng-$c.conf" > /dev/null
            t1=$(date +%s%N)
            echo "$c $(((t1 - t0) / 1000))"
        done
    done > "$dir/load.txt"
    load_note=$(awk "$bench_stats_awk"'
        { n[$1]++; v[$1, n[$1]] = $2 / 1e6 }
        function stats(c,    a, i) {
            for (i = 1; i <= n[c]; i++) a[i] = v[c, i]
            return bench_stats(a, n[c])
        }
        END {
            split(stats(2), s2, " "); split(stats(5), s5, " ")
            printf "%.3f s (check-conf on the settings with the list: %.3f s, median of 5, min %.3f, max %.3f; without it %.3f s)",
                s5[1] - s2[1], s5[1], s5[2], s5[3], s2[1]
        }' "$dir/load.txt")
fi
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
runs="$out/resolver-runs.csv"
echo "workload,threads,config,name,round,qps,completed,lost,avg_latency_s,noerror,refused,vmrss_kb,log_lines" > "$runs"
echo "resolver_bench: Unbound on 127.0.0.1:$port, NSD on :$nsd_port; $repeat rounds of" \
    "${seconds}s runs, dnsperf -c $clients -q $outstanding, num-threads $threads_list"
round=1
while [ "$round" -le "$repeat" ]; do
    # The configurations in order, rotated by one each round.
    order=$(echo 1 2 3 4 5 6 7 8 | awk -v r="$round" '{
        for (i = 0; i < NF; i++) printf "%s ", $(((r - 1 + i) % NF) + 1) }')
    for th in $threads_list; do
        for wl in ${BENCH_WORKLOADS:-hits misses fake20}; do
            for c in $order; do
                case " ${BENCH_CONFIGS:-1 2 3 4 5 6 7 8} " in *" $c "*) ;; *) continue ;; esac
                start_unbound "$c" "$th"
                dnsperf -s 127.0.0.1 -p "$port" -d "$dir/$wl.txt" -l "$seconds" -c "$clients" \
                    -q "$outstanding" -t 5 > "$dir/dnsperf.out" 2>&1 || true
                rss=$(rss_kb "$ub_pid")
                stop_unbound
                lines=0
                case $c in
                3) lines=$(wc -l < "$dir/idnguard-3.log" 2>/dev/null || echo 0) ;;
                4) lines=$(wc -l < "$dir/unbound-4.log" 2>/dev/null || echo 0) ;;
                esac
                awk -v wl="$wl" -v th="$th" -v c="$c" -v name="$(cfg_name "$c")" -v r="$round" \
                    -v rss="$rss" -v lines="$lines" '
                    /Queries completed:/ { done = $3 }
                    /Queries lost:/ { lost = $3 }
                    /Queries per second:/ { qps = $4 }
                    /Average Latency/ { lat = $4 }
                    /Response codes:/ {
                        for (i = 3; i <= NF; i++) {
                            if ($i == "NOERROR") noerr = $(i + 1)
                            if ($i == "REFUSED") ref = $(i + 1)
                        }
                    }
                    END {
                        printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", wl, th, c, name, r,
                            qps + 0, done + 0, lost + 0, lat + 0, noerr + 0, ref + 0, rss, lines + 0
                    }' "$dir/dnsperf.out" >> "$runs"
                tail -n 1 "$runs"
            done
        done
    done
    round=$((round + 1))
done

# ---- summary: medians with min and max, ratios within a round, memory ----
awk -F, -v out="$out" "$bench_stats_awk"'
    NR == 1 { next }
    { g = $1 "," $2; k = g "," $3; name[$3] = $4
      if (!(g in seen)) { seen[g] = 1; groups[++ng] = g }
      n[k]++; q[k, n[k]] = $6; at[k, $5] = $6
      rounds[g] = rounds[g] > $5 ? rounds[g] : $5
      rss[k] = rss[k] > $12 ? rss[k] : $12; ref[k] += $11; tot[k] += $7 }
    # "MEDIAN MIN MAX" of configuration A over configuration B, within each round
    function ratio(g, a, b,    r, m, v) {
        m = 0
        for (r = 1; r <= rounds[g]; r++)
            if ((g "," a, r) in at && (g "," b, r) in at && at[g "," b, r] > 0)
                v[++m] = at[g "," a, r] / at[g "," b, r]
        return bench_stats(v, m)
    }
    function cell(s,    f) {
        split(s, f, " ")
        return f[1] == 0 ? "-" : sprintf("%.3f (%.3f-%.3f)", f[1], f[2], f[3])
    }
    END {
        csv = out "/resolver.csv"; mem = out "/memory.csv"; md = out "/resolver.md"
        print "workload,threads,config,name,runs,median_qps,min_qps,max_qps,ratio_to_no_module,ratio_min,ratio_max,refused_share" > csv
        print "workload,threads,config,name,max_vmrss_kb" > mem
        print "| workload | threads | (1) no module | (2) module | (3) module, query log | (4) Unbound log-queries+replies | (5) module, 100,000-name deny list | (6) module, refusals logged | (7) module, 100,000 protected names | (8) module, lookalikes logged | (2)/(1) | (3)/(1) | (3)/(4) | (5)/(2) | (6)/(1) | (7)/(2) | (8)/(2) |" > md
        print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|---|---|---|" > md
        for (i = 1; i <= ng; i++) {
            g = groups[i]
            delete med
            for (c = 1; c <= 8; c++) {
                k = g "," c
                if (!(k in n)) { med[c] = "-"; continue }
                delete v
                for (j = 1; j <= n[k]; j++) v[j] = q[k, j]
                split(bench_stats(v, n[k]), st, " ")
                med[c] = sprintf("%.0f", st[1])
                split(ratio(g, c, 1), rr, " ")
                printf "%s,%s,%d,%.0f,%.0f,%.0f,%.3f,%.3f,%.3f,%.3f\n", k, name[c], n[k], st[1], st[2], st[3],
                    rr[1], rr[2], rr[3], tot[k] ? ref[k] / tot[k] : 0 > csv
                printf "%s,%d,%s,%d\n", g, c, name[c], rss[k] > mem
            }
            split(g, f, ",")
            printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", f[1], f[2],
                med[1], med[2], med[3], med[4], med[5], med[6], med[7], med[8], cell(ratio(g, 2, 1)),
                cell(ratio(g, 3, 1)), cell(ratio(g, 3, 4)), cell(ratio(g, 5, 2)), cell(ratio(g, 6, 1)),
                cell(ratio(g, 7, 2)), cell(ratio(g, 8, 2)) > md
        }
        print "" > md
        print "Daemon resident size after the run (VmRSS, largest over the runs), KiB:" > md
        print "" > md
        print "| workload | threads | (1) no module | (2) module | (3) module, query log | (4) Unbound log | (5) module, deny list | (6) module, refusals logged | (7) module, protected names | (8) module, lookalikes logged |" > md
        print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|" > md
        for (i = 1; i <= ng; i++) {
            g = groups[i]; split(g, f, ",")
            printf "| %s | %s | %d | %d | %d | %d | %d | %d | %d | %d |\n", f[1], f[2], rss[g ",1"], rss[g ",2"],
                rss[g ",3"], rss[g ",4"], rss[g ",5"], rss[g ",6"], rss[g ",7"], rss[g ",8"] > md
        }
    }' "$runs"
{
    echo
    echo "dnsperf -c $clients -q $outstanding, ${seconds}s per run, $repeat rounds (configurations"
    echo "in rotated order), a fresh Unbound for every run. QPS: median of the rounds; ratios: taken"
    echo "within each round, median (min-max). Mix of hits and misses: 65% ASCII, 30% valid IDNs, 5%"
    echo "fake A-labels; fake20: 80% valid names, 20% fake A-labels, all cached by plain Unbound. The"
    echo "module REFUSEs the fake ones: with the module they never reach the cache or NSD."
    echo "Load average at start: $load_start; at end: $(cut -d' ' -f1-3 /proc/loadavg)."
    echo
    echo "Loading the 100,000-name deny list of (5): $load_note."
} >> "$out/resolver.md"
cat "$out/resolver.md"
