#!/bin/sh
# codec_profile.sh BENCH PROFILE OUTDIR: instructions per name of the
# codec's entry points under valgrind's callgrind, on the input sets of
# codec_bench (dumped with -s), one line per (entry point, set).  Counts
# are deterministic: the figures of bench/results/codec-profile.md.  The
# callgrind outputs stay in OUTDIR for callgrind_annotate.
set -eu
bench=$1; prof=$2; out=$3
mkdir -p "$out/sets"
"$bench" -s "$out/sets"
for op in check to-unicode to-ascii; do
    for set in rfc3492 six psl-idn worst-case worst-tests; do
        form=ace
        [ "$op" = to-ascii ] && form=unicode
        [ "$set" = six ] && form=mixed
        f=$out/sets/$set-$form.txt
        n=$(wc -l < "$f")
        reps=$((20000 / n))
        [ "$reps" -lt 5 ] && reps=5
        valgrind --tool=callgrind --toggle-collect=profile_loop \
            --callgrind-out-file="$out/$op-$set.out" "$prof" "$op" "$f" "$reps" > /dev/null 2>&1
        total=$(sed -n 's/^totals: //p' "$out/$op-$set.out")
        echo "$op $set $n $reps" | awk -v t="$total" '{ printf "%-10s %-12s %4d names x %5d: %6.0f instructions per name\n", $1, $2, $3, $4, t / ($3 * $4) }'
    done
done
