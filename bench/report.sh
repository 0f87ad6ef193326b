#!/bin/sh
# report.sh OUTDIR UNBOUND
#
# Puts the machine, the versions and both benchmarks' tables into
# OUTDIR/results.md, and plots QPS per configuration (OUTDIR/resolver.csv)
# into OUTDIR/qps.png with gnuplot.
set -eu

out=$1
unbound=$2
md="$out/results.md"

cpu=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)
ncpu=$(grep -c '^processor' /proc/cpuinfo)
mhz=$(awk -F': ' '/^cpu MHz/ {printf "%.0f", $2; exit}' /proc/cpuinfo)
icu=$(pkg-config --modversion icu-uc 2>/dev/null || echo unknown)
idn2=$(pkg-config --modversion libidn2 2>/dev/null || echo unknown)
ubv=$("$unbound" -V 2>/dev/null | awk '/^Version/ {print $2; exit}')
nsdv=$(nsd -v 2>&1 | awk '/version/ {print $3; exit}')
dpv=$(dnsperf -h 2>&1 | awk '/^Version/ {print $2; exit}')
ccv=$(${CC:-cc} --version 2>/dev/null | head -n 1)

{
    echo "# idnguard benchmarks"
    echo
    echo "Machine: $cpu, $ncpu CPUs ($mhz MHz as /proc/cpuinfo reports it), $(uname -sr)."
    echo "Versions: ICU $icu, libidn2 $idn2, Unbound ${ubv:-unknown} (built here, --with-dynlibmodule),"
    echo "NSD ${nsdv:-unknown}, dnsperf ${dpv:-unknown}; compiler: $ccv (-O2)."
    echo "This machine is shared: other jobs ran at the same time (load averages below), so"
    echo "single figures move by tens of percent between runs; medians and min/max are in the CSV files."
    echo
    echo "## Codec (\`make bench-codec\`, bench/codec_bench.c)"
    echo
    [ -f "$out/codec.md" ] && cat "$out/codec.md"
    echo
    if [ -f "$out/codec-baseline.csv" ] && [ -f "$out/codec.csv" ]; then
        echo "### idnguard before and after the optimizations"
        echo
        echo "codec-baseline.csv: the same benchmark, run just before codec.csv, with the codec of"
        echo "commit $(cat "$out/codec-baseline.commit" 2>/dev/null || echo '?') (before these optimizations) built with the same flags. Absolute"
        echo "times follow the machine's load; the last column divides each run's idnguard time by"
        echo "ICU's time on the same set in the same process (their runs are interleaved), which"
        echo "cancels most of it."
        echo
        echo "| set | job | call | before ns | after ns | after/before | after/before, ICU-normalized |"
        echo "|---|---|---|---:|---:|---:|---:|"
        awk -F, 'FNR == 1 { next }
            FILENAME ~ /baseline/ { b[$1 "," $2 "," $4] = $6; if ($3 == "icu") bi[$1 "," $2] = $6; next }
            { c[$1 "," $2 "," $4] = $6; if ($3 == "icu") ci[$1 "," $2] = $6
              if ($3 ~ /^idnguard/) order[++n] = $1 "," $2 "," $4 }
            END {
                for (i = 1; i <= n; i++) {
                    k = order[i]
                    if (!(k in b)) continue
                    split(k, f, ",")
                    sj = f[1] "," f[2]
                    norm = (sj in bi && sj in ci) ? sprintf("%.2f", (c[k] / ci[sj]) / (b[k] / bi[sj])) : "-"
                    printf "| %s | %s | %s | %.1f | %.1f | %.2f | %s |\n", f[1], f[2], f[3], b[k], c[k], c[k] / b[k], norm
                }
            }' "$out/codec-baseline.csv" "$out/codec.csv"
        echo
    fi
    echo "## Resolver (\`make bench-resolver\`, bench/resolver_bench.sh)"
    echo
    [ -f "$out/resolver.md" ] && cat "$out/resolver.md"
    echo
    if [ -f "$out/resolver-instructions.md" ]; then
        echo "### Instructions per query (\`make bench-resolver-instructions\`)"
        echo
        cat "$out/resolver-instructions.md"
        echo
    fi
    # The other benchmarks' reports, each under its own heading.
    for f in cli lookalike tap lists lists-qps; do
        if [ -f "$out/$f.md" ]; then
            sed '1s/^# /## /; 2,$s/^## /### /' "$out/$f.md"
            echo
        fi
    done
    echo "Plot: qps.png. Raw data: codec.csv, resolver-runs.csv, resolver.csv, resolver-instructions.csv, memory.csv, cli.csv, tap.csv, disagreements.tsv."
} > "$md"

if [ -f "$out/resolver.csv" ] && command -v gnuplot >/dev/null 2>&1; then
    plots=""
    for wl in hits misses fake20; do
        awk -F, -v wl="$wl" 'NR > 1 && $1 == wl && $2 == 1 {print $4, $6}' "$out/resolver.csv" > "$out/.$wl.dat"
        [ -s "$out/.$wl.dat" ] && plots="$plots $wl"
    done
    {
        echo 'set terminal pngcairo size 1300,440 font ",10"'
        echo "set output \"$out/qps.png\""
        echo 'set multiplot layout 1,3 title "Unbound QPS, num-threads 1 (median of the rounds), dnsperf on loopback"'
        echo 'set style data histograms'
        echo 'set style fill solid 0.8 border -1'
        echo 'set boxwidth 0.7'
        echo 'set yrange [0:*]'
        echo 'set grid ytics'
        echo 'set xtics rotate by -25'
        echo 'set ylabel "queries per second"'
        echo 'unset key'
        for wl in $plots; do
            case $wl in
            hits) echo 'set title "cache hits"'; color='#4477aa' ;;
            misses) echo 'set title "cache misses (NSD behind)"'; color='#cc6677' ;;
            *) echo 'set title "cache hits, 20% fake A-labels"'; color='#228833' ;;
            esac
            echo "plot \"$out/.$wl.dat\" using 2:xtic(1) lc rgb \"$color\""
        done
        echo 'unset multiplot'
    } > "$out/.qps.gp"
    if [ -n "$plots" ]; then
        gnuplot "$out/.qps.gp" || echo "report: gnuplot failed" >&2
    fi
    rm -f "$out/.hits.dat" "$out/.misses.dat" "$out/.fake20.dat" "$out/.qps.gp"
fi
echo "report: $md"
