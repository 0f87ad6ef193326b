#!/bin/sh
# readme-systemctl.sh: `systemctl` inside check-readme's Debian roots
# (scripts/readme-test.sh copies it to usr/local/sbin/systemctl of each
# copy; it runs inside the chroot, never on the machine).  A chroot has no
# service manager, so the quickstarts' systemctl commands do by hand what
# systemd would do for the two services they name, on check-readme's
# terms; anything else fails, naming the command, so a quickstart that
# starts asking more of systemctl fails the test instead of passing by.
#
#   daemon-reload                  nothing: the drop-ins are read at each start below
#   start|restart unbound          unbound as unbound.service with its drop-ins
#                                  would run it: the drop-ins' Environment=
#                                  lines, `unbound -d`; the configuration is
#                                  Debian's unbound.conf.d/*.conf as the
#                                  quickstart left it, but for the root's
#                                  trust anchor, and check-readme's loopback
#                                  settings (below)
#   enable --now|start|restart idnguard-tap
#                                  its unit's ExecStart= as its User= and
#                                  Group=, in the RuntimeDirectory= and
#                                  LogsDirectory= systemd would make
# Each daemon is started in the background, its PID in
# /var/lib/quickstart/NAME.pid (scripts/readme-test.sh stops it by that
# PID), its stdout and stderr in /var/lib/quickstart/NAME.out.  The ports
# are in /var/lib/quickstart/env (QS_PORT, the daemon's; QS_NSD_PORT, the
# local NSD it asks for every name).
set -u
q=/var/lib/quickstart
# shellcheck source=/dev/null
. "$q/env"
say() { echo "systemctl (check-readme): $*" >&2; }

# The unit's file, as systemd looks for it.
unit_file() { # NAME
    for d in /etc/systemd/system /usr/local/lib/systemd/system /lib/systemd/system /usr/lib/systemd/system; do
        [ -f "$d/$1.service" ] && { echo "$d/$1.service"; return 0; }
    done
    return 1
}
# The unit and its drop-ins, the unit first.
unit_files() { # NAME
    unit_file "$1" || true
    for d in /usr/lib/systemd/system /lib/systemd/system /usr/local/lib/systemd/system /etc/systemd/system; do
        for f in "$d/$1.service.d"/*.conf; do [ -f "$f" ] && echo "$f"; done
    done
    return 0
}
# KEY's value in the unit and its drop-ins, the last one set.
unit_key() { # NAME KEY
    # shellcheck disable=SC2046
    sed -n "s/^$2=//p" $(unit_files "$1") /dev/null | tail -n 1
}

# Stops NAME's daemon started earlier, by its PID (what restart does first).
stop() { # NAME
    [ -s "$q/$1.pid" ] || return 0
    s_pid=$(cat "$q/$1.pid")
    kill "$s_pid" 2>/dev/null || true
    s_n=0
    while kill -0 "$s_pid" 2>/dev/null && [ "$s_n" -lt 100 ]; do
        sleep 0.1
        s_n=$((s_n + 1))
    done
    kill -KILL "$s_pid" 2>/dev/null || true
    rm -f "$q/$1.pid"
}

# unbound's configuration: the quickstart's files in unbound.conf.d, as
# Debian's unbound.conf includes them, but root-auto-trust-anchor-file.conf
# (Debian's unit fetches the root's key from the Internet before it starts
# the daemon, and the local NSD's root is unsigned), then the daemon on
# the loopback port, NSD the stub of the root (nothing leaves the
# loopback), its log on stderr, no control socket.
unbound_conf() {
    for f in /etc/unbound/unbound.conf.d/*.conf; do
        case $f in */root-auto-trust-anchor-file.conf) continue ;; esac
        [ -f "$f" ] && printf 'include-toplevel: "%s"\n' "$f"
    done
    printf '%s\n' 'server:' '    interface: 127.0.0.1' "    port: $QS_PORT" '    do-ip6: no' \
        '    do-not-query-localhost: no' '    access-control: 127.0.0.0/8 allow' \
        '    username: "unbound"' '    chroot: ""' '    directory: "/etc/unbound"' '    pidfile: ""' \
        '    use-syslog: no' '    logfile: ""' '    verbosity: 1' '    qname-minimisation: no' \
        '    local-zone: "local.test." static' '    local-data: "ready.local.test. A 127.0.0.1"' \
        'remote-control:' '    control-enable: no' \
        'stub-zone:' '    name: "."' "    stub-addr: 127.0.0.1@$QS_NSD_PORT" '    stub-prime: no'
}

# Waits, for 20 s at most, until TEST holds while PID runs; 1 when the
# daemon exited or the time ran out, with the tail of its output.
wait_for() { # NAME PID TEST...
    w_name=$1 w_pid=$2 w_n=0
    shift 2
    while [ "$w_n" -lt 200 ]; do
        "$@" && return 0
        kill -0 "$w_pid" 2>/dev/null || break
        sleep 0.1
        w_n=$((w_n + 1))
    done
    say "$w_name did not come up"
    tail -n 15 "$q/$w_name.out" >&2
    return 1
}
# A UDP socket bound to 127.0.0.1:PORT (/proc/net/udp: address and port
# in hex).
udp_bound() { # PORT
    grep -q " 0100007F:$(printf '%04X' "$1") " /proc/net/udp
}

start_unbound() {
    stop unbound
    unbound_conf >"$q/unbound.conf"
    # The drop-ins' Environment= lines (KEY=VALUE, unquoted, as ours are).
    # shellcheck disable=SC2046
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 \
        $(sed -n 's/^Environment=//p' $(unit_files unbound) /dev/null) \
        /usr/sbin/unbound -d -c "$q/unbound.conf" </dev/null >>"$q/unbound.out" 2>&1 &
    echo $! >"$q/unbound.pid"
    # Debian's unbound.service is Type=notify: systemctl returns once the
    # daemon is up.  Its port bound stands for that (the test then waits
    # for its first answer).
    wait_for unbound $! udp_bound "$QS_PORT"
}

start_tap() {
    stop idnguard-tap
    unit_file idnguard-tap >/dev/null || { say "no unit idnguard-tap.service"; return 1; }
    t_user=$(unit_key idnguard-tap User) t_group=$(unit_key idnguard-tap Group)
    for t_dir in "/run/$(unit_key idnguard-tap RuntimeDirectory):$(unit_key idnguard-tap RuntimeDirectoryMode)" \
        "/var/log/$(unit_key idnguard-tap LogsDirectory):$(unit_key idnguard-tap LogsDirectoryMode)"; do
        case $t_dir in /run/:* | /var/log/:*) continue ;; esac
        mkdir -p "${t_dir%:*}" && chown "$t_user:$t_group" "${t_dir%:*}" &&
            chmod "${t_dir##*:}" "${t_dir%:*}" || return 1
    done
    # setpriv and env exec the tap: the PID is the tap's.
    # shellcheck disable=SC2046
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 \
        setpriv --reuid="$t_user" --regid="$t_group" --init-groups \
        $(unit_key idnguard-tap ExecStart) </dev/null >>"$q/idnguard-tap.out" 2>&1 &
    echo $! >"$q/idnguard-tap.pid"
    # The unit is Type=simple: systemctl returns at once, but the person
    # who types the next command (docs/tap.md's tail of the tap's log)
    # does it long after the tap has made its socket and opened its log.
    # The socket made stands for that.
    t_sock=$(unit_key idnguard-tap ExecStart | sed -n 's/.* -u \([^ ]*\).*/\1/p')
    wait_for idnguard-tap $! test -S "$t_sock"
}

case "$*" in
daemon-reload) ;;
"start unbound" | "restart unbound") start_unbound ;;
"enable --now idnguard-tap" | "start idnguard-tap" | "restart idnguard-tap") start_tap ;;
*)
    say "'systemctl $*' is not one of the commands check-readme stands in for (scripts/readme-systemctl.sh)"
    exit 1
    ;;
esac
