#!/bin/sh
# demo.sh CLI: `make demo`, the codec alone, without a resolver: the CLI
# judging names as the module judges each label, and converting them as the
# module's normalize and its query log do.  `make run` shows the module.
set -eu
cli=$1
names='xn--bcher-kva.example.
XN--BCHER-KVA.example.
xn--ls8h.la.
_dmarc.example.
r3---sn-abc.googlevideo.com.
xn--example-nka.org.
xn--bc-kw3n.example.
xn--ab-m1t.example.
xn--1-0hc.example.
xn--0000h.example.
xn--example-.org.
xn--.example.
bücher.example.'
printf '%s\n' "== idnguard check (mode uts46, the module default): the first failing label of each name"
printf '%s\n' "$names" | while IFS= read -r n; do
    printf '  %-32s %s\n' "$n" "$("$cli" check -- "$n")"
done
printf '\n%s\n' "== the same names under --mode=idna2008"
printf '%s\n' "$names" | while IFS= read -r n; do
    printf '  %-32s %s\n' "$n" "$("$cli" check --mode=idna2008 -- "$n")"
done
printf '\n%s\n' "== to-ascii (what the module's 'normalize' sends upstream)"
for n in 'Bücher.DE' 'ｂüｃｈｅｒ.example' '_dmarc.Bücher.de' 'правда.рф' '😉.example'; do
    printf '  %-32s %s\n' "$n" "$("$cli" to-ascii -- "$n")"
done
printf '\n%s\n' "== to-unicode (what the module's query log shows beside the name)"
for n in 'xn--bcher-kva.example.' 'xn--80aafi6cg.xn--p1ai' 'xn--n28h.example'; do
    printf '  %-32s %s\n' "$n" "$("$cli" to-unicode -- "$n")"
done
printf '\n%s\n' "Try it yourself: $cli --help"
