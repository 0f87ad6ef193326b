/**
 * \file
 * Fuzz target: the DNS message reader (tap/idng_dnsmsg.h).  The input is
 * one DNS message.
 *
 * Invariants: the status is a DNS status (or OK); parsed <= the length;
 * the question name lies inside the message right after the header and,
 * when its walk ended well, is one wire name (fuzz_wire_labels), when it
 * is compressed ends with a pointer; the EDE text lies inside the message;
 * rcode keeps the header's low 4 bits; the counts and id are the header's;
 * every prefix of the message parses no further than its length.
 */
#include "fuzz_common.h"
#include "idng_dnsmsg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *buf = fuzz_dup(data, size);
    idng_dnsmsg m;
    idng_tap_status st = idng_dnsmsg_parse(buf, size, &m);

    FUZZ_CHECK(st == IDNG_TAP_OK
                   || (st <= IDNG_TAP_E_DNS_HEADER_SHORT && st >= IDNG_TAP_E_DNS_EDE_SHORT),
               "status %d", st);
    FUZZ_CHECK(m.parsed <= size, "parsed %zu of %zu", m.parsed, size);
    if (size >= 12) {
        FUZZ_CHECK(m.id == (buf[0] << 8 | buf[1]) && m.qdcount == (buf[4] << 8 | buf[5])
                       && m.arcount == (buf[10] << 8 | buf[11]),
                   "header fields differ");
        FUZZ_CHECK((m.rcode & 0xF) == (buf[3] & 0xF), "rcode %u", m.rcode);
        FUZZ_CHECK(m.has_opt || m.rcode == (buf[3] & 0xF), "extended rcode without OPT");
    }
    if (m.qname != NULL) {
        FUZZ_CHECK(m.qname == buf + 12 && m.qname_len <= size - 12, "qname outside");
        if (m.qname_fault == IDNG_WIRE_OK)
            FUZZ_CHECK(fuzz_wire_labels(m.qname, m.qname_len) >= 0, "qname not one wire name");
        if (m.qname_fault == IDNG_WIRE_POINTER && st != IDNG_TAP_E_DNS_QNAME)
            FUZZ_CHECK(m.qname_len >= 2 && (m.qname[m.qname_len - 2] & 0xC0) == 0xC0,
                       "compressed qname does not end with its pointer");
        FUZZ_CHECK((st == IDNG_TAP_E_DNS_QNAME) == (m.qname_status != IDNG_OK
                                                    && m.qname_fault != IDNG_WIRE_POINTER)
                       || m.qname_fault == IDNG_WIRE_POINTER,
                   "qname status and fault disagree");
    }
    if (m.has_question)
        FUZZ_CHECK(m.qname != NULL, "question without a name");
    if (m.has_ede)
        FUZZ_CHECK(m.has_opt && m.ede_text >= buf && m.ede_text_len <= size
                       && (size_t)(m.ede_text - buf) <= size - m.ede_text_len,
                   "EDE text outside");
    if (size > 0) {
        idng_dnsmsg p;
        uint8_t *cut = fuzz_dup(buf, size - 1);
        idng_dnsmsg_parse(cut, size - 1, &p);
        FUZZ_CHECK(p.parsed <= size - 1, "prefix parsed past its end");
        free(cut);
    }
    free(buf);
    return 0;
}
