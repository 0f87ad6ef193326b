/**
 * \file
 * Punycode, RFC 3492: the Bootstring parameters of section 5 and the
 * algorithms of section 6, with the overflow handling of 6.4 done in
 * uint32_t against the limit maxint = 0xFFFFFFFF, and the mixed-case
 * annotation of appendix A.
 *
 * Neither direction allocates.  When the output buffer fills up both keep
 * going without writing, so that the caller learns the size needed and
 * input errors are still reported in preference to IDNG_E_NOSPACE.
 */
#include "idna_internal.h"

enum {
    BASE = 36,
    TMIN = 1,
    TMAX = 26,
    SKEW = 38,
    DAMP = 700,
    INITIAL_BIAS = 72,
    INITIAL_N = 0x80,
    DELIMITER = '-'
};
#define MAXINT 0xFFFFFFFFu

/* Digit values of ASCII octets (RFC 3492 section 5); BASE where none. */
#define D36 BASE, BASE, BASE, BASE, BASE, BASE, BASE, BASE
static const unsigned char digit_values[256] = {
    D36, D36, D36, D36, D36, D36,                                   /* 0x00-0x2F */
    26, 27, 28, 29, 30, 31, 32, 33, 34, 35,                         /* '0'-'9' */
    BASE, BASE, BASE, BASE, BASE, BASE, BASE,                       /* 0x3A-0x40 */
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,   /* 'A'-'Z' */
    18, 19, 20, 21, 22, 23, 24, 25,
    BASE, BASE, BASE, BASE, BASE, BASE,                             /* 0x5B-0x60 */
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,   /* 'a'-'z' */
    18, 19, 20, 21, 22, 23, 24, 25,
    BASE, BASE, BASE, BASE, BASE,                                   /* 0x7B-0x7F */
    D36, D36, D36, D36, D36, D36, D36, D36,                         /* 0x80-0xBF */
    D36, D36, D36, D36, D36, D36, D36, D36,                         /* 0xC0-0xFF */
};
#undef D36

static uint32_t digit_value(unsigned char c)
{
    return digit_values[c];
}

/*
 * q / d for the small divisors of Punycode: BASE - t in [10, 35] for
 * digits, the number of code points so far in adapt() and in the
 * decoder's i / (len + 1).  A multiplication by floor(2^32 / d) + 1 (2^32 / d
 * for powers of two) is exact for every q < 2^32 / d, since the error term
 * q / 2^32 stays below 1 / d; so for q < 2^26 and d <= 64 (checked
 * exhaustively).  Anything larger takes the hardware division, which costs
 * some ten times more on current CPUs.
 */
#define RECIP(d) ((uint64_t)0xFFFFFFFFu / (d) + 1u)
#define RECIP8(d) RECIP(d), RECIP(d + 1), RECIP(d + 2), RECIP(d + 3), RECIP(d + 4), \
    RECIP(d + 5), RECIP(d + 6), RECIP(d + 7)
static const uint64_t recip[65] = {
    0, RECIP8(1), RECIP8(9), RECIP8(17), RECIP8(25), RECIP8(33), RECIP8(41), RECIP8(49),
    RECIP8(57),
};
#undef RECIP8
#undef RECIP

static uint32_t div_small(uint32_t q, uint32_t d)
{
    if (q < (1u << 26) && d <= 64)
        return (uint32_t)((q * recip[d]) >> 32);
    return q / d;
}

/* Below this, q / d for every d <= BASE is exact by the multiplication
 * alone: 2^32 / 36 > 119,000,000. */
#define RECIP_EXACT_BASE 119000000u

/*
 * The last step of adapt(), (BASE - TMIN + 1) * delta / (delta + SKEW) for
 * delta <= ((BASE - TMIN) * TMAX) / 2 = 455, as a table computed by the
 * compiler.
 */
#define AT(d) (unsigned char)((BASE - TMIN + 1) * (d) / ((d) + SKEW))
#define AT8(d) AT(d), AT(d + 1), AT(d + 2), AT(d + 3), AT(d + 4), AT(d + 5), AT(d + 6), AT(d + 7)
#define AT64(d) AT8(d), AT8(d + 8), AT8(d + 16), AT8(d + 24), AT8(d + 32), AT8(d + 40), \
    AT8(d + 48), AT8(d + 56)
static const unsigned char adapt_tail[456] = {
    AT64(0), AT64(64), AT64(128), AT64(192), AT64(256), AT64(320), AT64(384), AT8(448),
};
#undef AT64
#undef AT8
#undef AT

/* Digit d (0..35) as ASCII; uppercase letter when upper is set. */
static char digit_char(uint32_t d, int upper)
{
    static const char lower[BASE + 1] = "abcdefghijklmnopqrstuvwxyz0123456789";
    static const char upper_[BASE + 1] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    return upper ? upper_[d] : lower[d];
}

/* Section 6.1; inline, as it runs once per code point both ways.  With
 * small set the caller knows numpoints <= 64 and that delta < 2^27 or the
 * result is not used, so that delta / 2 < 2^26 divides by the
 * multiplication alone. */
static IDNG_ALWAYS_INLINE uint32_t adapt(uint32_t delta, uint32_t numpoints, int firsttime,
                                         int small)
{
    uint32_t k = 0;

    delta = firsttime ? delta / DAMP : delta / 2;
    delta += small ? (uint32_t)((delta * recip[numpoints]) >> 32) : div_small(delta, numpoints);
    while (delta > ((BASE - TMIN) * TMAX) / 2) {
        delta /= BASE - TMIN;
        k += BASE;
    }
    return k + adapt_tail[delta];
}

/* t(k) of section 6.1, k - bias clamped to [TMIN, TMAX]: k - bias >= 1 =
 * TMIN when k > bias.  Written as two selections, which compile to
 * conditional moves, not branches. */
static uint32_t threshold(uint32_t k, uint32_t bias)
{
    uint32_t t = k > bias ? k - bias : TMIN;
    return t < TMAX ? t : TMAX;
}

/* Appends one octet at len when there is room; returns the length that
 * counts it either way.  The length is passed by value: through a pointer
 * the compiler would reload it after every store (a char may alias it). */
static size_t put(char *out, size_t cap, size_t len, char c)
{
    if (len < cap)
        out[len] = c;
    return len + 1;
}

/* Writes delta as a generalized variable-length integer (section 6.3)
 * at len; returns the new length.  With small set the caller knows delta
 * < RECIP_EXACT_BASE, and so is every q - t divided by d = BASE - t. */
static IDNG_ALWAYS_INLINE size_t put_delta(char *out, size_t cap, size_t len, uint32_t delta,
                                           uint32_t bias, int upper, int small)
{
    uint32_t q = delta, k, t;

    /* With bias <= BASE - TMAX every t(k) is TMAX: digits in a constant
     * base, which the compiler divides by without a table. */
    if (small && bias <= BASE - TMAX) {
        while (q >= TMAX) {
            uint32_t qt = (q - TMAX) / (BASE - TMAX);
            len = put(out, cap, len, digit_char(q - qt * (BASE - TMAX), 0));
            q = qt;
        }
        return put(out, cap, len, digit_char(q, upper));
    }
    for (k = BASE;; k += BASE) {
        uint32_t d, qt;
        t = threshold(k, bias);
        if (q < t)
            break;
        d = BASE - t;
        qt = small ? (uint32_t)(((q - t) * recip[d]) >> 32) : div_small(q - t, d);
        len = put(out, cap, len, digit_char(t + (q - t - qt * d), 0));
        q = qt;
    }
    return put(out, cap, len, digit_char(q, upper));
}

/*
 * The keys of encode_small: the code point's value, its position p and a
 * count i, each in a field of its own, so that keys order by (value,
 * position) whatever the counts.  i starts as the number of basic code
 * points before p; the sort adds the number of non-basic ones before p
 * that sort below it, so that i ends as the index at which the decoder
 * inserts the code point: every code point that precedes it in the input
 * and is handled before it.  At most 63 others: i fits in its 6 bits and
 * no addition carries into the position.
 */
#define KEY_POS_SHIFT 6
#define KEY_VALUE_SHIFT 12
#define KEY_FIELD_MASK 63u

/* Sorts a run of keys by insertion; each key gains the number of earlier
 * keys of the run that sort below it, its index in the sorted run.
 * key[-1] must be 0, below every key (a code point >= 0x80 is in the
 * value field), so that the inner loop stops there with no test of the
 * index. */
static void insertion_sort(uint64_t *key, size_t m)
{
    size_t g;

    for (g = 1; g < m; g++) {
        uint64_t x = key[g], *p = key + g; /* p[-1], not key[c - 1]: c may be 0 */
        while (p[-1] > x) {
            p[0] = p[-1];
            p--;
        }
        *p = x + (uint64_t)(p - key);
    }
}

/* Keys in runs sorted by insertion before the merge passes. */
#define SORT_RUN 16

/* Sorts at most 64 distinct keys, given in position order (key[-1] must
 * exist and be 0), and counts for
 * each the keys before it in position order that sort below it (see
 * KEY_POS_SHIFT): nothing to do but the counting for sorted or reversed
 * input, insertion sort while it is cheap, a bottom-up merge sort of runs
 * of SORT_RUN beyond.  Every merge joins two blocks of consecutive
 * positions, the left one first: a key of the right block gains the keys
 * of the left block taken before it, and a key of the left block none. */
static void sort_keys(uint64_t *key, size_t m)
{
    uint64_t tmp[64], *a = key, *b = tmp, *t;
    size_t g, width;

    /* Already in order (each key above all before it), or in reverse
     * order (above none; a label written in one script often is):
     * linear. */
    for (g = 1; g < m && key[g - 1] < key[g]; g++)
        key[g] += g;
    if (g >= m)
        return;
    while (--g > 0)
        key[g] -= g;
    if (m > 1 && key[0] > key[1]) {
        for (g = 1; g < m && key[g - 1] > key[g]; g++)
            ;
        if (g >= m) {
            for (g = 0; g < m / 2; g++) {
                uint64_t x = key[g];
                key[g] = key[m - 1 - g];
                key[m - 1 - g] = x;
            }
            return;
        }
    }
    if (m <= SORT_RUN) {
        insertion_sort(key, m);
        return;
    }
    /* Each run's sentinel: 0 in the last key of the run before it, for
     * the time of its sort (key[-1] is 0 for the first). */
    for (g = 0; g < m; g += SORT_RUN) {
        uint64_t *run = key + g, before = run[-1];
        run[-1] = 0;
        insertion_sort(run, m - g < SORT_RUN ? m - g : SORT_RUN);
        run[-1] = before;
    }
    for (width = SORT_RUN; width < m; width *= 2) {
        for (g = 0; g < m; g += 2 * width) {
            size_t lo = g, mid = g + width < m ? g + width : m;
            size_t hi = g + 2 * width < m ? g + 2 * width : m, x = lo, y = mid, o = lo;
            while (x < mid && y < hi) { /* no branch on the comparison */
                uint64_t ax = a[x], ay = a[y];
                int take_y = ay < ax;
                b[o++] = take_y ? ay + (x - lo) : ax;
                x += !take_y;
                y += take_y;
            }
            while (x < mid)
                b[o++] = a[x++];
            while (y < hi)
                b[o++] = a[y++] + (mid - lo);
        }
        t = a;
        a = b;
        b = t;
    }
    if (a != key)
        memcpy(key, a, m * sizeof *key);
}

/*
 * The main loop of section 6.3 for at most 64 code points, all valid
 * scalars, b of them basic (already written); the m others are key[] (see
 * KEY_POS_SHIFT).  The plain loop scans the whole input once per distinct
 * code point, which is quadratic.  Here the keys are sorted by (value,
 * position); each is inserted, in that order, at index i = the number of
 * code points already handled that precede it, which the sort counted.
 * The decoder's state n * (h + 1) + i then advances by
 *   delta = (value - previous value) * (h + 1) + i - (previous i + 1),
 * which is exactly the delta the plain loop accumulates (the first one
 * starts from n = 128, i = 0).  With at most 64 code points below U+110000
 * no delta can reach 2^32, so there is no overflow to report: every delta
 * is at most (0x10FFFF - 0x80) * 64 + 63 = 71,294,975 < RECIP_EXACT_BASE.
 */
struct encoder {
    size_t h, len;            /* code points handled, output length */
    uint32_t n, next_i, bias; /* previous value, its index + 1, bias */
};

/* One step of encode_small: the delta to the code point of key k. */
static IDNG_ALWAYS_INLINE void encode_key(struct encoder *e, uint64_t k,
                                          const unsigned char *case_flags, char *out, size_t cap,
                                          int first)
{
    uint32_t c = (uint32_t)(k >> KEY_VALUE_SHIFT), i = (uint32_t)k & KEY_FIELD_MASK;
    uint32_t delta = (c - e->n) * (uint32_t)(e->h + 1) + i - e->next_i;

    e->len = put_delta(out, cap, e->len, delta, e->bias,
                       case_flags && case_flags[(k >> KEY_POS_SHIFT) & KEY_FIELD_MASK], 1);
    e->bias = adapt(delta, (uint32_t)(e->h + 1), first, 1);
    e->h++;
    e->n = c;
    e->next_i = i + 1;
}

static IDNG_ALWAYS_INLINE size_t encode_small(uint64_t *key, size_t m,
                                              const unsigned char *case_flags, size_t b, char *out,
                                              size_t cap, size_t len)
{
    struct encoder e = {b, len, INITIAL_N, 0, INITIAL_BIAS};
    size_t g;

    if (m == 0)
        return len;
    sort_keys(key, m);
    /* The first key apart: only its adapt() damps by DAMP, and the loop
     * then has no test for it. */
    encode_key(&e, key[0], case_flags, out, cap, 1);
    for (g = 1; g < m; g++)
        encode_key(&e, key[g], case_flags, out, cap, 0);
    return e.len;
}

idng_status idng_punycode_encode(const uint32_t *in, size_t inlen, const unsigned char *case_flags,
                                 char *out, size_t *outlen)
{
    size_t cap = *outlen, len = 0, j, h, b, nkeys = 0;
    uint32_t n = INITIAL_N, delta = 0, bias = INITIAL_BIAS, m;
    uint64_t keys[1 + 64], *key = keys + 1; /* keys[0]: the sort's sentinel */
    uint64_t low = 0;                       /* the position and count fields of in[j]'s key */
    int small = inlen <= 64;

    /* Inputs whose handled count could overflow delta are refused early by
     * the arithmetic checks below; the length check keeps h in uint32_t. */
    if (inlen > MAXINT)
        return IDNG_E_PUNY_OVERFLOW;
    keys[0] = 0;
    /* The basic code points, and for encode_small, in the same pass, the
     * keys of the others, each counting the basic ones before it. */
    for (j = 0; j < inlen; j++, low += 1u << KEY_POS_SHIFT) {
        uint32_t c32 = in[j];
        if (c32 < 0x80) {
            char c = (char)c32;
            if (case_flags && c >= 'a' && c <= 'z' && case_flags[j])
                c = (char)(c - 'a' + 'A');
            else if (case_flags && c >= 'A' && c <= 'Z' && !case_flags[j])
                c = (char)(c - 'A' + 'a');
            len = put(out, cap, len, c);
            low++; /* one more basic code point before the next */
        } else if ((c32 > 0x10FFFF) | (c32 - 0xD800 < 0x800)) { /* one test for both */
            return c32 > 0x10FFFF ? IDNG_E_CODEPOINT_MAX : IDNG_E_SURROGATE;
        } else if (small) {
            key[nkeys++] = (uint64_t)c32 << KEY_VALUE_SHIFT | low;
        }
    }
    h = b = len;
    if (b > 0)
        len = put(out, cap, len, DELIMITER);

    if (small) {
        /* Inline twice: with no case flags (to-ASCII) the loop has fewer
         * values to keep in registers. */
        if (case_flags)
            len = encode_small(key, nkeys, case_flags, b, out, cap, len);
        else
            len = encode_small(key, nkeys, NULL, b, out, cap, len);
        h = inlen;
    }
    while (h < inlen) {
        /* The smallest code point >= n still to be handled. */
        for (m = MAXINT, j = 0; j < inlen; j++)
            if (in[j] >= n && in[j] < m)
                m = in[j];
        if ((m - n) > (MAXINT - delta) / (uint32_t)(h + 1))
            return IDNG_E_PUNY_OVERFLOW;
        delta += (m - n) * (uint32_t)(h + 1);
        n = m;
        for (j = 0; j < inlen; j++) {
            if (in[j] < n) {
                if (++delta == 0)
                    return IDNG_E_PUNY_OVERFLOW;
            }
            if (in[j] != n)
                continue;
            len = put_delta(out, cap, len, delta, bias, case_flags && case_flags[j], 0);
            bias = adapt(delta, (uint32_t)(h + 1), h == b, 0);
            delta = 0;
            h++;
        }
        delta++;
        n++;
    }
    *outlen = len;
    if (len > cap)
        return IDNG_E_NOSPACE;
    if (len < cap)
        out[len] = '\0';
    return IDNG_OK;
}

/*
 * The index just after the last DELIMITER in s[0..n), 0 if there is none.
 * Eight octets at a time from the end: x = v ^ (DELIMITER in every octet)
 * has a zero octet exactly where v has a delimiter, and
 * ~(((x & 0x7F..) + 0x7F..) | x | 0x7F..) sets the high bit of exactly
 * those octets (no carry crosses an octet, unlike the shorter
 * (x - 0x01..) & ~x), so a word with none is skipped whole and the octets
 * of the word with one are looked at one by one.
 */
static size_t after_last_delimiter(const unsigned char *s, size_t n)
{
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Fu, delims = DELIMITER * 0x0101010101010101u;
    uint64_t v, x;

    for (; n >= 8; n -= 8) {
        memcpy(&v, s + n - 8, 8);
        x = v ^ delims;
        if (~(((x & low7) + low7) | x | low7) != 0)
            break;
    }
    while (n > 0 && s[n - 1] != DELIMITER)
        n--;
    return n;
}

/*
 * out[pos..len) moved up by one, backwards, two code points (eight octets)
 * at a time: each step reads the two below what it writes, neither yet
 * written (the step before wrote two places higher).  Inline; the plain
 * element loop becomes a call to memmove, which costs more than the few
 * steps of a 63-code-point label.
 */
static IDNG_ALWAYS_INLINE void shift_up(uint32_t *out, size_t pos, size_t len)
{
    uint64_t v;

    for (; len - pos >= 2; len -= 2) {
        memcpy(&v, out + len - 2, 8);
        memcpy(out + len - 1, &v, 8);
    }
    if (len > pos)
        out[len] = out[len - 1];
}

/*
 * Reads the generalized variable-length integer at s[*j] (section 6.2) and
 * adds it to *i.  i and w in 64 bits: w <= MAXINT and digit < BASE, so
 * neither i + digit * w nor w * (BASE - t) can wrap, and comparing with
 * MAXINT is the overflow test of section 6.4.  flat says that every t(k) is
 * TMAX.
 */
static IDNG_ALWAYS_INLINE idng_status read_integer(const unsigned char *s, size_t inlen,
                                                   size_t *j, uint32_t *i, uint32_t bias,
                                                   int flat)
{
    uint64_t i64 = *i, w = 1;
    size_t at = *j;
    uint32_t k, digit, t;

    for (k = BASE;; k += BASE) {
        if (at >= inlen)
            return IDNG_E_PUNY_TRUNCATED;
        digit = digit_value(s[at++]);
        if (digit >= BASE)
            return IDNG_E_PUNY_DIGIT;
        i64 += digit * w;
        if (i64 > MAXINT)
            return IDNG_E_PUNY_OVERFLOW;
        t = flat ? TMAX : threshold(k, bias);
        if (digit < t)
            break;
        w *= BASE - t;
        if (w > MAXINT)
            return IDNG_E_PUNY_OVERFLOW;
    }
    *i = (uint32_t)i64;
    *j = at;
    return IDNG_OK;
}

/*
 * The decoder, inline in idng_punycode_decode twice: with no case flags (as
 * the check and to-Unicode call it) the loop has fewer values to keep in
 * registers.  small says that inlen <= 64 (every DNS label), and then:
 *  - len + 1 <= 64 for every code point: each non-basic one takes at least
 *    one digit, each basic one an octet, and the delimiter one more, so
 *    len + 1 <= inlen;
 *  - delta = i - oldi < 2^27 whenever adapt()'s result is used: decoding
 *    goes on only when n + i / (len + 1) <= 0x10FFFF with n >= 0x80, so
 *    i < 0x10FF80 * (len + 1) <= 0x10FF80 * 64 < 2^27.
 */
static IDNG_ALWAYS_INLINE idng_status decode(const char *in, size_t inlen, uint32_t *out,
                                             size_t *outlen, unsigned char *case_flags,
                                             int small)
{
    const unsigned char *s = (const unsigned char *)in;
    size_t cap = *outlen, len = 0, b = 0, j, pos;
    uint32_t n = INITIAL_N, i = 0, bias = INITIAL_BIAS, oldi;

    if (inlen > MAXINT)
        return IDNG_E_PUNY_OVERFLOW;
    if (idng_has_8bit(in, inlen))
        return IDNG_E_PUNY_NONBASIC;
    /* b is the number of basic code points: everything before the last
     * delimiter, which must all be basic (a delimiter first leaves b = 0,
     * and is then refused as a digit). */
    b = after_last_delimiter(s, inlen);
    b = b > 0 ? b - 1 : 0;
    for (j = 0; j < b; j++) {
        if (len < cap) {
            out[len] = s[j];
            if (case_flags)
                case_flags[len] = s[j] >= 'A' && s[j] <= 'Z';
        }
        len++;
    }

    for (j = b > 0 ? b + 1 : 0; j < inlen; len++) {
        idng_status st;
        oldi = i;
        /* With bias <= BASE - TMAX every t(k) is TMAX (see put_delta). */
        st = bias <= BASE - TMAX ? read_integer(s, inlen, &j, &i, bias, 1)
                                 : read_integer(s, inlen, &j, &i, bias, 0);
        if (st != IDNG_OK)
            return st;
        bias = adapt(i - oldi, (uint32_t)(len + 1), oldi == 0, small);
        {
            uint32_t d = (uint32_t)(len + 1), q;
            if (small && i < (1u << 26)) {
                /* q < 2^26 and n <= 0x10FFFF: n + q cannot wrap. */
                q = (uint32_t)((i * recip[d]) >> 32);
            } else {
                q = div_small(i, d);
                if (q > MAXINT - n)
                    return IDNG_E_PUNY_OVERFLOW;
            }
            n += q;
            i -= q * d;
        }
        if (n > 0x10FFFF || n - 0xD800 < 0x800)
            return n > 0x10FFFF ? IDNG_E_CODEPOINT_MAX : IDNG_E_SURROGATE;
        /* Insert n at position i, while the result still fits. */
        pos = i;
        if (len < cap) {
            shift_up(out, pos, len);
            out[pos] = n;
            if (case_flags) {
                unsigned char cf = s[j - 1] >= 'A' && s[j - 1] <= 'Z', t8;
                size_t m;
                for (m = pos; m < len; m++) {
                    t8 = case_flags[m];
                    case_flags[m] = cf;
                    cf = t8;
                }
                case_flags[len] = cf;
            }
        }
        i++;
    }
    *outlen = len;
    return len > cap ? IDNG_E_NOSPACE : IDNG_OK;
}

idng_status idng_punycode_decode(const char *in, size_t inlen, uint32_t *out, size_t *outlen,
                                 unsigned char *case_flags)
{
    if (case_flags || inlen > 64)
        return decode(in, inlen, out, outlen, case_flags, 0);
    return decode(in, inlen, out, outlen, NULL, 1);
}
