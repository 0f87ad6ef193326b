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
    free(s->memo);
    idng_nameset_free(&s->names);
    free(s->slots);
    free(s->keys);
    free(s->parents);
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

/* Room in the parents' set (at most half full) for more hashes; 0, or -1
 * out of memory. */
static int parents_reserve(struct idng_protect *s, size_t more)
{
    size_t n, i, k;
    uint64_t *t;

    if (2 * (s->parents_used + more) <= s->nparents)
        return 0;
    for (n = s->nparents ? 2 * s->nparents : 64; 2 * (s->parents_used + more) > n;)
        n *= 2;
    if ((t = calloc(n, sizeof *t)) == NULL)
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

/* The registrable label of the name a slot stands for, remembered for
 * the next slot of the same name (one name's keys of every kind often
 * meet the same slot). */
struct reg_seen {
    size_t index; /* the slot's index, 0 for none */
    const uint8_t *label;
};

/* Holds key (hash h) under the bits kinds for the name at index, whose
 * registrable label is b (NULL: none): merged into the slot of the same
 * key, else a new slot (room is reserved). */
static void slot_hold(struct idng_protect *s, uint64_t h, const uint32_t *key, size_t len,
                      unsigned kinds, size_t index, const uint8_t *b, struct reg_seen *seen)
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
        if (seen->index != sl->index) {
            seen->index = sl->index;
            seen->label = lk_registrable_label(s->names.names[sl->index - 1]);
        }
        a = seen->label;
        if (a != NULL && b != NULL && a[0] == b[0] && memcmp(a + 1, b + 1, a[0]) == 0)
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

/*
 * The skeletons of the labels names share.  A list of a million protected
 * names has few distinct last labels (com, net, the brand under many
 * suffixes), and every name keys each of its labels under every kind: this
 * remembers the skeleton of a short label by its code points and kind,
 * direct-mapped, so that a label met again is not keyed again (about
 * 150 KiB, for a set of many names: idng_protect_reserve).  Only what
 * idng_skeleton_ex gave is kept, and looked up by the exact code points.
 */
#define MEMO_FROM 1000 /* names reserved at once (idng_protect_reserve) */
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

/* The skeleton of kind of label i of r from the memo (made and kept there
 * if need be): *sk points into it.  0 when there is no memo or the label
 * or its skeleton is too long for it: the caller makes it itself. */
static int memo_skeleton(struct idng_protect *s, const struct idng_lookalike_run *r, unsigned kind,
                         size_t i, const uint32_t **sk, size_t *nsk)
{
    const uint32_t *cp = r->cps + r->cp_at[i];
    size_t ncp = r->cp_at[i + 1] - r->cp_at[i];
    struct memo_entry *e;

    if (s->memo == NULL || ncp > MEMO_CPS)
        return 0;
    e = &s->memo->e[fold(ROOT_HASH + kind, cp, ncp) >> 32 & (MEMO_SETS - 1)];
    if (e->kind != kind || e->ncp != ncp || memcmp(e->cp, cp, ncp * sizeof *cp) != 0) {
        uint32_t made[MEMO_SK];
        size_t n = MEMO_SK;
        if (idng_skeleton_ex(cp, ncp, kind_flags[kind], made, &n) != IDNG_OK)
            return 0; /* too long here, or no key at all */
        e->kind = (uint8_t)kind;
        e->ncp = (uint8_t)ncp;
        e->nsk = (uint8_t)n;
        memcpy(e->cp, cp, ncp * sizeof *cp);
        memcpy(e->sk, made, n * sizeof *made);
    }
    *sk = e->sk;
    *nsk = e->nsk;
    return 1;
}

/* lk_key_label of label i; the labels after the first (the parents many
 * names share) through the memo.  A name's first label is mostly its own,
 * and would only push the shared ones out. */
static uint64_t key_label(struct idng_protect *s, struct idng_lookalike_run *r, unsigned kind,
                          uint32_t *key, size_t i, uint64_t parent)
{
    const uint32_t *sk;
    size_t nsk;

    if (i > 0 && memo_skeleton(s, r, kind, i, &sk, &nsk))
        return lk_key_put(r, key, i, sk, nsk, parent);
    return lk_key_label(r, kind, key, i, parent);
}

/* lk_label_key of the registrable label li (shared by the names under it)
 * through the memo. */
static int label_key(struct idng_protect *s, const struct idng_lookalike_run *r, unsigned kind,
                     size_t li, uint32_t *out, size_t *n)
{
    const uint32_t *sk;
    size_t nsk;

    if (li < r->first || li >= r->nlab)
        return 0;
    if (!memo_skeleton(s, r, kind, li, &sk, &nsk))
        return lk_label_key(r, kind, li, out, n);
    if (nsk > *n)
        return 0;
    memcpy(out, sk, nsk * sizeof *sk);
    *n = nsk;
    return 1;
}

int idng_protect_reserve(struct idng_protect *s, size_t more)
{
    /* The names' own set; the tables of keys and of parents grow with
     * what the names turn out to share (sized for the most a name can
     * need, they came out bigger and the load slower).  A list this long
     * gets the memo of shared labels' skeletons. */
    if (idng_nameset_reserve(&s->names, more) != 0)
        return -1;
    if (more >= MEMO_FROM && s->memo == NULL && (s->memo = malloc(sizeof *s->memo)) != NULL) {
        size_t m;
        for (m = 0; m < MEMO_SETS; m++)
            s->memo->e[m].kind = KINDS;
    }
    return 0;
}

int idng_protect_add(struct idng_protect *s, const uint8_t *wire, size_t len)
{
    /* The key is made as a query name's is, with every label keyed. */
    static const struct idng_protect keyed = {.used = 1};
    struct idng_lookalike_run r;
    uint32_t key[KINDS][IDNG_LK_KEY_MAX];
    uint32_t lk[KINDS][(IDNG_LABEL_MAX + 1) * IDNG_SKELETON_GROWTH];
    size_t start[KINDS] = {0}, lk_len[KINDS] = {0}, at, klen, reg, li;
    uint64_t h[KINDS], ph[KINDS * IDNG_LABELS_MAX];
    size_t nph = 0;
    unsigned kind, made = 0;
    const uint8_t *label;
    struct reg_seen seen = {0, NULL};
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
    if (idng_nameset_find(&s->names, wire, len) != IDNG_NAMESET_NONE)
        return 1;
    /* Every kind (the skeleton's key must fit; a looser one that does not
     * is left out), each parent's hash among the parents; a kind whose key
     * is the one before's shares its slot.  Unlike a query name's, every
     * kind is made: an ASCII label is not judged, so nothing says where
     * its looser keys differ (0 is O to the skeleton, o to the looser). */
    r.key_flags = IDNG_SK_EXTRA | IDNG_SK_FOLD;
    reg = idng_psl_registrable(wire, len, 0);
    li = reg < len ? lk_label_at(&r, reg + 1) : r.nlab;
    for (kind = 0; kind < KINDS; kind++) {
        if (kind > 0 && !(kind_flags[kind] & ~kind_flags[kind - 1] & r.key_flags))
            continue;
        h[kind] = ROOT_HASH;
        r.keys = 1;
        r.key_at[r.nlab] = IDNG_LK_KEY_MAX;
        for (at = r.nlab; at-- > 0 && r.keys;) {
            h[kind] = key_label(s, &r, kind, key[kind], at, h[kind]);
            if (r.keys)
                ph[nph++] = h[kind];
        }
        if (!r.keys && kind == KIND_SKELETON)
            return -2;
        if (!r.keys)
            continue;
        made |= 1u << kind;
        start[kind] = r.key_at[0];
        lk_len[kind] = sizeof lk[kind] / sizeof lk[kind][0];
        if (li >= r.nlab || !label_key(s, &r, kind, li, lk[kind], &lk_len[kind]))
            lk_len[kind] = 0;
    }
    klen = 0;
    for (kind = 0; kind < KINDS; kind++)
        if (made & 1u << kind)
            klen += IDNG_LK_KEY_MAX - start[kind] + lk_len[kind];
    if (parents_reserve(s, nph) != 0 || reserve(s, 2 * KINDS, klen) != 0)
        return -1;
    parents_put(s, ph, nph);
    rc = idng_nameset_add(&s->names, wire, len, &at);
    if (rc != 0)
        return rc;
    /* Its registrable label as the set holds it (lowercase: the public
     * suffixes are matched in any case, so at the same place). */
    label = reg < len ? s->names.names[at] + reg : NULL;
    for (kind = 0; kind < KINDS; kind++) {
        /* A kind not made has the key of the stricter one before it. */
        unsigned bits = 1u << kind, k;
        if (!(made & bits))
            continue;
        for (k = kind + 1; k < KINDS && !(made & 1u << k); k++)
            bits |= 1u << k;
        slot_hold(s, h[kind], key[kind] + start[kind], IDNG_LK_KEY_MAX - start[kind], bits, at,
                  label, &seen);
        if (lk_len[kind] > 0)
            slot_hold(s, fold(LABEL_HASH, lk[kind], lk_len[kind]), lk[kind], lk_len[kind],
                      bits << KINDS, at, label, &seen);
    }
    return 0;
}

size_t idng_protect_mem(const struct idng_protect *s)
{
    if (s == NULL)
        return 0;
    return idng_nameset_mem(&s->names) + (s->memo ? sizeof *s->memo : 0)
           + s->nslots * sizeof *s->slots + s->keys_cap * sizeof *s->keys
           + s->nparents * sizeof *s->parents + s->ntld * sizeof *s->tld;
}
