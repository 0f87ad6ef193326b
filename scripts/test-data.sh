#!/bin/sh
# test-data.sh check DIR
# test-data.sh refresh DIR PACKAGE=ROOT...
#
# The test data kept in the repository (tests/codec/data), pinned by
# DIR/data.manifest: one line per file, "name package version licence
# sha256 path" (the manifest's header says what each column holds).
#
# check (`make check-test-data`, part of `make test`): every listed file is
# in DIR with the pinned SHA-256, and DIR holds no file the manifest does
# not list (but README.md and the manifest).  No network, no package.
#
# refresh (`make test-data`): for each PACKAGE=ROOT given, each file of that
# package is taken from ROOT/path, once the package's version (ROOT's
# debian/changelog for an unpacked source package, dpkg-query for ROOT=/,
# an installed binary package) and the file's SHA-256 are the manifest's,
# and copied into DIR when the copy there differs.  Files of packages not
# given are named and left as they are.  Exit 1 on any difference from the
# manifest, which it names with the value found.
set -u

usage() {
    echo "usage: $0 check DIR | $0 refresh DIR PACKAGE=ROOT..." >&2
    exit 2
}
[ $# -ge 2 ] || usage
mode=$1 dir=$2
shift 2
manifest=$dir/data.manifest
[ -r "$manifest" ] || { echo "test data: cannot read $manifest" >&2; exit 1; }

# The manifest's lines, without comments and blank lines.
entries() {
    sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$manifest"
}

sha() {
    sha256sum "$1" | cut -d' ' -f1
}

# The ROOT given for package $1 among the arguments, or nothing.
root_of() {
    for a in $roots; do
        [ "${a%%=*}" = "$1" ] && { echo "${a#*=}"; return; }
    done
}

# The version of package $1 found at ROOT $2.
version_at() {
    if [ "$2" = / ]; then
        dpkg-query -W -f '${Version}' "$1" 2>/dev/null
    else
        sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$2/debian/changelog" 2>/dev/null
    fi
}

status=0
fail() {
    echo "test data: $*" >&2
    status=1
}

case $mode in
check)
    [ $# -eq 0 ] || usage
    n=0
    while read -r name pkg ver lic want path; do
        [ -n "$path" ] || { fail "$manifest: '$name': expected 'name package version licence sha256 path'"; continue; }
        n=$((n + 1))
        if [ ! -f "$dir/$name" ]; then
            fail "$dir/$name is missing ($pkg $ver, $path)"
        elif [ "$(sha "$dir/$name")" != "$want" ]; then
            fail "$dir/$name is not the file $manifest pins ($pkg $ver, $path, $lic)
  expected SHA-256 $want
  actual   SHA-256 $(sha "$dir/$name")"
        fi
    done <<EOF
$(entries)
EOF
    listed=$(entries | awk '{print $1}')
    for f in "$dir"/*; do
        b=${f##*/}
        case $b in README.md | data.manifest) continue ;; esac
        printf '%s\n' "$listed" | grep -qxF "$b" || fail "$f is not listed in $manifest"
    done
    [ "$status" -eq 0 ] && echo "test data: the $n files of $dir match $manifest"
    ;;
refresh)
    [ $# -ge 1 ] || usage
    roots=$*
    while read -r name pkg ver lic want path; do
        root=$(root_of "$pkg")
        if [ -z "$root" ]; then
            echo "test data: $name left as it is ($pkg $ver: README.md says where it comes from)"
            continue
        fi
        have=$(version_at "$pkg" "$root")
        if [ "$have" != "$ver" ]; then
            fail "$name: $manifest pins $pkg $ver, $root has ${have:-no version found}"
            continue
        fi
        src=${root%/}/$path
        if [ ! -f "$src" ]; then
            fail "$name: no $src in $pkg $ver"
            continue
        fi
        got=$(sha "$src")
        if [ "$got" != "$want" ]; then
            fail "$name: $src is not the file $manifest pins
  expected SHA-256 $want
  actual   SHA-256 $got"
            continue
        fi
        if cmp -s "$src" "$dir/$name"; then
            echo "test data: $name is $pkg $ver's $path"
        else
            cp "$src" "$dir/$name" && chmod 644 "$dir/$name" || { fail "$name: cannot copy $src"; continue; }
            echo "test data: $name copied from $pkg $ver's $path"
        fi
    done <<EOF
$(entries)
EOF
    ;;
*)
    usage
    ;;
esac
exit $status
