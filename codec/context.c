/**
 * \file
 * The contextual rules of RFC 5892 appendix A: CONTEXTJ for the zero width
 * joiners (A.1, A.2; UTS #46 CheckJoiners uses them too) and CONTEXTO for
 * the code points whose validity depends on their neighbours or on the
 * rest of the label (A.3-A.9).  The label is at most 63 octets of A-label
 * (or 252 code points before mapping), so the scans here stay cheap.
 */
#include "idna_internal.h"

/* RFC 5892 appendix A.1 and A.2: ZERO WIDTH NON-JOINER and JOINER at u[i]. */
int idng_contextj_ok(const uint32_t *u, size_t n, size_t i)
{
    size_t j;
    unsigned jt;

    if (i > 0 && UP_CCC(idng_uprops(u[i - 1])) == 9) /* Virama */
        return 1;
    if (u[i] != 0x200C)
        return 0;
    /* (Joining_Type:{L,D})(Joining_Type:T)* ZWNJ (Joining_Type:T)*(Joining_Type:{R,D}) */
    for (j = i, jt = JT_T; j > 0 && (jt = UP_JT(idng_uprops(u[j - 1]))) == JT_T; j--)
        ;
    if (j == 0 || (jt != JT_L && jt != JT_D))
        return 0;
    for (j = i + 1, jt = JT_T; j < n && (jt = UP_JT(idng_uprops(u[j]))) == JT_T; j++)
        ;
    return j < n && (jt == JT_R || jt == JT_D);
}

static int label_has(const uint32_t *u, size_t n, uint32_t lo, uint32_t hi)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (u[i] >= lo && u[i] <= hi)
            return 1;
    return 0;
}

/* RFC 5892 appendix A.3-A.9 for the CONTEXTO code point u[i]. */
int idng_contexto_ok(const uint32_t *u, size_t n, size_t i)
{
    uint32_t cp = u[i];
    size_t j;

    if (cp == 0x00B7) /* A.3 MIDDLE DOT: between two 'l' */
        return i > 0 && i + 1 < n && u[i - 1] == 0x6C && u[i + 1] == 0x6C;
    if (cp == 0x0375) /* A.4 KERAIA: Greek follows */
        return i + 1 < n && UP_SCRIPT(idng_uprops(u[i + 1])) == SC_GREEK;
    if (cp == 0x05F3 || cp == 0x05F4) /* A.5, A.6 GERESH, GERSHAYIM: Hebrew precedes */
        return i > 0 && UP_SCRIPT(idng_uprops(u[i - 1])) == SC_HEBREW;
    if (cp == 0x30FB) { /* A.7 KATAKANA MIDDLE DOT: some Hiragana, Katakana or Han */
        for (j = 0; j < n; j++) {
            unsigned sc = UP_SCRIPT(idng_uprops(u[j]));
            if (sc == SC_HIRAGANA || sc == SC_KATAKANA || sc == SC_HAN)
                return 1;
        }
        return 0;
    }
    if (cp >= 0x0660 && cp <= 0x0669) /* A.8: no Extended Arabic-Indic digits */
        return !label_has(u, n, 0x06F0, 0x06F9);
    if (cp >= 0x06F0 && cp <= 0x06F9) /* A.9: no Arabic-Indic digits */
        return !label_has(u, n, 0x0660, 0x0669);
    return 0;
}
