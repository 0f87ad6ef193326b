# bench_lib.sh -- what the resolver benchmarks share (sourced; names begin
# with bench_).

# The cached names of bench/resolver_bench.sh (its hits workload), one
# "NAME TYPE" a line, taken from that script so that there is one list.
bench_hits() { # TOP
    sed -n "/^cat > \"\$dir\/hits.txt\" <<'EOF'$/,/^EOF$/p" "$1/bench/resolver_bench.sh" | sed '1d;$d'
}

# The cache-miss workload of the resolver benchmarks: N unique names under
# bench/zones/bench.zone's wildcard, one "NAME TYPE" a line, in the mix of
# the hits (65% ASCII, 30% valid IDNs, 5% fake A-labels).
bench_misses() { # N
    awk -v n="$1" 'BEGIN {
        for (i = 0; i < n; i++) {
            k = i % 20
            if (k < 13)       printf "q%d.www.bench A\n", i
            else if (k < 19)  printf "q%d.xn--bcher-kva.bench A\n", i
            else              printf "q%d.xn--ab-m1t.bench A\n", i
        }
    }'
}

# dnsperf's report on stdin: "QPS COMPLETED LOST" (0 for what is missing).
bench_dnsperf_fields() {
    awk '/Queries completed:/ { done = $3 }
         /Queries lost:/ { lost = $3 }
         /Queries per second:/ { qps = $4 }
         END { printf "%s %d %d\n", qps + 0, done + 0, lost + 0 }'
}

# awk functions to put in front of a program: bench_median(A, N) of the
# values A[1..N] (sorted in place), bench_stats(A, N) "MEDIAN MIN MAX";
# 0 for no values.
bench_stats_awk='
function bench_median(a, m,    i, j, t) {
    if (m < 1) return 0
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
}
function bench_stats(a, m,    med) {
    med = bench_median(a, m)
    return m < 1 ? "0 0 0" : med " " a[1] " " a[m]
}
'
