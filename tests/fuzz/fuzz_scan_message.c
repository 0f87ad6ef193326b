/**
 * \file
 * Fuzz target: names read out of a DNS message with their pointers
 * followed (idng_wire_decompress) and the response scan over a whole
 * message (idng_scan_message), under the default policy.  The input is one
 * DNS message.
 *
 * Invariants:
 * - the name at offset 12 (the question's) and at every offset the first
 *   two octets name: idng_wire_decompress reads it exactly when a reader
 *   written here independently does (labels of 1-63 octets, a pointer
 *   followed only when it points before the run of labels that holds it,
 *   255 octets at most once followed), to the same octets and the same
 *   end in place; what it reads is one wire name;
 * - at every record on that walk, idng_wire_rr_read reads the header as
 *   the walk does: the same refusal (owner, header cut, rdata past the
 *   end), or the same owner, type, class, TTL, rdlength and rdata offset;
 *   walked in place (pointers not followed), it reads every owner that is
 *   read decompressed, to the same end, and then refuses or reads the rest
 *   alike;
 * - the scan reads the message exactly when a walk written here does (the
 *   header, every question, every record and its rdata within the
 *   message, answer CNAME and DNAME rdata exactly one name), and on that
 *   walk every name is compared as above;
 * - the scan returns 0 or -1; -1 comes with a rejection whose verdict is
 *   the malformed one (IDNG_E_INVAL, no label, no list); a scan that read
 *   the message ends in pass, log or a rejection, as its verdict's action
 *   says;
 * - every prefix of the message is scanned within its length.
 */
#include "fuzz_common.h"
#include "idng_scan.h"

/* The name at m[off..len), read here: 0 and out, *outlen, *next set, or -1. */
static int ref_read(const uint8_t *m, size_t len, size_t off, uint8_t *out, size_t *outlen,
                    size_t *next)
{
    size_t pos = off, run = off, n = 0, end = 0;

    for (;;) {
        size_t l;
        if (pos >= len)
            return -1;
        l = m[pos];
        if (l >= 0xC0) {
            size_t to;
            if (pos + 1 >= len)
                return -1;
            to = (l & 0x3F) << 8 | m[pos + 1];
            if (to >= run)
                return -1;
            if (end == 0)
                end = pos + 2;
            pos = run = to;
            continue;
        }
        if (l > 63 || pos + 1 + l > len || n + 1 + l + (l > 0) > 255)
            return -1;
        memcpy(out + n, m + pos, 1 + l);
        n += 1 + l;
        pos += 1 + l;
        if (l == 0) {
            *outlen = n;
            *next = end ? end : pos;
            return 0;
        }
    }
}

static void check_name(const uint8_t *m, size_t len, size_t off)
{
    uint8_t *got = fuzz_alloc(IDNG_WIRE_MAX), want[IDNG_WIRE_MAX];
    size_t glen = 0, gnext = 0, wlen = 0, wnext = 0;
    idng_wire_fault f = idng_wire_decompress(m, len, off, got, &glen, &gnext);
    int r = ref_read(m, len, off, want, &wlen, &wnext);

    FUZZ_CHECK((f == IDNG_WIRE_OK) == (r == 0), "offset %zu: fault %d, the reference %s", off,
               (int)f, r == 0 ? "reads it" : "does not");
    if (f == IDNG_WIRE_OK) {
        FUZZ_CHECK(glen == wlen && memcmp(got, want, glen) == 0, "offset %zu: another name", off);
        FUZZ_CHECK(gnext == wnext && gnext <= len && gnext > off,
                   "offset %zu: ends at %zu, not %zu", off, gnext, wnext);
        FUZZ_CHECK(fuzz_wire_labels(got, glen) >= 0, "offset %zu: not one wire name", off);
    }
    free(got);
}

/* The record header at m[off..len): idng_wire_rr_read, both ways, against
 * the reading here. */
static void check_rr(const uint8_t *m, size_t len, size_t off)
{
    uint8_t *got = fuzz_alloc(IDNG_WIRE_MAX), want[IDNG_WIRE_MAX];
    size_t wlen = 0, next = 0;
    idng_wire_rr rr, in;
    idng_wire_rr_status st = idng_wire_rr_read(m, len, off, got, &rr), want_st;
    idng_wire_rr_status in_st = idng_wire_rr_read(m, len, off, NULL, &in);

    if (ref_read(m, len, off, want, &wlen, &next) != 0)
        want_st = IDNG_WIRE_RR_NAME;
    else if (len - next < 10)
        want_st = IDNG_WIRE_RR_SHORT;
    else if ((size_t)(m[next + 8] << 8 | m[next + 9]) > len - next - 10)
        want_st = IDNG_WIRE_RR_RDATA;
    else
        want_st = IDNG_WIRE_RR_OK;
    FUZZ_CHECK(st == want_st, "record at %zu: status %d, the reference %d", off, (int)st,
               (int)want_st);
    FUZZ_CHECK(rr.owner == off && in.owner == off, "record at %zu: owner elsewhere", off);
    if (st == IDNG_WIRE_RR_NAME) {
        FUZZ_CHECK(rr.fault != IDNG_WIRE_OK, "record at %zu: refused without a fault", off);
    } else {
        FUZZ_CHECK(rr.owner_len == wlen && memcmp(got, want, wlen) == 0 && rr.owner_end == next,
                   "record at %zu: another owner", off);
        FUZZ_CHECK(in_st == st && in.owner_end == next && in.owner_len == 0,
                   "record at %zu: in place %d, decompressed %d", off, (int)in_st, (int)st);
    }
    if (st == IDNG_WIRE_RR_OK || st == IDNG_WIRE_RR_RDATA) {
        const uint8_t *h = m + next;
        FUZZ_CHECK(rr.type == (h[0] << 8 | h[1]) && rr.rclass == (h[2] << 8 | h[3])
                       && rr.ttl == ((uint32_t)h[4] << 24 | (uint32_t)h[5] << 16 | h[6] << 8 | h[7])
                       && rr.rdlength == (h[8] << 8 | h[9]) && rr.rdata == next + 10
                       && rr.end == rr.rdata + rr.rdlength,
                   "record at %zu: fields read otherwise", off);
        FUZZ_CHECK(in.type == rr.type && in.rclass == rr.rclass && in.ttl == rr.ttl
                       && in.rdlength == rr.rdlength && in.rdata == rr.rdata && in.end == rr.end,
                   "record at %zu: fields read otherwise in place", off);
    }
    free(got);
}

/* The whole message read here, every name compared on the way
 * (check_name): 0 when it can be read as idng_policy.h says, else -1. */
static int ref_message(const uint8_t *m, size_t len)
{
    uint8_t name[IDNG_WIRE_MAX];
    size_t pos = 12, n, next, sec, i;

    if (len < 12)
        return -1;
    for (i = 0; i < (size_t)(m[4] << 8 | m[5]); i++) {
        check_name(m, len, pos);
        if (ref_read(m, len, pos, name, &n, &next) != 0 || len - next < 4)
            return -1;
        pos = next + 4;
    }
    for (sec = 0; sec < 3; sec++)
        for (i = 0; i < (size_t)(m[6 + 2 * sec] << 8 | m[7 + 2 * sec]); i++) {
            size_t type, rdlen;
            check_name(m, len, pos);
            check_rr(m, len, pos);
            if (ref_read(m, len, pos, name, &n, &next) != 0 || len - next < 10)
                return -1;
            type = (size_t)(m[next] << 8 | m[next + 1]);
            rdlen = (size_t)(m[next + 8] << 8 | m[next + 9]);
            pos = next + 10;
            if (rdlen > len - pos)
                return -1;
            if (sec == 0 && (type == 5 || type == 39)) { /* CNAME, DNAME */
                check_name(m, pos + rdlen, pos);
                if (ref_read(m, pos + rdlen, pos, name, &n, &next) != 0 || next != pos + rdlen)
                    return -1;
            }
            pos += rdlen;
        }
    return 0;
}

static int scan(const struct idng_policy *p, const uint8_t *m, size_t len)
{
    struct idng_scan s;
    struct idng_verdict v;
    enum idng_scan_result r;
    int ret;

    idng_scan_init(&s);
    ret = idng_scan_message(p, &s, m, len);
    r = idng_scan_result(&s, &v);
    FUZZ_CHECK(ret == 0 || ret == -1, "returned %d", ret);
    if (ret == -1)
        FUZZ_CHECK(r == IDNG_SCAN_REJECT && v.err.status == IDNG_E_INVAL && v.err.label_len == 0
                       && v.listed == IDNG_LISTED_NONE,
                   "cannot be read, but scanned as %d (%s)", (int)r, idng_verdict_name(&v));
    else if (idng_action_rejects(v.action))
        FUZZ_CHECK(r == IDNG_SCAN_REJECT, "result %d for action %d", (int)r, (int)v.action);
    else
        FUZZ_CHECK(r == (v.action == IDNG_ACT_LOG ? IDNG_SCAN_LOG : IDNG_SCAN_PASS),
                   "result %d for action %d", (int)r, (int)v.action);
    return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct idng_policy pol;
    static int ready;
    uint8_t *buf = fuzz_dup(data, size);

    if (!ready) {
        idng_policy_init(&pol);
        idng_policy_resolve(&pol, NULL);
        ready = 1;
    }
    check_name(buf, size, 12);
    if (size >= 2)
        check_name(buf, size, (size_t)(buf[0] << 8 | buf[1]) % (size + 1));
    FUZZ_CHECK(scan(&pol, buf, size) == ref_message(buf, size),
               "the scan and the reference disagree on whether it can be read");
    if (size > 0) {
        uint8_t *cut = fuzz_dup(buf, size - 1);
        scan(&pol, cut, size - 1);
        free(cut);
    }
    free(buf);
    return 0;
}
