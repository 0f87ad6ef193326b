# pdns.sh -- the pdns flavour of the lab (sourced by scripts/lab.sh):
# PowerDNS Recursor from the engines root with idnguard as its
# lua-dns-script (lua/pdns-recursor.lua), on LAB_PORT, forwarding every
# zone to the lab's NSD.  Its configuration is LAB_DIR/recursor.yml, from
# pdns-recursor.yml.in beside this file, and its log (stderr: idnguard's
# lines and the Recursor's own) is LAB_LOGFILE.
#
# A test's set-up written for Unbound is translated where the Recursor
# has a counterpart, and otherwise left out:
#   LAB_MODULES without "validator"  -> dnssec.validation:
#                              process-no-validate (DNSSEC records fetched
#                              and passed on, nothing validated)
#   minimal-responses: no   -> additional A/AAAA records for NS, MX and SRV
#                              answers (recursor.allowed_additional_qtypes,
#                              resolved when not cached: what NSD's
#                              additional section gives Unbound)
#   serve-expired: yes      -> recordcache.serve_stale_extensions
# (the suites add under this flavour only the set-ups that mean the same
# here).

# The YAML lines for the test's set-up: lab_pd_validation, lab_pd_recursor,
# lab_pd_recordcache.
lab_pd_extra() {
    lab_pd_recursor="" lab_pd_recordcache="" lab_pd_validation=validate
    case " $LAB_MODULES " in *" validator "*) ;; *) lab_pd_validation=process-no-validate ;; esac
    [ -n "$LAB_SERVER_EXTRA" ] && [ -s "$LAB_SERVER_EXTRA" ] || return 0
    if grep -q '^[[:space:]]*minimal-responses:[[:space:]]*no' "$LAB_SERVER_EXTRA"; then
        for lab_pd_t in NS MX SRV; do
            lab_pd_recursor="$lab_pd_recursor
    - qtype: $lab_pd_t
      targets: [A, AAAA]
      mode: ResolveImmediately"
        done
        lab_pd_recursor="  allowed_additional_qtypes:$lab_pd_recursor"
    fi
    if grep -q '^[[:space:]]*serve-expired:[[:space:]]*yes' "$LAB_SERVER_EXTRA"; then
        lab_pd_recordcache="recordcache:
  serve_stale_extensions: 1"
    fi
}

lab_pd_configure() {
    lab_pd_ds=$(awk '$4 == "DS" { print $5, $6, $7, $8; exit }' "$lab_zones/sig.anchor")
    [ -n "$lab_pd_ds" ] || { lab_say "no DS record in $lab_zones/sig.anchor"; return 1; }
    lab_pd_extra
    # The local data of unbound.conf.in, as an auth zone.
    cat >"$LAB_DIR/local.test.zone" <<EOF
\$ORIGIN local.test.
\$TTL 3600
@       SOA  localhost. hostmaster.local.test. 1 3600 900 604800 300
@       NS   localhost.
ready   A    127.0.0.1
xn--bcher-kva A 127.0.0.2
EOF
    lab_fill "$lab_top/tests/integration/engines/pdns-recursor.yml.in" inner |
        LAB_V_LUA=$LAB_LUA LAB_V_DS=$lab_pd_ds LAB_V_REC=$lab_pd_recursor \
        LAB_V_RC=$lab_pd_recordcache LAB_V_VAL=$lab_pd_validation awk '
            $0 == "@RECURSOR_EXTRA@" { if (ENVIRON["LAB_V_REC"] != "") print ENVIRON["LAB_V_REC"]; next }
            $0 == "@RECORDCACHE@" { if (ENVIRON["LAB_V_RC"] != "") print ENVIRON["LAB_V_RC"]; next }
            { gsub(/@LUA@/, ENVIRON["LAB_V_LUA"]); gsub(/@SIG_DS@/, ENVIRON["LAB_V_DS"])
              gsub(/@VALIDATION@/, ENVIRON["LAB_V_VAL"]); print }' |
        lab_engine_guard_filter '^  lua_dns_script:' >"$LAB_DIR/recursor.yml"
}

lab_engine_start() {
    [ -r "$LAB_LIB" ] || { lab_say "no library $LAB_LIB"; return 1; }
    lab_pd_configure || return 1
    # The settings file, the library and the Lua files by the environment
    # (lua/pdns-recursor.lua's header); every path is bound at the same
    # place inside the root, the temporary directory too (files a test's
    # settings name, such as a log-file, are in a directory of its own).
    IDNGUARD_CONF=$LAB_DIR/idnguard.conf IDNGUARD_LIB=$LAB_LIB LUA_PATH="$LAB_LUA/?.lua;;" \
        sh "$lab_top/scripts/inroot.sh" "$LAB_ENGINES_ROOT" --bind "${TMPDIR:-/tmp}" \
        --bind "$LAB_DIR" --bind "$lab_top" \
        --bind "$(dirname "$LAB_LIB")" --bind "$LAB_LUA" --bind "$lab_zones" -- \
        pdns_recursor --config-dir="$LAB_DIR" >"${LAB_LOGFILE:-$LAB_DIR/unbound.out}" 2>&1 &
    LAB_UB_PID=$!
    LAB_READY=ready.local.test./A
}
