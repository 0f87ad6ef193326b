/**
 * \file
 * The DNS message reader (idng_dnsmsg.h says what is read and refused).
 */
#include "idng_dnsmsg.h"

#include <string.h>

static uint16_t be16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

/*
 * Walks the name at msg[start..len) with the codec's name unit.  On
 * return *end is the offset just after the name (after its root label or
 * its two-octet pointer) when it is usable, else just after the octets
 * read up to the fault; it->fault is IDNG_WIRE_OK or, for a usable
 * compressed name, IDNG_WIRE_POINTER.  Returns 1 if the name is usable.
 */
static int walk_name(const uint8_t *msg, size_t len, size_t start, size_t *end,
                     idng_wire_iter *it)
{
    const uint8_t *label;
    size_t n, avail = len - start;
    int r;

    idng_wire_iter_init(it, msg + start, avail);
    while ((r = idng_wire_next(it, &label, &n)) == IDNG_WIRE_LABEL)
        ;
    if (r == IDNG_WIRE_END) {
        *end = start + it->pos + 1;
        return 1;
    }
    if (it->fault == IDNG_WIRE_POINTER && avail - it->pos >= 2) {
        *end = start + it->pos + 2;
        return 1;
    }
    /* The octets up to and with the faulty one, when they are there. */
    *end = start + (it->pos < avail && it->fault != IDNG_WIRE_TRUNCATED ? it->pos + 1 : avail);
    return 0;
}

/* The OPT record's TTL and options (RFC 6891 6.1.3, 6.1.2; RFC 8914 2). */
static idng_tap_status opt_record(idng_dnsmsg *m, uint16_t udp_size, uint32_t ttl,
                                  const uint8_t *rdata, size_t rdlen)
{
    size_t p = 0;

    m->has_opt = 1;
    m->udp_size = udp_size;
    m->rcode = (uint16_t)((ttl >> 24) << 4 | (m->flags & 0xF));
    m->edns_version = (uint8_t)(ttl >> 16);
    m->edns_flags = (uint16_t)ttl;
    m->dnssec_ok = (ttl & 0x8000) != 0;
    while (p < rdlen) {
        uint16_t code, olen;
        if (rdlen - p < 4)
            return IDNG_TAP_E_DNS_OPT_OPTION;
        code = be16(rdata + p);
        olen = be16(rdata + p + 2);
        if (olen > rdlen - p - 4)
            return IDNG_TAP_E_DNS_OPT_OPTION;
        if (code == IDNG_DNS_OPT_EDE && !m->has_ede) {
            if (olen < 2)
                return IDNG_TAP_E_DNS_EDE_SHORT;
            m->has_ede = 1;
            m->ede_code = be16(rdata + p + 4);
            m->ede_text = rdata + p + 6;
            m->ede_text_len = olen - 2u;
        }
        p += 4 + (size_t)olen;
    }
    return IDNG_TAP_OK;
}

/* The first question: its name as sent (see idng_dnsmsg.h), type, class. */
static idng_tap_status first_question(const uint8_t *msg, size_t len, idng_dnsmsg *m)
{
    idng_wire_iter it;
    size_t end;
    int ok = walk_name(msg, len, 12, &end, &it);

    m->qname = msg + 12;
    m->qname_len = end - 12;
    m->qname_fault = it.fault;
    m->qname_status = idng_wire_status(&it, NULL);
    if (!ok)
        return IDNG_TAP_E_DNS_QNAME;
    m->parsed = end;
    if (len - end < 4)
        return IDNG_TAP_E_DNS_QUESTION_SHORT;
    m->qtype = be16(msg + end);
    m->qclass = be16(msg + end + 2);
    m->has_question = 1;
    m->parsed = end + 4;
    return IDNG_TAP_OK;
}

idng_tap_status idng_dnsmsg_parse(const uint8_t *msg, size_t len, idng_dnsmsg *m)
{
    idng_wire_iter it;
    idng_tap_status st;
    size_t pos, end;
    uint32_t i, records, additional_from;

    memset(m, 0, sizeof *m);
    if (len < 12)
        return IDNG_TAP_E_DNS_HEADER_SHORT;
    m->id = be16(msg);
    m->flags = be16(msg + 2);
    m->rcode = m->flags & 0xF;
    m->qdcount = be16(msg + 4);
    m->ancount = be16(msg + 6);
    m->nscount = be16(msg + 8);
    m->arcount = be16(msg + 10);
    m->parsed = 12;
    if (m->qdcount > 0 && (st = first_question(msg, len, m)) != IDNG_TAP_OK)
        return st;
    pos = m->parsed;
    /* Further questions: skipped. */
    for (i = 1; i < m->qdcount; i++) {
        if (!walk_name(msg, len, pos, &end, &it))
            return IDNG_TAP_E_DNS_RR_NAME;
        if (len - end < 4)
            return IDNG_TAP_E_DNS_QUESTION_SHORT;
        pos = m->parsed = end + 4;
    }
    records = (uint32_t)m->ancount + m->nscount + m->arcount;
    additional_from = (uint32_t)m->ancount + m->nscount;
    for (i = 0; i < records; i++) {
        idng_wire_rr rr;
        switch (idng_wire_rr_read(msg, len, pos, NULL, &rr)) {
        case IDNG_WIRE_RR_OK:
            break;
        case IDNG_WIRE_RR_NAME:
            return IDNG_TAP_E_DNS_RR_NAME;
        case IDNG_WIRE_RR_SHORT:
            return IDNG_TAP_E_DNS_RR_SHORT;
        case IDNG_WIRE_RR_RDATA:
        default:
            return IDNG_TAP_E_DNS_RDATA_SHORT;
        }
        if (i >= additional_from && rr.type == IDNG_DNS_TYPE_OPT) {
            if (m->has_opt)
                return IDNG_TAP_E_DNS_OPT_DUP;
            if (rr.owner_end != rr.owner + 1 || msg[rr.owner] != 0)
                return IDNG_TAP_E_DNS_OPT_OWNER;
            st = opt_record(m, rr.rclass, rr.ttl, msg + rr.rdata, rr.rdlength);
            if (st != IDNG_TAP_OK)
                return st;
        }
        pos = m->parsed = rr.end;
    }
    return IDNG_TAP_OK;
}
