#!/bin/sh
# make-golden.sh [dynlib|stock]...
#
# Makes the golden dnstap captures in tests/tap/golden (both producers by
# default): the lab (scripts/lab.sh) starts with Unbound's dnstap going to
# `fstrm_capture -t protobuf:dnstap.Dnstap`, the fixed list of queries
# below is sent to it, the lab stops, and these files are written:
#   NAME.fstrm        the capture, as fstrm_capture wrote it
#   NAME.ldns         dnstap-ldns's reading of it, one line a message
#                     (tests/tap/golden.py --ldns): what NAME.text is
#                     checked against (time, client, transport, question,
#                     rcode, EDE)
#   NAME.module       dynlib only: the module's own log lines of the same
#                     run (its log-file, time-stamped), the verdicts,
#                     actions, rcodes and EDEs the tap's lines must match
# The producers: dynlib, the Unbound built here with the module loaded;
# stock, Debian's stock daemon with no module, which answers everything
# (the tap still says what the settings would have done).  The module and
# `idnguard tap -r` both use tests/tap/golden/idnguard.conf.
#
# The expected decodings, NAME.text and NAME.json, are not made here:
# `python3 tests/tap/golden.py --write` makes them with `idnguard tap -r`,
# to be read line by line against NAME.ldns and NAME.module before they
# are committed; after that golden.py (`make check-tap-golden`) compares.
#
# Needs what `make check-integration` needs (build/unbound, build/idnguard.so,
# build/zones), the stock daemon (build/stock: `make stock`) and the
# fstrm-bin and dnstap-ldns packages (`make deps-tap`).  `make tap-golden`
# builds what is missing and runs this.  Loopback only; every daemon it
# starts is stopped by PID.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
golden=$top/tests/tap/golden
lab=$top/scripts/lab.sh

say() { printf 'make-golden: %s\n' "$*" >&2; }

# The queries, one a line: how (udp: with EDNS, so a refusal carries its
# EDE; noedns; tcp; drop: an answer is not waited for), name (presentation
# form: \DDD is an octet), type, class.  Each kind of name the tap must
# render: good IDNs, lookalikes of a protected name, fake A-labels of
# several classes, raw UTF-8 and
# octets that are not UTF-8, control octets, NUL, blanks, bidi controls and
# brackets, which must never reach a line unescaped.
queries() {
    cat <<'EOF'
udp xn--bcher-kva.example A IN
tcp xn--bcher-kva.example AAAA IN
udp xn--80aafi6cg.example A IN
udp xn--ls8h.example A IN
udp xn--pypal-4ve.example A IN
udp login.xn--pypal-4ve.example A IN
udp paypal.example A IN
udp www.example A IN
udp _dmarc.example TXT IN
udp xn--ab-m1t.example A IN
noedns xn--ab-m1t.example A IN
tcp xn--ab-m1t.example A IN
udp xn--zz.example A IN
udp xn--a-99999999999.example A IN
udp xn--abc-xyz.example A IN
udp xn--0000h.example A IN
udp xn--cafe-yvc.example A IN
udp xn--bc-kw3n.example A IN
drop xn--example-.example A IN
udp b\195\188cher.example A IN
tcp b\195\188cher.example A IN
udp a\255b.example A IN
udp a\010b.example A IN
udp a\000b\127.example A IN
udp a\032b.example A IN
udp a\226\128\174b.example A IN
udp x\027[31mred.example A IN
udp a\040b\041.example A IN
tcp a\046b\032(c)\059.example A IN
udp version.bind TXT CH
EOF
}

# A bounded wait until PATH exists (a socket a daemon creates).
wait_path() { # PATH SECONDS
    n=$(($2 * 20))
    while [ ! -e "$1" ]; do
        [ "$n" -gt 0 ] || return 1
        n=$((n - 1))
        sleep 0.05
    done
}

# Unbound's dnstap thread sends what its workers queued when it is woken,
# at the latest a second after the first message; fstrm_capture buffers
# its file until it exits.  So: wait until the octets fstrm_capture has
# read (its rchar) stay the same for two seconds, 20 at most.
wait_quiet() { # PID
    last=-1 same=0 n=0
    while [ "$same" -lt 20 ] && [ "$n" -lt 200 ]; do
        now=$(sed -n 's/^rchar: //p' "/proc/$1/io" 2>/dev/null || echo gone)
        if [ "$now" = "$last" ]; then same=$((same + 1)); else same=0 last=$now; fi
        n=$((n + 1))
        sleep 0.1
    done
}

capture() { # FLAVOUR
    flavour=$1
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/idng-golden.XXXXXX")
    cap_pid=""
    trap 'sh "$lab" stop "$tmp" 2>/dev/null; [ -z "$cap_pid" ] || kill "$cap_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
    fstrm_capture -t protobuf:dnstap.Dnstap -u "$tmp/dnstap.sock" -w "$tmp/capture.fstrm" \
        >"$tmp/fstrm_capture.out" 2>&1 &
    cap_pid=$!
    wait_path "$tmp/dnstap.sock" 10 || { say "fstrm_capture did not listen"; exit 1; }
    # The module's own log lines into a file of their own, with their time.
    { cat "$golden/idnguard.conf"; printf '    log-file: "@DIR@/query.log"\n'; } >"$tmp/conf.in"
    sh "$lab" start "$tmp" --flavour "$flavour" --dnstap "$tmp/dnstap.sock" --conf "$tmp/conf.in" ||
        exit 1
    port=$(sed -n 's/^LAB_PORT=//p' "$tmp/lab.env")
    queries >"$tmp/queries"
    while read -r how name type class; do
        case $how in
        udp) set -- -b 1232 ;;
        noedns) set -- ;;
        tcp) set -- -t -b 1232 ;;
        drop) set -- -b 1232 ;;
        esac
        # drill waits 5 seconds for a reply that does not come; 2 are enough
        # for the module to have dropped the query.
        if [ "$how" = drop ]; then
            timeout 2 drill "$@" -p "$port" @127.0.0.1 "$name" "$type" "$class" >/dev/null 2>&1 || true
        else
            drill "$@" -p "$port" @127.0.0.1 "$name" "$type" "$class" >"$tmp/drill.out" 2>&1 ||
                { say "no answer for $name:"; cat "$tmp/drill.out" >&2; exit 1; }
        fi
    done <"$tmp/queries"
    wait_quiet "$cap_pid"
    sh "$lab" stop "$tmp"
    kill -INT "$cap_pid"
    wait "$cap_pid" || true
    cap_pid=""
    cp "$tmp/capture.fstrm" "$golden/$flavour.fstrm"
    python3 "$top/tests/tap/golden.py" --ldns "$flavour" >/dev/null
    [ "$flavour" != dynlib ] || cp "$tmp/query.log" "$golden/$flavour.module"
    chmod 644 "$golden/$flavour".*
    say "$flavour: $(wc -l <"$golden/$flavour.ldns") messages, $(wc -c <"$golden/$flavour.fstrm") octets"
    sh "$lab" stop "$tmp" 2>/dev/null || true
    rm -rf "$tmp"
    trap - EXIT
}

[ $# -gt 0 ] || set -- dynlib stock
for p in "$@"; do
    case $p in
    dynlib | stock) capture "$p" ;;
    *) echo "usage: $0 [dynlib|stock]..." >&2; exit 2 ;;
    esac
done
