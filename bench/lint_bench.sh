#!/bin/sh
# lint_bench.sh CLI LDNS_STREAM OUTDIR [RECORDS] [ROUNDS]
#
# `idnguard lint-zone` against ldns's own reading of the same master file:
# a generated zone of RECORDS records (default 1000000: A, AAAA, MX, CNAME,
# NS, SRV, PTR, TXT; 1 in 20 owners under an IDN, 1 in 100 under a bad
# xn-- label), read ROUNDS times (default 5) by each of, interleaved:
#   ldns-print   ldns-read-zone ZONE >/dev/null (reads, then prints every record)
#   ldns-parse   ldns-read-zone -n -E SPF ZONE (reads the same into memory,
#                prints nothing)
#   ldns-stream  LDNS_STREAM ZONE (bench/ldns_stream.c: ldns reads record by
#                record, each freed, as lint-zone does, and nothing else:
#                ldns's own parse time on lint-zone's path, the baseline)
#   lint         idnguard lint-zone ZONE >/dev/null (reads and judges every name)
# Wall time and peak RSS of each run (GNU time); OUTDIR/lint.md gets the
# median, min and max, and lint's median over ldns-stream's and the others'.  The budget
# (its goal): judging adds at most 50% to ldns's parse time.
set -eu

cli=$1
stream=$2
out=$3
records=${4:-1000000}
rounds=${5:-5}
dir=${BENCH_TMP:-build/bench}/lint
mkdir -p "$dir" "$out"
zone=$dir/zone-$records.db

command -v ldns-read-zone >/dev/null || { echo "lint_bench: ldns-read-zone missing (make deps-bench)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "lint_bench: /usr/bin/time missing (package time)" >&2; exit 1; }

if [ ! -s "$zone" ]; then
    awk -v n="$records" 'BEGIN {
        print "$ORIGIN bench.example."
        print "$TTL 3600"
        print "@ IN SOA ns1 hostmaster 1 7200 3600 1209600 300"
        print "@ IN NS ns1"
        print "ns1 IN A 192.0.2.1"
        for (i = 3; i < n; i++) {
            k = i % 20
            h = "h" i
            if (i % 100 == 15) h = h ".xn--zz"          # bad: unterminated Punycode
            else if (k == 12) h = h ".xn--bcher-kva"    # an IDN
            if (k <= 5 || k >= 17) printf "%s IN A 192.0.%d.%d\n", h, (i / 256) % 256, i % 256
            else if (k <= 7) printf "%s IN AAAA 2001:db8::%x\n", h, i % 65536
            else if (k == 8) printf "%s IN MX 10 mail.%s\n", h, h
            else if (k == 9) printf "c%d IN CNAME %s\n", i, h
            else if (k == 10) printf "_sip._tcp.%s IN SRV 0 5 5060 %s\n", h, h
            else if (k == 11) printf "%s IN TXT \"v=spf1 -all\"\n", h
            else if (k == 12) printf "%s IN A 198.51.100.%d\n", h, i % 256
            else if (k == 13) printf "d%d IN NS ns1.%s\n", i, h
            else if (k == 14) printf "%d.%d.10.in-addr.arpa. IN PTR %s\n", i % 256, (i / 256) % 256, h
            else if (k == 15) printf "%s IN A 203.0.113.%d\n", h, i % 256
            else printf "%s.xn--mnchen-3ya IN CNAME %s\n", h, h
        }
    }' >"$zone.tmp"
    mv "$zone.tmp" "$zone"
fi

runs=$dir/runs.csv
echo "round,tool,seconds,max_rss_kb,status" >"$runs"
one() { # ROUND TOOL CMD...
    r=$1 tool=$2
    shift 2
    st=0
    /usr/bin/time -f "%e %M" -o "$dir/time" "$@" >/dev/null 2>"$dir/stderr" || st=$?
    # GNU time writes "Command exited with non-zero status N" first
    # (lint-zone exits 1: the zone has findings).
    set -- $(tail -n 1 "$dir/time")
    echo "$r,$tool,$1,$2,$st" >>"$runs"
}
i=1
while [ "$i" -le "$rounds" ]; do
    one "$i" ldns-print ldns-read-zone "$zone"
    one "$i" ldns-parse ldns-read-zone -n -E SPF "$zone"
    one "$i" ldns-stream "$stream" "$zone"
    one "$i" lint "$cli" lint-zone "$zone"
    i=$((i + 1))
done
summary=$(tail -n 1 "$dir/stderr")

. "$(dirname "$0")/bench_lib.sh"
awk -F, -v recs="$records" -v rounds="$rounds" -v summary="$summary" \
    -v cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" \
    "$bench_stats_awk"'
NR > 1 { n[$2]++; t[$2, n[$2]] = $3; m[$2, n[$2]] = $4; st[$2] = st[$2] "" $5 }
END {
    split("ldns-print ldns-parse ldns-stream lint", tools, " ")
    printf "# lint-zone against ldns-read-zone\n\n"
    printf "`make bench-lint` (bench/lint_bench.sh): a generated master file of %d records\n", recs
    printf "(A, AAAA, MX, CNAME, NS, SRV, PTR, TXT; 1 owner in 20 under an IDN, 1 in 100\n"
    printf "under the bad label xn--zz), read %d times by each tool, the tools interleaved.\n", rounds
    printf "Wall seconds and peak RSS (GNU time).  CPU: %s.\n\n", cpu
    printf "| tool | what it does | median s | min s | max s | peak RSS MiB (median) |\n"
    printf "|---|---|---|---|---|---|\n"
    what["ldns-print"] = "ldns-read-zone: parse, keep, print every record"
    what["ldns-parse"] = "ldns-read-zone -n -E SPF: parse and keep, print nothing"
    what["ldns-stream"] = "bench/ldns_stream.c: parse record by record, free each"
    what["lint"] = "idnguard lint-zone: parse, judge every name, free each record"
    for (k = 1; k <= 4; k++) {
        tl = tools[k]
        for (j = 1; j <= n[tl]; j++) { a[j] = t[tl, j]; b[j] = m[tl, j] }
        split(bench_stats(a, n[tl]), s, " ")
        med[tl] = s[1]
        printf "| %s | %s | %.2f | %.2f | %.2f | %.1f |\n", tl, what[tl], s[1], s[2], s[3], bench_median(b, n[tl]) / 1024
    }
    printf "\nlint / ldns-stream (medians): **%.2f** (budget: at most 1.50)  \n", med["lint"] / med["ldns-stream"]
    printf "lint / ldns-parse (medians): %.2f  \n", med["lint"] / med["ldns-parse"]
    printf "lint / ldns-print (medians): %.2f\n\n", med["lint"] / med["ldns-print"]
    printf "lint-zone'"'"'s summary line: `%s`\n", summary
}' "$runs" >"$out/lint.md"
cp "$runs" "$out/lint-runs.csv"
cat "$out/lint.md"
