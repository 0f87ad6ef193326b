/**
 * \file
 * Fuzz target: idng_label_check and idng_name_check on arbitrary bytes, in
 * all three modes (each input is judged under punycode, idna2008 and
 * uts46, so no mode byte is needed and the modes can be compared), and
 * idng_wire_check on the wire form of the same name.
 *
 * Invariants, per mode:
 * - statuses are known ones and equal err->status; an error's location
 *   lies within the input (label_off + label_len <= len);
 * - the rules of docs/codec.md: an empty label is empty-label, one over 63 octets
 *   too-long, one with an octet >= 0x80 raw-8bit, a plain ASCII label not
 *   beginning with xn-- is never judged (OK);
 * - an OK xn-- label: lowercased, the part after xn-- decodes to a
 *   non-empty, not all-ASCII U-label not beginning with "xn--" that
 *   re-encodes to exactly that part; in idna2008 and uts46 idng_to_unicode
 *   accepts it and gives that U-label in UTF-8;
 * - A-labels compare case-insensitively: the lowercased label gets the same
 *   status;
 * - each mode includes the checks of punycode: OK in idna2008 or uts46
 *   implies OK in punycode; and in punycode mode only the punycode checks
 *   can fail;
 * - an OK name: at most 253 octets (254 with the root dot), every label OK
 *   on its own, idng_to_unicode accepts it (idna2008, uts46);
 * - the wire form of the name, when it has one, gets the same status and
 *   code point from idng_wire_check;
 * - the DNS-name unit: idng_text_to_wire gives that same wire form (or
 *   fails when there is none) when the input holds no full stop but '.';
 *   the wire form is as long as idng_wire_len says and at or below itself
 *   and the root; the input read as a wire name is malformed for the wire
 *   walk exactly when idng_wire_check says so, at the same place.
 */
#include "fuzz_common.h"

static const idng_mode modes[] = {IDNG_MODE_PUNYCODE, IDNG_MODE_IDNA2008, IDNG_MODE_UTS46};

static void check_err(idng_status st, const idng_error *e, size_t len, const char *what)
{
    FUZZ_CHECK(fuzz_is_valid_status(st) && st != IDNG_E_NOSPACE, "%s: status %d", what, st);
    FUZZ_CHECK(e->status == st, "%s: err.status %d, returned %d", what, e->status, st);
    if (st != IDNG_OK)
        FUZZ_CHECK(e->label_off <= len && e->label_len <= len - e->label_off,
                   "%s: error at %zu+%zu in %zu octets", what, e->label_off, e->label_len, len);
}

static int punycode_class(idng_status st)
{
    idng_class c = idng_status_class(st);
    return st == IDNG_OK || c == IDNG_C_TOO_LONG || c == IDNG_C_EMPTY_LABEL
           || c == IDNG_C_BAD_PUNYCODE || c == IDNG_C_BAD_CODEPOINT || c == IDNG_C_ASCII_ONLY
           || st == IDNG_E_ROUNDTRIP || st == IDNG_E_XN_PREFIX || st == IDNG_E_RAW_8BIT;
}

/* An xn-- label judged OK: decode, re-encode, compare; to-Unicode agrees. */
static void check_ok_ace(const char *in, size_t len, idng_mode mode)
{
    char low[IDNG_LABEL_MAX], re[IDNG_LABEL_MAX + 1], uni[4 * IDNG_LABEL_MAX + 1];
    unsigned char want[4 * IDNG_LABEL_MAX];
    uint32_t u[IDNG_LABEL_MAX];
    size_t i, n = IDNG_LABEL_MAX, rl = sizeof re, ul = sizeof uni, wl = 0;
    int ascii = 1;
    idng_status st;

    FUZZ_CHECK(len <= IDNG_LABEL_MAX, "OK label of %zu octets", len);
    for (i = 0; i < len; i++)
        low[i] = (char)(in[i] >= 'A' && in[i] <= 'Z' ? in[i] + 32 : in[i]);
    st = idng_punycode_decode(low + 4, len - 4, u, &n, NULL);
    FUZZ_CHECK(st == IDNG_OK, "OK label does not decode: %d", st);
    FUZZ_CHECK(n > 0, "OK label decodes to nothing");
    for (i = 0; i < n; i++)
        ascii &= u[i] < 0x80;
    FUZZ_CHECK(!ascii, "OK label decodes to ASCII only");
    FUZZ_CHECK(!(n >= 4 && u[0] == 'x' && u[1] == 'n' && u[2] == '-' && u[3] == '-'),
               "OK label decodes to xn--...");
    st = idng_punycode_encode(u, n, NULL, re, &rl);
    FUZZ_CHECK(st == IDNG_OK && rl == len - 4 && memcmp(re, low + 4, rl) == 0,
               "OK label does not re-encode to itself: %.*s -> %.*s", (int)len, in, (int)rl, re);
    if (mode == IDNG_MODE_PUNYCODE)
        return;
    st = idng_to_unicode(in, len, uni, &ul, mode, 0, NULL);
    FUZZ_CHECK(st == IDNG_OK, "mode %d: label OK but to-Unicode says %d", mode, st);
    for (i = 0; i < n; i++)
        wl += idng_utf8_encode(u[i], want + wl);
    FUZZ_CHECK(ul == wl && memcmp(uni, want, wl) == 0, "to-Unicode differs from the U-label");
}

/* Text name to wire form; 0 when it has none (empty or long label, too long). */
static size_t to_wire(const char *s, size_t len, uint8_t *w)
{
    size_t o = 0, start = 0, i;

    if (len == 1 && s[0] == '.') {
        w[0] = 0;
        return 1;
    }
    for (i = 0; i <= len; i++) {
        if (i < len && s[i] != '.')
            continue;
        if (i == len && i == start && i > 0)
            break; /* trailing root dot */
        if (i == start || i - start > IDNG_LABEL_MAX || o + 1 + (i - start) + 1 > 255)
            return 0;
        w[o++] = (uint8_t)(i - start);
        memcpy(w + o, s + start, i - start);
        o += i - start;
        start = i + 1;
    }
    w[o++] = 0;
    return o;
}

/* The DNS-name unit against the harness's own text-to-wire and against
 * idng_wire_check. */
static void check_names(const uint8_t *data, size_t size, const uint8_t *wire, size_t wlen)
{
    static const uint8_t root[1] = {0};
    uint8_t w[IDNG_WIRE_MAX];
    size_t i, n = sizeof w, other_stops = 0;
    idng_wire_iter it;
    idng_error e1, e2;
    idng_status st;
    const uint8_t *l;

    for (i = 0; i < size; i++)
        other_stops |= data[i] >= 0x80 && idng_full_stop((const char *)data + i, size - i);
    st = idng_text_to_wire((const char *)data, size, w, &n, NULL);
    if (!other_stops)
        FUZZ_CHECK(wlen == 0 ? st != IDNG_OK : st == IDNG_OK && n == wlen && !memcmp(w, wire, n),
                   "text to wire: %d, %zu octets; the harness: %zu", st, n, wlen);
    if (st == IDNG_OK) {
        FUZZ_CHECK(idng_wire_len(w, n) == n, "wire length %zu of %zu", idng_wire_len(w, n), n);
        FUZZ_CHECK(idng_wire_is_below(w, n, w, n) && idng_wire_is_below(w, n, root, 1),
                   "a name is not below itself or the root");
    }
    idng_wire_iter_init(&it, data, size);
    while (idng_wire_next(&it, &l, &n) == IDNG_WIRE_LABEL)
        FUZZ_CHECK(l > data && l + n <= data + size, "label outside the wire name");
    idng_wire_status(&it, &e1);
    st = idng_wire_check(data, size, IDNG_MODE_PUNYCODE, &e2);
    if (it.fault != IDNG_WIRE_OK)
        FUZZ_CHECK(st == e1.status && e1.label_off == e2.label_off && e1.label_len == e2.label_len,
                   "wire walk %d at %zu, wire check %d at %zu", e1.status, e1.label_off, st,
                   e2.label_off);
    else
        FUZZ_CHECK(st != IDNG_E_INVAL && st != IDNG_E_NAME_TOO_LONG, "well formed, but %d", st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *in = fuzz_dup(data, size), *low = fuzz_alloc(size);
    idng_status lst[3], nst[3];
    idng_error e;
    size_t m, i;
    int has8 = 0, ace = idng_is_ace(in, size);
    uint8_t wire[256];
    size_t wlen = to_wire(in, size, wire);

    for (i = 0; i < size; i++) {
        has8 |= data[i] >= 0x80;
        low[i] = (char)(data[i] >= 'A' && data[i] <= 'Z' ? data[i] + 32 : data[i]);
    }
    check_names(data, size, wire, wlen);
    for (m = 0; m < 3; m++) {
        idng_mode mode = modes[m];
        idng_status st;

        /* One label. */
        lst[m] = idng_label_check(in, size, mode, &e);
        check_err(lst[m], &e, size, "label");
        if (size == 0)
            FUZZ_CHECK(lst[m] == IDNG_E_EMPTY_LABEL, "empty label: %d", lst[m]);
        else if (size > IDNG_LABEL_MAX)
            FUZZ_CHECK(lst[m] == IDNG_E_LABEL_TOO_LONG, "long label: %d", lst[m]);
        else if (has8)
            FUZZ_CHECK(lst[m] == IDNG_E_RAW_8BIT, "8-bit label: %d", lst[m]);
        else if (!ace)
            FUZZ_CHECK(lst[m] == IDNG_OK, "plain ASCII label judged: %d", lst[m]);
        else if (lst[m] == IDNG_OK)
            check_ok_ace(in, size, mode);
        if (mode == IDNG_MODE_PUNYCODE)
            FUZZ_CHECK(punycode_class(lst[m]), "punycode mode failed a label with %d", lst[m]);
        st = idng_label_check(low, size, mode, NULL);
        FUZZ_CHECK(st == lst[m], "lowercased label: %d, as sent %d", st, lst[m]);

        /* A whole name. */
        nst[m] = idng_name_check(in, size, mode, &e);
        check_err(nst[m], &e, size, "name");
        if (mode == IDNG_MODE_PUNYCODE)
            FUZZ_CHECK(punycode_class(nst[m]), "punycode mode failed a name with %d", nst[m]);
        if (nst[m] == IDNG_OK) {
            size_t start = 0;
            FUZZ_CHECK(size <= IDNG_NAME_MAX || (size == IDNG_NAME_MAX + 1 && in[size - 1] == '.'),
                       "OK name of %zu octets", size);
            for (i = 0; i <= size; i++) {
                if (i < size && in[i] != '.')
                    continue;
                if (i > start) {
                    st = idng_label_check(in + start, i - start, mode, NULL);
                    FUZZ_CHECK(st == IDNG_OK, "name OK, label at %zu: %d", start, st);
                }
                start = i + 1;
            }
            if (mode != IDNG_MODE_PUNYCODE) {
                static char uni[8 * 1024];
                size_t ul = sizeof uni;
                st = idng_to_unicode(in, size, uni, &ul, mode, 0, NULL);
                FUZZ_CHECK(st == IDNG_OK, "mode %d: name OK, to-Unicode says %d", mode, st);
            }
        }
        if (wlen > 0) {
            idng_error we;
            st = idng_wire_check(wire, wlen, mode, &we);
            FUZZ_CHECK(st == nst[m], "mode %d: wire form %d, text %d", mode, st, nst[m]);
            FUZZ_CHECK(st == IDNG_OK || we.codepoint == e.codepoint,
                       "wire form blames U+%04X, text U+%04X", (unsigned)we.codepoint,
                       (unsigned)e.codepoint);
        }
    }
    /* Every mode includes the checks of punycode. */
    for (m = 1; m < 3; m++) {
        FUZZ_CHECK(lst[m] != IDNG_OK || lst[0] == IDNG_OK, "label OK in mode %zu, %d in punycode",
                   m, lst[0]);
        FUZZ_CHECK(nst[m] != IDNG_OK || nst[0] == IDNG_OK, "name OK in mode %zu, %d in punycode",
                   m, nst[0]);
    }
    free(in);
    free(low);
    return 0;
}
