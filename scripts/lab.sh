#!/bin/sh
# lab.sh -- the lab: NSD serving the prepared zones and, in front of it, the
# Unbound daemon built here with the idnguard module, both on 127.0.0.1, in
# a directory of their own, configured from tests/integration/nsd.conf.in
# and unbound.conf.in.  The one copy of that logic, for `make run`
# (scripts/run.sh), the soak (scripts/soak.sh), the resolver benchmark
# (bench/resolver_bench.sh) and the integration tests
# (tests/integration/harness.c).
#
# As a command:
#   lab.sh start DIR [OPTION...]  writes the configurations into DIR, starts
#       NSD, waits until it answers for its zones, starts Unbound, waits
#       until it answers, writes DIR/lab.env and returns; 1 on failure,
#       saying which daemon failed, with its log tail, after stopping what
#       it started.
#   lab.sh start DIR --hold ...   the same, but stays the daemons' parent
#       until both have exited; TERM, INT or HUP make it stop them.
#   lab.sh stop DIR [nsd|unbound] stops the lab's daemons (both by default)
#       by the PIDs in DIR/lab.env: SIGTERM, a bounded wait, SIGKILL.
#
# DIR/lab.env holds KEY=VALUE lines: LAB_STATE (ready or failed), LAB_PORT,
# LAB_NSD_PORT, LAB_NSD_PID, LAB_UB_PID, and LAB_UB_STATUS, Unbound's exit
# status when it exited before answering.  The files in DIR: nsd.conf,
# nsd.log, nsd.out (its stdout and stderr), unbound.conf, unbound.log,
# unbound.out, idnguard.conf (the module's settings, $IDNGUARD_CONF).
#
# Options (in brackets: the variable that holds it in library use, and its
# default):
#   --unbound PATH      the daemon [LAB_UNBOUND; $IDNGUARD_UNBOUND, else
#                       build/unbound/sbin/unbound]
#   --module PATH       the module [LAB_MODULE; $IDNGUARD_MODULE, else build/idnguard.so]
#   --zones DIR         prepared zones [LAB_ZONES; $IDNGUARD_ZONES, else build/zones]
#   --templates DIR     nsd.conf.in and unbound.conf.in [LAB_TEMPLATES;
#                       $IDNGUARD_TEMPLATES, else tests/integration]
#   --port N, --nsd-port N  the ports [LAB_PORT, LAB_NSD_PORT; free ones,
#                       picked again if a daemon loses one in a race]
#   --threads N         Unbound's num-threads [LAB_THREADS; 1]
#   --modules LIST      Unbound's module-config [LAB_MODULES; dynlib validator iterator]
#   --conf FILE         template of idnguard.conf [LAB_CONF; conf/idnguard.conf.example]
#   --server-extra FILE lines for Unbound's server: clause [LAB_SERVER_EXTRA]
#   --unbound-extra FILE  clauses appended to unbound.conf [LAB_UNBOUND_EXTRA]
#   --nsd-extra FILE    clauses appended to nsd.conf [LAB_NSD_EXTRA]
#   --zone NAME=FILE    one more zone for NSD, repeatable [LAB_ZONE_FILES,
#                       space-separated]; the zones are then copied into DIR/zones
#   --no-test-zones     leave the tests' attack data out of nsd.conf [LAB_TEST_ZONES=no]
#   --logfile PATH      Unbound's logfile [LAB_LOGFILE; DIR/unbound.log;
#                       "" for its stderr, DIR/unbound.out]
#   --wrap CMD          a command in front of Unbound, split at blanks, e.g.
#                       valgrind and its options [LAB_WRAP]
#   --only nsd|unbound  start one daemon only [LAB_ONLY]
#   --flavour dynlib|python|stock  which idnguard module Unbound runs [LAB_FLAVOUR;
#                       $IDNGUARD_FLAVOUR, else dynlib].  python: Debian's stock
#                       daemon [LAB_UNBOUND; $IDNGUARD_STOCK_UNBOUND, else
#                       build/stock/usr/sbin/unbound, unpacked by
#                       scripts/stock-unbound.sh] with Unbound's python module
#                       in place of dynlib in module-config and the script
#                       [LAB_PYSCRIPT; $IDNGUARD_PYSCRIPT, else build/idnguard.py];
#                       the daemon's PYTHONPATH [LAB_PYTHONPATH;
#                       $IDNGUARD_PYTHONPATH, else the stock tree's
#                       usr/lib/python3/dist-packages] is where its embedded
#                       interpreter finds unboundmodule.py.  stock: the same
#                       stock daemon with no idnguard module at all (dynlib
#                       and python left out of module-config): a resolver
#                       as Debian ships it, for `idnguard tap` to watch.
#                       kresd, pdns, dnsdist: the guard in another engine
#                       through the Lua binding (lua/), the engine run from
#                       the Debian 13 root [LAB_ENGINES_ROOT;
#                       $IDNGUARD_ENGINES_ROOT, else build/roots/engines]
#                       with scripts/inroot.sh; tests/integration/engines/
#                       FLAVOUR.sh writes its configuration and starts it
#                       (see "Engines" below); the library is LAB_LIB
#                       [$IDNGUARD_LIB, else build/libidnguard.so.0] and the
#                       Lua files are in LAB_LUA [$IDNGUARD_LUA, else lua/].
#                       With LAB_ENGINE_GUARD=no [default yes] the engine
#                       starts as configured but without idnguard (kresd:
#                       no module; pdns: no lua-dns-script; dnsdist: no
#                       setup line), everything else equal: the
#                       benchmark's baseline (bench/engines_bench.sh)
#   --dnstap SOCKET     Unbound sends its client queries and responses over
#                       dnstap (bidirectional Frame Streams) to the Unix
#                       socket SOCKET, @DIR@ filled in [LAB_DNSTAP; none]:
#                       a dnstap: clause at the end of unbound.conf, after
#                       --unbound-extra
#   --start-seconds N   how long each daemon gets to answer [LAB_START_SECONDS; 10]
#   --stop-seconds N    how long SIGTERM gets before SIGKILL [LAB_STOP_SECONDS; 5]
# In the templates, in --conf and in --server-extra, @DIR@, @ZONES@,
# @PORT@, @NSD_PORT@, @THREADS@, @MODULE@, @PYSCRIPT@ and @LOGFILE@ are filled in.
# For Unbound only, IDNGUARD_DAEMON_PRELOAD becomes its LD_PRELOAD and
# IDNGUARD_DAEMON_ASAN_OPTIONS, IDNGUARD_DAEMON_UBSAN_OPTIONS its
# ASAN_OPTIONS and UBSAN_OPTIONS (`make asan-check`).
#
# As a library (`. scripts/lab.sh`, set LAB_* variables, then lab_start DIR,
# lab_unbound_start, lab_unbound_wait, lab_unbound_stop, lab_stop), the
# daemons are the caller's children: lab_unbound_stop leaves Unbound's exit
# status in LAB_UB_STATUS.  Its functions and variables all begin with lab_
# or LAB_, so as not to touch the caller's.  Loopback only; nothing here is
# a system service.

lab_top=$(cd "$(dirname "$0")/.." && pwd)
# Sourced from another script, $0 is that script: its own directory is
# scripts/ or bench/, one level under the top as well.

lab_say() { printf 'lab: %s\n' "$*" >&2; }

# Nothing started yet (a caller's cleanup may run lab_stop before lab_start).
: "${LAB_NSD_PID:=}" "${LAB_UB_PID:=}"

# Defaults for every option the caller did not set.
lab_defaults() { # DIR
    LAB_DIR=$(cd "$1" && pwd)
    : "${LAB_FLAVOUR:=${IDNGUARD_FLAVOUR:-dynlib}}"
    if [ "$LAB_FLAVOUR" = python ] || [ "$LAB_FLAVOUR" = stock ]; then
        : "${LAB_UNBOUND:=${IDNGUARD_STOCK_UNBOUND:-$lab_top/build/stock/usr/sbin/unbound}}"
        : "${LAB_PYTHONPATH:=${IDNGUARD_PYTHONPATH:-$(dirname "$(dirname "$LAB_UNBOUND")")/lib/python3/dist-packages}}"
    fi
    : "${LAB_UNBOUND:=${IDNGUARD_UNBOUND:-$lab_top/build/unbound/sbin/unbound}}"
    : "${LAB_PYSCRIPT:=${IDNGUARD_PYSCRIPT:-$lab_top/build/idnguard.py}}" "${LAB_PYTHONPATH:=}"
    : "${LAB_MODULE:=${IDNGUARD_MODULE:-$lab_top/build/idnguard.so}}"
    : "${LAB_ENGINES_ROOT:=${IDNGUARD_ENGINES_ROOT:-$lab_top/build/roots/engines}}"
    : "${LAB_LIB:=${IDNGUARD_LIB:-$lab_top/build/libidnguard.so.0}}"
    : "${LAB_LUA:=${IDNGUARD_LUA:-$lab_top/lua}}" "${LAB_ENGINE_GUARD:=yes}"
    : "${LAB_READY:=ready.local.test./A}"
    : "${LAB_ZONES:=${IDNGUARD_ZONES:-$lab_top/build/zones}}"
    : "${LAB_TEMPLATES:=${IDNGUARD_TEMPLATES:-$lab_top/tests/integration}}"
    : "${LAB_PORT:=}" "${LAB_NSD_PORT:=}" "${LAB_THREADS:=1}"
    : "${LAB_MODULES:=dynlib validator iterator}"
    # The python flavour runs the same set-ups with the python module
    # where the dynlib module would be.
    [ "$LAB_FLAVOUR" != python ] || LAB_MODULES=$(echo "$LAB_MODULES" | sed 's/dynlib/python/g')
    # The stock flavour runs them with neither.
    [ "$LAB_FLAVOUR" != stock ] ||
        LAB_MODULES=$(echo "$LAB_MODULES" | sed -e 's/dynlib//g' -e 's/python//g' -e 's/  */ /g' \
            -e 's/^ //' -e 's/ $//')
    : "${LAB_CONF:=$lab_top/conf/idnguard.conf.example}"
    : "${LAB_SERVER_EXTRA:=}" "${LAB_UNBOUND_EXTRA:=}" "${LAB_NSD_EXTRA:=}"
    : "${LAB_ZONE_FILES:=}" "${LAB_TEST_ZONES:=yes}" "${LAB_WRAP:=}" "${LAB_ONLY:=}"
    : "${LAB_DNSTAP:=}"
    LAB_LOGFILE=${LAB_LOGFILE-$LAB_DIR/unbound.log}
    : "${LAB_START_SECONDS:=10}" "${LAB_STOP_SECONDS:=5}"
    LAB_NSD_PID="" LAB_UB_PID="" LAB_UB_STATUS="" LAB_BACKEND_PID=""
}

# ---- ports ----

lab_in_use() { # PORT: anything bound to it, TCP or UDP, in any state
    ss -Hanut "( sport = :$1 )" 2>/dev/null | grep -q .
}

# Two distinct free ports, below the kernel's ephemeral range so that no
# client socket takes one between the pick and the daemon's bind (a daemon
# that loses a race anyway makes lab_start try again).
lab_free_ports() {
    ss -Hanut 2>/dev/null | awk -v seed="$$" '
        { n = split($5, a, ":"); used[a[n]] = 1 }
        END {
            getline r < "/proc/sys/net/ipv4/ip_local_port_range"
            split(r, lo, " "); hi = lo[1] + 0 > 12000 ? lo[1] : 32768
            srand(); srand(srand() + seed)
            while (got < 2) {
                p = 10000 + int(rand() * (hi - 10000))
                if (!(p in used)) { used[p] = 1; printf "%s%d", got++ ? " " : "", p }
            }
            print ""
        }'
}

# ---- configuration files ----

# The template $1 with the placeholders filled in, on stdout; with
# "inner" as $2, @MODULES@ and @SERVER_EXTRA@ are left alone.
lab_fill() { # TEMPLATE [inner]
    LAB_V_DIR=$LAB_DIR LAB_V_ZONES=$lab_zones LAB_V_NSD_PORT=$LAB_NSD_PORT LAB_V_PORT=$LAB_PORT \
    LAB_V_THREADS=$LAB_THREADS LAB_V_MODULE=$LAB_MODULE LAB_V_LOGFILE=$LAB_LOGFILE \
    LAB_V_PYSCRIPT=$LAB_PYSCRIPT \
    LAB_V_MODULES=$LAB_MODULES LAB_V_SERVER_EXTRA=${lab_server_extra:-} \
    awk -v inner="${2:-}" '
        BEGIN {
            n = split("DIR ZONES NSD_PORT PORT THREADS MODULE PYSCRIPT LOGFILE", k, " ")
            if (inner == "") { k[++n] = "MODULES"; k[++n] = "SERVER_EXTRA" }
            for (i = 1; i <= n; i++) v["@" k[i] "@"] = ENVIRON["LAB_V_" k[i]]
        }
        {
            out = ""; s = $0
            while (match(s, /@[A-Z_]+@/)) {
                key = substr(s, RSTART, RLENGTH)
                out = out substr(s, 1, RSTART - 1) ((key in v) ? v[key] : key)
                s = substr(s, RSTART + RLENGTH)
            }
            print out s
        }' "$1"
}

# NSD's configuration (and the zones directory, copied when there are
# zones of the caller's own).
lab_nsd_configure() {
    lab_zones=$LAB_ZONES
    [ -f "$LAB_ZONES/sig.anchor" ] || {
        lab_say "no prepared zones in $LAB_ZONES (make zones)"
        return 1
    }
    if [ -n "$LAB_ZONE_FILES" ]; then
        lab_zones=$LAB_DIR/zones
        mkdir -p "$lab_zones"
        cp "$LAB_ZONES"/*.zone "$LAB_ZONES/sig.anchor" "$lab_zones/" || return 1
    fi
    {
        if [ "$LAB_TEST_ZONES" = no ]; then
            lab_fill "$LAB_TEMPLATES/nsd.conf.in" | sed '/^# ---- test data only/,$d'
        else
            lab_fill "$LAB_TEMPLATES/nsd.conf.in"
        fi
        for lab_z in $LAB_ZONE_FILES; do
            cp "${lab_z#*=}" "$lab_zones/" || return 1
            printf 'zone:\n    name: "%s"\n    zonefile: "%s"\n' "${lab_z%%=*}" "$(basename "${lab_z#*=}")"
        done
        [ -z "$LAB_NSD_EXTRA" ] || lab_fill "$LAB_NSD_EXTRA" inner
    } >"$LAB_DIR/nsd.conf"
}

# Unbound's configuration and the module's settings.
lab_unbound_configure() {
    lab_zones=${lab_zones:-$LAB_ZONES}
    lab_server_extra=""
    if [ -n "$LAB_SERVER_EXTRA" ]; then
        lab_server_extra=$(lab_fill "$LAB_SERVER_EXTRA" inner | sed 's/^/    /') || return 1
    fi
    { lab_fill "$LAB_TEMPLATES/unbound.conf.in"
      [ -z "$LAB_UNBOUND_EXTRA" ] || lab_fill "$LAB_UNBOUND_EXTRA" inner
      [ -z "$LAB_DNSTAP" ] || lab_dnstap_clause
    } >"$LAB_DIR/unbound.conf" || return 1
    lab_fill "$LAB_CONF" inner >"$LAB_DIR/idnguard.conf"
}

# The dnstap: clause, last in unbound.conf: a clause ends the one before
# it, so anywhere inside the template it would take the server: lines
# that follow it.  Client messages only, both directions of each query,
# the bidirectional handshake (what `idnguard tap -u` and fstrm_capture
# speak).
lab_dnstap_clause() {
    lab_sock=$LAB_DNSTAP
    case $lab_sock in @DIR@*) lab_sock=$LAB_DIR${lab_sock#@DIR@} ;; esac
    cat <<EOF
dnstap:
    dnstap-enable: yes
    dnstap-socket-path: "$lab_sock"
    dnstap-bidirectional: yes
    dnstap-send-identity: yes
    dnstap-send-version: yes
    dnstap-identity: "idnguard-lab"
    dnstap-version: "lab-$LAB_FLAVOUR"
    dnstap-log-client-query-messages: yes
    dnstap-log-client-response-messages: yes
    dnstap-log-resolver-query-messages: no
    dnstap-log-resolver-response-messages: no
EOF
}

# ---- processes ----

# Running, not a zombie (a child that exited and was not waited for yet).
# (Processes are costly on a loaded machine: these loops fork little.)
lab_alive() { # PID
    [ -n "$1" ] && [ -r "/proc/$1/stat" ] || return 1
    read -r lab_s <"/proc/$1/stat" 2>/dev/null || return 1
    case ${lab_s##*) } in Z* | X* | "") return 1 ;; esac
}

# Polls until the daemon answers each NAME/TYPE with NOERROR, for
# LAB_START_SECONDS at most.  0: ready; 1: no answer in time; 2: it exited.
# drill is asked only once the port is bound (it waits 15 s for a port
# nobody listens on; a daemon that has bound its port but is still
# starting answers the query when it is ready).
lab_wait() { # PID PORT NAME/TYPE...
    lab_pid=$1 lab_port=$2 lab_bound="" lab_tries=0
    shift 2
    lab_deadline=$(($(date +%s) + LAB_START_SECONDS))
    for lab_q in "$@"; do
        while :; do
            if [ -n "$lab_bound" ] || { ss -Hlnu "( sport = :$lab_port )" 2>/dev/null | grep -q . && lab_bound=1; }; then
                case $(drill -p "$lab_port" @127.0.0.1 "${lab_q%/*}" "${lab_q#*/}" 2>/dev/null) in
                *"rcode: NOERROR"*) break ;;
                esac
            fi
            lab_alive "$lab_pid" || return 2
            lab_tries=$((lab_tries + 1))
            if [ $((lab_tries % 10)) = 0 ] || [ -n "$lab_bound" ]; then
                [ "$(date +%s)" -lt "$lab_deadline" ] || return 1
            fi
            sleep 0.1
        done
    done
}

# Polls FILE for up to 10 s until it has a line matching each PATTERN
# (grep's basic expressions), for logs that a daemon writes a little after
# the query (the tap: when the response comes, flushed within 250 ms).
# 0 when all are there; else 1, FILE shown indented on stdout.
lab_wait_lines() { # FILE PATTERN...
    lab_file=$1 lab_tries=0
    shift
    while [ "$lab_tries" -lt 100 ]; do
        lab_all=yes
        for lab_pat in "$@"; do
            grep -q -- "$lab_pat" "$lab_file" 2>/dev/null || { lab_all=""; break; }
        done
        [ -z "$lab_all" ] || return 0
        sleep 0.1
        lab_tries=$((lab_tries + 1))
    done
    sed 's/^/    /' "$lab_file" 2>/dev/null
    return 1
}

# Says why a daemon is not up, with the tails of its log and output.
# Returns 3 when it lost its port in a race (it is worth another try).
lab_failed() { # NAME HOW LOG OUT
    lab_say "$1 $2"
    for lab_f in "$3" "$4"; do
        [ -s "$lab_f" ] || continue
        printf -- '--- %s (last 20 lines)\n' "$lab_f" >&2
        tail -n 20 "$lab_f" >&2
    done
    cat "$3" "$4" 2>/dev/null | grep -q 'in use' && return 3
    return 1
}

# SIGTERM to each PID, up to LAB_STOP_SECONDS for all to exit, then
# SIGKILL; the status of the last one, when it is a child, in lab_status.
# (Callers pass PIDs unquoted: an empty one is no argument.)
# shellcheck disable=SC2086
lab_kill() { # PID...
    lab_status=""
    for lab_p in "$@"; do kill -TERM "$lab_p" 2>/dev/null || true; done
    lab_n=$((${LAB_STOP_SECONDS:-5} * 20))
    for lab_p in "$@"; do
        while lab_alive "$lab_p" && [ "$lab_n" -gt 0 ]; do
            sleep 0.05
            lab_n=$((lab_n - 1))
        done
        ! lab_alive "$lab_p" || kill -KILL "$lab_p" 2>/dev/null || true
        # The status of a child of this shell; 127 for another process.
        wait "$lab_p" 2>/dev/null && lab_status=0 || lab_status=$?
    done
}

lab_nsd_start() {
    nsd -d -c "$LAB_DIR/nsd.conf" >"$LAB_DIR/nsd.out" 2>&1 &
    LAB_NSD_PID=$!
    set -- example./SOA sig./SOA deny.sig./SOA bad.sig./SOA
    for lab_z in $LAB_ZONE_FILES; do set -- "$@" "${lab_z%%=*}/SOA"; done
    lab_wait "$LAB_NSD_PID" "$LAB_NSD_PORT" "$@" && return 0
    case $? in
    2) lab_how="exited before answering" ;;
    *) lab_how="did not answer for its zones within ${LAB_START_SECONDS}s" ;;
    esac
    lab_kill $LAB_NSD_PID
    LAB_NSD_PID=""
    lab_failed nsd "$lab_how (port $LAB_NSD_PORT)" "$LAB_DIR/nsd.log" "$LAB_DIR/nsd.out"
}

# ---- engines ----
#
# An engine flavour (kresd, pdns, dnsdist) takes Unbound's place: the
# resolver in front of NSD, on LAB_PORT, whose PID is LAB_UB_PID (so that
# every stop and status above applies to it), writing its log to
# LAB_LOGFILE.  tests/integration/engines/FLAVOUR.sh, sourced here,
# defines lab_engine_start: it writes the engine's configuration into
# LAB_DIR, with idnguard's settings in LAB_DIR/idnguard.conf (from LAB_CONF,
# as for Unbound), and starts the daemon in the background under
# scripts/inroot.sh, setting LAB_UB_PID; a daemon of its own that it needs
# behind the engine (dnsdist's backend resolver) gets LAB_BACKEND_PID,
# which lab_stop stops too.  It may set LAB_READY, the NAME/TYPE whose
# NOERROR says the engine is ready.  Its configuration goes through
# lab_engine_guard_filter, which takes idnguard out under
# LAB_ENGINE_GUARD=no.

# A copy of stdin, without the lines that match the basic expression
# PATTERN when LAB_ENGINE_GUARD=no: an engine's configuration without the
# line that loads idnguard.
lab_engine_guard_filter() { # PATTERN
    if [ "${LAB_ENGINE_GUARD:-yes}" = no ]; then sed "/$1/d"; else cat; fi
}

lab_engine() {
    case $LAB_FLAVOUR in kresd | pdns | dnsdist) return 0 ;; esac
    return 1
}

lab_engine_begin() {
    [ -x "$LAB_ENGINES_ROOT/usr/sbin/kresd" ] || {
        lab_say "no engines root in $LAB_ENGINES_ROOT (make engines-root)"
        return 1
    }
    . "$lab_top/tests/integration/engines/$LAB_FLAVOUR.sh" || return 1
    lab_zones=${lab_zones:-$LAB_ZONES}
    lab_fill "$LAB_CONF" inner >"$LAB_DIR/idnguard.conf" || return 1
    LAB_UB_STATUS=""
    lab_engine_start || return 1
    lab_unbound_wait
}

# Starts Unbound with the current options (writing its configuration
# again) in the started lab, and waits until it answers.
lab_unbound_start() {
    ! lab_engine || { lab_engine_begin; return; }
    lab_unbound_configure || return 1
    set -- "$LAB_UNBOUND" -d -c "$LAB_DIR/unbound.conf"
    # shellcheck disable=SC2086
    [ -z "$LAB_WRAP" ] || set -- $LAB_WRAP "$@"
    set -- IDNGUARD_CONF="$LAB_DIR/idnguard.conf" "$@"
    [ -z "$LAB_PYTHONPATH" ] || set -- PYTHONPATH="$LAB_PYTHONPATH" "$@"
    [ -z "${IDNGUARD_DAEMON_PRELOAD:-}" ] || set -- LD_PRELOAD="$IDNGUARD_DAEMON_PRELOAD" "$@"
    [ -z "${IDNGUARD_DAEMON_ASAN_OPTIONS:-}" ] ||
        set -- ASAN_OPTIONS="$IDNGUARD_DAEMON_ASAN_OPTIONS" "$@"
    [ -z "${IDNGUARD_DAEMON_UBSAN_OPTIONS:-}" ] ||
        set -- UBSAN_OPTIONS="$IDNGUARD_DAEMON_UBSAN_OPTIONS" "$@"
    LAB_UB_STATUS=""
    env "$@" >"$LAB_DIR/unbound.out" 2>&1 &
    LAB_UB_PID=$!
    lab_unbound_wait
}

# Waits until Unbound answers (after its start, or a reload).
lab_unbound_wait() {
    lab_wait "$LAB_UB_PID" "$LAB_PORT" "$LAB_READY" && return 0
    if [ $? = 2 ]; then
        wait "$LAB_UB_PID" 2>/dev/null && LAB_UB_STATUS=0 || LAB_UB_STATUS=$?
        lab_how="exited with status $LAB_UB_STATUS before answering"
    else
        lab_how="did not answer within ${LAB_START_SECONDS}s"
        lab_kill $LAB_UB_PID
    fi
    LAB_UB_PID=""
    lab_failed unbound "$lab_how (port $LAB_PORT)" "${LAB_LOGFILE:-$LAB_DIR/unbound.out}" \
        "$LAB_DIR/unbound.out"
}

lab_unbound_stop() {
    [ -n "$LAB_UB_PID" ] || return 0
    lab_kill $LAB_UB_PID
    LAB_UB_STATUS=$lab_status
    LAB_UB_PID=""
    lab_kill ${LAB_BACKEND_PID:-}
    LAB_BACKEND_PID=""
}

lab_write_env() { # STATE
    cat >"$LAB_DIR/lab.env.new" <<EOF
LAB_STATE=$1
LAB_PORT=$LAB_PORT
LAB_NSD_PORT=$LAB_NSD_PORT
LAB_NSD_PID=$LAB_NSD_PID
LAB_UB_PID=$LAB_UB_PID
LAB_UB_STATUS=$LAB_UB_STATUS
LAB_BACKEND_PID="${LAB_BACKEND_PID:-}"
EOF
    mv "$LAB_DIR/lab.env.new" "$LAB_DIR/lab.env"
}

# Configures and starts the lab in DIR (NSD, then Unbound), picking free
# ports where none are given, up to three times when a daemon loses its
# port in a race.  0 when both answer; 1 after stopping what it started.
lab_start() { # DIR
    lab_defaults "$1" || return 1
    lab_pick=""
    [ -n "$LAB_PORT" ] && [ -n "$LAB_NSD_PORT" ] || lab_pick=yes
    lab_given_port=$LAB_PORT lab_given_nsd_port=$LAB_NSD_PORT
    for lab_attempt in 1 2 3; do
        lab_ports=$(lab_free_ports)
        LAB_PORT=${lab_given_port:-${lab_ports% *}}
        LAB_NSD_PORT=${lab_given_nsd_port:-${lab_ports#* }}
        if [ "$LAB_PORT" = "$LAB_NSD_PORT" ]; then
            [ -n "$lab_given_port" ] && LAB_NSD_PORT=${lab_ports% *} || LAB_PORT=${lab_ports#* }
        fi
        lab_rc=0
        if [ "$LAB_ONLY" != unbound ]; then
            lab_nsd_configure && lab_nsd_start || lab_rc=$?
        fi
        if [ "$lab_rc" = 0 ] && [ "$LAB_ONLY" != nsd ]; then
            lab_unbound_start || lab_rc=$?
        fi
        if [ "$lab_rc" = 0 ]; then
            lab_write_env ready
            return 0
        fi
        lab_stop
        [ "$lab_rc" = 3 ] && [ -n "$lab_pick" ] && [ "$lab_attempt" -lt 3 ] || break
        lab_say "a port was taken meanwhile; trying other ports"
    done
    lab_write_env failed
    return 1
}

# Both daemons are sent SIGTERM at once; Unbound's status is kept.
lab_stop() { # [nsd|unbound]
    case ${1:-both} in
    unbound) lab_unbound_stop ;;
    nsd) lab_kill $LAB_NSD_PID ;;
    *)
        lab_kill $LAB_NSD_PID ${LAB_BACKEND_PID:-} $LAB_UB_PID
        [ -z "$LAB_UB_PID" ] || LAB_UB_STATUS=$lab_status
        ;;
    esac
    case ${1:-both} in nsd | both) LAB_NSD_PID="" ;; esac
    case ${1:-both} in unbound | both) LAB_UB_PID="" LAB_BACKEND_PID="" ;; esac
}

lab_usage() {
    echo "usage: lab.sh start DIR [--hold] [OPTION...] | lab.sh stop DIR [nsd|unbound]" >&2
    echo "(the options are described at the top of scripts/lab.sh)" >&2
    exit 2
}

lab_main() {
    [ $# -ge 2 ] || lab_usage
    cmd=$1 dir=$2
    shift 2
    [ -d "$dir" ] || { lab_say "no directory $dir"; exit 2; }
    case $cmd in
    stop)
        [ -f "$dir/lab.env" ] || exit 0
        . "$dir/lab.env"
        LAB_STOP_SECONDS=${LAB_STOP_SECONDS:-5}
        lab_stop "${1:-both}"
        exit 0
        ;;
    start) ;;
    *) lab_usage ;;
    esac
    hold=""
    while [ $# -gt 0 ]; do
        case $1 in
        --hold) hold=yes; shift; continue ;;
        --no-test-zones) LAB_TEST_ZONES=no; shift; continue ;;
        esac
        [ $# -ge 2 ] || lab_usage
        case $1 in
        --unbound) LAB_UNBOUND=$2 ;;
        --module) LAB_MODULE=$2 ;;
        --zones) LAB_ZONES=$2 ;;
        --templates) LAB_TEMPLATES=$2 ;;
        --port) LAB_PORT=$2 ;;
        --nsd-port) LAB_NSD_PORT=$2 ;;
        --threads) LAB_THREADS=$2 ;;
        --modules) LAB_MODULES=$2 ;;
        --conf) LAB_CONF=$2 ;;
        --server-extra) LAB_SERVER_EXTRA=$2 ;;
        --unbound-extra) LAB_UNBOUND_EXTRA=$2 ;;
        --nsd-extra) LAB_NSD_EXTRA=$2 ;;
        --zone) LAB_ZONE_FILES="${LAB_ZONE_FILES:-} $2" ;;
        --logfile) LAB_LOGFILE=$2 ;;
        --wrap) LAB_WRAP=$2 ;;
        --only) LAB_ONLY=$2 ;;
        --flavour) LAB_FLAVOUR=$2 ;;
        --dnstap) LAB_DNSTAP=$2 ;;
        --start-seconds) LAB_START_SECONDS=$2 ;;
        --stop-seconds) LAB_STOP_SECONDS=$2 ;;
        *) lab_usage ;;
        esac
        shift 2
    done
    lab_start "$dir" || exit 1
    [ -n "$hold" ] || exit 0
    # The daemons' parent until they exit: a stop from outside (lab.sh stop)
    # ends the wait; a signal to this process stops them.
    trap 'lab_stop; exit 0' TERM INT HUP
    wait
}

case ${0##*/} in lab.sh) lab_main "$@" ;; esac
