# bench_lib.sh -- what the benchmarks share (sourced; names begin with
# bench_).

# bench_begin NAME: the run's temporary directory, $dir
# (idnguard-NAME.XXXXXX under $TMPDIR), and its cleanup at exit: the
# process in $bench_pid if one is running, the lab (scripts/lab.sh) if the
# script sourced it, and $dir.  NAME also starts the messages of
# bench_need and bench_built.
bench_pid=""
bench_begin() { # NAME
    bench_name=$1
    dir=$(mktemp -d "${TMPDIR:-/tmp}/idnguard-$1.XXXXXX")
    trap bench_cleanup EXIT
    trap 'exit 130' INT TERM
}
bench_cleanup() {
    # shellcheck disable=SC2086
    [ -z "$bench_pid" ] || lab_kill $bench_pid
    ! command -v lab_stop >/dev/null 2>&1 || lab_stop
    rm -rf "$dir"
}

# bench_need TOOL...: each tool is in PATH, or the run stops saying which
# is not; BENCH_NEED_HINT (if set) follows the message.
bench_need() {
    for bench_t; do
        command -v "$bench_t" >/dev/null 2>&1 \
            || { echo "$bench_name: $bench_t not found${BENCH_NEED_HINT:+ ($BENCH_NEED_HINT)}" >&2; exit 1; }
    done
}

# bench_built FILE...: each file exists, or the run stops saying which is
# not built.
bench_built() {
    for bench_f; do
        [ -e "$bench_f" ] || { echo "$bench_name: $bench_f not built" >&2; exit 1; }
    done
}

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
