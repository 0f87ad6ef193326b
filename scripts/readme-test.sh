#!/bin/sh
# readme-test.sh ROOT WORKDIR UNBOUND_DEB IDNGUARD_DEB
#
# README.md's quickstarts, run as written, each in a fresh copy of a Debian
# 12 root, with the outcome each promises checked (`make check-readme`,
# mk/readme.mk).  As root; everything a quickstart says runs inside the
# copy through chroot, never on the machine.
#
#   ROOT         the cached minbase root of check-deb-install, made by
#                scripts/debroot.sh when missing; never changed: each path
#                runs in a copy (cp -a) in WORKDIR
#   WORKDIR      the copies, the logs (WORKDIR/logs), NSD's lab directory,
#                and WORKDIR/debs: the .debs the quickstarts' apt-get
#                downloaded from the machine's mirror, kept and copied
#                into each new copy, so that later runs fetch nothing
#   UNBOUND_DEB, IDNGUARD_DEB   what `make deb` made, in place of running
#                it inside the root (below)
#   README       (environment) the README to read, README.md by default
#
# The commands are the fenced blocks marked `<!-- quickstart: NAME -->` in
# README.md (and in docs/tap.md, which the tap quickstart sends the
# operator to), taken by scripts/quickstart-blocks.sh: a marker that is
# missing, or a `### Quickstart` heading without one, fails the test.
# Each block runs as root in a copy of the repository's committed files
# (`git archive HEAD`, as a clone would have them) at /root/idnguard, one
# command after another; the first that fails ends the path, and the test
# names the path, the command and its log.
#
# What runs instead of a quickstart's command, all of it (a command not
# listed runs as written):
#   systemctl ...  usr/local/sbin/systemctl of the copy is
#                  scripts/readme-systemctl.sh: a chroot has no systemd.
#                  It starts unbound and idnguard-tap by hand as their
#                  units and drop-ins say, on a free loopback port, with
#                  the local NSD as the root's stub (nothing leaves the
#                  machine), and fails on any other systemctl command
#   make deb       the packages given as UNBOUND_DEB and IDNGUARD_DEB are
#                  copied to build/deb/ instead, once make is found
#                  installed: `make deb` rebuilds Debian's unbound from
#                  source (ten minutes and its build dependencies), and
#                  mk/deb.mk's own checks run it
#   tail -f FILE   tail -n 20 FILE: it would never return
# and what differs from a fresh machine: the copy's package lists are
# touched (the cached root's are older than the hour after which
# scripts/deps.sh would ask the mirror again), apt's debconf questions get
# their defaults (DEBIAN_FRONTEND=noninteractive, stdin /dev/null), apt
# installs recommended packages as it does by default (debroot.sh's roots
# do not), and policy-rc.d keeps the packages' scripts from starting services, but runs
# the steps unbound.service takes before its daemon when unbound's postinst
# asks for its start (scripts/readme-policy-rc.sh: the root's trust anchor
# from dns-root-data).
#
# What is checked after each path: the resolver the quickstart set up
# answers a good IDN (xn--bcher-kva.example.) on the loopback, refuses the
# fake A-label README's `make run` shows (xn--ab-m1t.example., with EDE 15
# when asked with EDNS), and its log has both lines as README shows them
# (but the client's port and the time); the tap path (docs/tap.md's block
# in the root of the Debian packages): the tap's log has both names.
# Queries are drill's, from the machine, to 127.0.0.1 only.
#
# Output: one line per check, then "N passed, N failed"; exit 1 on any
# failure.  Time: see docs/tests.md.
set -u

if [ $# -ne 4 ]; then
    echo "usage: $0 ROOT WORKDIR UNBOUND_DEB IDNGUARD_DEB" >&2
    exit 2
fi
[ "$(id -u)" -eq 0 ] || { echo "$0: chroot and mount need root" >&2; exit 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
cache=$1 work=$2 ub_deb=$3 idng_deb=$4
readme=${README:-$top/README.md}
for f in "$ub_deb" "$idng_deb"; do
    [ -f "$f" ] || { echo "$0: no package $f (make deb)" >&2; exit 1; }
done
mkdir -p "$work"
work=$(cd "$work" && pwd)
logs=$work/logs
started=$(date +%s)

# shellcheck source=scripts/lab.sh
. "$top/scripts/lab.sh"
# shellcheck source=scripts/checks.sh
. "$top/scripts/checks.sh"

# ---- the copies ----

# shellcheck source=scripts/rootcopy.sh
. "$top/scripts/rootcopy.sh"
roots=""
# Every daemon the copies' systemctl started, by its PID file; their
# output moves to WORKDIR/logs/LABEL-NAME.out.
stop_daemons() { # R [LABEL]
    for s_pid in "$1"/var/lib/quickstart/*.pid; do
        [ -s "$s_pid" ] || continue
        lab_kill "$(cat "$s_pid")"
        rm -f "$s_pid"
    done
    [ -n "${2:-}" ] || return 0
    for s_out in "$1"/var/lib/quickstart/*.out; do
        [ -f "$s_out" ] || continue
        s_base=${s_out##*/}
        mv "$s_out" "$logs/$2-$s_base"
    done
}
cleanup() {
    for c_r in $roots; do stop_daemons "$c_r"; done
    lab_stop nsd 2>/dev/null
    rootcopy_unmount
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# A fresh copy of the cached root as WORKDIR/NAME: /proc mounted, the
# .debs fetched by earlier runs in apt's cache, the committed tree in
# /root/idnguard, systemctl's stand-in and its ports.
root_new() { # NAME
    r=$work/$1
    rootcopy_new "$cache" "$r" || exit 1
    roots="$roots $r"
    find "$work/debs" -name '*.deb' -exec cp {} "$r/var/cache/apt/archives/" \;
    find "$r/var/lib/apt/lists" -maxdepth 1 -name '*_Packages' -exec touch {} +
    # The mirror's name, should apt need the mirror (the first run).
    cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
    mkdir -p "$r/root/idnguard" "$r/var/lib/quickstart/debs"
    # The clone: the committed files; a tree without git (a release
    # tarball's) as it is, without its build/.
    if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
        git -C "$top" archive HEAD | tar -xf - -C "$r/root/idnguard"
    else
        tar -cf - -C "$top" --exclude=./build . | tar -xf - -C "$r/root/idnguard"
    fi
    install -m 755 "$top/scripts/readme-systemctl.sh" "$r/usr/local/sbin/systemctl"
    install -m 755 "$top/scripts/readme-policy-rc.sh" "$r/usr/sbin/policy-rc.d"
    # apt's default, which debroot.sh turns off for its minimal roots: the
    # quickstarts' apt-get installs what a fresh machine's would (unbound's
    # dns-root-data among them).
    printf 'APT::Install-Recommends "true";\n' >"$r/etc/apt/apt.conf.d/99readme"
    printf 'QS_PORT=%s\nQS_NSD_PORT=%s\n' "$LAB_PORT" "$LAB_NSD_PORT" >"$r/var/lib/quickstart/env"
    cp "$ub_deb" "$idng_deb" "$r/var/lib/quickstart/debs/"
}

# What apt downloaded in R, kept for the next runs.
keep_debs() { # R
    find "$1/var/cache/apt/archives" -maxdepth 1 -name '*.deb' -exec cp -n {} "$work/debs/" \;
}

# ---- the blocks ----

# Block NAME of FILE as a script for the copy: each command (a line, a
# line continued with \, or a here-document up to its delimiter) after
# the replacements above, followed by a test of its status that records
# its number and ends the script.  The commands' text, one record per
# command separated by a line "%%", goes to CMDS.
block_script() { # FILE NAME CMDS [HEADINGS]
    sh "$top/scripts/quickstart-blocks.sh" "$1" "$2" ${4:+"$4"} >"$work/$2.block" || return 1
    awk -v name="$2" -v cmds="$3" '
        function q(s) { gsub(/\047/, "\047\\\047\047", s); return "\047" s "\047" }
        # The replacements (see the head of this script).
        function replace(c,   bare) {
            bare = c; sub(/[ \t]+#.*$/, "", bare)
            if (bare == "make deb")
                return "command -v make >/dev/null && mkdir -p build/deb && cp /var/lib/quickstart/debs/*.deb build/deb/"
            if (bare ~ /^tail -f /) { sub(/^tail -f /, "tail -n 20 ", bare); return bare }
            return c
        }
        function flush() {
            if (cmd == "") return
            n++
            print "%%\n" cmd > cmds
            print "printf \"\\n$ %s\\n\" " q(first)
            print (multi ? cmd : replace(cmd))
            print "qs_rc=$?; if [ \"$qs_rc\" != 0 ]; then echo \"" n " $qs_rc\" >/var/lib/quickstart/" name ".failed; exit 1; fi"
            cmd = ""; multi = 0; delim = ""
        }
        BEGIN { print "cd /root/idnguard || exit 1"; printf "" > cmds }
        {
            if (delim != "") {
                cmd = cmd "\n" $0
                if ($0 == delim) flush()
                next
            }
            if (cmd == "" && ($0 ~ /^[ \t]*$/ || $0 ~ /^[ \t]*#/)) next
            if (cmd == "") first = $0
            else { cmd = cmd "\n"; multi = 1 }
            cmd = cmd $0
            if ($0 ~ /\\$/) next
            if (match($0, /<<-?[ \t]*[\047"]?[A-Za-z_0-9]+/)) {
                delim = substr($0, RSTART, RLENGTH); sub(/^<<-?[ \t]*[\047"]?/, "", delim)
                multi = 1
                next
            }
            flush()
        }
        END { flush(); print "echo \"" n " 0\" >/var/lib/quickstart/" name ".done" }
    ' "$work/$2.block"
}

# Runs block NAME of FILE in R as root in a clean environment; passes when
# every command exits 0, else names the command that failed.
run_block() { # LABEL R FILE NAME [HEADINGS]
    b_label=$1 b_r=$2 b_file=$3 b_name=$4
    b_log=$logs/$b_name.log
    if ! block_script "$b_file" "$b_name" "$work/$b_name.cmds" ${5:+"$5"} \
        >"$b_r/var/lib/quickstart/$b_name.sh"; then
        fail "$b_label: ${b_file##*/}'s quickstart block \"$b_name\" is missing (above)"
        return 1
    fi
    chroot "$b_r" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
        sh "/var/lib/quickstart/$b_name.sh" </dev/null >"$b_log" 2>&1
    if [ -f "$b_r/var/lib/quickstart/$b_name.done" ]; then
        pass "$b_label: the $(cut -d' ' -f1 "$b_r/var/lib/quickstart/$b_name.done") commands of ${b_file##*/}'s \"$b_name\" block run as written"
        return 0
    fi
    if [ -f "$b_r/var/lib/quickstart/$b_name.failed" ]; then
        read -r b_n b_rc <"$b_r/var/lib/quickstart/$b_name.failed"
        b_cmd=$(awk -v n="$b_n" '/^%%$/ { i++; next } i == n' "$work/$b_name.cmds")
        fail "$b_label: ${b_file##*/}'s \"$b_name\" block, command $b_n exited $b_rc: $b_cmd (log: $b_log)"
    else
        fail "$b_label: ${b_file##*/}'s \"$b_name\" block did not finish (log: $b_log)"
    fi
    tail -n 15 "$b_log" | sed 's/^/    /'
    return 1
}

# ---- what the quickstarts promise ----

# The log lines README's `make run` shows for the good IDN and the fake
# A-label, without the client's port and the time.
readme_line() { # NAME-PATTERN
    grep -m 1 "idnguard: 127\\.0\\.0\\.1#[0-9]* $1" "$readme" |
        sed 's/.*idnguard: 127\.0\.0\.1#[0-9]* //; s/ ms=[0-9.]*$//'
}
good_line=$(readme_line 'xn--bcher-kva\.example\. .* resolved ')
fake_line=$(readme_line 'xn--ab-m1t\.example\. ')

# The daemon systemctl started in R answers on the loopback: the good IDN
# answered, the fake A-label refused with EDE 15, both lines in its log.
# With "python", the lines have no proto= (docs/unbound.md: the transport
# is not in the python API; README: "when known").
resolver_check() { # LABEL R [python]
    c_label=$1 c_r=$2 c_out=$2/var/lib/quickstart/unbound.out c_flavour=${3:-}
    c_pid=$(cat "$c_r/var/lib/quickstart/unbound.pid" 2>/dev/null)
    LAB_START_SECONDS=20
    if ! lab_wait "$c_pid" "$LAB_PORT" ready.local.test./A; then
        fail "$c_label: the unbound the quickstart started answers on 127.0.0.1 port $LAB_PORT"
        tail -n 15 "$c_out" 2>/dev/null | sed 's/^/    /'
        return 1
    fi
    pass "$c_label: the unbound the quickstart started answers on 127.0.0.1 port $LAB_PORT"
    c_ans=$(drill -p "$LAB_PORT" @127.0.0.1 xn--bcher-kva.example A 2>&1)
    case $c_ans in
    *"rcode: NOERROR"*192.0.2.2*) pass "$c_label: a good IDN (xn--bcher-kva.example) is answered" ;;
    *) fail "$c_label: a good IDN (xn--bcher-kva.example) is answered"; echo "$c_ans" | sed 's/^/    /' ;;
    esac
    c_ans=$(drill -D -p "$LAB_PORT" @127.0.0.1 xn--ab-m1t.example A 2>&1)
    case $c_ans in
    *"rcode: REFUSED"*"EDE: 15"*) pass "$c_label: the fake A-label (xn--ab-m1t.example) is REFUSED with EDE 15" ;;
    *) fail "$c_label: the fake A-label (xn--ab-m1t.example) is REFUSED with EDE 15"; echo "$c_ans" | sed 's/^/    /' ;;
    esac
    for c_line in "$good_line" "$fake_line"; do
        [ "$c_flavour" != python ] || c_line=$(echo "$c_line" | sed 's/ proto=[a-z]*//')
        if [ -z "$c_line" ]; then
            fail "$c_label: README.md shows no log line of xn--bcher-kva.example. and xn--ab-m1t.example. to compare with"
        elif grep -qF " $c_line ms=" "$c_out"; then
            pass "$c_label: the log line as README shows it: $c_line"
        else
            fail "$c_label: the log line as README shows it: $c_line"
            grep 'idnguard: ' "$c_out" | tail -n 5 | sed 's/^/    /'
        fi
    done
}

# Both names in the tap's log (lab.sh polls for them).
tap_lines() { # LOG
    lab_wait_lines "$1" 'xn--bcher-kva\.example\. (bücher\.example\.) A IN NOERROR ok pass' \
        'xn--ab-m1t\.example\. A IN REFUSED [a-z-]*:xn--ab-m1t refuse'
}

# ---- set-up ----

rm -rf "$logs" "$work/lab"
mkdir -p "$logs" "$work/lab" "$work/debs"
if ! sh "$top/scripts/debroot.sh" bookworm "$cache" 2>"$logs/debroot.log"; then
    tail -n 15 "$logs/debroot.log" >&2
    echo "$0: could not make the bookworm root $cache" >&2
    exit 1
fi
LAB_ONLY=nsd
if ! lab_start "$work/lab" >"$logs/lab.log" 2>&1; then
    cat "$logs/lab.log" >&2
    echo "$0: NSD did not start" >&2
    exit 1
fi
echo "readme: ${readme#"$top"/}'s quickstarts in copies of $cache; NSD on port $LAB_NSD_PORT"

# ---- Debian's stock unbound, the python module ----

root_new python
if run_block python "$r" "$readme" python 3; then
    resolver_check python "$r" python
fi
keep_debs "$r"
stop_daemons "$r" python

# ---- the Debian packages, then the tap of docs/tap.md ----

root_new deb
if run_block deb "$r" "$readme" deb 3; then
    resolver_check deb "$r"
    stop_daemons "$r" deb
    # README's tap quickstart sends the operator to docs/tap.md's block,
    # which starts with the same systemctl command.
    if run_block tap "$r" "$readme" tap 3 && run_block tap "$r" "$top/docs/tap.md" tap-service; then
        resolver_check tap "$r"
        t_log=$(sed -n 's/^tail -f \([^ ]*\).*/\1/p' "$work/tap-service.block")
        check "tap: the tap's log $t_log has both names" tap_lines "$r$t_log"
    fi
    stop_daemons "$r" tap
fi
keep_debs "$r"

cleanup
for n in python deb; do rootcopy_remove "${work:?}/$n" || exit 1; done
echo "readme: $(($(date +%s) - started)) s"
checks_done
