# kresd.sh -- the kresd flavour of scripts/lab.sh: Knot Resolver 5 (kresd,
# Debian 13's) with idnguard's lua/kresd.lua in Unbound's place, on
# LAB_PORT, forwarding to the lab's NSD.  Sourced by lab.sh (see its
# "Engines" section), which calls lab_engine_start once idnguard.conf is
# written.  The configuration is engines/kresd.conf.in; the daemon runs in
# the foreground from the engines' Debian root (scripts/inroot.sh), its
# stdout and stderr (its log, and idnguard's lines) into LAB_LOGFILE, its
# cache in LAB_DIR/kresd-cache.  One process: LAB_THREADS does not apply.

# Binds DIR into the root unless the repository's top (bound already)
# holds it; appends to lab_kresd_binds.
lab_kresd_bind() { # DIR
    case $1 in
    "$lab_top" | "$lab_top"/*) ;;
    *) lab_kresd_binds="$lab_kresd_binds --bind $1" ;;
    esac
}

lab_engine_start() {
    lab_kresd_conf=$LAB_DIR/kresd.conf
    mkdir -p "$LAB_DIR/kresd-cache" || return 1
    # A test's extra lines (LAB_SERVER_EXTRA: Lua here) go where the
    # template has the line @EXTRA@.
    : >"$LAB_DIR/kresd-extra.lua"
    [ -z "$LAB_SERVER_EXTRA" ] || lab_fill "$LAB_SERVER_EXTRA" inner >"$LAB_DIR/kresd-extra.lua" ||
        return 1
    lab_fill "$LAB_TEMPLATES/engines/kresd.conf.in" inner |
        sed -e "s|@LIB@|$LAB_LIB|g" -e "s|@LUA@|$LAB_LUA|g" |
        lab_engine_guard_filter "^require('kresd')\.load" |
        awk -v extra="$LAB_DIR/kresd-extra.lua" '
            $0 == "@EXTRA@" { while ((getline l < extra) > 0) print l; next }
            { print }' >"$lab_kresd_conf" || return 1
    lab_kresd_binds=""
    # The temporary directory, where a test makes the paths its settings
    # name (a log-file), besides LAB_DIR.
    lab_kresd_bind "${TMPDIR:-/tmp}"
    lab_kresd_bind "$lab_zones"
    lab_kresd_bind "$(dirname "$LAB_LIB")"
    lab_kresd_bind "$LAB_LUA"
    # shellcheck disable=SC2086
    sh "$lab_top/scripts/inroot.sh" "$LAB_ENGINES_ROOT" --bind "$LAB_DIR" --bind "$lab_top" \
        $lab_kresd_binds -- kresd -n -c "$lab_kresd_conf" "$LAB_DIR" \
        >"${LAB_LOGFILE:-$LAB_DIR/unbound.out}" 2>&1 &
    LAB_UB_PID=$!
}
