#!/bin/sh
# cli_bench.sh IDNGUARD ICU_STREAM PSL OUTDIR CODEC_BENCH
#
# The CLI streaming names, end to end as processes (the CLI's speed goal): `idnguard
# JOB` against bench/icu_stream.c, the minimal C loop over ICU's UTS #46
# doing the same job (same options as idnguard's default uts46 mode), for
# JOB to-ascii, to-unicode and check.
#
# Input sets, each repeated to BENCH_CLI_LINES lines (default 3,000,000: with
# fewer, the PSL's mostly ASCII names take idnguard under 20 ms a run, where
# starting the process and date(1) weigh on the ratio):
#   psl   every name of the Public Suffix List (PSL), as the file writes it
#         (about 95% ASCII): text for to-ascii, its A-label form for
#         to-unicode and check
#   idn   only the PSL's internationalized names, likewise
#   worst the codec benchmark's worst-case set (CODEC_BENCH -s writes it):
#         labels of 63 octets built to make the codecs work hardest, as
#         bench/codec_sets.c makes them
# The A-label forms are ICU's to-ASCII output of the text forms.
#
# Two ways of feeding it:
#   file  PROG JOB < names > out
#   pipe  cat names | PROG JOB | cat > out
#
# BENCH_REPEAT rounds (default 5); in each, every (set, job, way) runs both
# programs back to back, in alternating order.  Wall time from date(1)
# around the whole command; the ratio ICU/idnguard is taken within a round
# and reported as median, min and max.  Every run must write one line per
# input line, or the bench fails.  Writes OUTDIR/cli.csv (every run) and
# OUTDIR/cli.md.  A fresh temporary directory, always cleaned up.
set -eu

idng=$1
icu=$2
psl=$3
out=$4
codec_bench=$5
lines=${BENCH_CLI_LINES:-3000000}
repeat=${BENCH_REPEAT:-5}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_lib.sh"
bench_begin cli_bench
bench_built "$idng" "$icu" "$codec_bench"
[ -r "$psl" ] || { echo "cli_bench: cannot read $psl" >&2; exit 1; }
mkdir -p "$out"

# ---- input files ----
# The PSL's rules as names: comments and blank lines out, "!" and "*."
# stripped, as bench/codec_bench.c reads it.
awk '/^\/\// || NF == 0 { next }
     { n = $1; sub(/^!/, "", n); while (n ~ /^\*\./) n = substr(n, 3); if (n != "") print n }' \
    "$psl" > "$dir/psl.base"
LC_ALL=C grep '[^ -~]' "$dir/psl.base" > "$dir/idn.base" || true
[ -s "$dir/idn.base" ] || { echo "cli_bench: no internationalized names in $psl" >&2; exit 1; }
repeat_to() { # BASE OUT
    awk -v n="$lines" '{ a[NR] = $0 } END { for (i = 0; i < n; i++) print a[i % NR + 1] }' "$1" > "$2"
}
mkdir "$dir/sets"
"$codec_bench" -s "$dir/sets"
cp "$dir/sets/worst-case-unicode.txt" "$dir/worst.base"
for s in psl idn worst; do
    repeat_to "$dir/$s.base" "$dir/$s.text"
    "$icu" to-ascii < "$dir/$s.base" | grep -v '^ERROR' > "$dir/$s.ace.base"
    repeat_to "$dir/$s.ace.base" "$dir/$s.ace"
done

now_ns() { date +%s%N; }
run_one() { # PROG JOB INPUT WAY -> seconds on stdout
    t0=$(now_ns)
    if [ "$4" = file ]; then
        "$1" "$2" < "$3" > "$dir/out" || [ $? -eq 1 ]
    else
        cat "$3" | { "$1" "$2" || [ $? -eq 1 ]; } | cat > "$dir/out"
    fi
    t1=$(now_ns)
    got=$(wc -l < "$dir/out")
    if [ "$got" -ne "$lines" ]; then
        echo "cli_bench: $1 $2 < $3 ($4) wrote $got lines for $lines" >&2
        exit 1
    fi
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", (b - a) / 1e9 }'
}

runs="$out/cli.csv"
echo "set,job,way,round,program,seconds" > "$runs"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
echo "cli_bench: $lines lines per run, $repeat rounds"
round=1
while [ "$round" -le "$repeat" ]; do
    for s in psl idn worst; do
        for job in to-ascii to-unicode check; do
            in=$dir/$s.ace
            [ "$job" != to-ascii ] || in=$dir/$s.text
            for way in file pipe; do
                if [ $((round % 2)) -eq 1 ]; then order="idnguard icu"; else order="icu idnguard"; fi
                for p in $order; do
                    prog=$idng
                    [ "$p" = idnguard ] || prog=$icu
                    sec=$(run_one "$prog" "$job" "$in" "$way")
                    echo "$s,$job,$way,$round,$p,$sec" >> "$runs"
                done
            done
        done
    done
    echo "cli_bench: round $round done"
    round=$((round + 1))
done

awk -F, "$bench_stats_awk"'
    NR == 1 { next }
    { k = $1 "," $2 "," $3; r = k "," $4; t[r, $5] = $6
      if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
      rounds[k] = rounds[k] > $4 ? rounds[k] : $4 }
    END {
        print "| set | job | way | idnguard s | ICU loop s | ICU / idnguard (min-max) |"
        print "|---|---|---|---:|---:|---|"
        for (i = 1; i <= nk; i++) {
            k = order[i]; delete a; delete b; delete q
            for (j = 1; j <= rounds[k]; j++) {
                a[j] = t[k "," j, "idnguard"]; b[j] = t[k "," j, "icu"]
                q[j] = a[j] > 0 ? b[j] / a[j] : 0
            }
            split(bench_stats(a, rounds[k]), sa, " ")
            split(bench_stats(b, rounds[k]), sb, " ")
            split(bench_stats(q, rounds[k]), sq, " ")
            split(k, f, ",")
            printf "| %s | %s | %s | %.3f | %.3f | %.2fx (%.2f-%.2f) |\n", f[1], f[2], f[3],
                sa[1], sb[1], sq[1], sq[2], sq[3]
        }
    }' "$runs" > "$dir/table"
{
    echo "# The CLI streaming names (\`make bench-cli\`, bench/cli_bench.sh)"
    echo
    echo "Wall time of one process (or a \`cat | PROG | cat\` pipeline) turning $lines names into"
    echo "$lines lines, median of $repeat rounds; the last column is ICU's time over idnguard's"
    echo "within each round (above 1: idnguard is faster). ICU $(pkg-config --modversion icu-uc 2>/dev/null || echo '?')"
    echo "through bench/icu_stream.c (getline, uidna_nameTo*_UTF8, stdio); $("$idng" --version | head -n 1)."
    echo "psl: the Public Suffix List's $(wc -l < "$dir/psl.base") names, about"
    echo "$(awk -v a="$(wc -l < "$dir/idn.base")" -v b="$(wc -l < "$dir/psl.base")" 'BEGIN { printf "%.0f", 100 * a / b }')% of them internationalized; idn: its $(wc -l < "$dir/idn.base") internationalized names"
    echo "only; worst: the $(wc -l < "$dir/worst.base") worst-case labels of \`make bench-codec\` (63 octets each, bench/codec_sets.c)."
    echo "to-ascii reads the text form, to-unicode and check the A-label form."
    echo
    cat "$dir/table"
    echo
    echo "Load average at start: $load_start; at end: $(cut -d' ' -f1-3 /proc/loadavg)."
} > "$out/cli.md"
cat "$out/cli.md"
