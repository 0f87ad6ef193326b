#!/bin/sh
# lib-exports.sh LIB HEADER
#
# `make check-lib`: the shared library LIB (build/libidnguard.so.0) has the
# soname libidnguard.so.0, is never unloaded (DF_1_NODELETE: its threads
# run in its code), and exports exactly the functions HEADER
# (lib/libidnguard.h) declares, nothing more and nothing less.  The header
# is read through the C preprocessor, so names in its comments do not
# count; the library with nm -D --defined-only and readelf -d.  CC names
# the compiler (default cc).  Exit 1 on a difference, which it lists.
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 LIB HEADER" >&2
    exit 2
fi
lib=$1 header=$2
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT

# Declared: a name of the header's prefix followed by its parameter list
# (a typedef's name is followed by ')', a parameter's by a space).
"${CC:-cc}" -E -P -x c "$header" | tr -s ' \t\n' ' ' | grep -o 'idnguard_[A-Za-z0-9_]* *(' |
    sed 's/ *($//' | sort -u >"$work/declared" || exit 2
nm -D --defined-only "$lib" | awk '{ print $NF }' | sed 's/@.*//' | sort -u >"$work/exported" ||
    exit 2
dynamic=$(readelf -d "$lib") || exit 2
soname=$(echo "$dynamic" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')

fail=0
if [ ! -s "$work/declared" ]; then
    echo "lib: $header declares no function" >&2
    fail=1
fi
if [ "$soname" != libidnguard.so.0 ]; then
    echo "lib: $lib has soname '$soname', not libidnguard.so.0" >&2
    fail=1
fi
if ! echo "$dynamic" | grep -q '(FLAGS_1).*NODELETE'; then
    echo "lib: $lib can be unloaded: not linked with -z nodelete" >&2
    fail=1
fi
missing=$(comm -23 "$work/declared" "$work/exported")
extra=$(comm -13 "$work/declared" "$work/exported")
if [ -n "$missing" ]; then
    echo "lib: declared in $header, not exported by $lib:" $missing >&2
    fail=1
fi
if [ -n "$extra" ]; then
    echo "lib: exported by $lib, not declared in $header:" $extra >&2
    fail=1
fi
[ $fail -eq 0 ] || exit 1
echo "lib: $lib (soname $soname, never unloaded) exports the $(wc -l <"$work/declared") functions of $header, nothing else"
