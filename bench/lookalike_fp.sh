#!/bin/sh
# bench/lookalike_fp.sh IDNGUARD OUTDIR
#
# What each lookalike class costs on real IDNs, and how it agrees with a
# browser: OUTDIR/lookalike-fp.md (make bench-lookalike-fp).
#
# - Holdout corpora, from Debian packages (make deps-lookalike): the Public
#   Suffix List's Unicode rules, each as a name as it stands and each of
#   their labels under .com; dictionary words (Hunspell, and the wordlists of
#   /usr/share/dict), each as a label under .com and under its language's
#   ccTLD.  A word is kept when it is not plain ASCII, holds no uppercase
#   letter (grep's [[:upper:]] in the C.UTF-8 locale) and is one label that
#   converts (idnguard to-ascii); of those, distinct A-labels, every k-th
#   in the file's order, at most SAMPLE a language.
# - Every name goes through `idnguard check --conf FILE --format=tsv` (one
#   process per corpus and settings file) with two settings files: every
#   default, no protected name; and the 37 top domains of
#   tests/core/data/browser_top_domains.txt protected, with
#   protect-suffixes: any and protect-embedded: yes.  A name is "flagged" by
#   a class when the class is in its lookalike column; every flag on a real
#   word is a false positive.
# - Chromium's IDN test cases (tests/core/data/browser_idn_cases.txt),
#   judged as tests/core/test_browser_cases.c judges them (the defaults and
#   the top domains protected): how many "unsafe" and how many "show" cases
#   each class flags.
#
# Temporary files: build/bench-lookalike/ below the repository root.  No
# network.  SAMPLE (default 3000) is the most words a language.
set -eu

if [ $# -ne 2 ]; then
    echo "usage: $0 IDNGUARD OUTDIR" >&2
    exit 2
fi
case $1 in /*) bin=$1 ;; *) bin=$PWD/$1 ;; esac
case $2 in /*) outdir=$2 ;; *) outdir=$PWD/$2 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tmp=build/bench-lookalike
sample=${SAMPLE:-3000}
export LC_ALL=C

psl=/usr/share/publicsuffix/public_suffix_list.dat
cases=tests/core/data/browser_idn_cases.txt
top=tests/core/data/browser_top_domains.txt

# code  package      ccTLD  file
langs='ru hunspell-ru ru /usr/share/hunspell/ru_RU.dic
uk hunspell-uk ua /usr/share/hunspell/uk_UA.dic
el hunspell-el gr /usr/share/hunspell/el_GR.dic
he hunspell-he il /usr/share/hunspell/he_IL.dic
ar hunspell-ar sa /usr/share/hunspell/ar.dic
th hunspell-th th /usr/share/hunspell/th_TH.dic
hi hunspell-hi in /usr/share/hunspell/hi_IN.dic
ko hunspell-ko kr /usr/share/hunspell/ko.dic
de wngerman de /usr/share/dict/ngerman
fr wfrench fr /usr/share/dict/french
es wspanish es /usr/share/dict/spanish
pl wpolish pl /usr/share/dict/polish
pt wportuguese pt /usr/share/dict/portuguese'

for f in "$bin" "$psl" "$cases" "$top"; do
    [ -e "$f" ] || { echo "$0: $f: missing (make deps-lookalike, make all)" >&2; exit 1; }
done
while read -r code pkg cc file; do
    [ -e "$file" ] || { echo "$0: $file ($pkg): missing (make deps-lookalike)" >&2; exit 1; }
done <<EOF
$langs
EOF

rm -rf "$tmp"
mkdir -p "$tmp" "$outdir"

# ---- settings files ----
printf 'idnguard:\n' > "$tmp/none.conf"
{
    printf 'idnguard:\n'
    grep -v '^#' "$top" | grep . | sed 's/^/    protect: /'
} > "$tmp/browser.conf"
{
    cat "$tmp/browser.conf"
    printf '    protect-suffixes: any\n    protect-embedded: yes\n'
} > "$tmp/protect.conf"
for s in none browser protect; do
    "$bin" check-conf "$tmp/$s.conf" > "$tmp/$s.effective"
done
ntop=$(grep -c '^    protect: ' "$tmp/browser.effective")

# ---- corpora: TLD-kind <TAB> Unicode name <TAB> A-label name ----
# A-labels of stdin's Unicode names (TSV of to-ascii), kept when they convert.
psl_names() {
    # the rules with a code point >= 0x80, '!' and '*.' taken off
    sed 's,//.*,,; s/[[:space:]].*//; s/^!//; s/^\*\.//' "$psl" | grep '[^ -~]' > "$tmp/psl.rules"
    tr '.' '\n' < "$tmp/psl.rules" | grep '[^ -~]' | awk '!seen[$0]++ { print $0 ".com" }' \
        > "$tmp/psl.labels"
    { "$bin" to-ascii --format=tsv < "$tmp/psl.rules" | awk -F'\t' '$2 == "ok" { print "cc\t" $1 "\t" $3 }'
      "$bin" to-ascii --format=tsv < "$tmp/psl.labels" | awk -F'\t' '$2 == "ok" { print "com\t" $1 "\t" $3 }'
    } > "$tmp/psl.names"
    printf 'psl\tpublicsuffix\t%s\t%s\t-\t%s\t%s\n' "$(basename "$psl")" \
        "$(wc -l < "$tmp/psl.rules")+$(wc -l < "$tmp/psl.labels")" \
        "$(grep -c '^cc' "$tmp/psl.names")" "$(grep -c '^com' "$tmp/psl.names")" >> "$tmp/sizes.tsv"
}

# The words of a .dic file (count line skipped, in the .aff's SET) or a
# wordlist: the part before '/', blank or tab; not ASCII, no '.', no
# uppercase letter, distinct.
words() {
    case $1 in
    *.dic)
        set=$(sed -n 's/^SET[[:space:]]*//p' "${1%.dic}.aff" | tr -d '\r ' | head -n 1)
        if [ "$set" = UTF-8 ] || [ -z "$set" ]; then
            tail -n +2 "$1"
        else
            tail -n +2 "$1" | iconv -f "$set" -t UTF-8
        fi
        ;;
    *) cat "$1" ;;
    esac | awk '{ sub(/\/.*/, ""); sub(/[ \t].*/, "") }
        $0 != "" && index($0, ".") == 0 && $0 ~ /[\200-\377]/ && !seen[$0]++' \
        | LC_ALL=C.UTF-8 grep -v '[[:upper:]]' || :
}

dict_names() { # code cc file package
    w=$tmp/$1
    words "$3" > "$w.words"
    # converts, one label, distinct: Unicode (to-unicode's, escaped) <TAB> A-label
    "$bin" to-ascii --format=tsv < "$w.words" \
        | awk -F'\t' '$2 == "ok" && index($3, ".") == 0 && !seen[$3]++ { print $3 }' \
        | "$bin" to-unicode --format=tsv | awk -F'\t' '$2 == "ok" { print $3 "\t" $1 }' > "$w.kept"
    n=$(wc -l < "$w.kept")
    k=$(( (n + sample - 1) / sample ))
    [ "$k" -ge 1 ] || k=1
    awk -F'\t' -v k="$k" -v cc="$2" '(NR - 1) % k == 0 {
            print "com\t" $1 ".com\t" $2 ".com"; print "cc\t" $1 "." cc "\t" $2 "." cc }' \
        "$w.kept" > "$w.names"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$4" "$(basename "$3")" "$(wc -l < "$w.words")" \
        "$n" "$(grep -c '^cc' "$w.names")" "$k" >> "$tmp/sizes.tsv"
}

: > "$tmp/sizes.tsv"
psl_names
corpora="psl"
ccs="psl:own"
while read -r code pkg cc file; do
    dict_names "$code" "$cc" "$file" "$pkg"
    corpora="$corpora $code"
    ccs="$ccs $code:$cc"
done <<EOF
$langs
EOF

# ---- judging ----
# One judgment a line, as: action <TAB> class <TAB> ,lookalike,classes, <TAB> protected
norm() {
    awk -F'\t' 'NF <= 3 { print "-\t" $2 "\t,\t"; next }
        { print $2 "\t" $3 "\t," $7 ",\t" $8 }'
}
judge() { # names-file settings -> normalized judgments
    # exit status 1: some name is rejected
    rc=0
    cut -f 3 "$1" | "$bin" check --conf "$tmp/$2.conf" --format=tsv > "$1.$2.raw" || rc=$?
    if [ "$rc" -gt 1 ]; then
        echo "$0: idnguard check --conf $tmp/$2.conf failed ($rc)" >&2
        exit 1
    fi
    if [ "$(wc -l < "$1.$2.raw")" -ne "$(wc -l < "$1")" ]; then
        echo "$0: $1: idnguard check wrote $(wc -l < "$1.$2.raw") lines for $(wc -l < "$1") names" >&2
        exit 1
    fi
    norm < "$1.$2.raw"
}

: > "$tmp/stats.tsv"
: > "$tmp/examples.tsv"
for c in $corpora; do
    f=$tmp/$c.names
    judge "$f" none > "$f.none"
    judge "$f" protect > "$f.protect"
    # counts: settings corpus kind class n total; examples: the first 10
    # names each class flags with the protected names (corpus kind class
    # unicode A-label protected)
    paste "$f" "$f.none" "$f.protect" | awk -F'\t' -v corpus="$c" \
        -v stats="$tmp/stats.tsv" -v ex="$tmp/examples.tsv" '
        function count(set, act, cls, lk, prot,    n, a, i, any) {
            total[set, $1]++
            n = split(lk, a, ",")
            any = 0
            for (i = 1; i <= n; i++) if (a[i] != "") {
                any = 1
                cnt[set, $1, a[i]]++
                cls_seen[a[i]] = 1
                if (set == "protect" && cnt[set, $1, a[i]] <= 10)
                    print corpus "\t" $1 "\t" a[i] "\t" $2 "\t" $3 "\t" prot >> ex
            }
            if (any) cnt[set, $1, "(any lookalike class)"]++
            if (cls != "ok" && index(lk, "," cls ",") == 0) cnt[set, $1, "(invalid: not a lookalike class)"]++
            if (act == "refuse" || act == "nxdomain" || act == "drop") cnt[set, $1, "(rejected)"]++
        }
        {
            count("none", $4, $5, $6, $7)
            count("protect", $8, $9, $10, $11)
            # a flag without the protected names that is gone with them
            n = split($6, a, ",")
            for (i = 1; i <= n; i++)
                if (a[i] != "" && index($10, "," a[i] ",") == 0) cnt["none", $1, "(lost with protected names)"]++
        }
        END {
            for (k in total) {
                split(k, p, SUBSEP)
                print p[1] "\t" corpus "\t" p[2] "\t(names)\t" total[k] >> stats
            }
            for (k in cnt) {
                split(k, p, SUBSEP)
                print p[1] "\t" corpus "\t" p[2] "\t" p[3] "\t" cnt[k] >> stats
            }
        }'
done

# ---- the browser's cases ----
# EXPECT <TAB> host <TAB> the name judged (the empty host is the root).  The
# hosts test_browser_cases.c lists in its deviations[] are judged and shown
# but not counted, as the test does: their EXPECT becomes dev-EXPECT.
sed -n '/deviations\[\] = {/,/{NULL, NULL}/s/^ *{"\([^"]*\)",.*/\1/p' \
    tests/core/test_browser_cases.c > "$tmp/deviations"
awk -F'\t' -v dev="$tmp/deviations" 'FILENAME == dev { d[$0] = 1; next }
    /^#/ || NF < 2 { next }
    { print ($2 in d ? "dev-" : "") $1 "\t" $2 "\t" ($2 == "" ? "." : $2) }' \
    "$tmp/deviations" "$cases" > "$tmp/browser.names"
for s in browser protect; do
    judge "$tmp/browser.names" "$s" > "$tmp/browser.names.$s"
    paste "$tmp/browser.names" "$tmp/browser.names.$s" | awk -F'\t' -v set="$s" \
        -v devs="$tmp/browser.$s.dev" '
        { total[$1]++
          flagged = $6 != ",," || $4 == "refuse" || $4 == "nxdomain" || $4 == "drop" || $5 != "ok"
          if (flagged) print set "\t" $1 "\t(flagged)"
          n = split($6, a, ",")
          for (i = 1; i <= n; i++) if (a[i] != "") print set "\t" $1 "\t" a[i]
          if ($1 ~ /^dev-/) print substr($1, 5) "\t" $2 "\t" $5 "\t" substr($6, 2, length($6) - 2) >> devs
        }
        END { for (k in total) print set "\t" k "\t(cases)\t" total[k] }' > "$tmp/browser.$s.flags"
done
cat "$tmp/browser.browser.flags" "$tmp/browser.protect.flags" | awk -F'\t' '
    NF == 4 { print; next } { n[$1 "\t" $2 "\t" $3]++ }
    END { for (k in n) print k "\t" n[k] }' > "$tmp/browser.tsv"
sed 's/^/dev\t/' "$tmp/browser.browser.dev" >> "$tmp/browser.tsv"

# ---- the report ----
version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo '?'; }
{
    printf 'publicsuffix\t%s\n' "$(version publicsuffix)"
    echo "$langs" | while read -r _ pkg _ _; do printf '%s\t%s\n' "$pkg" "$(version "$pkg")"; done
} > "$tmp/versions.tsv"
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    commit="$commit with uncommitted changes"
fi
grep '^    on-' "$tmp/none.effective" | sed 's/^    on-//; s/: /\t/' > "$tmp/actions.tsv"

# The report's program, kept as a file so that its text may hold quotes.
cat > "$tmp/report.awk" <<'AWK'
FILENAME ~ /versions.tsv$/ { vers[++nv] = $1 " " $2; next }
FILENAME ~ /sizes.tsv$/ { size[++ns] = $0; next }
FILENAME ~ /actions.tsv$/ { action[$1] = $2; next }
FILENAME ~ /browser.tsv$/ && $1 == "dev" { dev[++nd] = $2 " " ($3 == "" ? "(the empty host)" : $3) ": " $4 ($5 != "" ? " (" $5 ")" : ""); next }
FILENAME ~ /browser.tsv$/ { b[$1, $2, $3] = $4; next }
FILENAME ~ /stats.tsv$/ { st[$1, $2, $3, $4] = $5; next }
FILENAME ~ /examples.tsv$/ { exn[$1, $2, $3]++; exl[$1, $2, $3, exn[$1, $2, $3]] = $4 " (" $5 ")" ($6 != "" ? " ~ " $6 : ""); next }
function pct(n, t) { return t ? sprintf("%.2f%%", 100 * n / t) : "-" }
function cell(set, c, cls,    a, ta, o, tb) {
    a = st[set, c, "com", cls] + 0; ta = st[set, c, "com", "(names)"] + 0
    o = st[set, c, "cc", cls] + 0; tb = st[set, c, "cc", "(names)"] + 0
    return (a ? a " (" pct(a, ta) ")" : "0") " / " (o ? o " (" pct(o, tb) ")" : "0")
}
function sum(set, kind, cls,    i, s) { s = 0; for (i = 1; i <= nc; i++) s += st[set, corp[i], kind, cls]; return s }
function fptable(set, title,    i, j, cls, line) {
    print "### " title
    print ""
    line = "| class |"; for (j = 1; j <= nc; j++) line = line " " corp[j] " (.com / ." tld[j] ") |"
    print line
    line = "|---|"; for (j = 1; j <= nc; j++) line = line "---:|"
    print line
    for (i = 1; i <= nrow; i++) {
        cls = row[i]
        line = "| " cls " |"
        for (j = 1; j <= nc; j++) line = line " " cell(set, corp[j], cls) " |"
        print line
    }
    line = "| names judged |"
    for (j = 1; j <= nc; j++) line = line " " st[set, corp[j], "com", "(names)"] + 0 " / " st[set, corp[j], "cc", "(names)"] + 0 " |"
    print line
    print ""
}
END {
    nk = split("mixed-script confusable mixed-number whole-script near-miss mark-pattern cjk-pattern digit-lookalike punctuation-like tld-letter embeds-protected", known, " ")
    src["mixed-script"] = "UTS #39 5.2: a label less restrictive than restriction-level (default highly-restrictive)"
    src["confusable"] = "UTS #39 section 4 skeleton equal to a protected name's (or a parent's), also with the extra lookalike mappings of tools/lookalike_extra.txt (Chromium's, and rendered glyphs)"
    src["mixed-number"] = "UTS #39 5.3: decimal digits of more than one set of ten in a label"
    src["whole-script"] = "UTS #39 section 4 whole-script confusables: a label of one script its TLD does not expect, every letter like one of a script it does, or every letter in Chromium's whole-script set of its script (TLD table in core/tld_scripts.c)"
    src["near-miss"] = "idnguard: skeleton with marks and letter strokes dropped (IDNG_SK_FOLD) equal to a protected name's"
    src["mark-pattern"] = "UTS #39 5.4 optional checks (repeated / more than four marks) and Chromium's mark rules (dotless i/j, dot above, U+0300-0339 outside Latin/Greek/Cyrillic, overlays)"
    src["cjk-pattern"] = "Chromium: Kana marks and iteration marks out of place, slash-like Kana/Han, Han/Bopomofo like Latin beside non-CJK, non-ASCII Latin with Han/Kana/Hangul"
    src["digit-lookalike"] = "Chromium: a label of ASCII digits and code points whose skeleton (or extra mapping) is a digit"
    src["punctuation-like"] = "Chromium: letters drawn as punctuation (U+2010, U+2019, U+2027, U+058A, U+02BB, U+02BC, U+02EC, U+0F0B, U+30A0, U+00B7 but in l·l)"
    src["tld-letter"] = "Chromium: a letter of one country's language (þ ð: .is .fo; ə: .az; l·l: .cat) under another TLD"
    src["embeds-protected"] = "idnguard (protect-embedded: yes): a part between hyphens looks like a protected registrable label"
    nrow = 0
    for (i = 1; i <= nk; i++) row[++nrow] = known[i]
    for (k in st) { split(k, p, SUBSEP); c = p[4]; if (c !~ /^\(/ && !(c in src)) { src[c] = "(not described here)"; row[++nrow] = c } }
    row[++nrow] = "(any lookalike class)"
    row[++nrow] = "(invalid: not a lookalike class)"
    row[++nrow] = "(rejected)"
    nc = split(ccs, cp, " ")
    for (i = 1; i <= nc; i++) { split(cp[i], q, ":"); corp[i] = q[1]; tld[i] = q[2] }

    print "# Lookalike classes: false positives on real IDNs, agreement with a browser"
    print ""
    print "Made by `make bench-lookalike-fp` (bench/lookalike_fp.sh) at commit " commit " (" ver ")."
    print ""
    print "Each name goes through `idnguard check --conf FILE --format=tsv`, which judges it as the resolver module does; a name is flagged by a class when the class is in its lookalike column.  The corpora are real names, so every flag on them is a false positive:"
    print ""
    print "- **psl**: the Public Suffix List's rules that hold a code point outside ASCII, each as a name as it stands (\"own\" TLD, e.g. 公司.cn), and each distinct non-ASCII label of them under .com."
    print "- **dictionary words** (Hunspell dictionaries; for de fr es pl pt the wordlists of /usr/share/dict): the part of a line before '/', a .dic file's count line skipped, Greek converted from the .aff's SET.  A word is kept when it is not plain ASCII, holds no '.' and no uppercase letter (`[[:upper:]]` in the C.UTF-8 locale), and is one label that converts (`idnguard to-ascii`); names are shown as `to-unicode` gives them back (NFC, escaped where not safe to show).  Of the distinct A-labels, every k-th in the file's order, at most " sample " a language; each judged as LABEL.com and as LABEL.ccTLD of its language."
    print ""
    print "Two settings files: **defaults** (no protected name, every default), and **protected**: the " ntop " top domains of tests/core/data/browser_top_domains.txt (Chromium's IDN test domains) as `protect:` lines, with `protect-suffixes: any` and `protect-embedded: yes`.  Cells are \"flagged under .com / flagged under the own ccTLD\", with the per cent of the names judged there."
    print ""
    print "Browser: Chromium's IDN spoof-checker test cases (tests/core/data/browser_idn_cases.txt), judged as tests/core/test_browser_cases.c judges them: every default and the top domains protected (no protect-suffixes, no protect-embedded), the empty host as the root; the hosts the test lists as deviations (its deviations[]) are judged but not counted, as there.  A case is flagged when its lookalike column is not empty, its action rejects, or its class is not ok; a case may be flagged by several classes."
    print ""
    printf "Packages: "; for (i = 1; i <= nv; i++) printf "%s%s", (i > 1 ? ", " : ""), vers[i]; print "."
    print ""
    print "| corpus | package | file | candidate words (not ASCII, no '.', no uppercase, distinct) | kept (one label, converts, distinct) | sampled (every k-th) | k |"
    print "|---|---|---|---:|---:|---:|---:|"
    for (i = 1; i <= ns; i++) {
        split(size[i], z, "\t")
        if (z[1] == "psl") print "| psl | " z[2] " | " z[3] " | " z[4] " (rules + labels) | - | " z[6] " rules, " z[7] " labels | - |"
        else print "| " z[1] " | " z[2] " | " z[3] " | " z[4] " | " z[5] " | " z[6] " | " z[7] " |"
    }
    print ""
    ub = b["browser", "unsafe", "(cases)"] + 0; sb = b["browser", "show", "(cases)"] + 0
    print "## Per class"
    print ""
    print "Browser columns: cases flagged by the class, of " ub " unsafe and " sb " show cases.  FP columns: all corpora together, protected settings."
    print ""
    print "| class | source of the rule | default action | browser unsafe flagged | browser show flagged (FP) | FP .com | FP own ccTLD |"
    print "|---|---|---|---:|---:|---:|---:|"
    tc = sum("protect", "com", "(names)"); to = sum("protect", "cc", "(names)")
    for (i = 1; i <= nrow; i++) {
        c = row[i]
        if (c ~ /^\(/) continue
        a = sum("protect", "com", c); o = sum("protect", "cc", c)
        print "| " c " | " src[c] " | " (c in action ? action[c] : "?") " | " b["browser", "unsafe", c] + 0 " | " b["browser", "show", c] + 0 " | " a " (" pct(a, tc) ") | " o " (" pct(o, to) ") |"
    }
    print "| (any: flagged) | lookalike, rejected or not ok | | " b["browser", "unsafe", "(flagged)"] + 0 " of " ub " | " b["browser", "show", "(flagged)"] + 0 " of " sb " | " sum("protect", "com", "(any lookalike class)") " (" pct(sum("protect", "com", "(any lookalike class)"), tc) ") | " sum("protect", "cc", "(any lookalike class)") " (" pct(sum("protect", "cc", "(any lookalike class)"), to) ") |"
    print ""
    printf "Deviations listed by tests/core/test_browser_cases.c, not counted:"
    for (i = 1; i <= nd; i++) printf "%s %s", (i > 1 ? ";" : ""), dev[i]
    print "."
    print ""
    print "Invalid cases (" b["browser", "invalid", "(cases)"] + 0 "): " b["browser", "invalid", "(flagged)"] + 0 " flagged.  With protect-suffixes: any and protect-embedded: yes added, the browser totals are: unsafe " b["protect", "unsafe", "(flagged)"] + 0 " of " b["protect", "unsafe", "(cases)"] + 0 ", show " b["protect", "show", "(flagged)"] + 0 " of " b["protect", "show", "(cases)"] + 0 "."
    print ""
    print "## False positives per corpus"
    print ""
    print "(any lookalike class): names with at least one class; (invalid: ...): names whose verdict class is an IDNA validity class (none should be: the words were chosen as converting); (rejected): names whose action is refuse, nxdomain or drop."
    print ""
    fptable("none", "Defaults (no protected name)")
    fptable("protect", "Protected (" ntop " top domains, protect-suffixes: any, protect-embedded: yes)")
    lost = 0; for (i = 1; i <= nc; i++) lost += st["none", corp[i], "com", "(lost with protected names)"] + st["none", corp[i], "cc", "(lost with protected names)"]
    print "Flags of the defaults that the protected settings do not give too: " lost " (the appendix lists the protected settings' flags)."
    print ""
    print "## Appendix: the first 10 flagged names of each corpus, per class"
    print ""
    print "Protected settings, in the corpus's order: Unicode (A-labels), and \"~ NAME\" the protected name it is taken to look like."
    for (i = 1; i <= nrow; i++) {
        c = row[i]
        if (c ~ /^\(/) continue
        hdr = 0
        for (j = 1; j <= nc; j++) for (kk = 1; kk <= 2; kk++) {
            kind = kk == 1 ? "com" : "cc"
            n = exn[corp[j], kind, c] + 0
            if (n == 0) continue
            if (!hdr) { print ""; print "### " c; print ""; hdr = 1 }
            printf "- %s, %s (%d flagged): ", corp[j], kind == "com" ? ".com" : (tld[j] == "own" ? "own TLD" : "." tld[j]), st["protect", corp[j], kind, c]
            for (m = 1; m <= n; m++) printf "%s%s", (m > 1 ? "; " : ""), exl[corp[j], kind, c, m]
            print ""
        }
    }
}
AWK
awk -F'\t' -v commit="$commit" -v ccs="$ccs" -v ntop="$ntop" -v sample="$sample" \
    -v ver="$("$bin" --version 2>/dev/null | head -n 1)" -f "$tmp/report.awk" \
    "$tmp/versions.tsv" "$tmp/sizes.tsv" "$tmp/actions.tsv" "$tmp/browser.tsv" "$tmp/stats.tsv" \
    "$tmp/examples.tsv" > "$outdir/lookalike-fp.md"
echo "wrote $outdir/lookalike-fp.md"
