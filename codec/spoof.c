/**
 * \file
 * Lookalikes beyond UTS #39's skeleton: whole-script confusables against
 * the script a top-level domain expects, the looser keys of near misses,
 * the patterns browsers refuse to show, and the emoji code points the
 * mixed-script rule sets aside (see idnguard.h).  The data comes from the
 * generated tables (tools/gen_tables.py: confusables.txt,
 * Script_Extensions, UnicodeData.txt's names, tools/lookalike_extra.txt,
 * emoji-data.txt).
 */
#include "idna_internal.h"
#include "idnguard.h"
#include "unicode.h"

#include <string.h>

static const char *const script_names[] = {
#define IDNG_X_SCRIPT(sym, name) name,
    IDNG_SCRIPT_LIST(IDNG_X_SCRIPT)
#undef IDNG_X_SCRIPT
};

_Static_assert(IDNG_SCRIPT_COUNT == IDNG_UT_WS_TARGETS,
               "IDNG_SCRIPT_LIST must be the generator's WS_TARGETS");
_Static_assert(IDNG_SCRIPT_LATIN_INDEX == IDNG_UT_WS_LATN
                   && IDNG_SCRIPT_CYRILLIC_INDEX == IDNG_UT_WS_CYRL
                   && IDNG_SCRIPT_GREEK_INDEX == IDNG_UT_WS_GREK
                   && IDNG_SCRIPT_ARMENIAN_INDEX == IDNG_UT_WS_ARMN
                   && IDNG_SCRIPT_GEORGIAN_INDEX == IDNG_UT_WS_GEOR
                   && IDNG_SCRIPT_HEBREW_INDEX == IDNG_UT_WS_HEBR
                   && IDNG_SCRIPT_ARABIC_INDEX == IDNG_UT_WS_ARAB
                   && IDNG_SCRIPT_THAI_INDEX == IDNG_UT_WS_THAI
                   && IDNG_SCRIPT_CJK_INDEX == IDNG_UT_WS_CJK
                   && IDNG_SCRIPT_ETHIOPIC_INDEX == IDNG_UT_WS_ETHI
                   && IDNG_SCRIPT_MYANMAR_INDEX == IDNG_UT_WS_MYMR
                   && IDNG_SCRIPT_BENGALI_INDEX == IDNG_UT_WS_BENG
                   && IDNG_SCRIPT_DEVANAGARI_INDEX == IDNG_UT_WS_DEVA
                   && IDNG_SCRIPT_GUJARATI_INDEX == IDNG_UT_WS_GUJR
                   && IDNG_SCRIPT_GURMUKHI_INDEX == IDNG_UT_WS_GURU
                   && IDNG_SCRIPT_KANNADA_INDEX == IDNG_UT_WS_KNDA
                   && IDNG_SCRIPT_MALAYALAM_INDEX == IDNG_UT_WS_MLYM
                   && IDNG_SCRIPT_ORIYA_INDEX == IDNG_UT_WS_ORYA
                   && IDNG_SCRIPT_TAMIL_INDEX == IDNG_UT_WS_TAML
                   && IDNG_SCRIPT_TELUGU_INDEX == IDNG_UT_WS_TELU,
               "IDNG_SCRIPT_LIST must be in the order of the generator's WS_TARGETS");

const char *idng_script_name(unsigned i)
{
    return i < IDNG_SCRIPT_COUNT ? script_names[i] : NULL;
}

int idng_script_lookup(const char *name, size_t len)
{
    unsigned i;

    for (i = 0; i < IDNG_SCRIPT_COUNT; i++)
        if (strlen(script_names[i]) == len && memcmp(script_names[i], name, len) == 0)
            return (int)i;
    return -1;
}

/* ---- emoji ---- */

int idng_is_emoji(uint32_t cp)
{
    /* The edges alternate, an emoji run's first code point then the first
     * after it: cp is one when an odd number of edges are at or below it. */
    const uint32_t *base = idng_ut_emoji_edge;
    size_t n = idng_ut_emoji_count;

    if (cp < idng_ut_emoji_edge[0] || cp > 0x10FFFF)
        return 0;
    while (n > 1) {
        size_t half = n / 2;
        base = base[half] <= cp ? base + half : base;
        n -= half;
    }
    return (int)((base - idng_ut_emoji_edge) & 1) == 0;
}

/* ---- whole-script confusables ---- */

static const uint64_t *scx_set(uint32_t w)
{
    return idng_ut_scx + (size_t)US_SCX(w) * IDNG_UT_SCX_WORDS;
}

static int scx_has(const uint64_t *set, unsigned script)
{
    return (int)(set[script / 64] >> (script % 64) & 1);
}

/* Is the set every script (Common, Inherited)? */
static int scx_every(const uint64_t *set)
{
    return set == idng_ut_scx + (size_t)IDNG_UT_SCX_EVERY * IDNG_UT_SCX_WORDS;
}

/* The IDNG_SCRIPT_* bits of the scripts in the set of security word w. */
static unsigned targets_of(uint32_t w)
{
    return idng_ut_scx_targets[US_SCX(w)];
}

/* The IDNG_SCRIPT_* bits of the scripts in a set made by intersection. */
static unsigned own_targets(const uint64_t *set)
{
    static const int scx[IDNG_UT_WS_TARGETS][3] = IDNG_UT_WS_SCX;
    unsigned k, j, bits = 0;

    for (k = 0; k < IDNG_UT_WS_TARGETS; k++)
        for (j = 0; j < 3 && scx[k][j] >= 0; j++)
            bits |= (unsigned)scx_has(set, (unsigned)scx[k][j]) << k;
    return bits;
}

unsigned idng_whole_script(const uint32_t *s, size_t n, unsigned *own)
{
    struct idng_spoof_facts f;

    idng_spoof_label(s, n, idng_restriction_level(s, n), &f);
    *own = f.ws_own;
    return f.ws_pass;
}

int idng_in_scripts(const uint32_t *s, size_t n, unsigned scripts)
{
    int any = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        uint32_t w;
        if (s[i] > 0x10FFFF)
            return 0;
        w = idng_usec(s[i]);
        if (scx_every(scx_set(w)))
            continue;
        if (!(targets_of(w) & scripts))
            return 0;
        any = 1;
    }
    return any ? 1 : -1;
}

/* ---- the looser keys ---- */

/* The IDNG_SK_* under which the key of a code point of security word w may
 * differ from its skeleton: the extra and fold mappings' letters (and the
 * dotless letters) under both, a decomposition or a combining mark under
 * IDNG_SK_FOLD. */
static inline unsigned key_flags(uint32_t w)
{
    return US_LKMAP(w) * (IDNG_SK_EXTRA | IDNG_SK_FOLD)
           | (unsigned)(US_NZCCC(w) | (US_DEC(w) != 0)) * IDNG_SK_FOLD;
}

unsigned idng_skeleton_keys(const uint32_t *s, size_t n)
{
    unsigned f = 0;
    size_t i;

    for (i = 0; i < n; i++)
        f |= s[i] > 0x10FFFF ? IDNG_SK_EXTRA | IDNG_SK_FOLD : key_flags(idng_usec(s[i]));
    return f;
}

/* Appends cp, or its extra lookalike mapping under IDNG_SK_EXTRA, to
 * t[*m..); t has room for it. */
static void put_letter(uint32_t cp, unsigned flags, uint32_t *t, size_t *m)
{
    long at = (flags & IDNG_SK_EXTRA) && US_LKMAP(idng_usec(cp))
                  ? idng_find_u32(idng_ut_extra_cp, idng_ut_extra_count, cp)
                  : -1;
    if (at < 0) {
        t[(*m)++] = cp;
    } else {
        uint32_t ref = idng_ut_extra_ref[at];
        size_t len = ref & IDNG_UT_REF_LEN_MASK;
        memcpy(t + *m, idng_ut_pool + (ref >> IDNG_UT_REF_LEN_BITS), len * sizeof *t);
        *m += len;
    }
}

/* The most code points one input code point becomes before the skeleton:
 * its decomposition, or an extra mapping (ASCII targets, short). */
#define PIECES_MAX 8

idng_status idng_skeleton_ex(const uint32_t *in, size_t n, unsigned flags, uint32_t *out,
                             size_t *outlen)
{
    uint32_t t[(IDNG_LABEL_MAX + 1) * PIECES_MAX];
    size_t m = 0, i, j, k;
    idng_status st;

    if (flags == 0)
        return idng_skeleton(in, n, out, outlen);
    if (n > IDNG_LABEL_MAX + 1)
        return IDNG_E_INVAL;
    for (i = 0; i < n; i++) {
        uint32_t d[IDNG_UT_DECOMP_MAX];
        if (in[i] > 0x10FFFF || in[i] - 0xD800 < 0x800)
            return in[i] > 0x10FFFF ? IDNG_E_CODEPOINT_MAX : IDNG_E_SURROGATE;
        /* A dotless i or j, or a palochka, with a dot above is the dotted
         * letter. */
        if ((flags & IDNG_SK_EXTRA) && i + 1 < n && in[i + 1] == 0x307
            && (in[i] == 0x131 || in[i] == 0x237 || in[i] == 0x4CF)) {
            t[m++] = in[i] == 0x237 ? 'j' : 'i';
            i++;
            continue;
        }
        if (!(flags & IDNG_SK_FOLD)) {
            put_letter(in[i], flags, t, &m);
            continue;
        }
        k = idng_decompose(in[i], d);
        for (j = 0; j < k; j++) {
            long at = -1;
            if (US_NZCCC(idng_usec(d[j])))
                continue;
            if (US_LKMAP(idng_usec(d[j])))
                at = idng_find_u32(idng_ut_fold_cp, idng_ut_fold_count, d[j]);
            put_letter(at < 0 ? d[j] : idng_ut_fold_to[at], flags, t, &m);
        }
    }
    st = idng_skeleton(t, m, out, outlen);
    /* With the extra mappings, a name reads the same in either case:
     * Cherokee and Lisu letters whose prototypes are capitals (APPLE) key as
     * the small letters. */
    if (st == IDNG_OK && (flags & IDNG_SK_EXTRA))
        for (i = 0; i < *outlen; i++)
            out[i] += out[i] - 'A' < 26u ? 'a' - 'A' : 0;
    return st;
}

/* ---- patterns ---- */

/*
 * Each rule below names its source.  Chromium's IDN spoof checker
 * (components/url_formatter/spoof_checks/idn_spoof_checker.cc, the checks
 * behind "show this host in Unicode?") is the browser whose judgments
 * tests/core/data/browser_idn_cases.txt holds; the character lists taken
 * from it are facts about what looks like what, and each list says so.
 */

/* Is cp in a script of set script (a bit of the script sets), Common and
 * Inherited code points not counted? */
static int in_script(uint32_t cp, unsigned script)
{
    const uint64_t *set = scx_set(idng_usec(cp));

    return !scx_every(set) && scx_has(set, script);
}

static int is_japanese(uint32_t cp)
{
    return in_script(cp, SCX_KANA) || in_script(cp, SCX_HIRA) || in_script(cp, SCX_HANI);
}

static int is_cjk(uint32_t cp)
{
    return is_japanese(cp) || in_script(cp, SCX_BOPO);
}

static int is_lgc(uint32_t cp)
{
    return in_script(cp, SCX_LATN) || in_script(cp, SCX_GREK) || in_script(cp, SCX_CYRL);
}

static int is_mark(uint32_t cp)
{
    return UP_MARK(idng_uprops(cp)) != 0;
}

static int listed(const uint32_t *list, size_t n, uint32_t cp)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (list[i] == cp)
            return 1;
    return 0;
}
#define LISTED(list, cp) listed(list, sizeof list / sizeof list[0], cp)

/*
 * mark-pattern, on the label's NFD:
 * - the same nonspacing mark twice in a row, or more than four marks in a
 *   row (UTS #39 section 5.4, its optional checks);
 * - a mark on a dotless i or j (U+0131, U+0237): it can draw the dot back
 *   (Chromium);
 * - U+0307 COMBINING DOT ABOVE on i, j, l or a dotless i (Chromium);
 * - a mark of U+0300-U+0339 on a letter outside Latin, Greek and
 *   Cyrillic, where such marks do not belong (Chromium);
 * - the overlay marks U+0334-U+0338 (tilde, stroke and solidus overlays),
 *   which draw a slash or a stroke through a letter (Chromium blocks the
 *   long solidus overlay).
 */
static int mark_pattern(const uint32_t *d, size_t n)
{
    size_t i, run = 0;
    uint32_t base = 0;

    for (i = 0; i < n; i++) {
        if (!is_mark(d[i])) {
            run = 0;
            base = d[i];
            continue;
        }
        if (++run > 4 || (run > 1 && d[i] == d[i - 1]))
            return 1;
        if (d[i] >= 0x334 && d[i] <= 0x338)
            return 1;
        if (base == 0x131 || base == 0x237)
            return 1;
        if (d[i] == 0x307 && (base == 'i' || base == 'j' || base == 'l'))
            return 1;
        if (d[i] >= 0x300 && d[i] <= 0x339 && base != 0 && !is_lgc(base))
            return 1;
    }
    return 0;
}

/*
 * cjk-pattern (Chromium's list and rules), in a label that mixes scripts
 * or holds one of the Kana that the rules below are about (Chromium runs
 * them only there: a label of one script, Han with Kana or Bopomofo
 * counting as one, is Japanese or Chinese text as written):
 * - U+3099 and U+309A, the combining Kana voiced sound marks;
 * - U+30FC KATAKANA-HIRAGANA PROLONGED SOUND MARK first or after a
 *   character that is not Kana (it looks like a dash);
 * - U+30FB KATAKANA MIDDLE DOT beside a Latin letter (a dot);
 * - U+30FD and U+30FE, the Katakana iteration marks, first or after a
 *   character that is not Katakana;
 * - Katakana ノ ソ ゾ ン and Han 丶 乀 乁 丿 (slashes and strokes) between two
 *   characters that are not Japanese;
 * - Hiragana へ べ ぺ in a label otherwise Katakana, Katakana ヘ ベ ペ in one
 *   otherwise Hiragana (they are drawn alike);
 * - Han and Bopomofo characters that look like Latin letters or
 *   punctuation (一 ㄧ 丨 乛 七 丅 十 〇 ㄒ ㄚ ㄟ ㄨ ㄩ ㄈ ㆺ ㆳ 工 ㆲ 讠 丁, and
 *   丆 丫 乂 of its extra mappings) beside a character that is not Chinese
 *   or Japanese;
 * - a Latin letter outside ASCII in a label with Han, Kana or Hangul
 *   (Chromium: non-ASCII Latin beside another script; UTS #39's highly
 *   restrictive level lets Latin and these scripts mix).
 */
static int not_in(uint32_t cp, int (*same)(uint32_t))
{
    return cp != 0 && !same(cp);
}

static int is_kana(uint32_t cp)
{
    return in_script(cp, SCX_KANA) || in_script(cp, SCX_HIRA);
}

/* The Kana whose presence makes a label of one script face the rules. */
static int kana_exception(uint32_t cp)
{
    return (cp >= 0x3078 && cp <= 0x307A) || (cp >= 0x30D8 && cp <= 0x30DA)
           || (cp >= 0x30FB && cp <= 0x30FE);
}

static int cjk_pattern(const uint32_t *s, size_t n, int mixed)
{
    static const uint32_t strokes[] = {0x30CE, 0x30BD, 0x30BE, 0x30F3,
                                       0x4E36, 0x4E40, 0x4E41, 0x4E3F};
    static const uint32_t latin_like[] = {
        0x4E00, 0x3127, 0x4E28, 0x4E5B, 0x4E03, 0x4E05, 0x5341, 0x3007, 0x3112, 0x311A, 0x311F,
        0x3128, 0x3129, 0x3108, 0x31BA, 0x31B3, 0x5DE5, 0x31B2, 0x8BA0, 0x4E01, 0x4E06, 0x4E2B,
        0x4E42};
    size_t i, kana = 0, hira = 0, he_hira = 0, he_kana = 0, cjk = 0, latin = 0;

    if (!mixed)
        return 0;
    for (i = 0; i < n; i++) {
        uint32_t c = s[i], prev = i > 0 ? s[i - 1] : 0, next = i + 1 < n ? s[i + 1] : 0;
        if (c == 0x3099 || c == 0x309A)
            return 1;
        if (c == 0x30FC && (i == 0 || !is_kana(prev)))
            return 1;
        if (c == 0x30FB && ((prev | 0x20) - 'a' < 26u || (next | 0x20) - 'a' < 26u))
            return 1;
        if ((c == 0x30FD || c == 0x30FE) && (i == 0 || !in_script(prev, SCX_KANA)))
            return 1;
        if (LISTED(strokes, c) && not_in(prev, is_japanese) && not_in(next, is_japanese))
            return 1;
        if (LISTED(latin_like, c) && (not_in(prev, is_cjk) || not_in(next, is_cjk)))
            return 1;
        he_hira += c >= 0x3078 && c <= 0x307A;
        he_kana += c >= 0x30D8 && c <= 0x30DA;
        kana += in_script(c, SCX_KANA);
        hira += in_script(c, SCX_HIRA);
        cjk += in_script(c, SCX_HANB) || in_script(c, SCX_JPAN) || in_script(c, SCX_KORE);
        latin += c >= 0x80 && in_script(c, SCX_LATN);
    }
    return (he_hira > 0 && kana + he_hira == n && kana > 0)
           || (he_kana > 0 && hira + he_kana == n && hira > 0) || (cjk > 0 && latin > 0);
}

/*
 * digit-lookalike: a label made only of ASCII digits and characters that
 * look like digits, at least one of the latter: the code points whose
 * skeleton, or extra lookalike mapping, is an ASCII digit (the tables).
 * Chromium's rule.
 */

/*
 * punctuation-like: letters UTS #39 allows that are drawn as punctuation:
 * U+2010 HYPHEN, U+2019 RIGHT SINGLE QUOTATION MARK, U+2027 HYPHENATION
 * POINT, U+058A ARMENIAN HYPHEN, U+02BB and U+02BC (modifier letter
 * apostrophes), U+02EC MODIFIER LETTER VOICING, U+0F0B TIBETAN MARK
 * INTERSYLLABIC TSHEG, U+30A0 KATAKANA-HIRAGANA DOUBLE HYPHEN, and U+00B7
 * MIDDLE DOT except between two l's, where RFC 5892 appendix A.3 allows it
 * (Catalan l·l).  Chromium leaves them out of the characters it shows; it
 * shows the Hebrew geresh and gershayim (U+05F3, U+05F4) with Hebrew, and so
 * they are not here.
 */

/* The punctuation-like letters but the middle dot (see punctuation_like). */
static IDNG_ALWAYS_INLINE int punct_listed(uint32_t cp)
{
    switch (cp) {
    case 0x2010: case 0x2019: case 0x2027: case 0x058A: case 0x02BB:
    case 0x02BC: case 0x02EC: case 0x0F0B: case 0x30A0:
        return 1;
    default:
        return 0;
    }
}

/* The steps of a over s[i..n) (ents as below); s's level. */
static IDNG_ALWAYS_INLINE idng_restriction uts39_rest(struct idng_uts39_acc *a, const uint32_t *s,
                                                      const uint16_t *ents, size_t i, size_t n)
{
    for (; i < n; i++) {
        if (s[i] > 0x10FFFF)
            a->allowed = 0;
        else
            idng_uts39_step(a, s[i], ents != NULL ? idng_ut_sec_props[ents[i]] : idng_usec(s[i]));
    }
    return idng_uts39_level(a);
}

/* idng_spoof_label, with ents[0..n) the trie entries of s (idng_ucp), or
 * NULL to look them up.  With a (started), s's level is not given but
 * found in the same pass (idng_uts39_step) and returned; level otherwise. */
static IDNG_ALWAYS_INLINE idng_restriction spoof_label(const uint32_t *s, const uint16_t *ents,
                                                       size_t n, idng_restriction level,
                                                       struct idng_uts39_acc *a,
                                                       struct idng_spoof_facts *f)
{
    uint64_t all[IDNG_UT_SCX_WORDS];
    uint32_t d[(IDNG_LABEL_MAX + 1) * IDNG_UT_DECOMP_MAX];
    uint32_t last = US_SCX_MASK + 1;
    /* What of a security word the tests past the particular code points
     * read; last_w is the code point before's (none at first), letter
     * whether it was a letter of a script. */
    const uint32_t rest_mask = US_SCX_MASK << US_SCX_SHIFT | US_LKMAP_MASK << US_LKMAP_SHIFT
                               | US_NZCCC_MASK << US_NZCCC_SHIFT | US_DEC_MASK << US_DEC_SHIFT;
    uint32_t last_w = 0xFFFFFFFFu;
    int letter = 0;
    unsigned pass = IDNG_SCRIPTS_ALL, last_targets = 0, k, sets = 0;
    int letters = 0, marks = 0, cjk = 0, kana_exc = 0, digits = 1, digitlike = 0, punct = 0;
    int browser = 1;
    size_t i, nd = 0;

    memset(f, 0, sizeof *f);
    memset(all, 0xFF, sizeof all);
    if (n > IDNG_LABEL_MAX + 1) {
        f->ws_own = IDNG_SCRIPTS_ALL;
        return a != NULL ? uts39_rest(a, s, ents, 0, n) : level;
    }
    for (i = 0; i < n; i++) {
        uint32_t c = s[i], w, e;
        const uint64_t *set;
        if (c > 0x10FFFF) {
            f->ws_own = IDNG_SCRIPTS_ALL;
            f->ws_pass = 0;
            return a != NULL ? uts39_rest(a, s, ents, i, n) : level;
        }
        e = ents != NULL ? ents[i] : idng_ucp(c);
        w = idng_ut_sec_props[e];
        if (a != NULL)
            idng_uts39_step(a, c, w);
        /* digit-lookalike: digits and digit lookalikes only. */
        if (digits && c - '0' >= 10u) {
            /* Every digit lookalike has a prototype or an extra mapping
             * (but l, whose prototype it is itself). */
            if (!(US_CONF(w) || US_LKMAP(w) || c == 'l')
                || idng_find_u32(idng_ut_digitlike_cp, idng_ut_digitlike_count, c) < 0)
                digits = 0;
            else
                digitlike = 1;
        }
        /* The tests of particular code points: every one they name is in
         * U+00B7..U+30FE. */
        if (c - 0xB7 <= 0x30FEu - 0xB7) {
            punct |= punct_listed(c)
                     || (c == 0xB7 && !(i > 0 && i + 1 < n && s[i - 1] == 'l' && s[i + 1] == 'l'));
            kana_exc |= kana_exception(c);
            if (c == 0xFE || c == 0xF0)
                f->tld_letters |= IDNG_TL_ICELANDIC;
            else if (c == 0x259)
                f->tld_letters |= IDNG_TL_AZERBAIJANI;
            else if (c == 0xB7)
                f->tld_letters |= IDNG_TL_CATALAN;
        }
        /* What is left reads the word's script set and its key and mark
         * bits, and changes nothing a second time: a code point that
         * agrees with the one before on them is passed over (a label is
         * mostly of one script) but for its whole-script mask, when the one
         * before was a letter. */
        if ((w & rest_mask) != last_w) {
            last_w = w & rest_mask;
            letter = 0;
            set = scx_set(w);
            /* The keys that differ from the skeleton's: key_flags's rule,
             * spelt out here where the marks' branch is taken anyway (a
             * call costs the judgment some fifty instructions). */
            if (US_LKMAP(w))
                f->keys |= IDNG_SK_EXTRA | IDNG_SK_FOLD;
            /* A lone combining mark (a precomposed letter's marks make no
             * pattern alone: none repeats one, holds five or sits on a
             * letter outside Latin, Greek and Cyrillic). */
            if (US_NZCCC(w)) {
                f->keys |= IDNG_SK_FOLD;
                marks = 1;
            } else if (US_DEC(w)) {
                f->keys |= IDNG_SK_FOLD;
            }
            /* Whole-script: marks (whatever scripts they list) and Common
             * and Inherited code points pass for any script; a letter
             * passes for its own scripts, and for those the table lists
             * (whose lookalikes are in another script); a label whose
             * letters are all marked IDNG_UT_WS_BROWSER passes for Latin
             * too. */
            if (!scx_every(set))
                cjk |= (targets_of(w) & IDNG_SCRIPT_CJK) != 0;
            if (scx_every(set))
                continue;
            if (US_NZCCC(w)) {
                browser = 0; /* a mark of a script: no Latin letter has it */
                continue;
            }
            letter = letters = 1;
            if (US_SCX(w) != last) {
                last = US_SCX(w);
                for (k = 0; k < IDNG_UT_SCX_WORDS; k++)
                    all[k] &= set[k];
                last_targets = targets_of(w);
                sets += sets < 2;
            }
        } else if (!letter) {
            continue;
        }
        if (browser || (pass & ~last_targets)) {
            uint32_t m = idng_ut_ws_mask[e]; /* 0 but where US_WS(w) */
            pass &= last_targets | (m & IDNG_SCRIPTS_ALL);
            browser &= (m & IDNG_UT_WS_BROWSER) != 0;
        }
    }
    if (a != NULL)
        level = idng_uts39_level(a);
    for (k = 0; k < IDNG_UT_SCX_WORDS && all[k] == 0; k++)
        ;
    if (!letters || k == IDNG_UT_SCX_WORDS) {
        f->ws_own = IDNG_SCRIPTS_ALL; /* no letter, or mixed */
    } else {
        /* One script set all along (the common label): its table entry. */
        f->ws_own = sets == 1 ? last_targets : own_targets(all);
        /* Every letter one of Chromium's whole-script set of its script:
         * the label passes for Latin as a whole. */
        f->ws_pass = pass | (browser ? IDNG_SCRIPT_LATIN : 0u);
    }
    if (marks) {
        for (i = 0; i < n; i++)
            nd += idng_decompose(s[i], d + nd);
        idng_canonical_order(d, nd);
        if (mark_pattern(d, nd))
            f->patterns |= 1u << (IDNG_C_MARK_PATTERN - IDNG_C_MARK_PATTERN);
    }
    if (cjk && cjk_pattern(s, n, level > IDNG_RL_SINGLE_SCRIPT || kana_exc))
        f->patterns |= 1u << (IDNG_C_CJK_PATTERN - IDNG_C_MARK_PATTERN);
    if (digits && digitlike)
        f->patterns |= 1u << (IDNG_C_DIGIT_LOOKALIKE - IDNG_C_MARK_PATTERN);
    if (punct)
        f->patterns |= 1u << (IDNG_C_PUNCTUATION - IDNG_C_MARK_PATTERN);
    return level;
}

void idng_spoof_label(const uint32_t *s, size_t n, idng_restriction level,
                      struct idng_spoof_facts *f)
{
    spoof_label(s, NULL, n, level, NULL, f);
}

idng_restriction idng_judge_label(const uint32_t *s, const uint16_t *ents, size_t n,
                                  int *mixed_numbers, struct idng_spoof_facts *f)
{
    struct idng_uts39_acc a;
    idng_restriction level;

    idng_uts39_start(&a);
    level = ents != NULL ? spoof_label(s, ents, n, IDNG_RL_ASCII, &a, f)
                         : spoof_label(s, NULL, n, IDNG_RL_ASCII, &a, f);
    if (mixed_numbers != NULL)
        *mixed_numbers = a.mixed;
    return level;
}

unsigned idng_spoof_patterns(const uint32_t *s, size_t n)
{
    struct idng_spoof_facts f;

    idng_spoof_label(s, n, idng_restriction_level(s, n), &f);
    return f.patterns;
}

unsigned idng_tld_letters(const uint32_t *s, size_t n)
{
    struct idng_spoof_facts f;

    idng_spoof_label(s, n, idng_restriction_level(s, n), &f);
    return f.tld_letters;
}
