/**
 * \file
 * Lookalike names (see idng_lookalike.h).
 */
#include "idng_lookalike.h"

#include <stdlib.h>
#include <string.h>

/*
 * A name's skeleton key: for each label, first to last, the length of its
 * skeleton then the skeleton's code points (a skeleton may be longer than
 * the label, and may hold '.', so the lengths keep labels apart).  A
 * label's skeleton is the skeleton of its code points: a judged label's
 * (an xn-- label decoded, a raw label as what it normalizes to), any other
 * label's octets; ASCII letters lowercased in both.
 *
 * The key of a parent name is the tail of its child's key, so one pass
 * from the last label to the first gives every parent's hash, each label
 * folded into the hash of its parent (as core/idng_nameset.c hashes
 * names), and a lookup costs one probe per label.
 *
 * Bounds: a wire name has at most 253 label octets, hence at most 253 code
 * points, and the skeleton of one is at most IDNG_SKELETON_GROWTH code
 * points (a UTS #46 valid code point's; an ASCII one's is 3 at most), so
 * IDNG_LK_KEY_MAX holds the key of any name whose labels are valid.  A
 * name whose key does not fit is not compared (a protected name's key
 * fits, so it could not match).
 */

struct idng_skel_slot {
    uint64_t hash;  /**< hash of the key */
    uint32_t off;   /**< the key at keys[off..off + len) */
    uint32_t len;
    uint32_t index; /**< 1 + the name's index in names.names; 0: empty slot */
};

static uint64_t fold(uint64_t parent, const uint32_t *p, size_t n)
{
    uint64_t h = parent;
    size_t i;

    for (i = 0; i < n; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return idng_hash_mix(h);
}
#define ROOT_HASH UINT64_C(0x9e3779b97f4a7c15)

/* Does p[0..n) hold an octet >= 0x80 (a raw label, or a name with one)? */
static int has_8bit(const uint8_t *p, size_t n)
{
    uint8_t high = 0;

    while (n-- > 0)
        high |= *p++;
    return (high & 0x80) != 0;
}

void idng_lookalike_start(struct idng_lookalike_run *r, const struct idng_protect *protect,
                          idng_restriction limit, idng_mode mode, const uint8_t *wire, size_t len)
{
    r->protect = protect;
    r->limit = limit;
    r->mode = mode;
    r->wire = wire;
    r->wire_len = len;
    r->keys = protect != NULL && protect->used > 0;
    r->nlab = 0;
    r->first = 0;
    r->cp_at[0] = 0;
    r->any = 0; /* out is set up by the first judged label: most names have none */
}

/* What rule 6 makes of one judged label. */
static void judge_label(struct idng_lookalike_run *r, const uint32_t *cps, size_t n, size_t off,
                        size_t len)
{
    struct idng_lookalike *o = &r->out;
    int mixed;
    idng_restriction level = idng_uts39_label(cps, n, &mixed);

    if (level > o->level)
        o->level = level;
    if (level > r->limit && !(o->found & IDNG_LK_MIXED_SCRIPT)) {
        o->found |= IDNG_LK_MIXED_SCRIPT;
        o->at[0].off = off;
        o->at[0].len = len;
    }
    if (mixed && !(o->found & IDNG_LK_MIXED_NUMBER)) {
        o->found |= IDNG_LK_MIXED_NUMBER;
        o->at[2].off = off;
        o->at[2].len = len;
    }
}

void idng_lookalike_label(void *ctx, size_t off, size_t len, const uint32_t *cps, size_t n)
{
    struct idng_lookalike_run *r = ctx;
    const uint8_t *lab = r->wire + off;
    uint32_t own[IDNG_LABEL_MAX];
    size_t i = r->nlab, k;
    int judged = cps != NULL;

    if (i >= IDNG_LABELS_MAX)
        return;
    r->nlab++;
    r->off[i] = off;
    r->len[i] = (uint8_t)len;
    if (!judged) {
        /* A raw label is judged as what it normalizes to. */
        if (has_8bit(lab, len)) {
            char a[IDNG_LABEL_MAX];
            size_t alen = sizeof a;
            n = IDNG_LABEL_MAX;
            judged = idng_label_to_ascii((const char *)lab, len, a, &alen, r->mode, NULL)
                         == IDNG_OK
                     && idng_is_ace(a, alen)
                     && idng_punycode_decode(a + 4, alen - 4, own, &n, NULL) == IDNG_OK;
            for (k = 0; judged && k < n; k++)
                own[k] += own[k] - 'A' < 26u ? 'a' - 'A' : 0;
        } else if (!r->keys) {
            r->judged[i] = 0;
            r->cp_at[i + 1] = r->cp_at[i];
            return;
        }
        if (!judged) {
            for (k = 0; k < len; k++)
                own[k] = (unsigned)(lab[k] - 'A') < 26u ? lab[k] + ('a' - 'A') : lab[k];
            n = len;
        }
        cps = own;
    }
    r->judged[i] = (unsigned char)judged;
    if (judged) {
        if (!r->any) {
            memset(&r->out, 0, sizeof r->out);
            r->out.level = IDNG_RL_ASCII;
            r->any = 1;
        }
        judge_label(r, cps, n, off, len);
    }
    if (r->keys) {
        /* Raw labels can map to more code points than they have octets
         * (U+3316 to six).  A parent of more code points than a key holds
         * cannot match (its key is at least that long), so the labels on
         * the left make room for the new one: only their parents go
         * uncompared. */
        size_t at = r->cp_at[i], j, drop;
        if (n > IDNG_LK_KEY_MAX - at) {
            for (j = r->first; j < i && n > IDNG_LK_KEY_MAX - (at - r->cp_at[j]); j++)
                ;
            drop = r->cp_at[j];
            memmove(r->cps, r->cps + drop, (at - drop) * sizeof *r->cps);
            for (k = j; k <= i; k++)
                r->cp_at[k] -= drop;
            r->first = j;
            at = r->cp_at[i];
        }
        memcpy(r->cps + at, cps, n * sizeof *cps);
        r->cp_at[i + 1] = at + n;
    }
}

static const struct idng_skel_slot *find_key(const struct idng_protect *s, uint64_t h,
                                             const uint32_t *key, size_t len)
{
    size_t mask, i;

    if (s->nslots == 0)
        return NULL;
    mask = s->nslots - 1;
    for (i = (size_t)h & mask; s->slots[i].index != 0; i = (i + 1) & mask) {
        const struct idng_skel_slot *sl = &s->slots[i];
        if (sl->hash == h && sl->len == len
            && memcmp(s->keys + sl->off, key, len * sizeof *key) == 0)
            return sl;
    }
    return NULL;
}

/* Is h the hash of a parent of a protected name? */
static int is_parent(const struct idng_protect *s, uint64_t h)
{
    size_t mask = s->nparents - 1, i;

    h |= 1; /* 0 marks an empty slot */
    for (i = (size_t)h & mask; s->parents[i] != 0; i = (i + 1) & mask)
        if (s->parents[i] == h)
            return 1;
    return 0;
}

/* Puts the skeleton of label i before the key already built (the labels
 * after it), after its length, and returns the new parent's hash; 0 and
 * r->keys cleared when it does not fit. */
static uint64_t key_label(struct idng_lookalike_run *r, uint32_t *key, size_t i,
                          uint64_t parent)
{
    uint32_t sk[(IDNG_LABEL_MAX + 1) * IDNG_SKELETON_GROWTH];
    size_t n = sizeof sk / sizeof sk[0], end = r->key_at[i + 1];

    if (idng_skeleton(r->cps + r->cp_at[i], r->cp_at[i + 1] - r->cp_at[i], sk, &n) != IDNG_OK
        || n + 1 > end) {
        r->keys = 0;
        return 0;
    }
    r->key_at[i] = end - n - 1;
    key[r->key_at[i]] = (uint32_t)n;
    memcpy(key + r->key_at[i] + 1, sk, n * sizeof *sk);
    return fold(parent, key + r->key_at[i], n + 1);
}

/* Is the parent at w a protected name itself?  One that holds raw labels
 * is compared in its A-label form, as the protected names are held. */
static int is_protected(const struct idng_lookalike_run *r, const uint8_t *w, size_t len)
{
    uint8_t a[IDNG_WIRE_MAX];
    size_t alen = sizeof a;
    int raw = has_8bit(w, len);

    if (raw && idng_wire_to_ascii(w, len, a, &alen, r->mode, IDNG_F_KEEP_GOING, NULL) != IDNG_OK)
        return 0;
    return raw ? idng_nameset_find(&r->protect->names, a, alen) != IDNG_NAMESET_NONE
               : idng_nameset_find(&r->protect->names, w, len) != IDNG_NAMESET_NONE;
}

int idng_lookalike_finish(struct idng_lookalike_run *r, struct idng_lookalike *out)
{
    uint32_t key[IDNG_LK_KEY_MAX];
    size_t i, last = 0, first;
    uint64_t h = ROOT_HASH;

    if (!r->any) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    *out = r->out;
    if (!r->keys)
        return 1;
    for (i = 0; i < r->nlab; i++)
        if (r->judged[i])
            last = i;
    /* The parents from the last label on, each one label longer: those
     * that are no protected name's parent end the walk; of those holding a
     * judged label, the longest whose key is a protected name's, when it is
     * not a protected name itself, makes the name confusable. */
    r->key_at[r->nlab] = IDNG_LK_KEY_MAX;
    for (i = r->nlab; i-- > r->first;) {
        const struct idng_skel_slot *sl;
        size_t start = r->off[i] - 1; /* the parent's length octet */
        h = key_label(r, key, i, h);
        if (!r->keys || !is_parent(r->protect, h))
            break;
        if (i > last)
            continue;
        sl = find_key(r->protect, h, key + r->key_at[i], IDNG_LK_KEY_MAX - r->key_at[i]);
        if (sl == NULL || is_protected(r, r->wire + start, r->wire_len - start))
            continue;
        for (first = i; !r->judged[first]; first++)
            ;
        out->found |= IDNG_LK_CONFUSABLE;
        out->at[1].off = r->off[first];
        out->at[1].len = r->len[first];
        out->like = sl->index - 1;
    }
    return 1;
}

/* Every label of a well-formed wire name to idng_lookalike_label, by the
 * validation's own walk (xn-- labels decoded as the policy sees them); 0
 * when the name is malformed. */
static int walk(struct idng_lookalike_run *r, const uint8_t *wire, size_t len)
{
    idng_error each[IDNG_LABELS_MAX];
    size_t n;

    if (idng_wire_len(wire, len) == 0)
        return 0;
    idng_wire_check_labels(wire, len, r->mode, each, IDNG_LABELS_MAX, &n, idng_lookalike_label, r);
    return 1;
}

int idng_lookalike_scan(const struct idng_protect *protect, idng_restriction limit,
                        idng_mode mode, const uint8_t *wire, size_t len,
                        struct idng_lookalike *out)
{
    struct idng_lookalike_run r;

    /* Names without an xn-- label or an octet >= 0x80 are not judged. */
    if (idng_wire_is_plain(wire, len)) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    idng_lookalike_start(&r, protect, limit, mode, wire, len);
    if (!walk(&r, wire, len)) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    return idng_lookalike_finish(&r, out);
}

/* ---- the protected names ---- */

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
    idng_protect_init(s);
}

static void slot_put(struct idng_skel_slot *slots, size_t nslots, const struct idng_skel_slot *sl)
{
    size_t i = (size_t)sl->hash & (nslots - 1);

    while (slots[i].index != 0)
        i = (i + 1) & (nslots - 1);
    slots[i] = *sl;
}

/* Room for one more slot (at most half full) and keylen more key entries. */
static int reserve(struct idng_protect *s, size_t keylen)
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
    if (2 * (s->used + 1) > s->nslots) {
        size_t n = s->nslots ? 2 * s->nslots : 64, i;
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

/* Adds h to the parents' set; 0, or -1 out of memory. */
static int parent_add(struct idng_protect *s, uint64_t h)
{
    size_t i;

    h |= 1;
    if (2 * (s->parents_used + 1) > s->nparents) {
        size_t n = s->nparents ? 2 * s->nparents : 64, k;
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
    for (i = (size_t)h & (s->nparents - 1); s->parents[i] != 0; i = (i + 1) & (s->nparents - 1))
        if (s->parents[i] == h)
            return 0;
    s->parents[i] = h;
    s->parents_used++;
    return 0;
}

int idng_protect_add(struct idng_protect *s, const uint8_t *wire, size_t len)
{
    /* The key is made as a query name's is, with every label keyed. */
    static const struct idng_protect keyed = {.used = 1};
    struct idng_lookalike_run r;
    struct idng_skel_slot sl;
    uint32_t key[IDNG_LK_KEY_MAX];
    uint64_t h = ROOT_HASH;
    size_t at, klen;
    int rc;

    /* Only A-label names: no octet is >= 0x80 (length octets are below
     * 0x40, so the whole name may be tested), every xn-- label decodes. */
    if (has_8bit(wire, len))
        return -2;
    idng_lookalike_start(&r, &keyed, IDNG_RL_UNRESTRICTED, IDNG_MODE_UTS46, wire, len);
    if (!walk(&r, wire, len) || !r.keys)
        return -2;
    for (at = 0; at < r.nlab; at++)
        if (idng_is_ace((const char *)wire + r.off[at], r.len[at]) && !r.judged[at])
            return -2;
    if (r.nlab == 0)
        return -2;
    if (idng_nameset_find(&s->names, wire, len) != IDNG_NAMESET_NONE)
        return 1;
    r.key_at[r.nlab] = IDNG_LK_KEY_MAX;
    for (at = r.nlab; at-- > 0;) {
        h = key_label(&r, key, at, h);
        if (!r.keys)
            return -2;
        if (parent_add(s, h) != 0)
            return -1;
    }
    klen = IDNG_LK_KEY_MAX - r.key_at[0];
    if (reserve(s, klen) != 0)
        return -1;
    rc = idng_nameset_add(&s->names, wire, len, &at);
    if (rc != 0)
        return rc;
    /* Names with one skeleton share a slot: the first name stands for them
     * in messages, and the others are found by idng_nameset_find. */
    if (find_key(s, h, key + r.key_at[0], klen) != NULL)
        return 0;
    memcpy(s->keys + s->keys_len, key + r.key_at[0], klen * sizeof *key);
    sl.hash = h;
    sl.off = (uint32_t)s->keys_len;
    sl.len = (uint32_t)klen;
    sl.index = (uint32_t)(at + 1);
    s->keys_len += klen;
    slot_put(s->slots, s->nslots, &sl);
    s->used++;
    return 0;
}

size_t idng_protect_mem(const struct idng_protect *s)
{
    if (s == NULL)
        return 0;
    return idng_nameset_mem(&s->names) + s->nslots * sizeof *s->slots
           + s->keys_cap * sizeof *s->keys + s->nparents * sizeof *s->parents;
}

const char *idng_lookalike_name(unsigned found)
{
    /* Every combination, in the order of the bits. */
    static const char *const names[8] = {
        NULL,
        "mixed-script",
        "confusable",
        "mixed-script,confusable",
        "mixed-number",
        "mixed-script,mixed-number",
        "confusable,mixed-number",
        "mixed-script,confusable,mixed-number",
    };
    return names[found & 7];
}
