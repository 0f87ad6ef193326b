#!/bin/sh
# python_bench.sh STOCK_UNBOUND PYSCRIPT UNBOUND MODULE OUTDIR
#
# What the python module costs on Debian's stock unbound package: dnsperf
# against it on loopback, NSD behind it (the lab of scripts/lab.sh, the
# zones and query mixes of bench/resolver_bench.sh), in five
# configurations, measured in one interleaved run so that their ratios
# compare:
#   s1 stock        Debian's daemon, module-config "validator iterator"
#   s2 stock+py     with the python module (python/idnguard.py), log-queries: no
#   s3 stock+py+log with the query log to its own log-file and
#                   IDNGUARD_LOG_CACHE_HITS=yes (a python reply callback on
#                   every cache hit, so that hits are logged too)
#   d1 built        the Unbound built here, no module (as resolver_bench's 1)
#   d2 built+dynlib the dynlib module, log-queries: no (resolver_bench's 2)
# and two workloads, hits and misses (see resolver_bench.sh).  Each run is a
# fresh daemon (num-threads: 1) for BENCH_SECONDS (default 10), BENCH_REPEAT
# (default 3) rounds in rotated order; medians.  Writes OUTDIR/python-runs.csv,
# python.csv and python.md.  BENCH_CONFIGS="s1 s2" and BENCH_WORKLOADS=hits
# restrict the runs.  Loopback only, free ports, always cleaned up.
set -eu

stock=$1
pyscript=$2
unbound=$3
module=$4
out=$5
seconds=${BENCH_SECONDS:-10}
repeat=${BENCH_REPEAT:-3}
clients=${BENCH_CLIENTS:-8}
outstanding=${BENCH_OUTSTANDING:-100}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lab.sh"
. "$top/bench/bench_lib.sh"
bench_begin python_bench
bench_need nsd drill dnsperf ss
bench_built "$stock" "$unbound" "$pyscript" "$module"
mkdir -p "$out"

printf 'server:\n    rrl-ratelimit: 0\n    rrl-whitelist-ratelimit: 0\n' > "$dir/nsd-extra"
printf 'stub-zone:\n    name: "bench."\n    stub-addr: 127.0.0.1@@NSD_PORT@\n' > "$dir/unbound-extra"
LAB_UNBOUND=$unbound LAB_MODULE=$module LAB_PYSCRIPT=$pyscript LAB_THREADS=1 \
    LAB_NSD_EXTRA=$dir/nsd-extra LAB_UNBOUND_EXTRA=$dir/unbound-extra \
    LAB_ZONE_FILES="bench.=$top/bench/zones/bench.zone" LAB_START_SECONDS=15 LAB_ONLY=nsd
lab_start "$dir" || exit 1
port=$LAB_PORT nsd_port=$LAB_NSD_PORT

# The query files of resolver_bench.sh: the same 20 cached names, and
# unique names under the wildcard (65% ASCII, 30% IDN, 5% fake).
bench_hits "$top" > "$dir/hits.txt"
bench_misses $((seconds * 60000)) > "$dir/misses.txt"
[ "$(wc -l < "$dir/hits.txt")" -eq 20 ] || { echo "python_bench: hits list not found" >&2; exit 1; }

printf 'idnguard:\n    log-queries: no\n' > "$dir/idng-off.conf"
printf 'idnguard:\n    log-queries: yes\n    log-file: "%s/idnguard.log"\n' "$dir" > "$dir/idng-log.conf"

cfg_name() {
    case $1 in
    s1) echo stock ;; s2) echo stock+python ;; s3) echo stock+python+log+cache-hits ;;
    d1) echo built ;; d2) echo built+dynlib ;;
    esac
}
start_unbound() { # CONFIG
    rm -f "$dir/unbound.log" "$dir/idnguard.log"
    LAB_LOGFILE=$dir/unbound.log LAB_CONF=$dir/idng-off.conf LAB_FLAVOUR=dynlib LAB_PYTHONPATH=""
    LAB_UNBOUND=$unbound LAB_MODULES="validator iterator"
    unset IDNGUARD_LOG_CACHE_HITS || true
    case $1 in
    s*) LAB_UNBOUND=$stock
        LAB_PYTHONPATH=${IDNGUARD_PYTHONPATH:-$(dirname "$(dirname "$stock")")/lib/python3/dist-packages} ;;
    esac
    case $1 in s2 | s3) LAB_MODULES="python validator iterator" ;; d2) LAB_MODULES="dynlib validator iterator" ;; esac
    if [ "$1" = s3 ]; then
        LAB_CONF=$dir/idng-log.conf
        IDNGUARD_LOG_CACHE_HITS=yes
        export IDNGUARD_LOG_CACHE_HITS
    fi
    lab_unbound_start || { echo "python_bench: Unbound ($1) did not come up" >&2; exit 1; }
    ub_pid=$LAB_UB_PID
}

runs="$out/python-runs.csv"
echo "workload,config,name,round,qps,completed,lost,vmrss_kb,log_lines" > "$runs"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
all="s1 s2 s3 d1 d2"
round=1
while [ "$round" -le "$repeat" ]; do
    order=$(echo $all | awk -v r="$round" '{ for (i = 0; i < NF; i++) printf "%s ", $((i + r - 1) % NF + 1) }')
    for wl in ${BENCH_WORKLOADS:-hits misses}; do
        for c in $order; do
            case " ${BENCH_CONFIGS:-$all} " in *" $c "*) ;; *) continue ;; esac
            start_unbound "$c"
            dnsperf -s 127.0.0.1 -p "$port" -d "$dir/$wl.txt" -l "$seconds" -c "$clients" \
                -q "$outstanding" -t 5 > "$dir/dnsperf.out" 2>&1 || true
            rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$ub_pid/status" 2>/dev/null || echo 0)
            lab_unbound_stop
            lines=0
            [ ! -f "$dir/idnguard.log" ] || lines=$(wc -l < "$dir/idnguard.log")
            awk -v wl="$wl" -v c="$c" -v name="$(cfg_name "$c")" -v r="$round" -v rss="$rss" \
                -v lines="$lines" '
                /Queries completed:/ { done = $3 }
                /Queries lost:/ { lost = $3 }
                /Queries per second:/ { qps = $4 }
                END { printf "%s,%s,%s,%s,%s,%s,%s,%s,%s\n", wl, c, name, r, qps + 0, done + 0,
                      lost + 0, rss, lines + 0 }' "$dir/dnsperf.out" >> "$runs"
            tail -n 1 "$runs"
        done
    done
    round=$((round + 1))
done

awk -F, -v out="$out" '
    NR == 1 { next }
    { k = $1 "," $2; n[k]++; q[k, n[k]] = $5 }
    function median(k,    i, j, t, a, m) {
        m = n[k]
        for (i = 1; i <= m; i++) a[i] = q[k, i]
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
    }
    END {
        csv = out "/python.csv"; md = out "/python.md"
        print "workload,config,runs,median_qps" > csv
        print "| workload | (s1) stock | (s2) stock + python module | (s3) s2 + query log + cache-hit callback | (d1) built here | (d2) built + dynlib module | (s2)/(s1) | (s3)/(s1) | (d2)/(d1) |" > md
        print "|---|---:|---:|---:|---:|---:|---:|---:|---:|" > md
        split("hits misses", wls, " "); split("s1 s2 s3 d1 d2", cs, " ")
        for (w = 1; w <= 2; w++) {
            wl = wls[w]; delete m
            for (i = 1; i <= 5; i++) {
                k = wl "," cs[i]
                if (!(k in n)) continue
                m[cs[i]] = median(k)
                printf "%s,%s,%d,%.0f\n", wl, cs[i], n[k], m[cs[i]] > csv
            }
            printf "| %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.3f | %.3f | %.3f |\n", wl, m["s1"], m["s2"],
                m["s3"], m["d1"], m["d2"], m["s1"] ? m["s2"] / m["s1"] : 0,
                m["s1"] ? m["s3"] / m["s1"] : 0, m["d1"] ? m["d2"] / m["d1"] : 0 > md
        }
    }' "$runs"
{
    echo
    echo "dnsperf -c $clients -q $outstanding, ${seconds}s per run, $repeat rounds (configurations in"
    echo "rotated order), a fresh daemon (num-threads: 1) for every run; stock: $("$stock" -V | head -n 1)"
    echo "(Debian's package, unpacked). Load average at start: $load_start; at end:"
    echo "$(cut -d' ' -f1-3 /proc/loadavg)."
} >> "$out/python.md"
cat "$out/python.md"
