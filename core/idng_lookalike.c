/**
 * \file
 * Lookalike names (see idng_lookalike.h).
 */
#include "idng_lookalike.h"

#include <stdlib.h>
#include <string.h>

/*
 * A name's skeleton key: for each label, first to last, its skeleton in
 * UTF-8 preceded by its length in two octets (a skeleton may be longer
 * than 63 octets, and may hold '.', so the lengths keep labels apart).
 * A label's skeleton is the skeleton of its code points: an xn-- label's
 * decoded, any other label's octets, ASCII letters lowercased in both.
 *
 * The key of a parent name is the tail of its child's key, so one pass
 * from the last label to the first gives every parent's hash, each label
 * folded into the hash of its parent (as core/idng_nameset.c hashes
 * names), and a lookup costs one probe per label.
 *
 * Bounds: a wire name has at most 253 label octets, hence at most 253 code
 * points; one code point's skeleton is at most IDNG_SKELETON_GROWTH code
 * points of at most 4 octets (a UTS #46 valid code point's; an ASCII
 * one's is 3 at most), so KEY_MAX holds any valid name's key.
 */
#define LABEL_SKEL_MAX ((IDNG_LABEL_MAX + 1) * IDNG_SKELETON_GROWTH)
#define KEY_MAX (IDNG_WIRE_MAX * IDNG_SKELETON_GROWTH * 4 + 2 * (IDNG_LABELS_MAX + 1))

struct idng_skel_slot {
    uint64_t hash;   /**< hash of the key */
    uint32_t off;    /**< the key at keys[off..off + len) */
    uint32_t len;
    uint32_t index;  /**< 1 + the name's index in names.names; 0: empty slot */
};

static uint64_t fold(uint64_t parent, const uint8_t *p, size_t n)
{
    uint64_t h = parent;
    size_t i;

    for (i = 0; i < n; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return idng_hash_mix(h);
}
#define ROOT_HASH UINT64_C(0x9e3779b97f4a7c15)

/* The labels of one name, judged and keyed. */
struct walk {
    size_t nlab;                          /* labels, the root not counted */
    size_t off[IDNG_LABELS_MAX];          /* each label's content offset in wire */
    size_t len[IDNG_LABELS_MAX];
    unsigned char ace[IDNG_LABELS_MAX];   /* an xn-- label? */
    size_t key_at[IDNG_LABELS_MAX + 1];   /* where each label's part of the key begins */
    uint8_t key[KEY_MAX];
    size_t key_len;
};

/* Is any octet of the label >= 0x80? */
static int is_raw(const uint8_t *lab, size_t n)
{
    size_t k;

    for (k = 0; k < n; k++)
        if (lab[k] >= 0x80)
            return 1;
    return 0;
}

/* Code points of a label, into cps (IDNG_LABEL_MAX): an xn-- label decoded,
 * a raw label as what it normalizes to under mode (UTS #46 ToASCII, then
 * decoded), each then *judged; any other label, or one of those that does
 * not decode or convert, as its octets (their own checks judge them; here
 * they only take part in the key).  ASCII letters lowercased.  Returns the
 * count. */
static size_t label_cps(const uint8_t *lab, size_t n, idng_mode mode, uint32_t *cps, int *judged)
{
    char a[IDNG_LABEL_MAX];
    size_t k, count = IDNG_LABEL_MAX, alen = sizeof a;
    const char *ace = NULL;

    if (idng_is_ace((const char *)lab, n)) {
        ace = (const char *)lab;
        alen = n;
    } else if (is_raw(lab, n) && idng_label_to_ascii((const char *)lab, n, a, &alen, mode, NULL)
                                     == IDNG_OK && idng_is_ace(a, alen)) {
        ace = a;
    }
    *judged = ace != NULL
              && idng_punycode_decode(ace + 4, alen - 4, cps, &count, NULL) == IDNG_OK;
    if (!*judged) {
        for (k = 0; k < n; k++)
            cps[k] = lab[k];
        count = n;
    }
    for (k = 0; k < count; k++)
        if (cps[k] - 'A' < 26)
            cps[k] += 'a' - 'A';
    return count;
}

/* Appends the skeleton of cps[0..n) to w's key, with its length. */
static int key_label(struct walk *w, const uint32_t *cps, size_t n)
{
    uint32_t sk[LABEL_SKEL_MAX];
    size_t sklen = LABEL_SKEL_MAX, i, at = w->key_len + 2, o = at;

    if (idng_skeleton(cps, n, sk, &sklen) != IDNG_OK || at > KEY_MAX || KEY_MAX - at < sklen * 4)
        return -1;
    for (i = 0; i < sklen; i++)
        o += idng_utf8_encode(sk[i], w->key + o);
    w->key[at - 2] = (uint8_t)((o - at) >> 8);
    w->key[at - 1] = (uint8_t)(o - at);
    w->key_len = o;
    return 0;
}

/*
 * Walks the labels of wire: their places, and with keys, the skeleton key.
 * judge (may be NULL) is told the code points of each xn-- label that
 * decodes.  Returns 0 when the name is malformed.
 */
typedef void judge_fn(void *ctx, const uint32_t *cps, size_t n, size_t off, size_t len);

static int walk_name(struct walk *w, const uint8_t *wire, size_t len, idng_mode mode, int keys,
                     judge_fn *judge, void *ctx)
{
    idng_wire_iter it;
    const uint8_t *lab;
    size_t n;
    int st;

    w->nlab = 0;
    w->key_len = 0;
    idng_wire_iter_init(&it, wire, len);
    while ((st = idng_wire_next(&it, &lab, &n)) == IDNG_WIRE_LABEL) {
        uint32_t cps[IDNG_LABEL_MAX];
        size_t i = w->nlab++, count;
        int judged;
        w->off[i] = (size_t)(lab - wire);
        w->len[i] = n;
        w->ace[i] = 0;
        w->key_at[i] = w->key_len;
        if (!keys && !idng_is_ace((const char *)lab, n) && !is_raw(lab, n))
            continue;
        count = label_cps(lab, n, mode, cps, &judged);
        w->ace[i] = (unsigned char)judged;
        if (judge != NULL && judged)
            judge(ctx, cps, count, w->off[i], n);
        if (keys && key_label(w, cps, count) != 0)
            return 0;
    }
    w->key_at[w->nlab] = w->key_len;
    return st == IDNG_WIRE_END;
}

/* Hash of the key of the name from label i on (its labels i..nlab-1). */
static void parent_hashes(const struct walk *w, uint64_t *h)
{
    size_t i = w->nlab;

    h[i] = ROOT_HASH;
    while (i-- > 0)
        h[i] = fold(h[i + 1], w->key + w->key_at[i], w->key_at[i + 1] - w->key_at[i]);
}

static const struct idng_skel_slot *find_key(const struct idng_protect *s, uint64_t h,
                                             const uint8_t *key, size_t len)
{
    size_t mask, i;

    if (s->nslots == 0)
        return NULL;
    mask = s->nslots - 1;
    for (i = (size_t)h & mask; s->slots[i].index != 0; i = (i + 1) & mask) {
        const struct idng_skel_slot *sl = &s->slots[i];
        if (sl->hash == h && sl->len == len && memcmp(s->keys + sl->off, key, len) == 0)
            return sl;
    }
    return NULL;
}

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
    idng_protect_init(s);
}

static void slot_put(struct idng_skel_slot *slots, size_t nslots, const struct idng_skel_slot *sl)
{
    size_t i = (size_t)sl->hash & (nslots - 1);

    while (slots[i].index != 0)
        i = (i + 1) & (nslots - 1);
    slots[i] = *sl;
}

/* Room for one more slot (at most half full) and keylen more key octets. */
static int reserve(struct idng_protect *s, size_t keylen)
{
    if (s->keys_cap - s->keys_len < keylen) {
        size_t cap = s->keys_cap ? s->keys_cap : 4096;
        uint8_t *k;
        while (cap - s->keys_len < keylen)
            cap *= 2;
        if (cap > UINT32_MAX || (k = realloc(s->keys, cap)) == NULL)
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

int idng_protect_add(struct idng_protect *s, const uint8_t *wire, size_t len)
{
    struct walk w;
    uint64_t h[IDNG_LABELS_MAX + 1];
    struct idng_skel_slot sl;
    size_t at;
    int r;

    if (!walk_name(&w, wire, len, IDNG_MODE_PUNYCODE, 1, NULL, NULL))
        return -2;
    /* Only A-label names: every xn-- label decodes, no octet is >= 0x80. */
    for (at = 0; at < w.nlab; at++)
        if (is_raw(wire + w.off[at], w.len[at])
            || (idng_is_ace((const char *)wire + w.off[at], w.len[at]) && !w.ace[at]))
            return -2;
    if (idng_nameset_find(&s->names, wire, len) != IDNG_NAMESET_NONE)
        return 1;
    if (reserve(s, w.key_len) != 0)
        return -1;
    r = idng_nameset_add(&s->names, wire, len, &at);
    if (r != 0)
        return r;
    parent_hashes(&w, h);
    /* Names with one skeleton share a slot: the first name stands for them
     * in messages, and the others are found by idng_nameset_find. */
    if (find_key(s, h[0], w.key, w.key_len) != NULL)
        return 0;
    memcpy(s->keys + s->keys_len, w.key, w.key_len);
    sl.hash = h[0];
    sl.off = (uint32_t)s->keys_len;
    sl.len = (uint32_t)w.key_len;
    sl.index = (uint32_t)(at + 1);
    s->keys_len += w.key_len;
    slot_put(s->slots, s->nslots, &sl);
    s->used++;
    return 0;
}

size_t idng_protect_mem(const struct idng_protect *s)
{
    if (s == NULL)
        return 0;
    return idng_nameset_mem(&s->names) + s->nslots * sizeof *s->slots + s->keys_cap;
}

struct judging {
    idng_restriction limit;
    struct idng_lookalike *out;
};

static void judge_label(void *ctx, const uint32_t *cps, size_t n, size_t off, size_t len)
{
    struct judging *j = ctx;
    struct idng_lookalike *o = j->out;
    idng_restriction level = idng_restriction_level(cps, n);

    if (level > o->level)
        o->level = level;
    if (level > j->limit && !(o->found & IDNG_LK_MIXED_SCRIPT)) {
        o->found |= IDNG_LK_MIXED_SCRIPT;
        o->script_off = off;
        o->script_len = len;
    }
    if (!(o->found & IDNG_LK_MIXED_NUMBER) && idng_mixed_numbers(cps, n)) {
        o->found |= IDNG_LK_MIXED_NUMBER;
        o->number_off = off;
        o->number_len = len;
    }
}

int idng_lookalike_scan(const struct idng_protect *protect, idng_restriction limit,
                        idng_mode mode, const uint8_t *wire, size_t len,
                        struct idng_lookalike *out)
{
    struct walk w;
    struct judging j = {limit, out};
    uint64_t h[IDNG_LABELS_MAX + 1];
    size_t i, last = 0, first;
    int any = 0;

    memset(out, 0, sizeof *out);
    out->level = IDNG_RL_ASCII;
    /* First the labels alone (ASCII labels are only stepped over)... */
    if (!walk_name(&w, wire, len, mode, 0, judge_label, &j)) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    for (i = 0; i < w.nlab; i++)
        if (w.ace[i]) {
            last = i;
            any = 1;
        }
    if (!any)
        return 0;
    /* ...then, for a name with something to judge and when names are
     * protected, the skeletons: of the name and of each parent that still
     * holds a judged label, the longest first.  The first whose key is a
     * protected name's, when it is not a protected name itself, makes the
     * name confusable. */
    if (protect == NULL || protect->used == 0 || !walk_name(&w, wire, len, mode, 1, NULL, NULL))
        return 1;
    parent_hashes(&w, h);
    for (i = 0; i <= last; i++) {
        const struct idng_skel_slot *sl =
            find_key(protect, h[i], w.key + w.key_at[i], w.key_len - w.key_at[i]);
        size_t start = w.off[i] - 1; /* the parent's length octet */
        if (sl == NULL
            || idng_nameset_find(&protect->names, wire + start, len - start) != IDNG_NAMESET_NONE)
            continue;
        for (first = i; !w.ace[first]; first++)
            ;
        out->found |= IDNG_LK_CONFUSABLE;
        out->conf_off = w.off[first];
        out->conf_len = w.len[first];
        out->like = sl->index - 1;
        break;
    }
    return 1;
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
