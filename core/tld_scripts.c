/**
 * \file
 * The scripts a top-level domain expects (see idng_lookalike.h), and the
 * rules that need the top-level domain: whole-script and tld-letter.
 */
#include "idng_lookalike_internal.h"

#include <stdlib.h>
#include <string.h>

/*
 * The country-code top-level domains whose countries write a script of
 * IDNG_SCRIPT_LIST besides Latin (the ISO 3166-1 countries whose official
 * languages are written in it): a label in that script is at home there,
 * and is judged whole-script under every other ASCII domain.  Sorted.
 */
#define L IDNG_SCRIPT_LATIN
#define CYRL (L | IDNG_SCRIPT_CYRILLIC)
#define ARAB (L | IDNG_SCRIPT_ARABIC)
#define CJK (L | IDNG_SCRIPT_CJK)
/* India's scheduled languages (Hindi, Bengali, Gujarati, Punjabi, Kannada,
 * Malayalam, Odia, Tamil, Telugu, and more in Devanagari; Urdu in Arabic). */
#define INDIA                                                                          \
    (ARAB | IDNG_SCRIPT_BENGALI | IDNG_SCRIPT_DEVANAGARI | IDNG_SCRIPT_GUJARATI         \
     | IDNG_SCRIPT_GURMUKHI | IDNG_SCRIPT_KANNADA | IDNG_SCRIPT_MALAYALAM               \
     | IDNG_SCRIPT_ORIYA | IDNG_SCRIPT_TAMIL | IDNG_SCRIPT_TELUGU)
static const struct {
    char tld[3];
    unsigned scripts;
} builtin_tld[] = {
    {"ae", ARAB}, {"af", ARAB}, {"am", L | IDNG_SCRIPT_ARMENIAN}, {"ba", CYRL},
    {"bd", L | IDNG_SCRIPT_BENGALI}, {"bg", CYRL}, {"bh", ARAB}, {"by", CYRL}, {"cn", CJK},
    {"cy", L | IDNG_SCRIPT_GREEK}, {"dz", ARAB}, {"eg", ARAB}, {"er", ARAB | IDNG_SCRIPT_ETHIOPIC},
    {"et", L | IDNG_SCRIPT_ETHIOPIC}, {"fj", L | IDNG_SCRIPT_DEVANAGARI},
    {"ge", L | IDNG_SCRIPT_GEORGIAN},
    {"gr", L | IDNG_SCRIPT_GREEK}, {"hk", CJK}, {"il", L | IDNG_SCRIPT_HEBREW}, {"in", INDIA},
    {"iq", ARAB}, {"ir", ARAB}, {"jo", ARAB}, {"jp", CJK}, {"kg", CYRL}, {"kp", CJK},
    {"kr", CJK}, {"kw", ARAB}, {"kz", CYRL}, {"lb", ARAB}, {"lk", L | IDNG_SCRIPT_TAMIL},
    {"ly", ARAB}, {"ma", ARAB}, {"me", CYRL}, {"mk", CYRL}, {"mm", L | IDNG_SCRIPT_MYANMAR},
    {"mn", CYRL}, {"mo", CJK}, {"mr", ARAB}, {"np", L | IDNG_SCRIPT_DEVANAGARI}, {"om", ARAB},
    {"pk", ARAB}, {"ps", ARAB}, {"qa", ARAB}, {"rs", CYRL}, {"ru", CYRL}, {"sa", ARAB},
    {"sd", ARAB}, {"sg", CJK | IDNG_SCRIPT_TAMIL}, {"su", CYRL}, {"sy", ARAB},
    {"th", L | IDNG_SCRIPT_THAI}, {"tj", CYRL}, {"tn", ARAB}, {"tw", CJK}, {"ua", CYRL},
    {"uz", CYRL}, {"ye", ARAB},
};
#undef L
#undef CYRL
#undef ARAB
#undef CJK
#undef INDIA

/* Is tld[0..len) the label t, ASCII case aside? */
static int same_label(const uint8_t *tld, size_t len, const uint8_t *t, size_t tlen)
{
    size_t i;

    if (len != tlen)
        return 0;
    for (i = 0; i < len; i++)
        if (idng_ascii_lower(tld[i]) != t[i])
            return 0;
    return 1;
}

/* The top-level domains of the IDNG_TL_* letters, in the order of the bits. */
static const char *const tld_letter_home[][2] = {{"is", "fo"}, {"az", NULL}, {"cat", NULL}};

/* The rules that need the top-level domain (the last label), for every
 * judged label below it:
 * - whole-script: a label written in none of the scripts the domain
 *   expects, that can pass for one of them;
 * - tld-letter: an IDNG_TL_* letter under a domain that is not its home. */
void lk_by_tld(const struct idng_lookalike_run *r, struct idng_lookalike *out)
{
    size_t tld = r->nlab - 1, i, k;
    const uint8_t *t = r->wire + r->off[tld];
    unsigned own, expect, home = 0, letters = 0, passes = 0;

    /* Most labels can pass for no script but their own, and hold no TLD
     * letter: then the TLD need not be looked at. */
    for (i = 0; i < tld; i++) {
        passes |= r->ws_pass[i] & ~r->ws_own[i];
        letters |= r->tld_letters[i];
    }
    if (passes == 0 && letters == 0)
        return;
    own = r->judged[tld] && r->ws_own[tld] != IDNG_SCRIPTS_ALL ? r->ws_own[tld] : 0;
    expect = idng_tld_scripts(r->protect, t, r->len[tld], own);
    for (k = 0; letters && k < sizeof tld_letter_home / sizeof tld_letter_home[0]; k++)
        for (i = 0; i < 2 && tld_letter_home[k][i] != NULL; i++)
            if (same_label(t, r->len[tld], (const uint8_t *)tld_letter_home[k][i],
                           strlen(tld_letter_home[k][i])))
                home |= 1u << k;
    for (i = 0; i < tld; i++) {
        if (!r->judged[i])
            continue;
        if (!(r->ws_own[i] & expect) && (r->ws_pass[i] & expect))
            note(out, IDNG_C_WHOLE_SCRIPT, r->off[i], r->len[i]);
        if (r->tld_letters[i] & ~home)
            note(out, IDNG_C_TLD_LETTER, r->off[i], r->len[i]);
    }
}

unsigned idng_tld_scripts(const struct idng_protect *s, const uint8_t *tld, size_t len,
                          unsigned own_scripts)
{
    size_t k, lo = 0, hi = sizeof builtin_tld / sizeof builtin_tld[0];

    for (k = 0; s != NULL && k < s->ntld; k++)
        if (same_label(tld, len, s->tld[k].label, s->tld[k].len))
            return s->tld[k].scripts;
    if (len == 2) {
        char t[2] = {(char)idng_ascii_lower(tld[0]), (char)idng_ascii_lower(tld[1])};
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            int c = memcmp(t, builtin_tld[mid].tld, 2);
            if (c == 0)
                return builtin_tld[mid].scripts;
            if (c < 0)
                hi = mid;
            else
                lo = mid + 1;
        }
    }
    /* Any other expects Latin, an IDN top-level domain its own script too. */
    return own_scripts | IDNG_SCRIPT_LATIN;
}

int idng_protect_tld(struct idng_protect *s, const char *tld, size_t len, unsigned scripts)
{
    struct idng_tld_scripts *t;
    size_t i;

    if (len == 0 || len > sizeof t->label)
        return -2;
    for (i = 0; i < len; i++)
        if ((uint8_t)tld[i] >= 0x80 || tld[i] == '.')
            return -2;
    for (i = 0; i < s->ntld; i++)
        if (same_label((const uint8_t *)tld, len, s->tld[i].label, s->tld[i].len)) {
            s->tld[i].scripts = scripts;
            return 0;
        }
    t = realloc(s->tld, (s->ntld + 1) * sizeof *t);
    if (t == NULL)
        return -1;
    s->tld = t;
    t += s->ntld++;
    for (i = 0; i < len; i++)
        t->label[i] = idng_ascii_lower((unsigned char)tld[i]);
    t->len = (uint8_t)len;
    t->scripts = scripts;
    return 0;
}
