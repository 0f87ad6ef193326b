#!/bin/sh
# deb-install-test.sh ROOT WORKDIR UNBOUND_DEB IDNGUARD_DEB
#
# Installs the packages of `make deb` the way an operator does, with every
# maintainer script really running, in copies of a minimal Debian root
# (`make check-deb-install`, mk/deb.mk).  check-deb only unpacks the
# packages; a conffile prompt, a failing postinst or a purge that breaks
# unbound's AppArmor profile shows only here.  As root.
#
#   ROOT         the cached root, made by scripts/debroot.sh (bookworm,
#                minbase) when missing; the stock unbound's .debs are
#                downloaded into its apt cache once.  Never changed by a
#                test: each scenario runs in a fresh copy (cp -a) in WORKDIR
#   WORKDIR      the copies, the logs of each step (WORKDIR/logs) and the
#                lab directory of NSD (scripts/lab.sh, build/zones)
#   UNBOUND_DEB, IDNGUARD_DEB   the rebuilt unbound and idnguard packages
#
# Every apt-get runs inside the chroot with stdin from /dev/null: a dpkg
# conffile prompt is not debconf, DEBIAN_FRONTEND=noninteractive does not
# answer it, and with no input dpkg fails ("end of file on stdin at
# conffile prompt"), so the step's exit status shows it.  No --force-conf*
# option is given.  usr/sbin/policy-rc.d (debroot.sh) keeps every service
# from starting; the one daemon that runs is started here, in the chroot,
# on a free loopback port, with NSD from the machine (lab.sh, loopback
# only) as its only upstream: nothing leaves the loopback.  Daemons are
# stopped by PID, /proc of each copy is unmounted, whatever happens.
#
# The scenarios:
#   upgrade   Debian's stock unbound, then both packages over it; the
#             tap's unit, tmpfiles.d and logrotate files are there, and
#             the directories the postinst makes, and libidnguard with
#             every library it needs; the tap started by hand
#             as its unit's User= and ExecStart= say; the installed daemon
#             with the module answers a good IDN and refuses a fake one,
#             with the module's log line, and its dnstap reaches the tap,
#             whose log has both lines; purge of idnguard (its logs and
#             directories go), then reinstall; downgrade to the stock
#             unbound (--allow-downgrades: apt removes idnguard, whose
#             dependency is exact); upgrade from stock to ours again
#   clean     both packages into a root without unbound, then purged:
#             nothing named idnguard is left in the root
# Output: one line per check, then "N passed, N failed"; exit 1 on any
# failure.  Time, on a 2-core machine shared with other builds: about 30 s
# once ROOT and its apt cache exist (two copies of ROOT, 175 MB, ~2 s each;
# eight apt steps of 1-5 s; the tap and the daemon up in under a second).  The first
# run adds debootstrap (20 s to 2 minutes, depending on the mirror and the
# machine's load; 100 s here next to an unbound rebuild) and the download
# of the stock packages (a few seconds).
set -u

if [ $# -ne 4 ]; then
    echo "usage: $0 ROOT WORKDIR UNBOUND_DEB IDNGUARD_DEB" >&2
    exit 2
fi
[ "$(id -u)" -eq 0 ] || { echo "$0: chroot, mount and dpkg need root" >&2; exit 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
cache=$1 work=$2 ub_deb=$3 idng_deb=$4
for f in "$ub_deb" "$idng_deb"; do
    [ -f "$f" ] || { echo "$0: no package $f (make deb)" >&2; exit 1; }
done
mkdir -p "$work"
work=$(cd "$work" && pwd)
logs=$work/logs
suite=bookworm
started=$(date +%s)

# NSD, the upstream, and the loopback ports (scripts/lab.sh as a library).
# shellcheck source=scripts/lab.sh
. "$top/scripts/lab.sh"

# ok/FAIL lines, counted (scripts/checks.sh).
# shellcheck source=scripts/checks.sh
. "$top/scripts/checks.sh"

# ---- roots ----

# shellcheck source=scripts/rootcopy.sh
. "$top/scripts/rootcopy.sh"
ub_pid="" tap_pid=""
cleanup() {
    [ -z "$ub_pid" ] || lab_kill "$ub_pid"
    [ -z "$tap_pid" ] || lab_kill "$tap_pid"
    lab_stop nsd 2>/dev/null
    rootcopy_unmount
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# A fresh copy of the cached root as WORKDIR/NAME, /proc mounted (dpkg and
# maintainer scripts read it), the packages in its /tmp/debs.
root_new() { # NAME
    r=$work/$1
    rootcopy_new "$cache" "$r" || exit 1
    mkdir -p "$r/tmp/debs"
    cp "$ub_deb" "$idng_deb" "$r/tmp/debs/"
    chmod 644 "$r"/tmp/debs/*.deb
}

# CMD in the chroot R: a clean environment, stdin from /dev/null, the output
# appended to LOG.
in_root() { # R LOG CMD...
    in_r=$1 in_log=$2
    shift 2
    echo "# $*" >>"$in_log"
    chroot "$in_r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive "$@" </dev/null >>"$in_log" 2>&1
}

# One apt step, logged in WORKDIR/logs/N-NAME.log: passes when apt-get
# exits 0, dpkg asked nothing, and dpkg --audit finds no half-installed or
# unconfigured package.  The log's tail is shown on failure.
step_n=0
apt_step() { # NAME R APT-ARGS...
    step_name=$1 step_r=$2
    shift 2
    step_n=$((step_n + 1))
    step_log=$logs/$step_n-$(echo "$step_name" | tr -c 'a-zA-Z0-9\n' '-').log
    : >"$step_log"
    in_root "$step_r" "$step_log" apt-get -y "$@"
    step_rc=$?
    step_why=""
    [ "$step_rc" = 0 ] || step_why="apt-get exited $step_rc"
    if grep -q -e 'conffile prompt' -e "^Configuration file '" "$step_log"; then
        step_why="${step_why:+$step_why; }dpkg prompted about a configuration file"
    fi
    if ! in_root "$step_r" "$step_log" sh -c '[ -z "$(dpkg --audit)" ]'; then
        step_why="${step_why:+$step_why; }dpkg --audit lists unfinished packages"
    fi
    if [ -z "$step_why" ]; then
        pass "$step_name"
        return 0
    fi
    fail "$step_name: $step_why (log: $step_log)"
    tail -n 15 "$step_log" | sed 's/^/    /'
    return 1
}

# "ii VERSION" for an installed package, else its state.
pkg_state() { # R PKG
    chroot "$1" dpkg-query -W -f='${db:Status-Abbrev}${Version}' "$2" 2>/dev/null | tr -s ' '
}
installed_as() { # R PKG VERSION
    [ "$(pkg_state "$1" "$2")" = "ii $3" ]
}
not_installed() { # R PKG: gone, or only its configuration files left
    case $(pkg_state "$1" "$2") in "" | "un "* | "rc "*) return 0 ;; esac
    return 1
}

# The AppArmor hook: unbound's profile includes local/usr.sbin.unbound
# unconditionally, so the file must exist whatever happened; idnguard's
# block in it must be there exactly once while idnguard is installed.
aa_local=/etc/apparmor.d/local/usr.sbin.unbound
aa_blocks() { # R: how many idnguard blocks, or "none" without the file
    if [ -f "$1$aa_local" ]; then grep -c '^# BEGIN idnguard' "$1$aa_local"; else echo none; fi
}
aa_hook() { # R 1|0
    [ "$(aa_blocks "$1")" = "$2" ]
}

# Unbound's profile as installed in R, with R's local file and idnguard's
# rules, flattened (-p: includes expanded, nothing loaded) by
# apparmor_parser from Debian's apparmor package unpacked in $IDNG_AA_ROOT
# (mk/deb.mk fetches it for check-deb); the check is left out without it.
# The parser reads the machine's abi/, abstractions/ and tunables/ from
# that package, R's files over them.
aa_root=${IDNG_AA_ROOT:-}
aa_flat() { # R
    aa_t=$work/apparmor
    rm -rf "$aa_t" && mkdir -p "$aa_t" &&
        cp -r "$aa_root/etc/apparmor.d/abi" "$aa_root/etc/apparmor.d/abstractions" \
            "$aa_root/etc/apparmor.d/tunables" "$aa_t/" &&
        cp -r "$1/etc/apparmor.d/." "$aa_t/" &&
        "$aa_root/sbin/apparmor_parser" --config-file=/dev/null -p --base="$aa_t" -I "$aa_t" \
            "$aa_t/usr.sbin.unbound" 2>"$logs/apparmor.log"
}
aa_check() { # R with|without
    [ -n "$aa_root" ] || return 0
    if aa_flat "$1" >"$work/apparmor.flat"; then
        # The module's and the tap's socket's rules, both or neither.
        aa_has=$(grep -c -e '^ */usr/lib/idnguard/idnguard.so mr,' -e '^ */run/idnguard/dnstap.sock rw,' \
            "$work/apparmor.flat")
        case $aa_has in 2) aa_has=with ;; 0) aa_has=without ;; *) aa_has="only some of" ;; esac
        if [ "$aa_has" = "$2" ]; then
            pass "unbound's AppArmor profile compiles, $2 the module's rules (dnstap's socket too)"
            return 0
        fi
        fail "unbound's AppArmor profile compiles, $2 the module's rules: it is $aa_has them"
    else
        fail "unbound's AppArmor profile compiles, $2 the module's rules (log: $logs/apparmor.log)"
    fi
    return 1
}

# ---- the tap's files ----

# The tap's unit as installed in R, and one key of it.
tap_unit=/lib/systemd/system/idnguard-tap.service
unit_key() { # R KEY
    sed -n "s/^$2=//p" "$1$tap_unit"
}
# The value of OPTION on the unit's ExecStart line.
tap_opt() { # R OPTION
    unit_key "$1" ExecStart | sed -n "s/.* $2 \([^ ]*\).*/\1/p"
}

# The tap's unit, tmpfiles.d and logrotate files; the directories of
# tmpfiles.d/idnguard.conf (read from the installed file) and
# /var/log/unbound, with the owner and mode the postinst gave them.
files_check() { # R
    f_r=$1
    check "the tap's unit, tmpfiles.d and logrotate files are installed" eval \
        "[ -s '$f_r$tap_unit' ] && [ -s '$f_r/usr/lib/tmpfiles.d/idnguard.conf' ] &&
            [ -s '$f_r/etc/logrotate.d/idnguard' ]"
    check "libidnguard.so.0 is installed, every library it needs found in the root" eval \
        "[ -s '$f_r/usr/lib/idnguard/libidnguard.so.0' ] &&
            chroot '$f_r' ldd /usr/lib/idnguard/libidnguard.so.0 >'$work/ldd.log' 2>&1 &&
            ! grep -q 'not found' '$work/ldd.log'"
    check "the directory for local settings is there, empty" eval \
        "[ -d '$f_r/etc/unbound/idnguard.conf.d' ] && [ -z \"\$(ls -A '$f_r/etc/unbound/idnguard.conf.d')\" ]"
    f_log=$(tap_opt "$f_r" -w)
    check "logrotate's file rotates the module's log and the tap's ($f_log)" \
        grep -q "^/var/log/unbound/idnguard.log $f_log {\$" "$f_r/etc/logrotate.d/idnguard"
    { awk '$1 == "d" { print $2, $3, $4, $5 }' "$f_r/usr/lib/tmpfiles.d/idnguard.conf"
        echo "/var/log/unbound 0755 unbound unbound"; } >"$work/dirs"
    while read -r f_path f_mode f_owner f_group; do
        check "the postinst made $f_path ($f_mode $f_owner:$f_group)" eval \
            "[ \"\$(chroot '$f_r' stat -c '%a %U %G' '$f_path' 2>&1)\" = '${f_mode#0} $f_owner $f_group' ]"
    done <"$work/dirs"
}

# ---- the tap and the daemon ----

# The tap as its unit runs it, by hand (no systemd in the root): the
# unit's ExecStart= in the root, as its User= and Group= (their ids looked
# up in the root), until the socket it names is there.  Its stdout and
# stderr are WORKDIR/tap.out.
tap_start() { # R
    t_r=$1
    t_sock=$(tap_opt "$t_r" -u)
    t_ids=$(chroot "$t_r" sh -c 'echo "$(id -u "$1"):$(getent group "$2" | cut -d: -f3)"' tap \
        "$(unit_key "$t_r" User)" "$(unit_key "$t_r" Group)")
    # env, chroot and idnguard exec each other: the PID is the tap's.
    # shellcheck disable=SC2046
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 chroot --userspec="$t_ids" "$t_r" \
        $(unit_key "$t_r" ExecStart) </dev/null >"$work/tap.out" 2>&1 &
    tap_pid=$!
    t_n=0
    while [ ! -S "$t_r$t_sock" ] && lab_alive "$tap_pid" && [ "$t_n" -lt 100 ]; do
        sleep 0.1
        t_n=$((t_n + 1))
    done
    if [ -S "$t_r$t_sock" ]; then
        pass "the tap listens on $t_sock as $(unit_key "$t_r" User), as its unit runs it"
        return 0
    fi
    fail "the tap listens on $t_sock as $(unit_key "$t_r" User), as its unit runs it"
    tail -n 15 "$work/tap.out" | sed 's/^/    /'
    lab_kill "$tap_pid"
    tap_pid=""
    return 1
}

# Both queries' lines in the tap's log, polled for up to 10 s (the tap
# writes a line when the response comes, and flushes within 250 ms).
tap_lines() { # LOG
    lab_wait_lines "$1" 'xn--bcher-kva\.example\. (bücher\.example\.) A IN NOERROR ok pass -' \
        'xn--ab-m1t\.evil\. A IN REFUSED [a-z-]*:xn--ab-m1t refuse -'
}

# Unbound as docs/unbound.md tells an operator: the example that loads the
# module copied into unbound.conf.d, `idnguard check-conf`, the shipped
# /etc/unbound/idnguard.conf (log lines in unbound's log), and dnstap to
# the tap's socket as docs/tap.md shows it.  The rest of the configuration
# keeps it on the loopback with NSD as its only upstream, and logs to
# stderr, which is WORKDIR/unbound.out.
daemon_check() { # R
    d_r=$1 d_log=$logs/daemon.log
    : >"$d_log"
    tap_start "$d_r"
    check "the shipped example is copied into unbound.conf.d" in_root "$d_r" "$d_log" cp \
        /usr/share/doc/idnguard/examples/unbound.conf.example /etc/unbound/unbound.conf.d/idnguard.conf
    check "idnguard check-conf passes on the shipped settings" in_root "$d_r" "$d_log" idnguard check-conf
    cat >"$d_r/etc/unbound/install-test.conf" <<EOF
# Written by scripts/deb-install-test.sh: the loopback, NSD upstream.
server:
    interface: 127.0.0.1
    port: $LAB_PORT
    do-ip6: no
    do-not-query-localhost: no
    access-control: 127.0.0.0/8 allow
    username: "unbound"
    chroot: ""
    directory: "/etc/unbound"
    pidfile: ""
    use-syslog: no
    logfile: ""
    verbosity: 1
    qname-minimisation: no
    local-zone: "local.test." static
    local-data: "ready.local.test. A 127.0.0.1"
include: "/etc/unbound/unbound.conf.d/idnguard.conf"
dnstap:
    dnstap-enable: yes
    dnstap-bidirectional: yes
    dnstap-socket-path: "$(tap_opt "$d_r" -u)"
    dnstap-log-client-query-messages: yes
    dnstap-log-client-response-messages: yes
remote-control:
    control-enable: no
stub-zone:
    name: "."
    stub-addr: 127.0.0.1@$LAB_NSD_PORT
    stub-prime: no
EOF
    check "unbound-checkconf accepts the configuration" in_root "$d_r" "$d_log" \
        unbound-checkconf /etc/unbound/install-test.conf
    # env, chroot and unbound exec each other: the PID is the daemon's.
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 chroot "$d_r" \
        /usr/sbin/unbound -d -c /etc/unbound/install-test.conf </dev/null >"$work/unbound.out" 2>&1 &
    ub_pid=$!
    LAB_START_SECONDS=20
    if ! lab_wait "$ub_pid" "$LAB_PORT" ready.local.test./A; then
        fail "the installed unbound starts with the module (port $LAB_PORT)"
        tail -n 15 "$work/unbound.out" | sed 's/^/    /'
        lab_kill "$ub_pid"
        ub_pid=""
        return 1
    fi
    pass "the installed unbound starts with the module (port $LAB_PORT)"
    good=$(drill -p "$LAB_PORT" @127.0.0.1 xn--bcher-kva.example. A 2>&1)
    case $good in
    *"rcode: NOERROR"*192.0.2.2*) pass "a good IDN (xn--bcher-kva.example.) is answered" ;;
    *) fail "a good IDN (xn--bcher-kva.example.) is answered"; echo "$good" | sed 's/^/    /' ;;
    esac
    fake=$(drill -p "$LAB_PORT" @127.0.0.1 xn--ab-m1t.evil. A 2>&1)
    case $fake in
    *"rcode: REFUSED"*) pass "a fake A-label (xn--ab-m1t.evil.) is REFUSED" ;;
    *) fail "a fake A-label (xn--ab-m1t.evil.) is REFUSED"; echo "$fake" | sed 's/^/    /' ;;
    esac
    if [ -n "$tap_pid" ]; then
        check "unbound's dnstap reaches the tap: both lines in $(tap_opt "$d_r" -w)" \
            tap_lines "$d_r$(tap_opt "$d_r" -w)"
    fi
    lab_kill "$ub_pid"
    ub_pid=""
    check "the module logged the refusal" \
        grep -q 'idnguard: .*xn--ab-m1t\.evil\. A IN REFUSED' "$work/unbound.out"
    if [ -n "$tap_pid" ]; then
        lab_kill "$tap_pid"
        tap_pid=""
        check "the tap stops at SIGTERM with status 0 and its summary line" \
            eval "[ '$lab_status' = 0 ] && grep -q '^idnguard tap: frames=[1-9]' '$work/tap.out'"
    fi
}

# ---- set-up ----

rm -rf "$logs" "$work/lab"
mkdir -p "$logs" "$work/lab"
if ! sh "$top/scripts/debroot.sh" "$suite" "$cache" 2>"$logs/debroot.log"; then
    tail -n 15 "$logs/debroot.log" >&2
    echo "$0: could not make the $suite root $cache" >&2
    exit 1
fi
# The stock unbound and what it depends on, fetched once into the cached
# root's apt cache: the copies install them without the mirror.
if ! ls "$cache"/var/cache/apt/archives/unbound_*.deb >/dev/null 2>&1; then
    in_root "$cache" "$logs/download.log" sh -c 'apt-get -qq update && apt-get install -y -q --download-only unbound' ||
        { tail -n 15 "$logs/download.log" >&2; echo "$0: could not download Debian's unbound" >&2; exit 1; }
fi
# The newest, should a later download have added one.
stock_deb=$(ls "$cache"/var/cache/apt/archives/unbound_*.deb | sort -V | tail -n 1)
stock_version=$(dpkg-deb -f "$stock_deb" Version)
ours_version=$(dpkg-deb -f "$ub_deb" Version)
idng_version=$(dpkg-deb -f "$idng_deb" Version)
echo "deb-install: $suite root $cache; stock unbound $stock_version, ours $ours_version, idnguard $idng_version"

LAB_ONLY=nsd
if ! lab_start "$work/lab" >"$logs/lab.log" 2>&1; then
    cat "$logs/lab.log" >&2
    echo "$0: NSD did not start" >&2
    exit 1
fi

# ---- upgrade: stock unbound, then ours ----

root_new upgrade
r=$work/upgrade
apt_step "stock unbound installs" "$r" install unbound
check "stock unbound $stock_version is installed" installed_as "$r" unbound "$stock_version"
check "unbound's postinst made the empty local AppArmor file" aa_hook "$r" 0
apt_step "our unbound and idnguard install over the stock unbound" "$r" install \
    "/tmp/debs/${ub_deb##*/}" "/tmp/debs/${idng_deb##*/}"
check "unbound $ours_version is installed" installed_as "$r" unbound "$ours_version"
check "idnguard $idng_version is installed" installed_as "$r" idnguard "$idng_version"
check "the local AppArmor file holds idnguard's include once" aa_hook "$r" 1
aa_check "$r" with
files_check "$r"
daemon_check "$r"
apt_step "apt-get purge idnguard" "$r" purge idnguard
check "idnguard is purged, its settings file with it" \
    eval "not_installed '$r' idnguard && [ ! -e '$r/etc/unbound/idnguard.conf' ]"
check "the purge took the tap's directories and the empty /var/log/unbound" \
    eval "[ ! -e '$r/var/log/idnguard' ] && [ ! -e '$r/run/idnguard' ] && [ ! -e '$r/var/log/unbound' ]"
check "the local AppArmor file stays, without idnguard's block" aa_hook "$r" 0
aa_check "$r" without
apt_step "idnguard reinstalls after the purge" "$r" install "/tmp/debs/${idng_deb##*/}"
check "idnguard is installed again, its block once" \
    eval "installed_as '$r' idnguard '$idng_version' && aa_hook '$r' 1"
apt_step "downgrade to the stock unbound $stock_version" "$r" install --allow-downgrades \
    "unbound=$stock_version"
check "the stock unbound is back" installed_as "$r" unbound "$stock_version"
check "apt removed idnguard (it needs our unbound exactly)" not_installed "$r" idnguard
check "the local AppArmor file stays, without idnguard's block" aa_hook "$r" 0
aa_check "$r" without
apt_step "upgrade from the stock unbound to ours again" "$r" install \
    "/tmp/debs/${ub_deb##*/}" "/tmp/debs/${idng_deb##*/}"
check "ours again, idnguard's block once" \
    eval "installed_as '$r' unbound '$ours_version' && installed_as '$r' idnguard '$idng_version' && aa_hook '$r' 1"

# ---- clean: no unbound before ----

root_new clean
r=$work/clean
apt_step "our unbound and idnguard install into a root without unbound" "$r" install \
    "/tmp/debs/${ub_deb##*/}" "/tmp/debs/${idng_deb##*/}"
check "both are installed, idnguard's block once" \
    eval "installed_as '$r' unbound '$ours_version' && installed_as '$r' idnguard '$idng_version' && aa_hook '$r' 1"
apt_step "apt-get purge unbound idnguard" "$r" purge unbound idnguard
check "both are purged" eval "not_installed '$r' unbound && not_installed '$r' idnguard"
check "nothing named idnguard is left in the root" \
    eval "[ -z \"\$(find '$r' -path '$r/proc' -prune -o -path '$r/tmp' -prune -o -name '*idnguard*' -print)\" ]"

cleanup
for n in upgrade clean; do rootcopy_remove "${work:?}/$n" || exit 1; done
echo "deb-install: $(($(date +%s) - started)) s"
checks_done
