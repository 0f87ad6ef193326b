#!/bin/sh
# install-test.sh STAGE STOCK
#
# `make check-install`: `make install-python` and `make install` into the
# staging directory STAGE (DESTDIR, PREFIX=/usr), then `make uninstall`,
# as an operator runs them.  MAKE names the make to run (the Makefile's
# recipe passes its own).
#
#   STAGE   made anew; STAGE.work holds the logs and the test's own files
#   STOCK   Debian's stock unbound and python3-unbound, unpacked
#           (scripts/stock-unbound.sh, build/stock)
#
# It checks that every file is where it belongs (libidnguard exporting its
# header's functions); that a second install keeps the configuration files
# there and says so; that the examples name the installed paths; that the tap's unit passes systemd-analyze verify
# and agrees with the tmpfiles.d file and logrotate's file about its
# directories, owner and log; that the stock daemon's unbound-checkconf
# loads the staged python module with the staged example, settings and
# drop-ins' environment (and, without their PYTHONPATH, fails as
# docs/unbound.md says); that uninstall leaves no file behind; and that it
# keeps a settings file the operator changed, and says so.
# Output: one line per check, then "N passed, N failed"; exit 1 on any
# failure.
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 STAGE STOCK" >&2
    exit 2
fi
make=${MAKE:-make}
top=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$1" "$1.work"
mkdir -p "$1" "$1.work"
stage=$(cd "$1" && pwd) stock=$(cd "$2" && pwd)
work=$stage.work
started=$(date +%s)

# ok/FAIL lines, counted (scripts/checks.sh).
# shellcheck source=scripts/checks.sh
. "$top/scripts/checks.sh"

# One make target into STAGE; its output in WORK/TARGET.N.log.
run_n=0
run() { # TARGET
    run_n=$((run_n + 1))
    run_log=$work/$1.$run_n.log
    "$make" --no-print-directory "$1" DESTDIR="$stage" PREFIX=/usr >"$run_log" 2>&1 ||
        { tail -n 15 "$run_log" | sed 's/^/    /'; return 1; }
}
said() { # TEXT: in the last run's output
    grep -q -F -- "$1" "$run_log"
}
# Files (no directories) under STAGE, relative, sorted.
left() {
    (cd "$stage" && find . ! -type d | sed 's,^\./,,' | sort)
}

conf=etc/unbound/idnguard.conf
files="usr/bin/idnguard usr/lib/idnguard/idnguard.so usr/lib/idnguard/idnguard.py
    usr/lib/idnguard/libidnguard.so.0 usr/include/libidnguard.h usr/lib/libidngcodec.a
    usr/include/idnguard.h
    usr/share/man/man1/idnguard.1 usr/share/man/man5/idnguard.conf.5
    usr/share/doc/idnguard/idnguard.conf.example usr/share/doc/idnguard/unbound.conf.example
    usr/share/doc/idnguard/unbound-python.conf.example usr/share/doc/idnguard/logrotate.example
    usr/share/doc/idnguard/LICENSE usr/share/doc/idnguard/README.md
    usr/share/doc/idnguard/docs/unbound.md usr/share/doc/idnguard/docs/tap.md
    usr/share/idnguard/prometheus/idnguard.rules.yml
    usr/share/idnguard/lua/idnguard.lua usr/share/idnguard/lua/dnsdist.lua
    usr/share/idnguard/lua/pdns-recursor.lua usr/share/idnguard/lua/kresd.lua
    usr/share/idnguard/examples/dnsdist.conf.example
    usr/share/idnguard/examples/pdns-recursor.yml.example
    usr/share/idnguard/examples/kresd.conf.example
    usr/lib/systemd/system/idnguard-tap.service usr/lib/tmpfiles.d/idnguard.conf
    $conf etc/logrotate.d/idnguard
    etc/systemd/system/unbound.service.d/idnguard.conf
    etc/systemd/system/unbound.service.d/idnguard-python.conf"
all_there() {
    for f in $files; do
        [ -s "$stage/$f" ] || { echo "    missing: $f"; return 1; }
    done
}

# ---- install ----

check "make install-python" run install-python
check "it installs the settings file" said "install: $stage/$conf"
check "make install over it" run install
check "it keeps the settings file there, and says so" said "install: kept $stage/$conf as it is"
check "every file is staged" all_there
check "the directory for local settings is staged" eval '[ -d "$stage/etc/unbound/idnguard.conf.d" ]'
check "the staged libidnguard.so.0 exports the staged header's functions" \
    eval "sh '$top/scripts/lib-exports.sh' '$stage/usr/lib/idnguard/libidnguard.so.0' \
        '$stage/usr/include/libidnguard.h' >'$work/exports.log' 2>&1 || { sed 's/^/    /' '$work/exports.log'; false; }"
check "idnguard check-conf passes on the staged settings" \
    eval "'$stage/usr/bin/idnguard' check-conf '$stage/$conf' >/dev/null"
doc=$stage/usr/share/doc/idnguard
check "the dynlib example names the installed module" \
    grep -q '^ *dynlib-file: "/usr/lib/idnguard/idnguard.so"' "$doc/unbound.conf.example"
check "the python example names the installed script" \
    grep -q '^ *python-script: "/usr/lib/idnguard/idnguard.py"' "$doc/unbound-python.conf.example"
check "the engines' examples name the installed binding and library" \
    eval "for f in '$stage'/usr/share/idnguard/examples/*.example; do
        grep -q /usr/share/idnguard/lua/ \"\$f\" && grep -q /usr/lib/idnguard/libidnguard.so.0 \"\$f\" ||
            { echo \"    \$f\"; exit 1; }; done"
check "the installed binding loads the installed library with the installed settings" \
    luajit -e "package.path = '$stage/usr/share/idnguard/lua/?.lua;' .. package.path
        local g, e = require('idnguard').open { lib = '$stage/usr/lib/idnguard/libidnguard.so.0',
            conf = '$stage/$conf' }
        assert(g, e)"

# ---- the tap's unit ----

unit=$stage/usr/lib/systemd/system/idnguard-tap.service
tmpfiles=$stage/usr/lib/tmpfiles.d/idnguard.conf
key() { # KEY: its value in the unit
    sed -n "s/^$1=//p" "$unit"
}
exec_start=$(key ExecStart)
# The option's value on the ExecStart line.
opt() { # OPTION
    echo "$exec_start" | sed -n "s/.* $1 \([^ ]*\).*/\1/p"
}
# "MODE USER GROUP" of a directory in the tmpfiles.d file.
tmpdir() { # PATH
    awk -v p="$1" '$1 == "d" && $2 == p { print $3, $4, $5 }' "$tmpfiles"
}
check "the unit runs the installed CLI with the installed settings" \
    eval "[ '${exec_start%% *}' = /usr/bin/idnguard ] && [ -x '$stage/usr/bin/idnguard' ] &&
        [ '$(opt --conf)' = /$conf ]"
sock=$(opt -u) log=$(opt -w)
check "the socket's directory: unit and tmpfiles.d agree ($(tmpdir "${sock%/*}"))" \
    eval "[ '${sock%/*}' = '/run/$(key RuntimeDirectory)' ] &&
        [ '$(tmpdir "${sock%/*}")' = '$(key RuntimeDirectoryMode) $(key User) $(key Group)' ]"
check "the log's directory: unit and tmpfiles.d agree ($(tmpdir "${log%/*}"))" \
    eval "[ '${log%/*}' = '/var/log/$(key LogsDirectory)' ] &&
        [ '$(tmpdir "${log%/*}")' = '$(key LogsDirectoryMode) $(key User) $(key Group)' ]"
check "logrotate's file rotates the tap's log ($log)" \
    grep -q "^/.* $log {\$" "$stage/etc/logrotate.d/idnguard"
# docs/tap.md shows the unit's text: its lines but the comments and blank ones.
unit_lines() {
    grep -v -e '^#' -e '^$'
}
doc_unit() { # the first ini block: the unit (later ones are drop-ins)
    awk '/^```ini$/ { f = 1; next } f && /^```$/ { exit } f' "$doc/docs/tap.md" | unit_lines
}
check "docs/tap.md shows the unit as installed" eval '[ "$(doc_unit)" = "$(unit_lines <"$unit")" ]'
# No manager involved; the CLI is not at /usr/bin on this machine.
verify() {
    SYSTEMD_UNIT_PATH=$stage/usr/lib/systemd/system: systemd-analyze verify --man=no "$unit" 2>&1 |
        grep -v 'Command /[^ ]* is not executable' >"$work/verify.log"
    [ ! -s "$work/verify.log" ] || { sed 's/^/    /' "$work/verify.log"; return 1; }
}
if command -v systemd-analyze >/dev/null 2>&1; then
    check "systemd-analyze verify idnguard-tap.service: no complaint" verify
else
    fail "systemd-analyze is not installed (make deps-deb)"
fi

# ---- the python module, as the stock daemon's unbound-checkconf runs it ----

# The staged example, its script's path moved into STAGE, included from a
# configuration that runs as this user; the drop-ins' Environment= lines,
# their paths moved into STAGE (the settings) and STOCK (PYTHONPATH).
sed "s,\"/usr/lib/idnguard/,\"$stage/usr/lib/idnguard/," "$doc/unbound-python.conf.example" \
    >"$work/python.conf"
cat >"$work/unbound.conf" <<EOF
server:
    username: ""
    chroot: ""
    directory: "$work"
    pidfile: ""
    use-syslog: no
include: "$work/python.conf"
EOF
set --
for e in $(sed -n 's/^Environment=//p' "$stage"/etc/systemd/system/unbound.service.d/*.conf); do
    case $e in
    PYTHONPATH=*) set -- "$@" "PYTHONPATH=$stock${e#*=}" ;;
    IDNGUARD_CONF=*) set -- "$@" "IDNGUARD_CONF=$stage${e#*=}" ;;
    *) set -- "$@" "$e" ;;
    esac
done
checkconf() { # ENV...
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@" "$stock/usr/sbin/unbound-checkconf" \
        "$work/unbound.conf" >"$work/checkconf.log" 2>&1
}
check "the drop-ins set PYTHONPATH and IDNGUARD_CONF" \
    eval "echo '$*' | grep -q 'PYTHONPATH=.*IDNGUARD_CONF=\\|IDNGUARD_CONF=.*PYTHONPATH='"
if checkconf "$@" && grep -q "idnguard: loaded $stage/$conf " "$work/checkconf.log"; then
    pass "unbound-checkconf loads the staged python module and settings"
else
    fail "unbound-checkconf loads the staged python module and settings"
    tail -n 8 "$work/checkconf.log" | sed 's/^/    /'
fi
no_pythonpath=$(printf '%s\n' "$@" | grep -v '^PYTHONPATH=')
# shellcheck disable=SC2086
if ! checkconf $no_pythonpath && grep -q "No module named 'unboundmodule'" "$work/checkconf.log"; then
    pass "without PYTHONPATH unbound-checkconf fails: No module named 'unboundmodule'"
else
    fail "without PYTHONPATH unbound-checkconf fails: No module named 'unboundmodule'"
fi

# ---- uninstall ----

# An install made before the codec archive was renamed left it as
# lib/libidnguard.a; uninstall removes that too.
: >"$stage/usr/lib/libidnguard.a"
check "make uninstall" run uninstall
check "no file is left" eval '[ -z "$(left)" ] || { left | sed "s/^/    left: /"; false; }'
check "no directory of idnguard's is left" eval '[ -z "$(find "$stage" -name "*idnguard*")" ]'
check "make install-python again" run install-python
echo "# changed by the operator" >>"$stage/$conf"
printf 'idnguard:\n    deny: example.net\n' >"$stage/etc/unbound/idnguard.conf.d/10-site.conf"
check "make uninstall, the settings file changed, a local file added" run uninstall
check "it keeps the changed settings file, and says so" \
    said "uninstall: kept $stage/$conf: it was changed from the shipped one"
check "it keeps the local settings, and says so" \
    said "uninstall: kept $stage/etc/unbound/idnguard.conf.d: it holds local settings"
check "nothing else is left" \
    eval '[ "$(left)" = "$(printf "%s\n" etc/unbound/idnguard.conf etc/unbound/idnguard.conf.d/10-site.conf)" ]'
rm -rf "$stage/etc/unbound/idnguard.conf.d" "$stage/$conf"
check "make uninstall with nothing installed" run uninstall

echo "install: $(($(date +%s) - started)) s"
checks_done
