#!/bin/sh
# check-metrics.sh PROMTOOL IDNGUARD GOLDEN_DIR
#
# `promtool check metrics` (the exposition format and Prometheus's naming
# rules) on the counters file `idnguard tap` writes for a dnstap capture of
# the tap's golden set, read with its settings file.
set -eu

[ $# -eq 3 ] || { echo "usage: $0 PROMTOOL IDNGUARD GOLDEN_DIR" >&2; exit 2; }
promtool=$1 idnguard=$2 golden=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$idnguard" tap -r "$golden/dynlib.fstrm" --conf "$golden/idnguard.conf" \
    --stats-file "$tmp/tap.prom" -w "$tmp/lines" 2>"$tmp/err" || {
    cat "$tmp/err" >&2; exit 1; }
grep -q '^idnguard_tap_lines_total{' "$tmp/tap.prom" || {
    echo "check-metrics: no idnguard_tap_lines_total in the tap's counters file" >&2; exit 1; }
"$promtool" check metrics <"$tmp/tap.prom"
