/**
 * \file
 * The protected names (see idng_lookalike.h): the names and the table of
 * their skeleton keys, built once (idng_lookalike_internal.h says what a key
 * and a slot are).
 */
#include "idng_lookalike_internal.h"
#include "idng_psl.h"

#include <stdlib.h>
#include <string.h>

void idng_protect_init(struct idng_protect *s)
{
    memset(s, 0, sizeof *s);
    idng_nameset_init(&s->names);
}

void idng_protect_free(struct idng_protect *s)
{
    if (s == NULL)
        return;
    idng_nameset_free(&s->names);
    free(s->slots);
    free(s->keys);
    free(s->parents);
    free(s->memo);
    free(s->tld);
    idng_protect_init(s);
}

static void slot_put(struct idng_skel_slot *slots, size_t nslots, const struct idng_skel_slot *sl)
{
    size_t i = (size_t)sl->hash & (nslots - 1);

    while (slots[i].index != 0)
        i = (i + 1) & (nslots - 1);
    slots[i] = *sl;
}

/* Room for more slots (at most half full) and keylen more key entries. */
static int reserve(struct idng_protect *s, size_t more, size_t keylen)
{
    if (s->keys_cap - s->keys_len < keylen) {
        size_t cap = s->keys_cap ? s->keys_cap : 4096;
        uint32_t *k;
        while (cap - s->keys_len < keylen)
            cap *= 2;
        if (cap > UINT32_MAX || (k = realloc(s->keys, cap * sizeof *k)) == NULL)
            return -1;
        s->keys = k;
        s->keys_cap = cap;
    }
    if (2 * (s->used + more) > s->nslots) {
        size_t n = s->nslots ? 2 * s->nslots : 64, i;
        while (2 * (s->used + more) > n)
            n *= 2;
        struct idng_skel_slot *t = calloc(n, sizeof *t);
        if (t == NULL)
            return -1;
        for (i = 0; i < s->nslots; i++)
            if (s->slots[i].index != 0)
                slot_put(t, n, &s->slots[i]);
        free(s->slots);
        s->slots = t;
        s->nslots = n;
    }
    return 0;
}

/* Room in the parents' set for more hashes (at most half full); 0, or -1
 * out of memory. */
static int parents_reserve(struct idng_protect *s, size_t more)
{
    if (2 * (s->parents_used + more) > s->nparents) {
        size_t n = s->nparents ? 2 * s->nparents : 64, k, i;
        while (2 * (s->parents_used + more) > n)
            n *= 2;
        uint64_t *t = calloc(n, sizeof *t);
        if (t == NULL)
            return -1;
        for (k = 0; k < s->nparents; k++) {
            if (s->parents[k] == 0)
                continue;
            for (i = (size_t)s->parents[k] & (n - 1); t[i] != 0; i = (i + 1) & (n - 1))
                ;
            t[i] = s->parents[k];
        }
        free(s->parents);
        s->parents = t;
        s->nparents = n;
    }
    return 0;
}

/* Adds hashes h[0..n) to the parents' set (room is reserved).  A name's
 * parents are far apart in a big set: their slots are fetched together
 * first, so that the waits for memory overlap. */
static void parents_put(struct idng_protect *s, uint64_t *h, size_t n)
{
    size_t k, i, mask = s->nparents - 1;

    for (k = 0; k < n; k++) {
        h[k] |= 1; /* 0 marks an empty slot */
        __builtin_prefetch(&s->parents[(size_t)h[k] & mask]);
    }
    for (k = 0; k < n; k++) {
        for (i = (size_t)h[k] & mask; s->parents[i] != 0 && s->parents[i] != h[k];
             i = (i + 1) & mask)
            ;
        if (s->parents[i] == 0) {
            s->parents[i] = h[k];
            s->parents_used++;
        }
    }
}

/*
 * The skeletons of the labels names share.  A list of a million protected
 * names has few distinct labels above the first (com, net, the brand under
 * many suffixes), and every name keys each of them: this remembers the
 * skeleton of a short label by its code points and kind, direct-mapped,
 * so that a label met again is not keyed again (about 150 KiB, for a set
 * made room for many names at once: idng_protect_reserve).  It keeps what
 * idng_skeleton_ex gave, looked up by the exact code points.
 */
#define MEMO_FROM 1000 /* names reserved at once */
#define MEMO_SETS 512
#define MEMO_CPS 24 /* longer labels are keyed every time */
#define MEMO_SK 48  /* and so are labels whose skeleton is longer */

struct idng_protect_memo {
    struct memo_entry {
        uint8_t kind; /* KINDS: empty */
        uint8_t ncp, nsk;
        uint32_t cp[MEMO_CPS];
        uint32_t sk[MEMO_SK];
    } e[MEMO_SETS];
};

/* lk_key_label of label i; a label after the first (one that names share)
 * through the memo when there is one.  A name's first label is mostly its
 * own, and would only push the shared ones out. */
static uint64_t key_label(struct idng_protect *s, struct idng_lookalike_run *r, unsigned kind,
                          uint32_t *key, size_t i, uint64_t parent)
{
    const uint32_t *cp = r->cps + r->cp_at[i];
    size_t ncp = r->cp_at[i + 1] - r->cp_at[i];
    struct memo_entry *e;

    if (s->memo == NULL || i == 0 || ncp > MEMO_CPS)
        return lk_key_label(r, kind, key, i, parent);
    e = &s->memo->e[fold(ROOT_HASH + kind, cp, ncp) >> 32 & (MEMO_SETS - 1)];
    if (e->kind != kind || e->ncp != ncp || memcmp(e->cp, cp, ncp * sizeof *cp) != 0) {
        uint32_t sk[MEMO_SK];
        size_t nsk = MEMO_SK;
        if (idng_skeleton_ex(cp, ncp, kind_flags[kind], sk, &nsk) != IDNG_OK)
            return lk_key_label(r, kind, key, i, parent); /* too long here, or no key */
        e->kind = (uint8_t)kind;
        e->ncp = (uint8_t)ncp;
        e->nsk = (uint8_t)nsk;
        memcpy(e->cp, cp, ncp * sizeof *cp);
        memcpy(e->sk, sk, nsk * sizeof *sk);
    }
    return lk_key_put(r, key, i, parent, e->sk, e->nsk);
}

/* Holds key (hash h) under the bits kinds for the name at index (reg: its
 * registrable label, length octet first, or NULL): merged into the slot of
 * the same key, else a new slot (room is reserved). */
static void slot_hold(struct idng_protect *s, uint64_t h, const uint32_t *key, size_t len,
                      unsigned kinds, size_t index, const uint8_t *reg)
{
    struct idng_skel_slot *sl, nsl;
    size_t pos = (size_t)-1;

    /* Names with one key share a slot: the first name stands for them in
     * messages, and the others are found by idng_nameset_find.  A
     * registrable label's key is shared only by names of that same label,
     * so that a lookup can tell the label itself from its lookalikes. */
    while ((sl = lk_find_next(s, (unsigned)-1, h, key, len, &pos)) != NULL) {
        const uint8_t *a;
        if (kinds & ((1u << KINDS) - 1)) {
            if (sl->kinds & ((1u << KINDS) - 1))
                break;
            continue;
        }
        if (!(sl->kinds & ~((1u << KINDS) - 1)))
            continue;
        a = lk_registrable_label(s->names.names[sl->index - 1]);
        if (a != NULL && reg != NULL && a[0] == reg[0] && memcmp(a + 1, reg + 1, a[0]) == 0)
            break;
    }
    if (sl != NULL) {
        sl->kinds |= kinds;
        return;
    }
    memcpy(s->keys + s->keys_len, key, len * sizeof *key);
    nsl.hash = h;
    nsl.off = (uint32_t)s->keys_len;
    nsl.len = (uint32_t)len;
    nsl.index = (uint32_t)(index + 1);
    nsl.kinds = kinds;
    s->keys_len += len;
    slot_put(s->slots, s->nslots, &nsl);
    s->used++;
}

int idng_protect_reserve(struct idng_protect *s, size_t more)
{
    /* Every name has a key and is a parent of its own that no other name
     * has; most have nothing more (a registrable label's key is shared by
     * the names under it), and the others grow the tables as they come. */
    if (idng_nameset_reserve(&s->names, more) != 0 || more > SIZE_MAX / 4
        || reserve(s, more, 0) != 0 || parents_reserve(s, more) != 0)
        return -1;
    if (more >= MEMO_FROM && s->memo == NULL && (s->memo = malloc(sizeof *s->memo)) != NULL) {
        size_t m;
        for (m = 0; m < MEMO_SETS; m++)
            s->memo->e[m].kind = KINDS;
    }
    return 0;
}

void idng_protect_trim(struct idng_protect *s)
{
    uint32_t *k;

    free(s->memo); /* the file's names are added */
    s->memo = NULL;
    /* The keys grow by doubling: up to half of what they hold is room. */
    if (s->keys_cap > s->keys_len && s->keys_len > 0
        && (k = realloc(s->keys, s->keys_len * sizeof *k)) != NULL) {
        s->keys = k;
        s->keys_cap = s->keys_len;
    }
}

int idng_protect_add(struct idng_protect *s, const uint8_t *wire, size_t len)
{
    /* The key is made as a query name's is, with every label keyed. */
    static const struct idng_protect keyed = {.used = 1};
    struct idng_lookalike_run r;
    uint32_t key[KINDS][IDNG_LK_KEY_MAX];
    size_t key_at[KINDS][IDNG_LABELS_MAX + 1];
    unsigned differs[IDNG_LABELS_MAX];
    size_t start[KINDS] = {0}, lk_len[KINDS] = {0}, at, klen, more, reg, li;
    uint64_t h[KINDS], ph[KINDS * IDNG_LABELS_MAX];
    size_t nph = 0;
    unsigned kind, prev = KIND_SKELETON, made = 0;
    const uint8_t *reg_label;
    int rc;

    /* Only A-label names: no octet is >= 0x80 (length octets are below
     * 0x40, so the whole name may be tested), every xn-- label decodes. */
    if (has_8bit(wire, len))
        return -2;
    idng_lookalike_start(&r, &keyed, IDNG_RL_UNRESTRICTED, IDNG_MODE_UTS46, wire, len);
    if (!lk_walk(&r, wire, len) || !r.keys)
        return -2;
    for (at = 0; at < r.nlab; at++)
        if (idng_is_ace((const char *)wire + r.off[at], r.len[at]) && !r.judged[at])
            return -2;
    if (r.nlab == 0)
        return -2;
    /* Every kind whose key may differ from the one before's (the
     * skeleton's key must fit; a looser one that does not is left out),
     * each parent's hash among the parents; a kind not made shares the
     * slot of the one before.  Unlike a query name's, an ASCII label's
     * looser keys count too (0 is O to the skeleton, o to the looser), so
     * each label is asked where its keys may differ (all of them when
     * some code points were not kept); a label whose key of one kind is
     * that of the kind made before takes it from there. */
    for (at = 0; at < r.nlab; at++) {
        differs[at] = r.first > 0
                          ? IDNG_SK_EXTRA | IDNG_SK_FOLD
                          : idng_skeleton_keys(r.cps + r.cp_at[at], r.cp_at[at + 1] - r.cp_at[at]);
        r.key_flags |= differs[at];
    }
    reg = idng_psl_registrable(wire, len, 0);
    li = reg < len ? lk_label_at(&r, reg + 1) : r.nlab;
    for (kind = 0; kind < KINDS; kind++) {
        if (kind > 0 && !(kind_flags[kind] & ~kind_flags[kind - 1] & r.key_flags))
            continue;
        h[kind] = ROOT_HASH;
        r.keys = 1;
        r.key_at[r.nlab] = IDNG_LK_KEY_MAX;
        for (at = r.nlab; at-- > 0 && r.keys;) {
            if (made && !(differs[at] & kind_flags[kind] & ~kind_flags[prev])) {
                const uint32_t *was = key[prev] + key_at[prev][at];
                h[kind] = lk_key_put(&r, key[kind], at, h[kind], was + 1, was[0]);
            } else {
                h[kind] = key_label(s, &r, kind, key[kind], at, h[kind]);
            }
            if (r.keys)
                ph[nph++] = h[kind];
        }
        if (!r.keys && kind == KIND_SKELETON)
            return -2;
        if (!r.keys)
            continue;
        made |= 1u << kind;
        prev = kind;
        memcpy(key_at[kind], r.key_at, (r.nlab + 1) * sizeof r.key_at[0]);
        start[kind] = r.key_at[0];
        /* The registrable label's key is its part of the name's. */
        lk_len[kind] = li < r.nlab && li >= r.first ? key[kind][key_at[kind][li]] : 0;
    }
    klen = 0;
    more = 0;
    for (kind = 0; kind < KINDS; kind++)
        if (made & 1u << kind) {
            klen += IDNG_LK_KEY_MAX - start[kind] + lk_len[kind];
            more += 1 + (lk_len[kind] > 0);
        }
    /* A name already there adds nothing: its parents are held already. */
    if (parents_reserve(s, nph) != 0 || reserve(s, more, klen) != 0)
        return -1;
    parents_put(s, ph, nph);
    rc = idng_nameset_add(&s->names, wire, len, &at);
    if (rc != 0)
        return rc;
    /* The stored name is the name lowercased: its labels are where the
     * name's are. */
    reg_label = reg < len ? s->names.names[at] + reg : NULL;
    for (kind = 0; kind < KINDS; kind++) {
        /* A kind not made has the key of the stricter one before it. */
        unsigned bits = 1u << kind, k;
        if (!(made & bits))
            continue;
        for (k = kind + 1; k < KINDS && !(made & 1u << k); k++)
            bits |= 1u << k;
        slot_hold(s, h[kind], key[kind] + start[kind], IDNG_LK_KEY_MAX - start[kind], bits, at,
                  reg_label);
        if (lk_len[kind] > 0) {
            const uint32_t *lk = key[kind] + key_at[kind][li] + 1;
            slot_hold(s, fold(LABEL_HASH, lk, lk_len[kind]), lk, lk_len[kind], bits << KINDS, at,
                      reg_label);
        }
    }
    return 0;
}

size_t idng_protect_mem(const struct idng_protect *s)
{
    if (s == NULL)
        return 0;
    return idng_nameset_mem(&s->names) + s->nslots * sizeof *s->slots
           + s->keys_cap * sizeof *s->keys + s->nparents * sizeof *s->parents
           + s->ntld * sizeof *s->tld;
}
