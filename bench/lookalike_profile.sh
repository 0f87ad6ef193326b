#!/bin/sh
# lookalike_profile.sh BENCH PSL OUTDIR: instructions per name of each
# lookalike_bench measurement (check, check+r6, +100k, judge, judge+100k) on
# the Public Suffix List's IDNs and ASCII names, under valgrind's callgrind
# (lookalike_bench -i; only profile_loop is counted, so loading the
# 100,000 protected names is not).  Counts are deterministic, free of the
# machine's load.  The callgrind outputs stay in OUTDIR for
# callgrind_annotate.
set -eu
bench=$1; psl=$2; out=$3
mkdir -p "$out"
printf '| set | measurement | names | reps | instructions per name |\n|---|---|---:|---:|---:|\n'
for set in psl-idn psl-ascii; do
    reps=20
    [ "$set" = psl-ascii ] && reps=2
    for m in check check+r6 +100k judge judge+100k; do
        f=$out/$set-$(echo "$m" | tr '+' 'p').out
        n=$(valgrind --tool=callgrind --toggle-collect=profile_loop --callgrind-out-file="$f" \
            "$bench" -i "$m" "$set" "$reps" "$psl" 2> /dev/null)
        total=$(sed -n 's/^totals: //p' "$f")
        echo "$set $m $n $reps" | awk -v t="$total" \
            '{ printf "| %s | %s | %d | %d | %.0f |\n", $1, $2, $3, $4, t / ($3 * $4) }'
    done
done
