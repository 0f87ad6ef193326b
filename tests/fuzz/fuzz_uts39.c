/**
 * \file
 * Fuzz target: UTS #39 on arbitrary code points and text: idng_skeleton,
 * idng_uts39_label (with idng_restriction_level and idng_mixed_numbers),
 * idng_name_skeleton and idng_name_restriction.
 *
 * Input: byte 0 is a control byte (bits 0-1: which part of the input is
 * text, see below; bits 2-7: a capacity offset); then 3 octets per code
 * point, a value taken modulo 0x110000 (surrogates included) or, when the
 * first is 0xFF, a value above U+10FFFF.  The text functions get the raw
 * octets after the control byte as a name.
 *
 * Invariants:
 * - idng_skeleton refuses a surrogate or a value above U+10FFFF (the first
 *   in input order decides which status) and otherwise gives, at every
 *   capacity into heap buffers of exactly that size, OK iff the capacity
 *   holds the length it reports (the same as with room to spare), and
 *   never writes past it (ASan);
 * - its two paths agree: the skeleton of x followed by enough 'a's to go
 *   over 64 code points (the path by the book) is the skeleton of x (the
 *   one-pass path) followed by those 'a's (a starter with no prototype);
 * - idng_uts39_label agrees with idng_restriction_level and
 *   idng_mixed_numbers, and a level is one of the six;
 * - idng_judge_label (one pass) gives what idng_uts39_label and then
 *   idng_spoof_label give;
 * - the name functions end in OK, NOSPACE (skeleton: the length then fits
 *   exactly) or a codec status; a skeleton is printable UTF-8 with no
 *   control character, and the name's level is one of the six.
 */
#include "fuzz_common.h"

#define PAD 70

static void skeletons(const uint32_t *cp, size_t n, idng_status want_err)
{
    uint32_t *big = fuzz_alloc((n * 18 + 1) * sizeof *big), *out, *padded, *pout;
    size_t need = n * 18 + 1, len, caps[4], k, i;
    idng_status st = idng_skeleton(cp, n, big, &need);

    if (want_err != IDNG_OK) {
        FUZZ_CHECK(st == want_err, "skeleton of a bad value: %s, want %s", idng_status_symbol(st),
                   idng_status_symbol(want_err));
        free(big);
        return;
    }
    FUZZ_CHECK(st == IDNG_OK && need <= n * 18, "skeleton: %s, %zu code points",
               idng_status_symbol(st), need);
    caps[0] = 0;
    caps[1] = need ? need - 1 : 0;
    caps[2] = need;
    caps[3] = need + 1;
    for (k = 0; k < 4; k++) {
        out = fuzz_alloc(caps[k] * sizeof *out);
        len = caps[k];
        st = idng_skeleton(cp, n, out, &len);
        FUZZ_CHECK(len == need && (st == IDNG_OK) == (caps[k] >= need)
                       && (st == IDNG_OK || st == IDNG_E_NOSPACE),
                   "capacity %zu: %s, length %zu of %zu", caps[k], idng_status_symbol(st), len,
                   need);
        if (st == IDNG_OK)
            FUZZ_CHECK(memcmp(out, big, need * sizeof *out) == 0, "capacity %zu: other output",
                       caps[k]);
        free(out);
    }
    /* The two paths: x + 'a' * PAD is over 64 code points. */
    padded = fuzz_alloc((n + PAD) * sizeof *padded);
    memcpy(padded, cp, n * sizeof *cp);
    for (i = 0; i < PAD; i++)
        padded[n + i] = 'a';
    len = (n + PAD) * 18;
    pout = fuzz_alloc(len * sizeof *pout);
    st = idng_skeleton(padded, n + PAD, pout, &len);
    FUZZ_CHECK(st == IDNG_OK && len == need + PAD, "padded: %s, %zu, want %zu",
               idng_status_symbol(st), len, need + PAD);
    FUZZ_CHECK(memcmp(pout, big, need * sizeof *pout) == 0, "the two paths disagree");
    for (i = 0; i < PAD; i++)
        FUZZ_CHECK(pout[need + i] == 'a', "padding changed");
    free(pout);
    free(padded);
    free(big);
}

static void levels(const uint32_t *cp, size_t n)
{
    int mixed = -1;
    idng_restriction l = idng_uts39_label(cp, n, &mixed);

    FUZZ_CHECK((unsigned)l < IDNG_RL_COUNT && idng_restriction_name(l) != NULL, "level %d", l);
    FUZZ_CHECK(l == idng_restriction_level(cp, n), "one pass %d, level alone %d", l,
               idng_restriction_level(cp, n));
    FUZZ_CHECK(mixed == idng_mixed_numbers(cp, n), "one pass %d, numbers alone %d", mixed,
               idng_mixed_numbers(cp, n));
    {
        struct idng_spoof_facts one, two;
        int mixed_one = -1;
        idng_restriction l_one = idng_judge_label(cp, NULL, n, &mixed_one, &one);
        idng_spoof_label(cp, n, l, &two);
        FUZZ_CHECK(l_one == l && mixed_one == mixed && one.ws_own == two.ws_own
                       && one.ws_pass == two.ws_pass && one.patterns == two.patterns
                       && one.tld_letters == two.tld_letters && one.keys == two.keys,
                   "judge_label: level %d/%d, mixed %d/%d, facts %x %x %x %x %x / %x %x %x %x %x",
                   l_one, l, mixed_one, mixed, one.ws_own, one.ws_pass, one.patterns,
                   one.tld_letters, one.keys, two.ws_own, two.ws_pass, two.patterns,
                   two.tld_letters, two.keys);
    }
}

static void names(const uint8_t *text, size_t n, size_t capoff)
{
    char *in = fuzz_dup(text, n), *out;
    size_t len = 9000, cap, i;
    idng_restriction l;
    int mixed;
    idng_status st = idng_name_restriction(in, n, IDNG_MODE_UTS46, &l, &mixed, NULL);

    FUZZ_CHECK(fuzz_is_valid_status(st), "name restriction: %d", st);
    if (st == IDNG_OK)
        FUZZ_CHECK((unsigned)l < IDNG_RL_COUNT && (mixed == 0 || mixed == 1), "level %d", l);
    out = fuzz_alloc(len);
    st = idng_name_skeleton(in, n, out, &len, IDNG_MODE_UTS46, NULL);
    FUZZ_CHECK(fuzz_is_valid_status(st) && st != IDNG_E_NOSPACE, "name skeleton: %d", st);
    if (st == IDNG_OK) {
        FUZZ_CHECK(fuzz_utf8_valid((const unsigned char *)out, len), "skeleton is not UTF-8");
        for (i = 0; i < len; i++)
            FUZZ_CHECK((unsigned char)out[i] >= 0x20 && out[i] != 0x7F, "control octet 0x%02x",
                       (unsigned char)out[i]);
        /* At a smaller capacity: NOSPACE with the same length. */
        cap = capoff < len ? len - capoff : 0;
        free(out);
        out = fuzz_alloc(cap);
        i = cap;
        st = idng_name_skeleton(in, n, out, &i, IDNG_MODE_UTS46, NULL);
        FUZZ_CHECK(i == len && (st == IDNG_OK) == (cap >= len), "capacity %zu: %d, %zu of %zu",
                   cap, st, i, len);
    }
    free(out);
    free(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n, i;
    uint32_t *cp;
    idng_status bad = IDNG_OK;

    if (size < 1)
        return 0;
    n = (size - 1) / 3;
    if (n > 300)
        n = 300;
    cp = calloc(n ? n : 1, sizeof *cp); /* calloc: gcc cannot see n == 0 means unread */
    if (cp == NULL)
        abort();
    for (i = 0; i < n; i++) {
        const uint8_t *p = data + 1 + 3 * i;
        cp[i] = p[0] == 0xFF ? 0x110000u + p[1]
                             : ((uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]) % 0x110000u;
        if (bad == IDNG_OK && cp[i] > 0x10FFFF)
            bad = IDNG_E_CODEPOINT_MAX;
        if (bad == IDNG_OK && cp[i] - 0xD800 < 0x800)
            bad = IDNG_E_SURROGATE;
    }
    skeletons(cp, n, bad);
    levels(cp, n);
    names(data + 1, size - 1, data[0] >> 2);
    free(cp);
    return 0;
}
