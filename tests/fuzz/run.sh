#!/bin/sh
# run.sh MODE SECONDS NAME...  -- runs libFuzzer harnesses (called by mk/fuzz.mk).
#
# MODE fuzz:  corpus in $FUZZ_BUILD/corpus/NAME, kept between runs and
#             seeded from tests/fuzz/corpus/NAME each time.
# MODE smoke: a fresh scratch copy in $FUZZ_BUILD/smoke/NAME.
# Either way the committed corpus is only read, crash/leak/timeout files go
# to tests/fuzz/regress/NAME/ (-artifact_prefix), and one line per harness
# is printed: executions, corpus size, new crash files.  The log of each
# run is $FUZZ_BUILD/logs/NAME.log.  Exit status 1 if anything crashed.
# Environment: FUZZ_BUILD (build/fuzz), FUZZ_JOBS (harnesses at a time, 1),
# FUZZ_RSS_MB (2048).
set -u

FUZZ_BUILD=${FUZZ_BUILD:-build/fuzz}
FUZZ_JOBS=${FUZZ_JOBS:-1}
FUZZ_RSS_MB=${FUZZ_RSS_MB:-2048}
export FUZZ_BUILD FUZZ_RSS_MB

# Largest input per harness: a little beyond each entry point's own limits.
max_len() {
    case $1 in
    punycode_decode) echo 300 ;;   # labels are <= 63 octets; quadratic beyond is by design
    punycode_encode) echo 4096 ;;
    label_check) echo 600 ;;       # past the 253/255 name limits
    to_ascii | to_unicode) echo 1100 ;; # past IDNG_INPUT_MAX (1024)
    conf_parse) echo 12000 ;;      # past IDNG_CONF_LINE_MAX (4096)
    classify) echo 300 ;;          # past 255 wire octets
    log_escape) echo 300 ;;
    *) echo 4096 ;;
    esac
}

crash_count() {
    ls "$1" 2>/dev/null | grep -c -E '^(crash|leak|timeout|oom|slow-unit)-' || true
}

# one MODE SECONDS NAME: runs one harness, prints its line; exit 1 on a crash.
one() {
    mode=$1 secs=$2 name=$3
    bin=$FUZZ_BUILD/fuzz_$name
    regress=tests/fuzz/regress/$name
    log=$FUZZ_BUILD/logs/$name.log
    if [ "$mode" = smoke ]; then
        work=$FUZZ_BUILD/smoke/$name
        rm -rf "$work"
    else
        work=$FUZZ_BUILD/corpus/$name
    fi
    mkdir -p "$work" "$regress" "$FUZZ_BUILD/logs"
    cp tests/fuzz/corpus/"$name"/* "$work"/ 2>/dev/null
    dict=
    [ -f tests/fuzz/"$name".dict ] && dict=-dict=tests/fuzz/$name.dict
    before=$(crash_count "$regress")
    start=$(date +%s)
    # shellcheck disable=SC2086
    "$bin" -max_total_time="$secs" -rss_limit_mb="$FUZZ_RSS_MB" -timeout=25 \
        -max_len="$(max_len "$name")" -print_final_stats=1 $dict \
        -artifact_prefix="$regress/" "$work" >"$log" 2>&1
    rc=$?
    end=$(date +%s)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    [ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' "$log" | tail -1)
    corpus=$(ls "$work" | wc -l)
    crashes=$(( $(crash_count "$regress") - before ))
    tag=fuzz
    [ "$mode" = smoke ] && tag=fuzz-smoke
    printf '%s %s: %s executions in %ss, corpus %s files, %s crashes\n' \
        "$tag" "$name" "${execs:-?}" "$((end - start))" "$corpus" "$crashes"
    if [ "$rc" -ne 0 ] || [ "$crashes" -gt 0 ]; then
        echo "$tag $name: FAILED (exit $rc); reproducer in $regress/, log $log:" >&2
        grep -E '^(==[0-9]+==ERROR|SUMMARY|.*invariant failed|    #[0-9]+ )' "$log" | head -30 >&2
        return 1
    fi
    return 0
}

if [ "${1:-}" = --one ]; then
    shift
    one "$@"
    exit $?
fi
if [ $# -lt 3 ]; then
    echo "usage: run.sh fuzz|smoke SECONDS NAME..." >&2
    exit 2
fi
mode=$1 secs=$2
shift 2
for n in "$@"; do
    [ -x "$FUZZ_BUILD/fuzz_$n" ] || { echo "run.sh: $FUZZ_BUILD/fuzz_$n not built" >&2; exit 2; }
done
printf '%s\n' "$@" | xargs -P "$FUZZ_JOBS" -I{} sh "$0" --one "$mode" "$secs" {}
rc=$?
[ "$rc" -eq 0 ] || exit 1
exit 0
