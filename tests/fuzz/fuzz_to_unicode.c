/**
 * \file
 * Fuzz target: idng_to_unicode on arbitrary bytes, in all three modes, with
 * and without IDNG_F_STRICT, each with and without IDNG_F_KEEP_GOING.
 *
 * Invariants, per mode and flags:
 * - statuses are known ones and equal err->status; an error's location
 *   lies within the input;
 * - IDNG_F_KEEP_GOING reports the same (first) status, and on OK the same
 *   output; after a label error its output is complete, so it is valid
 *   UTF-8 too;
 * - capacity: with room to spare never NOSPACE; an exact heap buffer of
 *   the length needed gives the same output; one short gives NOSPACE and
 *   the length needed; nothing written past any capacity (ASan);
 * - on OK the output is valid UTF-8 (RFC 3629), NUL-terminated;
 * - idna2008, uts46: idng_to_ascii of the output succeeds (or fails only
 *   for length: ToUnicode does not apply VerifyDnsLength), and ToUnicode of
 *   that gives the same output again;
 * - OK in idna2008 or uts46 implies OK in punycode mode with the same
 *   output.
 */
#include "fuzz_common.h"

#define BIG (64 * 1024)
static char big[BIG], kg[BIG], asc[BIG], back[BIG];
static char saved[3][2][BIG];

static const idng_mode modes[] = {IDNG_MODE_PUNYCODE, IDNG_MODE_IDNA2008, IDNG_MODE_UTS46};

static int fatal(idng_status st)
{
    return st == IDNG_E_BAD_UTF8 || st == IDNG_E_INPUT_TOO_LONG || st == IDNG_E_INVAL
           || st == IDNG_E_NOSPACE;
}

static void check_caps(const char *in, size_t size, idng_mode mode, unsigned flags,
                       const char *ref, size_t n, idng_status want)
{
    size_t caps[2], k, n2;

    caps[0] = n;
    caps[1] = n - 1;
    for (k = 0; k < (n > 0 ? 2u : 1u); k++) {
        char *out = fuzz_alloc(caps[k]);
        idng_status st;
        n2 = caps[k];
        st = idng_to_unicode(in, size, out, &n2, mode, flags, NULL);
        if (k == 0)
            FUZZ_CHECK(st == want && n2 == n && !memcmp(out, ref, n),
                       "exact capacity %zu: %d, expected %d", n, st, want);
        else
            FUZZ_CHECK(st == IDNG_E_NOSPACE && n2 == n, "one short of %zu: %d, %zu", n, st, n2);
        free(out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *in = fuzz_dup(data, size);
    idng_status res[3][2];
    size_t outn[3][2], m, f;

    for (m = 0; m < 3; m++)
        for (f = 0; f < 2; f++) {
            idng_mode mode = modes[m];
            unsigned flags = f ? IDNG_F_STRICT : 0;
            idng_error e, ek;
            idng_status st, sk, st2;
            size_t n = BIG, nk = BIG, n2, n3;

            st = idng_to_unicode(in, size, big, &n, mode, flags, &e);
            sk = idng_to_unicode(in, size, kg, &nk, mode, flags | IDNG_F_KEEP_GOING, &ek);
            FUZZ_CHECK(fuzz_is_valid_status(st) && st != IDNG_E_NOSPACE, "status %d", st);
            FUZZ_CHECK(e.status == st && ek.status == sk, "err.status differs from the return");
            FUZZ_CHECK(sk == st, "keep-going status %d, stopping %d", sk, st);
            if (st != IDNG_OK) {
                FUZZ_CHECK(e.label_off <= size && e.label_len <= size - e.label_off,
                           "error at %zu+%zu in %zu octets", e.label_off, e.label_len, size);
                FUZZ_CHECK(ek.label_off == e.label_off && ek.label_len == e.label_len,
                           "keep-going blames another label");
            }
            res[m][f] = st;
            outn[m][f] = st == IDNG_OK ? n : 0;
            if (st != IDNG_OK && !fatal(sk)) {
                FUZZ_CHECK(nk < BIG && kg[nk] == '\0', "keep-going output not NUL-terminated");
                FUZZ_CHECK(fuzz_utf8_valid((const unsigned char *)kg, nk),
                           "keep-going output is not UTF-8");
                check_caps(in, size, mode, flags | IDNG_F_KEEP_GOING, kg, nk, sk);
            }
            if (st != IDNG_OK)
                continue;
            FUZZ_CHECK(nk == n && !memcmp(kg, big, n), "keep-going output differs");
            FUZZ_CHECK(n < BIG && big[n] == '\0', "output not NUL-terminated");
            FUZZ_CHECK(fuzz_utf8_valid((const unsigned char *)big, n), "output is not UTF-8");
            check_caps(in, size, mode, flags, big, n, IDNG_OK);
            memcpy(saved[m][f], big, n);
            if (mode == IDNG_MODE_PUNYCODE)
                continue;

            n2 = BIG;
            st2 = idng_to_ascii(big, n, asc, &n2, mode, flags, &e);
            FUZZ_CHECK(st2 == IDNG_OK || idng_status_class(st2) == IDNG_C_TOO_LONG,
                       "mode %d: to-ASCII(to-Unicode(x)) = %d (%s) at %zu", mode, st2,
                       idng_status_symbol(st2), e.label_off);
            if (st2 != IDNG_OK)
                continue;
            n3 = BIG;
            st2 = idng_to_unicode(asc, n2, back, &n3, mode, flags, NULL);
            FUZZ_CHECK(st2 == IDNG_OK && n3 == n && !memcmp(back, big, n),
                       "mode %d: to-Unicode(to-ASCII(to-Unicode(x))) = %d, differs", mode, st2);
        }
    fuzz_check_modes_agree(res, outn, &saved[0][0][0], sizeof saved[0][0]);
    fuzz_check_uts46_flags(data, size, 1);
    free(in);
    return 0;
}
