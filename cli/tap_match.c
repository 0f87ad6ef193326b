/**
 * \file
 * `idnguard tap`'s matcher: each CLIENT_QUERY waits in a bounded table for
 * its CLIENT_RESPONSE (tap_run.h); the pair, or either alone, is judged
 * and written as one query-log line.
 */
#include "tap_run.h"

#include "idng_dnsmsg.h"
#include "idng_dnstap.h"
#include "idng_lookalike.h"
#include "idnguard.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---- queries waiting for their responses ---- */

/* What matches a response to its query. */
struct key {
    uint8_t proto, alen;
    uint8_t addr[16];
    uint16_t port, id, qtype, qclass;
    uint8_t qlen;
    uint8_t qname[255];
};

struct pending {
    struct key k;
    uint32_t hash;
    int32_t next; /* in its bucket's chain; -1 ends it */
    int live;
    long long t_ns;   /* the query's time (dnstap) */
    long long expire; /* stream clock */
};

static struct pending ring[TAP_PENDING];
static unsigned ring_head, ring_count;
static int32_t buckets[TAP_BUCKETS];

/*
 * The table's hash is keyed (SipHash-1-3, Aumasson and Bernstein's
 * construction with one compression and three finalization rounds) with a
 * secret drawn at start: the query names, ids and ports come from clients,
 * and an unkeyed hash would let one craft queries that all land in one
 * chain, making every lookup walk the whole table.
 */
static uint64_t sip_k0, sip_k1;

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                                             \
    do {                                                                                     \
        v0 += v1;                                                                            \
        v1 = ROTL(v1, 13);                                                                   \
        v1 ^= v0;                                                                            \
        v0 = ROTL(v0, 32);                                                                   \
        v2 += v3;                                                                            \
        v3 = ROTL(v3, 16);                                                                   \
        v3 ^= v2;                                                                            \
        v0 += v3;                                                                            \
        v3 = ROTL(v3, 21);                                                                   \
        v3 ^= v0;                                                                            \
        v2 += v1;                                                                            \
        v1 = ROTL(v1, 17);                                                                   \
        v1 ^= v2;                                                                            \
        v2 = ROTL(v2, 32);                                                                   \
    } while (0)

static uint64_t siphash13(const uint8_t *in, size_t len)
{
    uint64_t v0 = sip_k0 ^ 0x736f6d6570736575ULL, v1 = sip_k1 ^ 0x646f72616e646f6dULL;
    uint64_t v2 = sip_k0 ^ 0x6c7967656e657261ULL, v3 = sip_k1 ^ 0x7465646279746573ULL;
    uint64_t m, b = (uint64_t)len << 56;
    size_t i, end = len - len % 8;
    int k;

    for (i = 0; i < end; i += 8) {
        const uint8_t *q = in + i; /* little-endian: one load where the target allows */
        m = (uint64_t)q[0] | (uint64_t)q[1] << 8 | (uint64_t)q[2] << 16 | (uint64_t)q[3] << 24
            | (uint64_t)q[4] << 32 | (uint64_t)q[5] << 40 | (uint64_t)q[6] << 48
            | (uint64_t)q[7] << 56;
        v3 ^= m;
        SIPROUND;
        v0 ^= m;
    }
    for (k = 0; i + (size_t)k < len; k++)
        b |= (uint64_t)in[i + (size_t)k] << (8 * k);
    v3 ^= b;
    SIPROUND;
    v0 ^= b;
    v2 ^= 0xff;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}
#undef SIPROUND
#undef ROTL

/* Empties the table and draws the hash key. */
void tap_match_init(void)
{
    int i;

    for (i = 0; i < TAP_BUCKETS; i++)
        buckets[i] = -1;
    uint64_t k[2] = {0, 0};
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

    if (fd < 0 || read(fd, k, sizeof k) != (ssize_t)sizeof k) {
        /* No randomness: the time and pid still differ between runs. */
        k[0] = (uint64_t)tap_wall_ns();
        k[1] = (uint64_t)getpid() * 0x9E3779B97F4A7C15ULL;
    }
    if (fd >= 0)
        close(fd);
    sip_k0 = k[0];
    sip_k1 = k[1];
}

static uint32_t key_hash(const struct key *k)
{
    uint8_t b[sizeof *k];
    size_t n = 0;

    b[n++] = k->proto;
    b[n++] = k->alen;
    memcpy(b + n, k->addr, k->alen);
    n += k->alen;
    b[n++] = (uint8_t)(k->port >> 8);
    b[n++] = (uint8_t)k->port;
    b[n++] = (uint8_t)(k->id >> 8);
    b[n++] = (uint8_t)k->id;
    b[n++] = (uint8_t)(k->qtype >> 8);
    b[n++] = (uint8_t)k->qtype;
    b[n++] = (uint8_t)(k->qclass >> 8);
    b[n++] = (uint8_t)k->qclass;
    b[n++] = k->qlen;
    memcpy(b + n, k->qname, k->qlen);
    n += k->qlen;
    return (uint32_t)siphash13(b, n);
}

static int key_eq(const struct key *a, const struct key *b)
{
    return a->proto == b->proto && a->alen == b->alen && a->port == b->port && a->id == b->id
           && a->qtype == b->qtype && a->qclass == b->qclass && a->qlen == b->qlen
           && memcmp(a->addr, b->addr, a->alen) == 0 && memcmp(a->qname, b->qname, a->qlen) == 0;
}

static void unlink_pending(int32_t idx)
{
    int32_t *p = &buckets[ring[idx].hash % TAP_BUCKETS];

    while (*p != idx && *p >= 0)
        p = &ring[*p].next;
    if (*p == idx)
        *p = ring[idx].next;
    ring[idx].live = 0;
}

static struct pending *find_pending(const struct key *k, uint32_t hash)
{
    int32_t i;

    for (i = buckets[hash % TAP_BUCKETS]; i >= 0; i = ring[i].next)
        if (ring[i].hash == hash && key_eq(&ring[i].k, k))
            return &ring[i];
    return NULL;
}

/* ---- lines ---- */

/* The transport of a key's proto (dnstap's SocketProtocol; 0 unknown). */
static const char *transport_name(unsigned proto)
{
    switch (proto) {
    case IDNG_DT_UDP:
        return "udp";
    case IDNG_DT_TCP:
        return "tcp";
    case IDNG_DT_DOT:
        return "tls";
    case IDNG_DT_DOH:
        return "https";
    case IDNG_DT_DNSCRYPT_UDP:
        return "dnscrypt-udp";
    case IDNG_DT_DNSCRYPT_TCP:
        return "dnscrypt-tcp";
    case IDNG_DT_DOQ:
        return "quic";
    default:
        return NULL;
    }
}

/* What one line says; the parts that come from the query or the response. */
struct seen {
    const struct key *k;
    const uint8_t *qname; /* as sent (may be malformed); NULL: none */
    size_t qname_len;
    const char *transport;
    int rcode; /* -2: no response seen */
    int ede;
    long long t_ns; /* the query's time; 0 unknown */
    long long elapsed_ns; /* < 0 unknown */
};

static void write_line(struct tap *t, const struct seen *s)
{
    struct idng_verdict v;
    struct idng_decoded dec; /* the labels the judgment decoded, for the Unicode form */
    struct idng_logrec r;
    char line[IDNG_LOG_LINE_MAX], client[IDNG_LOG_CLIENT_MAX];
    size_t n;

    idng_policy_judge_decoded(&t->conf.policy, s->qname ? s->qname : (const uint8_t *)"",
                              s->qname_len, &v, &dec);
    {
        unsigned row = idng_verdict_row(&v);
        if (row < IDNG_VERDICT_COUNT && (unsigned)v.action < IDNG_ACTION_COUNT)
            tap_count.verdicts[row][v.action]++;
    }
    if (!idng_conf_logs(&t->conf, &v))
        return;
    memset(&r, 0, sizeof r);
    r.time_sec = s->t_ns / NS;
    r.time_usec = (long)((s->t_ns % NS) / 1000);
    r.client = s->k->alen ? idng_log_client(s->k->addr, s->k->alen, t->conf.anonymize_clients,
                                            client, sizeof client)
                          : NULL;
    r.port = s->k->port;
    r.qname = s->qname;
    r.qname_len = s->qname_len;
    r.decoded = &dec;
    r.qtype = s->k->qtype;
    r.qclass = s->k->qclass;
    r.rcode = s->rcode;
    idng_logrec_verdict(&r, &v, t->conf.policy.mode);
    r.path = NULL;
    r.ede = s->ede;
    r.transport = s->transport;
    if (s->elapsed_ns >= 0) {
        r.has_elapsed = 1;
        r.elapsed_us = s->elapsed_ns / 1000;
    }
    n = idng_log_format(&r, t->fmt, 1, line, sizeof line);
    tap_count.lines++;
    idng_logfile_write(t->out, line, n); /* a drop is counted there */
}

/* The line of a query that waited in vain: no rcode. */
static void expire_one(struct tap *t, struct pending *p)
{
    struct seen s = {0};

    s.k = &p->k;
    s.qname = p->k.qname;
    s.qname_len = p->k.qlen;
    s.transport = transport_name(p->k.proto);
    s.rcode = -2;
    s.ede = -1;
    s.t_ns = p->t_ns;
    s.elapsed_ns = -1;
    tap_count.unanswered++;
    write_line(t, &s);
}

/* Lines for the queries whose wait is over (all of them with all set). */
void tap_expire(struct tap *t, int all)
{
    while (ring_count > 0) {
        struct pending *p = &ring[ring_head];
        if (p->live) {
            if (!all && p->expire > t->clock_ns)
                break;
            unlink_pending((int32_t)ring_head);
            expire_one(t, p);
        }
        ring_head = (ring_head + 1) % TAP_PENDING;
        ring_count--;
    }
}

/* The proto field of a key is the transport's own number (0 unknown). */
static int make_key(const idng_dnstap *d, const idng_dnsmsg *m, struct key *k)
{
    memset(k, 0, sizeof *k);
    k->proto = (d->present & IDNG_DT_HAS_PROTOCOL) ? (uint8_t)d->protocol : 0;
    if (d->present & IDNG_DT_HAS_QADDR) {
        k->alen = (uint8_t)d->qaddr.len;
        memcpy(k->addr, d->qaddr.p, d->qaddr.len);
    }
    k->port = (d->present & IDNG_DT_HAS_QPORT) ? (uint16_t)d->qport : 0;
    k->id = m->id;
    if (!m->has_question)
        return 0;
    k->qtype = m->qtype;
    k->qclass = m->qclass;
    k->qlen = (uint8_t)(m->qname_len > 255 ? 255 : m->qname_len);
    memcpy(k->qname, m->qname, k->qlen);
    return 1;
}

/* A dnstap time in ns; 0 (unknown) when out of range: far enough below
 * INT64_MAX that adding a wait of an hour cannot overflow. */
#define TIME_MAX_SEC (INT64_MAX / NS - 7200)
static long long time_of(uint64_t sec, uint32_t nsec)
{
    if (sec > (uint64_t)TIME_MAX_SEC)
        return 0;
    return (long long)sec * NS + (nsec < NS ? nsec : 0);
}

/* With -r, the capture's clock moves with its messages, but never by more
 * than an hour at once: one message dated far in the future must not
 * expire every query that waits. */
static void advance_clock(struct tap *t, long long msg_ns)
{
    if (!t->file || msg_ns <= t->clock_ns)
        return;
    if (t->clock_ns == 0 || msg_ns - t->clock_ns <= 3600 * NS) {
        t->clock_ns = msg_ns;
        tap_expire(t, 0); /* before this message is matched */
    }
}

static void on_query(struct tap *t, const idng_dnstap *d, const idng_dnsmsg *m)
{
    struct pending *p;
    struct key k;
    uint32_t h;
    long long qt = (d->present & IDNG_DT_HAS_QTIME_SEC) ? time_of(d->qtime_sec, d->qtime_nsec) : 0;

    if (!make_key(d, m, &k))
        return; /* no question: nothing to match its response by; the response says it */
    advance_clock(t, qt);
    h = key_hash(&k);
    if (find_pending(&k, h))
        return; /* the same query again (a retransmission): the first one waits */
    if (ring_count == TAP_PENDING) {
        /* Full: the oldest goes out now, as unanswered. */
        struct pending *o = &ring[ring_head];
        if (o->live) {
            unlink_pending((int32_t)ring_head);
            expire_one(t, o);
        }
        ring_head = (ring_head + 1) % TAP_PENDING;
        ring_count--;
    }
    p = &ring[(ring_head + ring_count) % TAP_PENDING];
    p->k = k;
    p->hash = h;
    p->live = 1;
    p->t_ns = qt ? qt : tap_wall_ns();
    p->expire = t->clock_ns + (long long)t->wait_s * NS;
    p->next = buckets[h % TAP_BUCKETS];
    buckets[h % TAP_BUCKETS] = (int32_t)(p - ring);
    ring_count++;
}

static void on_response(struct tap *t, const idng_dnstap *d, const idng_dnsmsg *m)
{
    struct seen s = {0};
    struct pending *p = NULL;
    struct key k;
    long long rt = (d->present & IDNG_DT_HAS_RTIME_SEC) ? time_of(d->rtime_sec, d->rtime_nsec) : 0;
    long long qt = (d->present & IDNG_DT_HAS_QTIME_SEC) ? time_of(d->qtime_sec, d->qtime_nsec) : 0;

    advance_clock(t, rt);
    if (make_key(d, m, &k))
        p = find_pending(&k, key_hash(&k));
    s.k = &k;
    s.qname = m->has_question ? m->qname : NULL;
    s.qname_len = m->has_question ? m->qname_len : 0;
    s.transport = transport_name(k.proto);
    s.rcode = m->rcode;
    s.ede = m->has_ede ? m->ede_code : -1;
    s.elapsed_ns = -1;
    if (p) {
        qt = p->t_ns;
        unlink_pending((int32_t)(p - ring));
    } else {
        tap_count.unmatched++;
    }
    s.t_ns = qt ? qt : rt;
    if (qt && rt >= qt)
        s.elapsed_ns = rt - qt;
    write_line(t, &s);
}

/* One data frame: a Dnstap message. */
void tap_on_data(struct tap *t, const char *src, const uint8_t *buf, size_t len)
{
    idng_dnstap d;
    idng_dnsmsg m;
    idng_tap_status st;
    int query;

    tap_count.frames++;
    st = idng_dnstap_decode(buf, len, &d);
    if (st != IDNG_TAP_OK) {
        tap_count.malformed_messages++;
        tap_report(t, "%s: frame %llu: %s", src, tap_count.frames, idng_tap_status_message(st));
        return;
    }
    tap_count.messages++;
    if (!(d.present & IDNG_DT_HAS_MESSAGE)
        || (d.mtype != IDNG_DT_CLIENT_QUERY && d.mtype != IDNG_DT_CLIENT_RESPONSE)) {
        tap_count.other_messages++;
        return;
    }
    query = d.mtype == IDNG_DT_CLIENT_QUERY;
    if (!(d.present & (query ? IDNG_DT_HAS_QMSG : IDNG_DT_HAS_RMSG))) {
        /* No error: dnstap.proto makes the DNS message optional, and
         * producers leave it out by design (Knot Resolver without
         * client.log_queries or log_responses; PowerDNS Recursor's
         * newly-observed-domain stream, the name in query_zone alone).
         * Nothing to judge or to match by: not logged, said once. */
        tap_count.other_messages++;
        if (!t->said_bare[query]) {
            t->said_bare[query] = 1;
            fprintf(stderr,
                    "idnguard tap: %s: %s messages come without their DNS message: they are "
                    "not logged (%s)\n",
                    src, query ? "CLIENT_QUERY" : "CLIENT_RESPONSE",
                    query ? "the responses still are, without ms=; Knot Resolver: set "
                            "client.log_queries"
                          : "their queries are, with rcode -; Knot Resolver: set "
                            "client.log_responses");
        }
        return;
    }
    st = query ? idng_dnsmsg_parse(d.qmsg.p, d.qmsg.len, &m)
               : idng_dnsmsg_parse(d.rmsg.p, d.rmsg.len, &m);
    if (st != IDNG_TAP_OK) {
        /* Counted and shown; a message whose question was read still gets
         * its line (the name is what the log is for). */
        tap_count.malformed_dns++;
        tap_report(t, "%s: frame %llu: DNS message: %s", src, tap_count.frames,
               idng_tap_status_message(st));
        if (!m.has_question)
            return;
    }
    if (query)
        on_query(t, &d, &m);
    else
        on_response(t, &d, &m);
}
