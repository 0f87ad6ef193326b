/**
 * \file
 * Lookalike names, the lookups: a run's keys probed in the protected names'
 * table (confusable, near-miss), its registrable label among theirs
 * (protect-suffixes) and the parts of its labels (protect-embedded); the
 * run finished.
 */
#include "idng_lookalike_internal.h"
#include "idng_psl.h"

#include <string.h>

/* The bits a lookup of kind's key accepts: its own, and those of the looser
 * kinds whose key it is too (flags: the IDNG_SK_* under which the name's key
 * differs). */
static unsigned accept_bits(unsigned kind, unsigned flags)
{
    unsigned bits = 1u << kind, k;

    for (k = kind + 1; k < KINDS; k++) {
        if ((kind_flags[k] & ~kind_flags[kind]) & flags)
            break;
        bits |= 1u << k;
    }
    return bits;
}

/* The next slot of key (hash h) with any of the bits accept, from *pos on
 * in its probe sequence (*pos = (size_t)-1 to start), or NULL. */
struct idng_skel_slot *lk_find_next(const struct idng_protect *s, unsigned accept, uint64_t h,
                                    const uint32_t *key, size_t len, size_t *pos)
{
    size_t mask, i;

    if (s->nslots == 0)
        return NULL;
    mask = s->nslots - 1;
    i = *pos == (size_t)-1 ? (size_t)h & mask : (*pos + 1) & mask;
    for (; s->slots[i].index != 0; i = (i + 1) & mask) {
        struct idng_skel_slot *sl = &s->slots[i];
        if (sl->hash == h && (sl->kinds & accept) && sl->len == len
            && memcmp(s->keys + sl->off, key, len * sizeof *key) == 0) {
            *pos = i;
            return sl;
        }
    }
    return NULL;
}

/* The slot of key (hash h) with any of the bits accept, or NULL. */
static struct idng_skel_slot *find_key(const struct idng_protect *s, unsigned accept, uint64_t h,
                                       const uint32_t *key, size_t len)
{
    size_t pos = (size_t)-1;

    return lk_find_next(s, accept, h, key, len, &pos);
}

/* The registrable label of protected name p (A-label wire form): its
 * length octet, or NULL when p is a public suffix. */
const uint8_t *lk_registrable_label(const uint8_t *p)
{
    size_t plen = idng_wire_len(p, IDNG_WIRE_MAX), reg = idng_psl_registrable(p, plen, 0);

    return reg < plen ? p + reg : NULL;
}

/* The key of kind of label i of r alone, into sk (*n in: capacity, out:
 * length); 0 when it does not fit or the label's code points were not kept. */
int lk_label_key(const struct idng_lookalike_run *r, unsigned kind, size_t i, uint32_t *sk,
                 size_t *n)
{
    if (i < r->first || i >= r->nlab)
        return 0;
    return idng_skeleton_ex(r->cps + r->cp_at[i], r->cp_at[i + 1] - r->cp_at[i],
                            kind_flags[kind], sk, n)
           == IDNG_OK;
}

/* The index of the label whose content starts at off, or nlab. */
size_t lk_label_at(const struct idng_lookalike_run *r, size_t off)
{
    size_t i;

    for (i = 0; i < r->nlab && r->off[i] != off; i++)
        ;
    return i;
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
uint64_t lk_key_label(struct idng_lookalike_run *r, unsigned kind, uint32_t *key, size_t i,
                      uint64_t parent)
{
    uint32_t sk[(IDNG_LABEL_MAX + 1) * IDNG_SKELETON_GROWTH];
    size_t n = sizeof sk / sizeof sk[0];

    if (idng_skeleton_ex(r->cps + r->cp_at[i], r->cp_at[i + 1] - r->cp_at[i], kind_flags[kind], sk,
                         &n)
        != IDNG_OK) {
        r->keys = 0;
        return 0;
    }
    return lk_key_put(r, key, i, parent, sk, n);
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

/* The class of a match on slot sl by a lookup that accepts the bits
 * accept: confusable when the skeleton or the extra mappings match, a
 * near miss when only the folded keys do. */
static int match_class(const struct idng_skel_slot *sl, unsigned accept, unsigned shift)
{
    unsigned bits = sl->kinds & accept;

    return bits & ((1u << KIND_SKELETON | 1u << KIND_EXTRA) << shift) ? IDNG_C_CONFUSABLE
                                                                       : IDNG_C_NEAR_MISS;
}

/* The parents from the last label on, each one label longer, keyed with
 * kind: those that are no protected name's parent end the walk; of those
 * holding a judged label, the longest whose key is a protected name's
 * (under the bits accept), when it is not a protected name itself, is
 * noted.  0 when a key did not fit (nothing more can match). */
static int match_keys(struct idng_lookalike_run *r, unsigned kind, unsigned accept, size_t last,
                      struct idng_lookalike *out)
{
    uint32_t key[IDNG_LK_KEY_MAX];
    uint64_t h = ROOT_HASH;
    size_t i, first;

    r->key_at[r->nlab] = IDNG_LK_KEY_MAX;
    for (i = r->nlab; i-- > r->first;) {
        const struct idng_skel_slot *sl;
        size_t start = r->off[i] - 1; /* the parent's length octet */
        int cls;
        h = lk_key_label(r, kind, key, i, h);
        if (!r->keys)
            return 0;
        if (!is_parent(r->protect, h))
            break;
        if (i > last)
            continue;
        sl = find_key(r->protect, accept, h, key + r->key_at[i], IDNG_LK_KEY_MAX - r->key_at[i]);
        if (sl == NULL || is_protected(r, r->wire + start, r->wire_len - start))
            continue;
        cls = match_class(sl, accept, 0);
        if (cls == IDNG_C_NEAR_MISS && (out->found & IDNG_LK_CONFUSABLE))
            continue;
        for (first = i; !r->judged[first]; first++)
            ;
        out->found |= IDNG_LK_BIT(cls);
        out->at[cls - IDNG_C_MIXED_SCRIPT].off = r->off[first];
        out->at[cls - IDNG_C_MIXED_SCRIPT].len = r->len[first];
        out->like = sl->index - 1;
    }
    return 1;
}

/* The A-label form of label i of r (a raw label converted), into a; its
 * length, or 0 when it does not convert. */
static size_t a_label(const struct idng_lookalike_run *r, size_t i, char *a)
{
    size_t alen = IDNG_LABEL_MAX, k;
    const char *lab = (const char *)r->wire + r->off[i];

    if (!has_8bit(r->wire + r->off[i], r->len[i])) {
        for (k = 0; k < r->len[i]; k++)
            a[k] = (char)idng_ascii_lower((unsigned char)lab[k]);
        return r->len[i];
    }
    return idng_label_to_ascii(lab, r->len[i], a, &alen, r->mode, NULL) == IDNG_OK ? alen : 0;
}

/* protect-suffixes: the registrable label of the name, when judged, keyed
 * with each kind and looked up among the protected names' registrable
 * labels; a match that is not that same label (bücher.com against
 * bücher.de) is noted as cls. */
static void match_registrable(const struct idng_lookalike_run *r, struct idng_lookalike *out)
{
    uint32_t sk[(IDNG_LABEL_MAX + 1) * IDNG_SKELETON_GROWTH];
    size_t reg = idng_psl_registrable(r->wire, r->wire_len, 0), i, n, alen;
    char a[IDNG_LABEL_MAX];
    unsigned kind;

    if (reg >= r->wire_len || (i = lk_label_at(r, reg + 1)) >= r->nlab || !r->judged[i]
        || is_protected(r, r->wire + reg, r->wire_len - reg))
        return;
    alen = a_label(r, i, a);
    for (kind = 0; kind < KINDS && !(out->found & IDNG_LK_CONFUSABLE); kind++) {
        const struct idng_skel_slot *sl;
        unsigned accept = accept_bits(kind, r->key_flags) << KINDS;
        size_t pos = (size_t)-1;
        n = sizeof sk / sizeof sk[0];
        if ((kind > 0 && !(kind_flags[kind] & ~kind_flags[kind - 1] & r->key_flags))
            || !lk_label_key(r, kind, i, sk, &n))
            continue;
        /* Each protected name of this key (a slot per registrable label):
         * the name's own label under another suffix is no lookalike of it
         * (bücher.com against bücher.de), another one's may be. */
        while ((sl = lk_find_next(r->protect, accept, fold(LABEL_HASH, sk, n), sk, n, &pos))
               != NULL) {
            const uint8_t *p = lk_registrable_label(r->protect->names.names[sl->index - 1]);
            int cls = match_class(sl, accept, KINDS);
            if (p != NULL && alen == p[0] && memcmp(a, p + 1, alen) == 0)
                continue;
            if (cls == IDNG_C_NEAR_MISS && (out->found & IDNG_LK_NEAR_MISS))
                continue;
            note(out, cls, r->off[i], r->len[i]);
            out->like = sl->index - 1;
            if (cls == IDNG_C_CONFUSABLE)
                break;
        }
    }
}

/* protect-embedded: each part between hyphens (not the whole) of each judged label, keyed
 * with the skeleton and the extra mappings, looked up among the protected
 * names' registrable labels. */
static void match_embedded(const struct idng_lookalike_run *r, struct idng_lookalike *out)
{
    uint32_t sk[(IDNG_LABEL_MAX + 1) * IDNG_SKELETON_GROWTH];
    size_t i, n, at, end;
    unsigned kind;

    for (i = r->first; i < r->nlab && !(out->found & IDNG_LK_EMBEDS_PROTECTED); i++) {
        if (!r->judged[i])
            continue;
        for (kind = KIND_SKELETON; kind <= KIND_EXTRA; kind++) {
            unsigned accept = (accept_bits(kind, r->key_flags) << KINDS)
                              & ((1u << KIND_SKELETON | 1u << KIND_EXTRA) << KINDS);
            n = sizeof sk / sizeof sk[0];
            if ((kind > 0 && !(IDNG_SK_EXTRA & r->key_flags)) || !lk_label_key(r, kind, i, sk, &n))
                continue;
            for (at = 0; at < n; at = end + 1) {
                const struct idng_skel_slot *sl;
                for (end = at; end < n && sk[end] != '-'; end++)
                    ;
                if (end == at || (at == 0 && end == n))
                    continue; /* the whole label: not a part of it */
                sl = find_key(r->protect, accept, fold(LABEL_HASH, sk + at, end - at), sk + at,
                              end - at);
                if (sl != NULL) {
                    note(out, IDNG_C_EMBEDS_PROTECTED, r->off[i], r->len[i]);
                    if (!(out->found & (IDNG_LK_CONFUSABLE | IDNG_LK_NEAR_MISS)))
                        out->like = sl->index - 1;
                    return;
                }
            }
        }
    }
}

int idng_lookalike_finish(struct idng_lookalike_run *r, struct idng_lookalike *out)
{
    size_t i, last = 0;
    unsigned kind;

    if (!r->any) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    *out = r->out;
    if (r->nlab >= 2)
        lk_by_tld(r, out);
    if (!r->keys)
        return 1;
    for (i = 0; i < r->nlab; i++)
        if (r->judged[i])
            last = i;
    /* Confusable by the skeleton, else with the extra mappings; a near
     * miss only when neither.  A looser kind is keyed only where the name's
     * key differs under it; else the stricter lookup accepts its bit. */
    for (kind = 0; kind < KINDS && !(out->found & IDNG_LK_CONFUSABLE); kind++) {
        if (kind > 0 && !(kind_flags[kind] & ~kind_flags[kind - 1] & r->key_flags))
            continue;
        if (!match_keys(r, kind, accept_bits(kind, r->key_flags), last, out))
            break;
    }
    if (r->protect->suffixes)
        match_registrable(r, out);
    if (r->protect->embedded)
        match_embedded(r, out);
    return 1;
}
