#!/bin/sh
# prepare-zones.sh OUTDIR [SRCDIR]
#
# The zones NSD serves in the integration tests, `make run`, the soak and the
# resolver benchmark (`make zones` runs this into build/zones).  Copies every
# SRCDIR/*.zone (default: tests/integration/zones) into OUTDIR, then signs
# three of them with keys made here, because keys do not belong in the
# repository and signatures expire:
#
#   deny.sig.  signed with its own key (ECDSAP256SHA256, one key per zone);
#   bad.sig.   signed with its own key too;
#   sig.       gets DS records for both children, deny.sig.'s from its key
#              and bad.sig.'s from a third key that signs nothing (so names
#              in bad.sig. are bogus: the negative control), and is signed;
#   sig.anchor the DS of sig.'s key: Unbound's trust-anchor-file.
#
# Signatures are valid from an hour ago (clock skew) for SIG_DAYS (default
# 30) days.  The work is skipped when OUTDIR is up to date: every output is
# there, no source (nor this script) is newer than OUTDIR/.prepared, and the
# signatures are valid for 7 more days.  Everything is made in a scratch
# directory inside OUTDIR and moved into place file by file, under a lock,
# so that concurrent runs (two `make`s) do not mix keys.  Needs ldns-keygen,
# ldns-signzone and ldns-key2ds (Debian's ldnsutils).
set -eu

[ $# -ge 1 ] || { echo "usage: prepare-zones.sh OUTDIR [SRCDIR]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")
src=$(cd "${2:-$here/zones}" && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
days=${SIG_DAYS:-30}
margin=$((7 * 86400))
stamp=$out/.prepared
signed="sig.zone deny.sig.zone bad.sig.zone"

say() { printf 'prepare-zones: %s\n' "$*"; }
die() { printf 'prepare-zones: %s\n' "$*" >&2; exit 1; }

# Is OUTDIR up to date?  (Reads the expiry time that the stamp holds.)
fresh() {
    [ -f "$stamp" ] && [ -f "$out/sig.anchor" ] || return 1
    for f in "$src"/*.zone; do
        [ -f "$out/$(basename "$f")" ] || return 1
    done
    [ -z "$(find "$src" "$self" -newer "$stamp" 2>/dev/null | head -n 1)" ] || return 1
    expires=$(sed -n 's/^expires=//p' "$stamp")
    [ -n "$expires" ] && [ $((expires - $(date +%s))) -gt "$margin" ]
}

# One run at a time per OUTDIR; a waiting run then finds it up to date.
if command -v flock >/dev/null 2>&1 && [ -z "${PREPARE_ZONES_LOCKED:-}" ]; then
    PREPARE_ZONES_LOCKED=1 exec flock "$out/.lock" sh "$self" "$@"
fi
fresh && exit 0

for t in ldns-keygen ldns-signzone ldns-key2ds; do
    command -v "$t" >/dev/null 2>&1 || die "$t is missing (make deps-integration, as root)"
done
for z in $signed; do
    [ -f "$src/$z" ] || die "$src/$z is missing"
done

tmp=$(mktemp -d "$out/.new.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
cp "$src"/*.zone "$tmp/"
cd "$tmp"

now=$(date +%s)
inception=$((now - 3600))
expires=$((now + days * 86400))

# keygen ZONE: a key (SEP flag: ldns-keygen also writes its DS to BASE.ds);
# prints the base name of its files.
keygen() {
    ldns-keygen -a ECDSAP256SHA256 -k "$1" || die "ldns-keygen $1 failed"
}
# sign ZONE FILE KEYBASE: FILE signed in place (NSEC).
sign() {
    ldns-signzone -i "$inception" -e "$expires" -o "$1" -f "$2.signed" "$2" "$3" \
        || die "ldns-signzone $1 failed"
    mv "$2.signed" "$2"
}
ds() {
    ldns-key2ds -n -2 "$1.key" || die "ldns-key2ds $1 failed"
}

k_deny=$(keygen deny.sig.)
k_bad=$(keygen bad.sig.)
k_stray=$(keygen bad.sig.)
k_sig=$(keygen sig.)

sign deny.sig. deny.sig.zone "$k_deny"
sign bad.sig. bad.sig.zone "$k_bad"
{
    echo "; DS records added by prepare-zones.sh"
    ds "$k_deny"
    echo "; bad.sig.: the DS of a key that never signs it"
    ds "$k_stray"
} >> sig.zone
sign sig. sig.zone "$k_sig"
{
    echo "; Trust anchor for sig. (made by prepare-zones.sh, signatures valid until"
    echo "; $(date -u -d "@$expires" '+%Y-%m-%d %H:%M:%S UTC'))"
    ds "$k_sig"
} > sig.anchor
rm -f K*.key K*.private K*.ds

for f in *.zone sig.anchor; do
    mv -f "$f" "$out/$f"
done
printf 'expires=%s\n' "$expires" > "$stamp"
say "$out: $(ls "$src" | grep -c '\.zone$') zones, $signed signed, sig.anchor"
