/* Counts code points where libidnguard differs from the linked ICU:
 * skeleton of cp alone, restriction level / mixed numbers of cp and of
 * "a" cp "7", and UTS #46 ToASCII of "a" cp ".example". */
#include "idnguard.h"
#include <stdio.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/uidna.h>
#include <unicode/uset.h>
#include <unicode/uspoof.h>
#include <unicode/utf16.h>
#include <unicode/utf8.h>

static USpoofChecker *sc;
static USpoofCheckResult *res;
static const URestrictionLevel map[IDNG_RL_COUNT] = {
    USPOOF_ASCII, USPOOF_SINGLE_SCRIPT_RESTRICTIVE, USPOOF_HIGHLY_RESTRICTIVE,
    USPOOF_MODERATELY_RESTRICTIVE, USPOOF_MINIMALLY_RESTRICTIVE, USPOOF_UNRESTRICTIVE};

static int level_differs(const uint32_t *s, int n)
{
    UChar u[16];
    int32_t len = 0;
    UBool err = 0;
    UErrorCode e = U_ZERO_ERROR;
    for (int i = 0; i < n; i++)
        U16_APPEND(u, len, 16, (UChar32)s[i], err);
    int32_t r = uspoof_check2(sc, u, len, res, &e);
    URestrictionLevel want = uspoof_getCheckResultRestrictionLevel(res, &e);
    return map[idng_restriction_level(s, (size_t)n)] != want ||
           idng_mixed_numbers(s, (size_t)n) != ((r & USPOOF_MIXED_NUMBERS) != 0);
}

int main(void)
{
    UErrorCode e = U_ZERO_ERROR;
    UVersionInfo v;
    char vs[32];
    unsigned long sk = 0, lv = 0, lv3 = 0, idna = 0, idna_new = 0;
    int shown_sk = 0, shown_idna = 0;

    u_getUnicodeVersion(v);
    u_versionToString(v, vs);
    sc = uspoof_open(&e);
    uspoof_setChecks(sc, USPOOF_RESTRICTION_LEVEL | USPOOF_MIXED_NUMBERS, &e);
    USet *allowed = uset_openEmpty();
    uset_addAll(allowed, uspoof_getRecommendedSet(&e));
    uset_addAll(allowed, uspoof_getInclusionSet(&e));
    uspoof_setAllowedChars(sc, allowed, &e);
    res = uspoof_openCheckResult(&e);
    UIDNA *ui = uidna_openUTS46(UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_NONTRANSITIONAL_TO_UNICODE |
                                    UIDNA_USE_STD3_RULES | UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ,
                                &e);
    if (U_FAILURE(e)) {
        printf("ICU: %s\n", u_errorName(e));
        return 2;
    }
    for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
        if (cp - 0xD800 < 0x800)
            continue;
        /* skeleton */
        UChar u[4], w[64];
        int32_t ul = 0, wl, i = 0;
        UBool err = 0;
        U16_APPEND(u, ul, 4, (UChar32)cp, err);
        e = U_ZERO_ERROR;
        wl = uspoof_getSkeleton(sc, 0, u, ul, w, 64, &e);
        uint32_t want[64], got[64];
        size_t wn = 0, gn = 64;
        while (i < wl) {
            UChar32 c;
            U16_NEXT(w, i, wl, c);
            want[wn++] = (uint32_t)c;
        }
        if (idng_skeleton(&cp, 1, got, &gn) != IDNG_OK || gn != wn ||
            memcmp(got, want, wn * sizeof *got)) {
            if (shown_sk++ < 5)
                printf("  skeleton differs at U+%04X\n", (unsigned)cp);
            sk++;
        }
        /* levels */
        uint32_t s3[3] = {'a', cp, '7'};
        lv += level_differs(&cp, 1);
        lv3 += level_differs(s3, 3);
        /* ToASCII of a<cp>.example */
        char in[16], a[64], b[64];
        int32_t k = 0;
        in[k++] = 'a';
        U8_APPEND_UNSAFE(in, k, cp);
        memcpy(in + k, ".example", 9);
        UIDNAInfo info = UIDNA_INFO_INITIALIZER;
        e = U_ZERO_ERROR;
        int32_t an = uidna_nameToASCII_UTF8(ui, in, -1, a, sizeof a - 1, &info, &e);
        int icu_ok = U_SUCCESS(e) && info.errors == 0;
        if (icu_ok)
            a[an] = '\0';
        size_t bn = sizeof b;
        idng_error ie;
        int our_ok = idng_to_ascii(in, strlen(in), b, &bn, IDNG_MODE_UTS46, 0, &ie) == IDNG_OK;
        if (icu_ok != our_ok || (icu_ok && strcmp(a, b) != 0)) {
            if (shown_idna++ < 5)
                printf("  ToASCII differs at U+%04X: ICU %s, ours %s\n", (unsigned)cp,
                       icu_ok ? a : "error", our_ok ? b : "error");
            idna++;
            if (icu_ok && !our_ok)
                idna_new++;
        }
    }
    printf("ICU %s / Unicode %s: code points differing: skeleton %lu, level(cp) %lu, "
           "level(a cp 7) %lu, ToASCII(a cp .example) %lu (ICU accepts, ours refuses: %lu)\n",
           U_ICU_VERSION, vs, sk, lv, lv3, idna, idna_new);
    return 0;
}
