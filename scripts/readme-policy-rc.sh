#!/bin/sh
# readme-policy-rc.sh: usr/sbin/policy-rc.d of check-readme's Debian roots
# (scripts/readme-test.sh copies it over debroot.sh's).  Like debroot.sh's,
# it denies every start a package's maintainer script asks for (exit 101:
# no daemon runs that the test did not start).  But on a machine with
# systemd, the start of unbound that the unbound package's postinst asks
# for runs unbound.service's ExecStartPre= first, which makes files the
# quickstarts rely on: /var/lib/unbound/root.key, copied from
# dns-root-data's (no network), which unbound-checkconf wants.  Those
# commands (Debian's /usr/libexec/unbound-helper) are run here, as the
# unit runs them, its '-' and '+' prefixes dropped; the daemon is not.
# Called as policy-rc.d [--quiet] SERVICE ACTION [RUNLEVEL] (invoke-rc.d,
# deb-systemd-invoke).
# invoke-rc.d puts the action in parentheses when it cannot tell the
# runlevel, as in a chroot: "unbound (start)".
[ "${1:-}" != --quiet ] || shift
case "${1:-}:$(echo "${2:-}" | tr -d '()')" in
unbound:start | unbound:restart | unbound.service:start | unbound.service:restart)
    for f in /etc/systemd/system/unbound.service /lib/systemd/system/unbound.service; do
        [ -f "$f" ] || continue
        sed -n 's/^ExecStartPre=[-+!@]*//p' "$f" | while read -r cmd; do
            # shellcheck disable=SC2086
            $cmd >/dev/null 2>&1 || true
        done
        break
    done
    ;;
esac
exit 101
