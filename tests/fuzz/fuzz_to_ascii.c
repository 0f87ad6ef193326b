/**
 * \file
 * Fuzz target: idng_to_ascii on arbitrary bytes, in all three modes, with
 * and without IDNG_F_STRICT (six conversions per input), at several
 * capacities.
 *
 * Invariants, per mode and flags:
 * - statuses are known ones and equal err->status; an error's location
 *   lies within the input;
 * - capacity: with room to spare never NOSPACE; with exactly the length
 *   needed (an exact heap buffer) OK and the same output, NUL-terminated
 *   only when there is room; one short and a capacity taken from the input:
 *   NOSPACE with *outlen the length needed; an input error is reported
 *   whatever the capacity; nothing written past any capacity (ASan);
 * - IDNG_F_KEEP_GOING (a to-Unicode flag) changes nothing;
 * - on OK the output is ASCII without uppercase letters and DNS-length
 *   valid: "." alone, or labels of 1-63 octets, at most 253 octets without
 *   the optional trailing dot; idng_name_check accepts it in the same mode
 *   (the module judges what it normalized);
 * - idna2008, uts46: ToASCII is idempotent, and ToUnicode(ToASCII(x))
 *   succeeds and converts back to the same ToASCII(x);
 * - OK in idna2008 or uts46 implies OK in punycode mode with the same
 *   output (each mode includes the checks of punycode).
 */
#include "fuzz_common.h"

#define BIG (64 * 1024)
static char big[BIG], big2[BIG], uni[BIG];

static const idng_mode modes[] = {IDNG_MODE_PUNYCODE, IDNG_MODE_IDNA2008, IDNG_MODE_UTS46};

static void check_dns_ascii(const char *s, size_t n)
{
    size_t i, start = 0, total;

    FUZZ_CHECK(n > 0, "empty output");
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        FUZZ_CHECK(c < 0x80 && !(c >= 'A' && c <= 'Z'), "output octet 0x%02x at %zu", c, i);
    }
    if (n == 1 && s[0] == '.')
        return;
    total = s[n - 1] == '.' ? n - 1 : n;
    FUZZ_CHECK(total <= IDNG_NAME_MAX, "output of %zu octets", total);
    for (i = 0; i <= total; i++) {
        if (i < total && s[i] != '.')
            continue;
        FUZZ_CHECK(i > start && i - start <= IDNG_LABEL_MAX, "output label at %zu of %zu octets",
                   start, i - start);
        start = i + 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *in = fuzz_dup(data, size), *out;
    idng_status res[3][2];
    size_t outn[3][2];
    static char saved[3][2][IDNG_NAME_MAX + 2];
    size_t m, f;

    for (m = 0; m < 3; m++)
        for (f = 0; f < 2; f++) {
            idng_mode mode = modes[m];
            unsigned flags = f ? IDNG_F_STRICT : 0;
            idng_error e;
            idng_status st, st2;
            size_t n = BIG, n2, cap, k;
            size_t caps[3];

            st = idng_to_ascii(in, size, big, &n, mode, flags, &e);
            FUZZ_CHECK(fuzz_is_valid_status(st) && st != IDNG_E_NOSPACE, "status %d", st);
            FUZZ_CHECK(e.status == st, "err.status %d, returned %d", e.status, st);
            if (st != IDNG_OK)
                FUZZ_CHECK(e.label_off <= size && e.label_len <= size - e.label_off,
                           "error at %zu+%zu in %zu octets", e.label_off, e.label_len, size);
            res[m][f] = st;
            outn[m][f] = st == IDNG_OK ? n : 0;

            n2 = BIG;
            st2 = idng_to_ascii(in, size, big2, &n2, mode, flags | IDNG_F_KEEP_GOING, NULL);
            FUZZ_CHECK(st2 == st && (st != IDNG_OK || (n2 == n && !memcmp(big, big2, n))),
                       "IDNG_F_KEEP_GOING changed to-ASCII: %d vs %d", st2, st);

            caps[0] = st == IDNG_OK ? n : 0;
            caps[1] = st == IDNG_OK && n > 0 ? n - 1 : 1;
            caps[2] = size ? data[0] % (st == IDNG_OK ? n + 2 : 64) : 0;
            for (k = 0; k < 3; k++) {
                cap = caps[k];
                out = fuzz_alloc(cap);
                n2 = cap;
                st2 = idng_to_ascii(in, size, out, &n2, mode, flags, NULL);
                if (st != IDNG_OK) {
                    FUZZ_CHECK(st2 == st, "cap %zu: status %d, with room %d", cap, st2, st);
                } else if (cap >= n) {
                    FUZZ_CHECK(st2 == IDNG_OK && n2 == n && !memcmp(out, big, n),
                               "cap %zu >= %zu: status %d", cap, n, st2);
                    FUZZ_CHECK(cap == n || out[n] == '\0', "cap %zu: no NUL", cap);
                } else {
                    FUZZ_CHECK(st2 == IDNG_E_NOSPACE && n2 == n,
                               "cap %zu < %zu: status %d, outlen %zu", cap, n, st2, n2);
                }
                free(out);
            }
            if (st != IDNG_OK)
                continue;
            FUZZ_CHECK(n < BIG && big[n] == '\0', "output not NUL-terminated");
            check_dns_ascii(big, n);
            memcpy(saved[m][f], big, n);
            /* The module's classifier accepts what ToASCII produced (F2,
             * fixed: it did not for a U-label beginning with "xn--"). */
            st2 = idng_name_check(big, n, mode, &e);
            FUZZ_CHECK(st2 == IDNG_OK, "mode %d: name check of to-ASCII output \"%.*s\": %d (%s)",
                       mode, (int)n, big, st2, idng_status_symbol(st2));
            if (mode == IDNG_MODE_PUNYCODE)
                continue;

            /* Idempotent. */
            n2 = BIG;
            st2 = idng_to_ascii(big, n, big2, &n2, mode, flags, NULL);
            FUZZ_CHECK(st2 == IDNG_OK && n2 == n && !memcmp(big, big2, n),
                       "mode %d: to-ASCII(to-ASCII(x)) = %d \"%.*s\", to-ASCII(x) \"%.*s\"",
                       mode, st2, (int)n2, big2, (int)n, big);
            /* ToUnicode(ToASCII(x)) converts back. */
            {
                size_t un = BIG;
                st2 = idng_to_unicode(big, n, uni, &un, mode, flags, NULL);
                FUZZ_CHECK(st2 == IDNG_OK, "mode %d: to-Unicode(\"%.*s\") = %d", mode, (int)n,
                           big, st2);
                n2 = BIG;
                st2 = idng_to_ascii(uni, un, big2, &n2, mode, flags, NULL);
                FUZZ_CHECK(st2 == IDNG_OK && n2 == n && !memcmp(big, big2, n),
                           "mode %d: to-ASCII(to-Unicode(\"%.*s\")) = %d \"%.*s\"", mode, (int)n,
                           big, st2, (int)n2, big2);
            }
        }
    fuzz_check_modes_agree(res, outn, &saved[0][0][0], sizeof saved[0][0]);
    fuzz_check_uts46_flags(data, size, 0);
    free(in);
    return 0;
}
