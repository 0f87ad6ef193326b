#!/bin/sh
# deb-unbound.sh DSC WORKDIR OUTDIR SUFFIX
#
# Rebuilds Debian's unbound source package (DSC) with the dynlib module
# compiled in, for `make deb`.  The source is unpacked into WORKDIR/unbound
# with all of Debian's patches applied; two things change, nothing else:
#   - debian/rules: --with-dynlibmodule is added to the configure options of
#     the daemon's build (the first of the two builds in Debian's rules; the
#     second one makes libunbound alone and has no modules);
#   - debian/changelog: a new entry whose version is Debian's plus SUFFIX
#     (e.g. 1.17.1-2+deb12u4+idnguard1), so apt tells the two builds apart
#     and the idnguard package can depend on exactly this one.
# The binary packages go to OUTDIR; WORKDIR/unbound stays, with its
# configured build tree b/unbound that the module is compiled against.
set -eu

if [ $# -ne 4 ]; then
    echo "usage: $0 DSC WORKDIR OUTDIR SUFFIX" >&2
    exit 2
fi
dsc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$2
out=$3
suffix=$4
mkdir -p "$work" "$out"
work=$(cd "$work" && pwd)
out=$(cd "$out" && pwd)

rm -rf "$work/unbound"
dpkg-source --no-check -x "$dsc" "$work/unbound" >/dev/null
cd "$work/unbound"

# The daemon's configure call is the one that names --with-pythonmodule.
grep -q -- '--with-pythonmodule \\$' debian/rules || {
    echo "$0: debian/rules has no '--with-pythonmodule \\' line to add --with-dynlibmodule after;" \
        "Debian's packaging changed: look at debian/rules and adapt this script" >&2
    exit 1
}
sed -i -e 's/^\([[:space:]]*\)--with-pythonmodule \\$/&\n\1--with-dynlibmodule \\/' debian/rules
[ "$(grep -c -- '--with-dynlibmodule' debian/rules)" -eq 1 ] || {
    echo "$0: could not add --with-dynlibmodule to debian/rules" >&2
    exit 1
}

version=$(dpkg-parsechangelog -S Version)
dist=$(dpkg-parsechangelog -S Distribution)
name=${DEBFULLNAME:-idnguard authors}
mail=${DEBEMAIL:-idnguard@example.org}
{
    printf 'unbound (%s%s) %s; urgency=medium\n\n' "$version" "$suffix" "$dist"
    printf '  * Local rebuild for idnguard: configure the daemon --with-dynlibmodule.\n'
    printf '    Nothing else changed.\n\n'
    printf ' -- %s <%s>  %s\n\n' "$name" "$mail" "$(date -R)"
    cat debian/changelog
} >debian/changelog.new
mv debian/changelog.new debian/changelog

# As on Debian's build daemons: a clean environment and the system's tools
# only, so that a python3 or compiler earlier in the caller's PATH (pyenv,
# /usr/local) cannot end up linked into the package.
cleanenv="env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=${HOME:-/root} LC_ALL=C.UTF-8"
$cleanenv dpkg-checkbuilddeps
# Debian's rules run make in b/unbound themselves, not through dh_auto_build,
# so parallel=2 alone would leave them serial: -j2 hands make the jobs.
$cleanenv DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -b -us -uc -j2 \
    >"$work/unbound-build.log" 2>&1 || {
    tail -30 "$work/unbound-build.log" >&2
    exit 1
}
# dpkg-buildpackage leaves its products beside the source tree.
for f in "$work"/*_"$version$suffix"_*.deb "$work"/unbound_"$version$suffix"_*.buildinfo \
    "$work"/unbound_"$version$suffix"_*.changes; do
    [ -f "$f" ] && mv "$f" "$out/"
done
ls "$out"/unbound_"$version$suffix"_*.deb >/dev/null
