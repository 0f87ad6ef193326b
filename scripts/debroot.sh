#!/bin/sh
# debroot.sh SUITE DIR [PACKAGE...]
#
# A Debian root for tests that must run real maintainer scripts (dpkg and
# apt inside a chroot), without touching the machine's own packages.  As
# root:
#   - when DIR is missing: `debootstrap --variant=minbase SUITE` into it,
#     from the mirror the machine's own apt sources name (read at run time
#     from /etc/apt/sources.list.d/*.sources and /etc/apt/sources.list; no
#     mirror is written down here, whatever the machine uses is used).  It
#     is built in DIR.new and renamed, so a failed run leaves no half root
#     that a later run would take for a finished one;
#   - DIR/usr/sbin/policy-rc.d exits 101: no maintainer script starts or
#     restarts a service inside the root (invoke-rc.d and deb-systemd-invoke
#     ask it first), so nothing runs that the test did not start itself;
#   - DIR's apt sources are the machine's, each suite renamed from the
#     machine's release to SUITE (bookworm-security becomes
#     trixie-security for SUITE=trixie), so apt inside reaches the same
#     mirror; recommends are not installed (the root stays minimal) and the
#     package lists and downloaded .debs are kept, so a copy of DIR installs
#     what was fetched once without asking the mirror again;
#   - the PACKAGEs that are not installed yet are installed with
#     `apt-get install -y` inside the chroot (after `apt-get update`), with
#     /proc mounted for the time of it, and always unmounted.
# DIR already there and every PACKAGE installed: nothing is done, nothing
# is fetched.  DEBROOT_MIRROR=URI overrides the mirror debootstrap uses.
# Output: debootstrap's and apt's, on stderr.  Exit status: 0 when DIR is
# ready.  Used by mk/deb.mk (scripts/deb-install-test.sh, bookworm) and for
# other suites' roots; nothing in it is specific to one suite or package.
set -eu

if [ $# -lt 2 ]; then
    echo "usage: $0 SUITE DIR [PACKAGE...]" >&2
    exit 2
fi
suite=$1 dir=$2
shift 2
if [ "$(id -u)" -ne 0 ]; then
    echo "$0: debootstrap and chroot need root" >&2
    exit 1
fi
say() { printf 'debroot: %s\n' "$*" >&2; }

# The release the machine's sources name (bookworm on a Debian 12 host),
# the suite renamed to SUITE in the root's copy of them.
host_suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$host_suite" ] || { say "no VERSION_CODENAME in /etc/os-release"; exit 1; }

# The sources files, deb822 first, then one-line ones.
sources() {
    for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] && echo "$f"
    done
    return 0
}

# The URI of the machine's main archive: the first "deb" entry whose suites
# include the bare release name (not -updates, not -security).
host_mirror() {
    for f in $(sources); do
        case $f in
        *.sources)
            # Paragraph mode: one stanza per record.
            awk -v s="$host_suite" 'BEGIN { RS = "" }
                {
                    n = split($0, l, "\n"); deb = 0; uri = ""; has = 0
                    for (i = 1; i <= n; i++) {
                        if (l[i] ~ /^Types:/ && l[i] ~ /[: ]deb( |$)/) deb = 1
                        if (l[i] ~ /^URIs:/) { split(l[i], u, " "); uri = u[2] }
                        if (l[i] ~ /^Suites:/) {
                            m = split(l[i], w, " ")
                            for (j = 2; j <= m; j++) if (w[j] == s) has = 1
                        }
                    }
                    if (deb && has && uri != "") { print uri; exit }
                }' "$f"
            ;;
        *)
            # deb [options] URI SUITE COMPONENT...
            awk -v s="$host_suite" '$1 == "deb" {
                    i = 2
                    if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
                    if ($(i + 1) == s) { print $i; exit }
                }' "$f"
            ;;
        esac
    done | head -n 1
}

if [ ! -d "$dir" ]; then
    mirror=${DEBROOT_MIRROR:-$(host_mirror)}
    [ -n "$mirror" ] || { say "no 'deb' source for $host_suite in /etc/apt to take the mirror from"; exit 1; }
    command -v debootstrap >/dev/null 2>&1 || [ -x /usr/sbin/debootstrap ] ||
        { say "debootstrap is not installed (make deps-deb)"; exit 1; }
    say "debootstrap --variant=minbase $suite into $dir"
    rm -rf "$dir.new"
    mkdir -p "$(dirname "$dir")"
    PATH=/usr/sbin:/usr/bin:/sbin:/bin debootstrap --variant=minbase "$suite" "$dir.new" "$mirror" >&2
    # The base system's own .debs are installed already: not kept, so that
    # copies of the root stay small.
    rm -f "$dir.new"/var/cache/apt/archives/*.deb
    # No service of the root's packages is ever started by their scripts.
    printf '#!/bin/sh\n# debroot.sh: no service starts inside this root.\nexit 101\n' \
        >"$dir.new/usr/sbin/policy-rc.d"
    chmod 755 "$dir.new/usr/sbin/policy-rc.d"
    # The machine's sources, suite names moved to SUITE; the keyrings they
    # name are copied when the root lacks them.
    rm -f "$dir.new/etc/apt/sources.list"
    n=0
    for f in $(sources); do
        case $f in
        *.sources)
            sed -e "/^Suites:/s/\\b$host_suite\\b/$suite/g" "$f" \
                >"$dir.new/etc/apt/sources.list.d/debroot$n.sources"
            ;;
        *)
            sed -n -e "s/^\([[:space:]]*deb[[:space:]].*[[:space:]]\)$host_suite\\b/\1$suite/p" \
                "$f" >"$dir.new/etc/apt/sources.list.d/debroot$n.list"
            ;;
        esac
        for k in $(sed -n 's/^Signed-By:[[:space:]]*//p; s/.*signed-by=\([^] ]*\).*/\1/p' "$f"); do
            [ -f "$k" ] && [ ! -e "$dir.new$k" ] && { mkdir -p "$dir.new${k%/*}"; cp "$k" "$dir.new$k"; }
        done
        n=$((n + 1))
    done
    # Minimal, and what was downloaded stays for the next copy of the root.
    printf 'APT::Install-Recommends "false";\nAcquire::Languages "none";\nAPT::Keep-Downloaded-Packages "true";\n' \
        >"$dir.new/etc/apt/apt.conf.d/90debroot"
    rm -f "$dir.new/etc/apt/apt.conf.d/docker-clean"
    mv "$dir.new" "$dir"
fi

# The packages not installed yet.
missing=""
for p in "$@"; do
    chroot "$dir" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q ' installed$' ||
        missing="$missing $p"
done
[ -n "$missing" ] || exit 0

# apt needs /proc in the root (dpkg and some maintainer scripts read it);
# mounted only for this, and unmounted whatever happens.
mounted=""
cleanup() {
    [ -z "$mounted" ] || umount "$dir/proc" || umount -l "$dir/proc" || true
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
if ! mountpoint -q "$dir/proc"; then
    mount -t proc proc "$dir/proc"
    mounted=yes
fi
# The resolver for the mirror's name, as the machine has it now.
cp /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
say "installing$missing into $dir"
# shellcheck disable=SC2086
chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive sh -c 'apt-get -qq update && apt-get install -y -q "$@"' \
    debroot $missing </dev/null >&2
