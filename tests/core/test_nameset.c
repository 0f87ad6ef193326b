/**
 * \file
 * Tests of the name sets behind `allow` and `deny` (conf/conf_names.c):
 *
 * - idng_nameset_listed against a plain linear scan of the list's names
 *   (ref_listed below: the semantics the hashed set replaced), on random
 *   sets and random query names: listed names in other cases, their
 *   parents and children, names of 1 to 127 labels, the root, and wire
 *   names that lie (labels over 63 octets, compression pointers, running
 *   past len, no root label, over 255 octets).  Some queries are placed
 *   against a guard page, so that reading past len faults;
 * - names kept in file order, duplicates found at any size with the same
 *   messages as ever, settings untouched when a big list fails;
 * - idng_nameset_mem.
 * Lists of 100,000 names are test_nameset_big.c's.
 */
#include "common.h"
#include "idng_conf.h"
#include "nameset_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The reference: what idng_nameset_listed answered when it scanned the
 * whole list, written from its documentation.  The query must end (root
 * label) within len, with no label over 63 octets and at most 255 octets
 * in all; then every entry is compared with the suffix of the same length,
 * if one starts on a label, and the longest equal entry wins. */
static int ref_listed(const struct idng_nameset *l, const uint8_t *w, size_t len)
{
    size_t starts[WIRE_MAX + 1], n = 0, pos = 0, total, i, k, j, best = 0;

    if (l == NULL || w == NULL || l->count == 0)
        return 0;
    for (;;) {
        if (pos >= len)
            return 0;
        starts[n++] = pos;
        if (w[pos] == 0)
            break;
        if (w[pos] > 63)
            return 0;
        pos += 1u + w[pos];
        if (pos + 1 > WIRE_MAX)
            return 0;
    }
    total = pos + 1;
    for (i = 0; i < l->count; i++) {
        const uint8_t *m = l->names[i];
        size_t mlen = wire_len(m);
        for (k = 0; k < n; k++) {
            if (total - starts[k] != mlen)
                continue;
            for (j = 0; j < mlen && fold(w[starts[k] + j]) == fold(m[j]); j++)
                ;
            if (j == mlen && mlen > best)
                best = mlen;
        }
    }
    return (int)best;
}

/* Text form ("a.b." or "."), for messages. */
static const char *show(const uint8_t *w, size_t len, char *out, size_t cap)
{
    size_t i, o = 0;
    for (i = 0; i < len && o + 5 < cap; i++) {
        if (w[i] > 0x20 && w[i] < 0x7f && w[i] != '\\')
            out[o++] = (char)w[i];
        else
            o += (size_t)snprintf(out + o, cap - o, "\\%03u", w[i]);
    }
    out[o] = '\0';
    return out;
}

/* ------------------------------------------------------------------------ */
/* Random names                                                              */

/* Labels that make names share parents and children often.  All spell the
 * same in file and wire form (the parser lowercases ASCII). */
static const char *const pool[] = {
    "a", "b", "www", "mail", "example", "net", "xn--bcher-kva", "0", "-", "_tcp", "co", "uk",
};
#define N_POOL (sizeof pool / sizeof pool[0])

/* Octets an ASCII label of a listed name may hold (see name_octet_ok). */
static const char label_chars[] = "abcdefghijklmnopqrstuvwxyz0123456789-_!$%&'()+,/:;<=>?@[]^`{|}~";

/* Appends a random label (lowercase) to wire at *o if it fits, leaving
 * room for the root label; returns 0 when it does not fit. */
static int add_label(uint8_t *wire, size_t *o, int long_ok)
{
    uint8_t lab[63];
    size_t l, i;

    if (long_ok && rnd() % 8 == 0) {
        l = 1 + rnd() % 63;
        for (i = 0; i < l; i++)
            lab[i] = (uint8_t)label_chars[rnd() % (sizeof label_chars - 1)];
    } else {
        const char *p = pool[rnd() % N_POOL];
        l = strlen(p);
        memcpy(lab, p, l);
    }
    if (*o + 1 + l + 1 > WIRE_MAX)
        return 0;
    wire[(*o)++] = (uint8_t)l;
    memcpy(wire + *o, lab, l);
    *o += l;
    return 1;
}

/* A random well-formed name (lowercase) of about nlab labels, fewer if
 * they do not fit in 255 octets; returns its wire length. */
static size_t random_name(uint8_t *wire, size_t nlab, int long_ok)
{
    size_t o = 0, i;
    for (i = 0; i < nlab; i++)
        if (!add_label(wire, &o, long_ok))
            break;
    wire[o++] = 0;
    return o;
}

/* A chain of n one-octet labels: "a.a.a....", n <= 127 (255 octets). */
static size_t chain_name(uint8_t *wire, size_t n, char ch)
{
    size_t i, o = 0;
    for (i = 0; i < n; i++) {
        wire[o++] = 1;
        wire[o++] = (uint8_t)ch;
    }
    wire[o++] = 0;
    return o;
}

/* Text form of a well-formed wire name as a settings line would write it:
 * dotted, a trailing dot sometimes, letters in random case. */
static void name_text(const uint8_t *w, struct text *t)
{
    size_t pos = 0, i;
    char lab[64];

    if (w[0] == 0) {
        text_str(t, ".");
        return;
    }
    while (w[pos] != 0) {
        for (i = 0; i < w[pos]; i++)
            lab[i] = (char)(rnd() % 4 == 0 ? flip(w[pos + 1 + i]) : w[pos + 1 + i]);
        if (pos > 0)
            text_str(t, ".");
        text_add(t, lab, w[pos]);
        pos += 1u + w[pos];
    }
    if (rnd() % 2)
        text_str(t, ".");
}

/* ------------------------------------------------------------------------ */
/* A random set, parsed                                                      */

#define SET_MAX 400

struct rset {
    struct idng_conf c;
    uint8_t names[SET_MAX][WIRE_MAX]; /* in the order written */
    size_t len[SET_MAX];
    int list[SET_MAX]; /* 0 allow, 1 deny */
    size_t n;
};

static int rset_has(const struct rset *r, const uint8_t *w, size_t len)
{
    size_t i;
    for (i = 0; i < r->n; i++)
        if (r->len[i] == len && memcmp(r->names[i], w, len) == 0)
            return 1;
    return 0;
}

/* Fills r with up to max random names, each in allow or deny, and parses
 * them; checks that both lists hold them in file order. */
static void rset_make(struct rset *r, size_t max)
{
    struct text t = {NULL, 0, 0};
    char err[ERR_MAX];
    size_t want = max ? rnd() % (max + 1) : 0, tries, i, k[2] = {0, 0};
    uint8_t w[WIRE_MAX];

    r->n = 0;
    text_str(&t, "idnguard:\n");
    for (tries = 0; r->n < want && tries < 4 * want; tries++) {
        size_t len;
        unsigned kind = rnd() % 16;
        if (kind == 0)
            len = chain_name(w, 1 + rnd() % 127, 'a');
        else if (kind == 1)
            len = (w[0] = 0, 1); /* the root */
        else if (kind == 2)
            len = random_name(w, 1 + rnd() % 40, 1);
        else
            len = random_name(w, 1 + rnd() % 5, kind == 3);
        if (rset_has(r, w, len))
            continue;
        memcpy(r->names[r->n], w, len);
        r->len[r->n] = len;
        r->list[r->n] = rnd() % 3 == 0;
        text_str(&t, r->list[r->n] ? "  deny: " : "  allow: ");
        name_text(w, &t);
        text_str(&t, "\n");
        r->n++;
    }
    idng_conf_init(&r->c);
    ck_assert_msg(idng_conf_parse(&r->c, t.s, t.len, "t.conf", err, sizeof err) == 0, "%s\n%s",
                  err, t.s);
    for (i = 0; i < r->n; i++) {
        const struct idng_nameset *l = r->list[i] ? &r->c.policy.deny : &r->c.policy.allow;
        size_t at = k[r->list[i]]++;
        ck_assert(at < l->count);
        ck_assert_msg(memcmp(l->names[at], r->names[i], r->len[i]) == 0,
                      "name %zu of the file is not in place", i);
    }
    ck_assert_uint_eq(r->c.policy.allow.count, k[0]);
    ck_assert_uint_eq(r->c.policy.deny.count, k[1]);
    free(t.s);
}

/* A random query for set r into q (room for 512 octets); returns len. */
static size_t random_query(const struct rset *r, uint8_t *q)
{
    uint8_t w[WIRE_MAX];
    size_t len, o, i, n;
    unsigned kind = rnd() % 12;

    /* A name of the set, one of its children or one of its parents. */
    if (kind < 5 && r->n > 0) {
        i = rnd() % r->n;
        memcpy(w, r->names[i], r->len[i]);
        len = r->len[i];
        if (kind == 1 || kind == 2) { /* a child: labels in front */
            o = 0;
            n = 1 + rnd() % (kind == 1 ? 2 : 20);
            while (n-- > 0 && add_label(q, &o, 1) && o + len <= WIRE_MAX)
                ;
            if (o + len > WIRE_MAX)
                o = 0;
            memcpy(q + o, w, len);
            len += o;
        } else if (kind == 3) { /* a parent */
            size_t pos = 0;
            n = rnd() % 4;
            while (n-- > 0 && w[pos] != 0)
                pos += 1u + w[pos];
            len -= pos;
            memcpy(q, w + pos, len);
        } else if (kind == 4) { /* a sibling: first label replaced */
            size_t pos = w[0] == 0 ? 0 : 1u + w[0];
            o = 0;
            if (!add_label(q, &o, 0) || o + len - pos > WIRE_MAX)
                o = 0;
            memcpy(q + o, w + pos, len - pos);
            len = o + len - pos;
        } else {
            memcpy(q, w, len);
        }
    } else if (kind == 5) {
        len = chain_name(q, 1 + rnd() % 127, rnd() % 2 ? 'a' : 'A');
    } else if (kind == 6) {
        q[0] = 0;
        len = 1;
    } else if (kind == 7) {
        len = random_name(q, 1 + rnd() % 127, 1);
    } else {
        len = random_name(q, 1 + rnd() % 6, 1);
    }
    mix_case(q, len);

    /* Now make some of them lie, or give more octets than the name. */
    switch (rnd() % 10) {
    case 0: /* a label length over 63: 64..255, compression pointers included */
        i = 0;
        n = rnd() % 4;
        while (n-- > 0 && q[i] != 0)
            i += 1u + q[i];
        q[i] = (uint8_t)(64 + rnd() % 192);
        break;
    case 1: /* cut short: running past len, or no root label */
        len = len > 1 ? rnd() % len : 0;
        break;
    case 2: /* longer than 255 octets: too many labels, or long ones in
             * front of the name (which may be listed) */
        if (rnd() % 2) {
            o = chain_name(q, 127, 'a') - 1;
            while (o < 300) {
                q[o++] = 1;
                q[o++] = 'b';
            }
            q[o++] = 0;
            len = o;
        } else {
            memcpy(w, q, len);
            for (o = 0; o + len <= WIRE_MAX;) {
                q[o++] = 63;
                memset(q + o, 'x', 63);
                o += 63;
            }
            memcpy(q + o, w, len);
            len += o;
        }
        break;
    case 3: /* junk after the root label */
        n = 1 + rnd() % 16;
        for (i = 0; i < n; i++)
            q[len + i] = (uint8_t)rnd();
        len += n;
        break;
    case 4: /* anything */
        len = rnd() % 300;
        t_random_wire(q, len, "aAbB-w", 6, 4, 8, rnd);
        break;
    default:
        break;
    }
    return len;
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */

/* The hashed set answers exactly what the linear scan answers. */
START_TEST(test_differential)
{
    static struct rset r; /* large: off the stack */
    struct t_guard g;
    uint8_t q[512];
    char shown[2048];
    size_t round, k, hits = 0, queries = 0;

    seed = 0x2545f491u + (uint32_t)_i * 7919u;
    t_guard_open(&g);
    for (round = 0; round < 12; round++) {
        rset_make(&r, round == 0 ? 0 : round < 4 ? 8 : SET_MAX);
        for (k = 0; k < 4000; k++) {
            size_t len = random_query(&r, q);
            /* Against the guard page one time in eight: it costs two
             * system calls. */
            const uint8_t *at = k % 8 == 0 ? t_guard_put(&g, q, len) : q;
            int which;
            for (which = 0; which < 2; which++) {
                const struct idng_nameset *l = which ? &r.c.policy.deny : &r.c.policy.allow;
                int got = idng_nameset_listed(l, at, len), want = ref_listed(l, q, len);
                REQUIRE(got == want, "%s of %zu names, query '%s' (%zu octets): %d, expected %d",
                        which ? "deny" : "allow", l->count, show(q, len, shown, sizeof shown),
                        len, got, want);
                hits += got != 0;
                queries++;
            }
        }
        idng_conf_free(&r.c);
    }
    t_guard_close(&g);
    /* The queries must exercise both answers. */
    ck_assert_msg(hits > queries / 20 && hits < queries - queries / 20, "%zu hits of %zu",
                  hits, queries);
}
END_TEST

/* Names of every depth, 1 to 127 labels: the longest listed suffix wins. */
START_TEST(test_deep_names)
{
    struct text t = {NULL, 0, 0};
    struct idng_conf c;
    char err[ERR_MAX];
    uint8_t q[WIRE_MAX];
    size_t n, len, depth;

    text_str(&t, "idnguard:\n");
    /* Every third depth: a, a.a.a, ... (1, 4, 7, ... labels). */
    for (n = 1; n <= 127; n += 3) {
        size_t i;
        text_str(&t, "  allow: ");
        for (i = 0; i < n; i++)
            text_str(&t, i ? ".A" : "A");
        text_str(&t, "\n");
    }
    idng_conf_init(&c);
    ck_assert_msg(idng_conf_parse(&c, t.s, t.len, "t.conf", err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(c.policy.allow.count, 43);
    for (depth = 1; depth <= 127; depth++) {
        size_t best = depth - (depth - 1) % 3; /* deepest listed ancestor */
        len = chain_name(q, depth, 'a');
        ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, q, len), (int)(2 * best + 1));
        ck_assert_int_eq(ref_listed(&c.policy.allow, q, len), (int)(2 * best + 1));
        /* A different first label: the parent's answer. */
        q[1] = 'b';
        ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, q, len), ref_listed(&c.policy.allow, q, len));
    }
    ck_assert_int_eq(idng_nameset_listed(&c.policy.allow, (const uint8_t *)"", 1), 0);
    idng_conf_free(&c);
    free(t.s);
}
END_TEST

/* Written out and parsed again, a random set keeps its order and answers. */
START_TEST(test_round_trip_order)
{
    static struct rset r;
    struct idng_conf again;
    char *out = NULL, err[ERR_MAX];
    size_t outlen = 0, i;
    FILE *f;

    seed = 0x1234567u + (uint32_t)_i;
    rset_make(&r, SET_MAX);
    f = open_memstream(&out, &outlen);
    ck_assert(f != NULL);
    ck_assert_int_eq(idng_conf_write(&r.c, f), 0);
    ck_assert(fclose(f) == 0);
    idng_conf_init(&again);
    ck_assert_msg(idng_conf_parse(&again, out, outlen, "written", err, sizeof err) == 0, "%s",
                  err);
    ck_assert_uint_eq(again.policy.allow.count, r.c.policy.allow.count);
    ck_assert_uint_eq(again.policy.deny.count, r.c.policy.deny.count);
    for (i = 0; i < r.c.policy.allow.count; i++)
        ck_assert(memcmp(again.policy.allow.names[i], r.c.policy.allow.names[i], wire_len(r.c.policy.allow.names[i]))
                  == 0);
    for (i = 0; i < r.c.policy.deny.count; i++)
        ck_assert(memcmp(again.policy.deny.names[i], r.c.policy.deny.names[i], wire_len(r.c.policy.deny.names[i]))
                  == 0);
    for (i = 0; i < r.n; i++) {
        const struct idng_nameset *l = r.list[i] ? &again.policy.deny : &again.policy.allow;
        ck_assert_int_eq(idng_nameset_listed(l, r.names[i], r.len[i]), (int)r.len[i]);
    }
    idng_conf_free(&again);
    idng_conf_free(&r.c);
    free(out);
}
END_TEST

/* idng_nameset_mem: 0 when empty; with names, at least their octets and
 * pointers, and not wildly more; 0 again after idng_conf_free. */
START_TEST(test_mem)
{
    struct text t = {NULL, 0, 0};
    struct idng_conf c;
    char err[ERR_MAX];
    size_t n, i, octets = 0, mem, prev = 0;

    idng_conf_init(&c);
    ck_assert_uint_eq(idng_nameset_mem(&c.policy.allow), 0);
    ck_assert_uint_eq(idng_nameset_mem(NULL), 0);
    ck_assert_int_eq(idng_conf_parse(&c, BYTES("idnguard:\n"), "t", err, sizeof err), 0);
    ck_assert_uint_eq(idng_nameset_mem(&c.policy.allow), 0);
    ck_assert_uint_eq(idng_nameset_mem(&c.policy.deny), 0);
    for (n = 1; n <= 5000; n *= 10) {
        t.len = 0;
        big_list(&t, n);
        ck_assert_int_eq(idng_conf_parse(&c, t.s, t.len, "t", err, sizeof err), 0);
        for (i = octets = 0; i < n; i++)
            octets += wire_len(c.policy.deny.names[i]);
        mem = idng_nameset_mem(&c.policy.deny);
        ck_assert_msg(mem >= octets + n * sizeof(uint8_t *), "%zu names: %zu octets", n, mem);
        ck_assert_msg(mem <= 3 * octets + 64 * n + 70000, "%zu names: %zu octets", n, mem);
        ck_assert_uint_gt(mem, prev);
        ck_assert_uint_eq(idng_nameset_mem(&c.policy.allow), 0);
        prev = mem;
    }
    idng_conf_free(&c);
    ck_assert_uint_eq(idng_nameset_mem(&c.policy.deny), 0);
    free(t.s);
}
END_TEST

/* The set on its own, without a settings file: add, find, listed. */
START_TEST(test_set_api)
{
    static const uint8_t ex[] = "\007Example\003NET\000";
    static const uint8_t ex_low[] = "\007example\003net\000";
    static const uint8_t www[] = "\003www\007example\003net\000";
    static const uint8_t other[] = "\007xample\003net\000";
    static const uint8_t pointer[] = "\007example\300\014";
    struct idng_nameset s;
    size_t at = 99;

    idng_nameset_init(&s);
    ck_assert_uint_eq(idng_nameset_mem(&s), 0);
    ck_assert_uint_eq(idng_nameset_find(&s, ex, sizeof ex - 1), IDNG_NAMESET_NONE);
    ck_assert_int_eq(idng_nameset_add(&s, ex, sizeof ex - 1, &at), 0);
    ck_assert_uint_eq(at, 0);
    /* stored lowercase, found in any case, once */
    ck_assert_int_eq(memcmp(s.names[0], ex_low, sizeof ex_low - 1), 0);
    ck_assert_int_eq(idng_nameset_add(&s, ex_low, sizeof ex_low - 1, &at), 1);
    ck_assert_uint_eq(at, 0);
    ck_assert_uint_eq(s.count, 1);
    ck_assert_uint_eq(idng_nameset_find(&s, ex_low, sizeof ex_low - 1), 0);
    ck_assert_uint_eq(idng_nameset_find(&s, www, sizeof www - 1), IDNG_NAMESET_NONE);
    /* listed: the name and everything below it, whole labels only */
    ck_assert_int_eq(idng_nameset_listed(&s, www, sizeof www - 1), (int)(sizeof ex - 1));
    ck_assert_int_eq(idng_nameset_listed(&s, ex, sizeof ex - 1), (int)(sizeof ex - 1));
    ck_assert_int_eq(idng_nameset_listed(&s, other, sizeof other - 1), 0);
    /* malformed names are never added nor listed */
    ck_assert_int_eq(idng_nameset_add(&s, pointer, sizeof pointer - 1, NULL), -2);
    ck_assert_int_eq(idng_nameset_listed(&s, pointer, sizeof pointer - 1), 0);
    ck_assert_int_eq(idng_nameset_listed(&s, www, 5), 0); /* cut short */
    ck_assert_uint_gt(idng_nameset_mem(&s), 0);
    /* Two sets at once: each as on its own, either one empty or NULL. */
    {
        struct idng_nameset t;
        int a = -1, b = -1;
        idng_nameset_init(&t);
        ck_assert_int_eq(idng_nameset_add(&t, www, sizeof www - 1, NULL), 0);
        idng_nameset_listed2(&s, &t, www, sizeof www - 1, &a, &b);
        ck_assert_int_eq(a, (int)(sizeof ex - 1));
        ck_assert_int_eq(b, (int)(sizeof www - 1));
        idng_nameset_listed2(&t, &s, ex, sizeof ex - 1, &a, &b);
        ck_assert_int_eq(a, 0);
        ck_assert_int_eq(b, (int)(sizeof ex - 1));
        idng_nameset_listed2(NULL, &t, other, sizeof other - 1, &a, &b);
        ck_assert(a == 0 && b == 0);
        idng_nameset_listed2(&s, NULL, pointer, sizeof pointer - 1, &a, &b);
        ck_assert(a == 0 && b == 0);
        idng_nameset_free(&t);
    }
    idng_nameset_free(&s);
    ck_assert_uint_eq(s.count, 0);
    ck_assert_uint_eq(idng_nameset_mem(&s), 0);
    idng_nameset_free(&s);
}
END_TEST

/* Room made ahead: the adds that follow move neither array (the names'
 * pointers and the table stay where they are), and the set answers as one
 * grown a name at a time. */
START_TEST(test_reserve)
{
    struct idng_nameset s, grown;
    uint8_t w[64];
    uint8_t **names;
    struct idng_name_slot *slots;
    size_t i;

    idng_nameset_init(&s);
    idng_nameset_init(&grown);
    ck_assert_int_eq(idng_nameset_reserve(&s, 1000), 0);
    ck_assert_uint_eq(s.count, 0);
    ck_assert_uint_ge(s.cap, 1000);
    ck_assert_uint_ge(s.nslots, 2000);
    names = s.names;
    slots = s.slots;
    for (i = 0; i < 1000; i++) {
        int n = snprintf((char *)w + 1, sizeof w - 1, "n%zu", i);
        w[0] = (uint8_t)n;
        memcpy(w + 1 + n, "\007example\000", 9);
        ck_assert_int_eq(idng_nameset_add(&s, w, (size_t)n + 10, NULL), 0);
        ck_assert_int_eq(idng_nameset_add(&grown, w, (size_t)n + 10, NULL), 0);
    }
    ck_assert_ptr_eq(s.names, names);
    ck_assert_ptr_eq(s.slots, slots);
    for (i = 0; i < 1000; i++) {
        ck_assert_uint_eq(idng_nameset_find(&s, grown.names[i], wire_len(grown.names[i])), i);
        ck_assert_int_eq(idng_nameset_listed(&s, grown.names[i], wire_len(grown.names[i])),
                         (int)wire_len(grown.names[i]));
    }
    /* One more past the room grows as before. */
    ck_assert_int_eq(idng_nameset_add(&s, (const uint8_t *)"\004more\000", 6, NULL), 0);
    ck_assert_uint_eq(idng_nameset_find(&s, (const uint8_t *)"\004MORE\000", 6), 1000);
    ck_assert_int_eq(idng_nameset_reserve(&s, SIZE_MAX), -1);
    ck_assert_uint_eq(s.count, 1001);
    idng_nameset_free(&s);
    idng_nameset_free(&grown);
}
END_TEST

static Suite *nameset_suite(void)
{
    Suite *s = suite_create("nameset");
    TCase *tc = tcase_create("lookup");

    tcase_add_loop_test(tc, test_differential, 0, 6);
    tcase_add_test(tc, test_deep_names);
    tcase_add_loop_test(tc, test_round_trip_order, 0, 4);
    tcase_add_test(tc, test_mem);
    tcase_add_test(tc, test_set_api);
    tcase_add_test(tc, test_reserve);
    tcase_set_timeout(tc, 120); /* sanitizer builds are several times slower */
    suite_add_tcase(s, tc);

    return s;
}

IDNG_TEST_MAIN(nameset_suite)
