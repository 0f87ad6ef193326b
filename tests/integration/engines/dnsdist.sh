# dnsdist.sh -- the dnsdist flavour of the lab (sourced by scripts/lab.sh):
# dnsdist from the engines root, with idnguard (lua/dnsdist.lua), on
# LAB_PORT, in front of a backend resolver of its own: the Unbound built
# here (LAB_UNBOUND) without the module, on another free loopback port,
# configured from the same unbound.conf.in (module-config LAB_MODULES with
# dynlib and python left out, the test's server: lines included), its log
# in LAB_DIR/backend.log.  The backend is LAB_BACKEND_PID, which lab.sh
# stops with dnsdist.  With LAB_DNSDIST_BIND=yes, BIND's named (9.20, from
# the engines root) is a second backend beside it, resolving through NSD
# (forward only, no validation), its log with its query lines in
# LAB_DIR/named.out (named -g: everything on standard error), and
# dnsdist sends queries to the two in turn (roundrobin).

# A free port that none of the lab's daemons has yet.  (lab_free_ports,
# asked within the second the lab picked its own, offers the same two.)
lab_dd_port() {
    set -- $(lab_free_ports)
    lab_dd_p=$1
    while [ "$lab_dd_p" -lt 65535 ]; do
        case " $LAB_PORT $LAB_NSD_PORT ${LAB_BACKEND_PORT:-} " in
        *" $lab_dd_p "*) ;;
        *) lab_in_use "$lab_dd_p" || { echo "$lab_dd_p"; return 0; } ;;
        esac
        lab_dd_p=$((lab_dd_p + 1))
    done
    return 1
}

lab_dd_backend() {
    LAB_BACKEND_PORT=""
    LAB_BACKEND_PORT=$(lab_dd_port) || return 1
    lab_dd_modules=$(echo "$LAB_MODULES" | sed -e 's/dynlib//g' -e 's/python//g' -e 's/  */ /g' \
        -e 's/^ //' -e 's/ $//')
    lab_server_extra=""
    if [ -n "$LAB_SERVER_EXTRA" ]; then
        lab_server_extra=$(lab_fill "$LAB_SERVER_EXTRA" inner | sed 's/^/    /') || return 1
    fi
    # unbound.conf.in, filled in for the backend's port, modules and log.
    lab_dd_saved_port=$LAB_PORT lab_dd_saved_modules=$LAB_MODULES lab_dd_saved_log=$LAB_LOGFILE
    LAB_PORT=$LAB_BACKEND_PORT LAB_MODULES=$lab_dd_modules LAB_LOGFILE=$LAB_DIR/backend.log
    lab_fill "$LAB_TEMPLATES/unbound.conf.in" >"$LAB_DIR/backend.conf"
    lab_dd_rc=$?
    LAB_PORT=$lab_dd_saved_port LAB_MODULES=$lab_dd_saved_modules LAB_LOGFILE=$lab_dd_saved_log
    [ "$lab_dd_rc" = 0 ] || return 1
    "$LAB_UNBOUND" -d -c "$LAB_DIR/backend.conf" >"$LAB_DIR/backend.out" 2>&1 &
    LAB_BACKEND_PID=$!
    lab_wait "$LAB_BACKEND_PID" "$LAB_BACKEND_PORT" ready.local.test./A && return 0
    lab_kill $LAB_BACKEND_PID
    LAB_BACKEND_PID=""
    lab_failed "backend unbound" "did not answer (port $LAB_BACKEND_PORT)" "$LAB_DIR/backend.log" \
        "$LAB_DIR/backend.out"
}

lab_dd_bind() {
    LAB_BIND_PORT=$(lab_dd_port) || return 1
    cat >"$LAB_DIR/named.conf" <<EOF
options {
    directory "$LAB_DIR";
    pid-file none;
    session-keyfile "$LAB_DIR/session.key";
    listen-on port $LAB_BIND_PORT { 127.0.0.1; };
    listen-on-v6 { none; };
    recursion yes;
    allow-query { 127.0.0.0/8; };
    allow-recursion { 127.0.0.0/8; };
    dnssec-validation no;
    qname-minimization off;
    querylog yes;
};
controls { };
zone "." { type forward; forward only; forwarders { 127.0.0.1 port $LAB_NSD_PORT; }; };
EOF
    sh "$lab_top/scripts/inroot.sh" "$LAB_ENGINES_ROOT" --bind "$LAB_DIR" -- \
        named -g -c "$LAB_DIR/named.conf" >"$LAB_DIR/named.out" 2>&1 &
    lab_dd_named=$!
    LAB_BACKEND_PID="$LAB_BACKEND_PID $lab_dd_named"
    lab_wait "$lab_dd_named" "$LAB_BIND_PORT" example./SOA && return 0
    lab_failed "backend named" "did not answer (port $LAB_BIND_PORT)" "$LAB_DIR/named.out" ""
}

# The configuration: the template filled in, with a listener more for each
# thread past the first (SO_REUSEPORT) and BIND.
lab_dd_configure() {
    lab_dd_extra=""
    lab_dd_i=1
    while [ "$lab_dd_i" -lt "$LAB_THREADS" ]; do
        lab_dd_extra="${lab_dd_extra}addLocal(\"127.0.0.1:$LAB_PORT\", { reusePort = true })\\n"
        lab_dd_i=$((lab_dd_i + 1))
    done
    if [ "${LAB_DNSDIST_BIND:-}" = yes ]; then
        lab_dd_extra="${lab_dd_extra}newServer { address = \"127.0.0.1:$LAB_BIND_PORT\", name = \"bind\", healthCheckMode = \"up\" }\\n"
        lab_dd_extra="${lab_dd_extra}setServerPolicy(roundrobin)\\n"
    fi
    lab_fill "${LAB_DNSDIST_CONF:-$lab_top/tests/integration/engines/dnsdist.conf.in}" inner |
        sed -e "s|@BACKEND_PORT@|$LAB_BACKEND_PORT|g" -e "s|@LIB@|$LAB_LIB|g" \
            -e "s|@LUA@|$LAB_LUA|g" -e "s|@BACKEND_EXTRA@|$lab_dd_extra|" |
        lab_engine_guard_filter '^require("dnsdist")\.setup' >"$LAB_DIR/dnsdist.conf"
}

lab_engine_start() {
    [ -r "$LAB_LIB" ] || { lab_say "no library $LAB_LIB"; return 1; }
    lab_dd_backend || return 1
    [ "${LAB_DNSDIST_BIND:-}" != yes ] || lab_dd_bind || return 1
    lab_dd_configure || return 1
    # Paths in the settings (a log-file, a stats-file, includes) are in the
    # test's directory or beside it (the tests' other temporary
    # directories); the library and the Lua files may be elsewhere.
    sh "$lab_top/scripts/inroot.sh" "$LAB_ENGINES_ROOT" --bind "$(dirname "$LAB_DIR")" --bind "$lab_top" \
        --bind "$(dirname "$LAB_LIB")" --bind "$LAB_LUA" -- \
        dnsdist --supervised --disable-syslog -C "$LAB_DIR/dnsdist.conf" \
        >"${LAB_LOGFILE:-$LAB_DIR/unbound.out}" 2>&1 &
    LAB_UB_PID=$!
    LAB_READY=ready.local.test./A
}
