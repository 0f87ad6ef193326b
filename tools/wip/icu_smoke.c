/* ICU smoke test: Unicode version, UTS #46 with a Unicode 16.0 letter, a skeleton. */
#include <stdio.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/uidna.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>
#include <unicode/uversion.h>

static void put16(const char *tag, const UChar *s, int32_t n)
{
    int32_t i = 0;
    printf("%s", tag);
    while (i < n) {
        UChar32 c;
        U16_NEXT(s, i, n, c);
        printf(" %04X", (unsigned)c);
    }
    printf("\n");
}

int main(void)
{
    UVersionInfo v;
    char vs[U_MAX_VERSION_STRING_LENGTH];
    UErrorCode e = U_ZERO_ERROR;
    int fails = 0;

    u_getUnicodeVersion(v);
    u_versionToString(v, vs);
    printf("ICU %s, Unicode %s\n", U_ICU_VERSION, vs);
    if (v[0] != 16)
        fails++;

    UIDNA *idna = uidna_openUTS46(UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_NONTRANSITIONAL_TO_UNICODE |
                                      UIDNA_USE_STD3_RULES | UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ,
                                  &e);
    if (U_FAILURE(e)) {
        printf("uidna_openUTS46: %s\n", u_errorName(e));
        return 1;
    }
    /* U+1C89 CYRILLIC CAPITAL LETTER TJE (new in 16.0, maps to U+1C8A),
     * U+10D50 GARAY CAPITAL LETTER A (16.0, maps to U+10D70). */
    static const char *names[] = {"\xE1\xB2\x89" "a.example", "\xF0\x90\xB5\x90.example",
                                  "xn--a-gzl.example"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char out[256];
        UIDNAInfo info = UIDNA_INFO_INITIALIZER;
        e = U_ZERO_ERROR;
        int32_t n = uidna_nameToASCII_UTF8(idna, names[i], -1, out, sizeof out - 1, &info, &e);
        out[n > 0 ? n : 0] = '\0';
        printf("toASCII(%s) = %s errors=%#x %s\n", names[i], out, (unsigned)info.errors, u_errorName(e));
        if (U_FAILURE(e) || info.errors)
            fails++;
        info = (UIDNAInfo)UIDNA_INFO_INITIALIZER;
        e = U_ZERO_ERROR;
        char back[256];
        n = uidna_nameToUnicodeUTF8(idna, out, -1, back, sizeof back - 1, &info, &e);
        back[n > 0 ? n : 0] = '\0';
        printf("  toUnicode = %s errors=%#x\n", back, (unsigned)info.errors);
    }
    uidna_close(idna);

    e = U_ZERO_ERROR;
    USpoofChecker *sc = uspoof_open(&e);
    UChar u[64], sk[256];
    int32_t ul;
    u_strFromUTF8(u, 64, &ul, "p\xD0\xB0ypal", -1, &e);
    int32_t sl = uspoof_getSkeleton(sc, 0, u, ul, sk, 256, &e);
    put16("skeleton(p<U+0430>ypal) =", sk, sl);
    e = U_ZERO_ERROR;
    u_strFromUTF8(u, 64, &ul, "\xE1\xB2\x8A", -1, &e); /* U+1C8A, 16.0 */
    sl = uspoof_getSkeleton(sc, 0, u, ul, sk, 256, &e);
    put16("skeleton(U+1C8A) =", sk, sl);
    printf("%s\n", u_errorName(e));
    uspoof_close(sc);
    printf("%s\n", fails ? "FAIL" : "OK");
    return fails != 0;
}
