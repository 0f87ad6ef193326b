#!/bin/sh
# deps.sh [--check] GROUP...
#
# Makes sure the Debian packages of the groups are installed: `make deps`
# and the deps-GROUP targets.  As root it installs what is missing with
# apt-get (refreshing the package lists first unless they are less than an
# hour old); otherwise it prints the exact apt-get line to run and fails.
# With --check it never installs: it names what is missing and the make
# target that installs it, and fails (the rules that build things use it).
# Groups:
#   build   compiler (gcc, and libc6-dev, which --no-install-recommends
#           leaves out) and make tools for the codec and the CLI, and ldns
#           (libldns-dev), which the CLI's lint-zone reads master files with
#   check   the unit tests: Check, Unicode data, Python for the table
#           generator, dpkg-dev for fetching source packages, clang, ICU
#           (the UTS #39 suite's oracle, its spoof checker), what the CLI
#           links (libldns-dev), and librust-url-dev for the WHATWG URL test
#           data (urltestdata.json)
#   tables  the table generators: Python and their inputs, the UCD
#           (unicode-data), UTS #46's data (unicode-idna) and the Public
#           Suffix List (publicsuffix)
#   module  building Unbound from Debian's source package (with dnstap: fstrm,
#           protobuf-c), and the module
#   integration  NSD, drill and ldns for the integration tests and make run
#   hardening    libFuzzer and sanitizer runtimes, valgrind, dnsperf, ldns (the
#                lint-zone harness)
#   stock   the python module on Debian's stock unbound: what its daemon links
#           (it is unpacked, not installed: scripts/stock-unbound.sh), ctypes'
#           libffi, dpkg for unpacking
#   tap     the tap's tests: fstrm_capture and dnstap-ldns (golden captures and
#           their independent reading), what Debian's dnsdist links (it is
#           unpacked, not installed: scripts/dnsdist.sh)
#   tapbench  `make bench-tap`: the peers the tap is timed against (Go's
#           dnstap, dnstap-ldns), fstrm_capture, taskset for pinning
#   bench        ICU and libidn2 (the peers), the Public Suffix List, dnsperf,
#                gnuplot, ldns-read-zone (ldnsutils: lint-zone's baseline)
#   lookalike    `make bench-lookalike-fp`: the real names the lookalike
#                classes are measured on, the Public Suffix List and
#                dictionaries (Hunspell's ru uk el he ar th hi ko, and the
#                German, French, Spanish, Polish and Portuguese wordlists)
#   deb     `make deb`: the Build-Depends of Debian's unbound source package
#           (bookworm's list, checked again by dpkg-checkbuilddeps before the
#           build), debhelper for the idnguard package, lintian,
#           systemd-analyze (already there on a machine booted with systemd),
#           and debootstrap for the Debian roots the packages are installed
#           into by `make check-deb-install` (scripts/debroot.sh)
set -eu

check_only=""
if [ "${1:-}" = --check ]; then
    check_only=yes
    shift
fi
missing=""
# need PACKAGE PROBE: PROBE is cmd:NAME (a command) or file:PATH.
need() {
    case $2 in
    cmd:*) command -v "${2#cmd:}" >/dev/null 2>&1 && return 0 ;;
    pkg:*) dpkg-query -W -f='${Status}' "${2#pkg:}" 2>/dev/null | grep -q ' installed$' && return 0 ;;
    file:*) [ -e "${2#file:}" ] && return 0 ;;
    esac
    case " $missing " in *" $1 "*) ;; *) missing="$missing $1" ;; esac
}

for group in "$@"; do
    case $group in
    build)
        need gcc cmd:cc
        need libc6-dev file:/usr/include/stdint.h
        need make cmd:make
        need pkg-config cmd:pkg-config
        need libldns-dev file:/usr/include/ldns/ldns.h
        ;;
    check)
        need gcc cmd:cc
        need libc6-dev file:/usr/include/stdint.h
        need make cmd:make
        need pkg-config cmd:pkg-config
        need check file:/usr/include/check.h
        need python3 cmd:python3
        need unicode-data file:/usr/share/unicode/UnicodeData.txt
        need unicode-idna file:/usr/share/unicode/idna/IdnaMappingTable.txt
        need dpkg-dev cmd:dpkg-source
        need clang cmd:clang
        need bzip2 cmd:bzcat
        need ca-certificates file:/etc/ssl/certs
        need libicu-dev file:/usr/include/unicode/uspoof.h
        need libldns-dev file:/usr/include/ldns/ldns.h
        need librust-url-dev pkg:librust-url-dev
        need tmux cmd:tmux
        need luajit2 cmd:luajit
        need clang-format cmd:git-clang-format
        ;;
    tables)
        need python3 cmd:python3
        need unicode-data file:/usr/share/unicode/UnicodeData.txt
        need unicode-idna file:/usr/share/unicode/idna/IdnaMappingTable.txt
        need publicsuffix file:/usr/share/publicsuffix/public_suffix_list.dat
        ;;
    module)
        need gcc cmd:cc
        need libc6-dev file:/usr/include/stdint.h
        need make cmd:make
        need dpkg-dev cmd:dpkg-source
        need libssl-dev file:/usr/include/openssl/ssl.h
        need libexpat1-dev file:/usr/include/expat.h
        need libevent-dev file:/usr/include/event2/event.h
        need bison cmd:bison
        need flex cmd:flex
        need ca-certificates file:/etc/ssl/certs
        need libfstrm-dev file:/usr/include/fstrm.h
        need libprotobuf-c-dev file:/usr/include/protobuf-c/protobuf-c.h
        need protobuf-c-compiler cmd:protoc-c
        ;;
    integration)
        need nsd cmd:nsd
        need ldnsutils cmd:drill
        need libldns-dev file:/usr/include/ldns/ldns.h
        need iproute2 cmd:ss
        ;;
    hardening)
        need clang cmd:clang
        need libclang-rt-14-dev file:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a
        need valgrind cmd:valgrind
        need dnsperf cmd:dnsperf
        need libldns-dev file:/usr/include/ldns/ldns.h
        ;;
    stock)
        need dpkg cmd:dpkg
        need python3 cmd:python3
        for p in libpython3.11 libevent-2.1-7 libnghttp2-14 libprotobuf-c1 libssl3 libsystemd0 \
            libffi8; do
            need "$p" "pkg:$p"
        done
        ;;
    tap)
        need fstrm-bin cmd:fstrm_capture
        need dnstap-ldns cmd:dnstap-ldns
        need python3 cmd:python3
        need dpkg cmd:dpkg
        for p in libcap2 libcdb1 libedit2 libfstrm0 libh2o-evloop0.13 liblmdb0 libluajit2-5.1-2 \
            libnghttp2-14 libre2-9 libsnmp40 libsodium23 libssl3 libsystemd0; do
            need "$p" "pkg:$p"
        done
        ;;
    bench)
        need libicu-dev file:/usr/include/unicode/uidna.h
        need libidn2-dev file:/usr/include/idn2.h
        need publicsuffix file:/usr/share/publicsuffix/public_suffix_list.dat
        need dnsperf cmd:dnsperf
        need gnuplot-nox cmd:gnuplot
        need valgrind cmd:valgrind
        need ldnsutils cmd:ldns-read-zone
        need libldns-dev file:/usr/include/ldns/ldns.h
        need time file:/usr/bin/time
        ;;
    lookalike)
        need publicsuffix file:/usr/share/publicsuffix/public_suffix_list.dat
        for l in ru_RU uk_UA el_GR he_IL th_TH hi_IN; do
            need "hunspell-${l%_*}" "file:/usr/share/hunspell/$l.dic"
        done
        need hunspell-ar file:/usr/share/hunspell/ar.dic
        need hunspell-ko file:/usr/share/hunspell/ko.dic
        need wngerman file:/usr/share/dict/ngerman
        need wfrench file:/usr/share/dict/french
        need wspanish file:/usr/share/dict/spanish
        need wpolish file:/usr/share/dict/polish
        need wportuguese file:/usr/share/dict/portuguese
        ;;
    tapbench)
        need golang-github-dnstap-golang-dnstap-cli cmd:dnstap
        need dnstap-ldns cmd:dnstap-ldns
        need fstrm-bin cmd:fstrm_capture
        need util-linux cmd:taskset
        ;;
    deb)
        need debhelper cmd:dh
        need dh-apparmor cmd:dh_apparmor
        need dh-python cmd:dh_python3
        need fakeroot cmd:fakeroot
        need dpkg-dev cmd:dpkg-buildpackage
        need autoconf cmd:autoconf
        need libtool cmd:libtoolize
        need bison cmd:bison
        need flex cmd:flex
        need pkg-config cmd:pkg-config
        need libevent-dev file:/usr/include/event2/event.h
        need libexpat1-dev file:/usr/include/expat.h
        need libssl-dev file:/usr/include/openssl/ssl.h
        need nettle-dev file:/usr/include/nettle/sha2.h
        need libnghttp2-dev file:/usr/include/nghttp2/nghttp2.h
        need libprotobuf-c-dev file:/usr/include/protobuf-c/protobuf-c.h
        need protobuf-c-compiler cmd:protoc-c
        need libsystemd-dev file:/usr/include/systemd/sd-daemon.h
        need python3-dev cmd:python3-config
        need libpython3-dev file:/usr/lib/x86_64-linux-gnu/pkgconfig/python3-embed.pc
        need swig cmd:swig
        need lintian cmd:lintian
        need systemd cmd:systemd-analyze
        need libldns-dev file:/usr/include/ldns/ldns.h
        need debootstrap file:/usr/sbin/debootstrap
        ;;
    *)
        echo "deps.sh: unknown group '$group'" >&2
        exit 2
        ;;
    esac
done

[ -z "$missing" ] && exit 0
if [ -n "$check_only" ]; then
    echo "idnguard needs these Debian packages:$missing" >&2
    echo "install them with: make$(for g in "$@"; do printf ' deps-%s' "$g"; done) (as root)" >&2
    exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "idnguard needs these Debian packages:$missing" >&2
    echo "run as root:  apt-get update && apt-get install -y --no-install-recommends$missing" >&2
    exit 1
fi
echo "deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# One refresh serves the several groups one make command may install.
if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -mmin -60 2>/dev/null | head -n 1)" ]; then
    apt-get update -qq
fi
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
