/**
 * \file
 * Name sets (see idng_nameset.h).
 */
#include "idng_nameset.h"

#include "idnguard.h"

#include <stdlib.h>
#include <string.h>

#define WIRE_MAX IDNG_WIRE_MAX

#define lower idng_ascii_lower

/* A set (struct idng_nameset) is three things: names[], the names in file
 * order; blocks of storage holding their octets, which never move, so that
 * names[i] stays valid while the set grows; and an open-addressing table
 * (linear probing, at most half full) whose slots hold a name's hash and
 * its place in names[].
 *
 * A name's hash is built from its root towards its first label, each step
 * folding one label into the hash of the parent name.  One pass over a
 * query name so gives the hashes of all its suffixes (itself, its parent,
 * ..., the root), and a lookup is one probe per label.  ASCII case is
 * folded as the octets are hashed and compared; stored names are lowercase. */

/** Most labels of a name, the root's included. */
#define LABELS_MAX (IDNG_LABELS_MAX + 1)
/** Smallest and largest block of name storage; any name fits the smallest. */
#define BLOCK_MIN 512
#define BLOCK_MAX 65536
/** Index returned for a name not in a set. */
#define NOT_FOUND IDNG_NAMESET_NONE

struct idng_name_slot {
    uint32_t hash;  /**< the name's hash (low 32 bits) */
    uint32_t index; /**< 1 + its index in names[]; 0 marks an empty slot */
};

struct idng_name_block {
    struct idng_name_block *next; /**< the block filled before this one */
    size_t used, cap;             /**< octets of data used and allocated */
    uint8_t data[];
};

_Static_assert(WIRE_MAX < 256 && LABELS_MAX * 2 > WIRE_MAX,
               "label offsets fit an octet, and LABELS_MAX covers one-octet labels");
_Static_assert(BLOCK_MIN >= WIRE_MAX, "a fresh block holds any name");

/* Folds a label (length octet first; ASCII case ignored) into the hash of
 * its parent name.  FNV-1a over the octets, then a 64-bit mix (the
 * splitmix64 finalizer) so that every bit of the result depends on the
 * whole name, as the table's low bits must. */
static uint64_t hash_label(uint64_t parent, const uint8_t *label)
{
    uint64_t h = (parent ^ label[0]) * UINT64_C(0x100000001b3);
    size_t i;

    for (i = 1; i <= label[0]; i++)
        h = (h ^ lower(label[i])) * UINT64_C(0x100000001b3);
    return idng_hash_mix(h);
}

uint64_t idng_hash_mix(uint64_t h)
{
    h ^= h >> 30;
    h *= UINT64_C(0xbf58476d1ce4e5b9);
    h ^= h >> 27;
    h *= UINT64_C(0x94d049bb133111eb);
    h ^= h >> 31;
    return h;
}

/* Hashes of all suffixes of a name whose labels start at offs[0..nlab),
 * the root label last: h[i] is the hash of the name from offs[i] on. */
static void suffix_hashes(const uint8_t *wire, const uint8_t *offs, size_t nlab, uint32_t *h)
{
    uint64_t x = UINT64_C(0x9e3779b97f4a7c15); /* the root's */
    size_t i = nlab - 1;

    h[i] = (uint32_t)x;
    while (i-- > 0) {
        x = hash_label(x, wire + offs[i]);
        h[i] = (uint32_t)x;
    }
}

/* Label offsets of the wire name at wire into offs (LABELS_MAX entries),
 * the root label last, and its length into *total.  Returns the number of
 * labels, root included, or 0 if the name is malformed (idng_wire_next). */
static size_t split_name(const uint8_t *wire, size_t len, uint8_t *offs, size_t *total)
{
    idng_wire_iter it;
    const uint8_t *lab;
    size_t n, nlab = 0;
    int st;

    idng_wire_iter_init(&it, wire, len);
    for (;;) {
        size_t at = it.pos;
        st = idng_wire_next(&it, &lab, &n);
        if (st == IDNG_WIRE_BAD)
            return 0;
        offs[nlab++] = (uint8_t)at;
        if (st == IDNG_WIRE_END)
            break;
    }
    *total = it.pos + 1;
    return nlab;
}

/* Is some name of l wlen octets long?  (Spares probes for lengths no
 * entry has, the root's among them unless it is listed.) */
static int set_has_len(const struct idng_nameset *l, size_t wlen)
{
    return (int)(l->lens[wlen >> 6] >> (wlen & 63) & 1);
}

/* Index in l->names of the name at w (wire form, wlen octets, any case,
 * well formed) whose hash is h; NOT_FOUND if l does not hold it.  Two well
 * formed names agree on where their labels start until they first differ,
 * so comparing octet by octet up to the first difference never reads past
 * the end of the stored name. */
static size_t set_find(const struct idng_nameset *l, const uint8_t *w, size_t wlen, uint32_t h)
{
    size_t mask, i, j;

    if (l->slots == NULL)
        return NOT_FOUND;
    mask = l->nslots - 1;
    for (i = h & mask;; i = (i + 1) & mask) {
        const struct idng_name_slot *s = &l->slots[i];
        const uint8_t *m;

        if (s->index == 0)
            return NOT_FOUND; /* the table is never full */
        if (s->hash != h)
            continue;
        m = l->names[s->index - 1];
        for (j = 0; j < wlen && lower(w[j]) == m[j]; j++)
            ;
        if (j == wlen)
            return s->index - 1;
    }
}

/* Puts index (0-based) with hash h into a table of nslots (a power of two)
 * that has a free slot. */
static void slot_put(struct idng_name_slot *slots, size_t nslots, uint32_t h, size_t index)
{
    size_t mask = nslots - 1, i = h & mask;

    while (slots[i].index != 0)
        i = (i + 1) & mask;
    slots[i].hash = h;
    slots[i].index = (uint32_t)(index + 1);
}

/* Makes the table hold names of l (count of them at most, at most half
 * full, so probe runs stay short and misses end soon), doubling it as often
 * as needed in one go.  0, or -1 when out of memory (l unchanged). */
static int grow_slots(struct idng_nameset *l, size_t count)
{
    size_t n = l->nslots ? l->nslots : 16, i;
    struct idng_name_slot *slots;

    if (count > SIZE_MAX / 4)
        return -1;
    while (count * 2 > n)
        n *= 2;
    if (n == l->nslots)
        return 0;
    if (n > (size_t)UINT32_MAX || n > SIZE_MAX / sizeof *slots)
        return -1;
    slots = calloc(n, sizeof *slots);
    if (slots == NULL)
        return -1;
    for (i = 0; i < l->nslots; i++)
        if (l->slots[i].index != 0)
            slot_put(slots, n, l->slots[i].hash, l->slots[i].index - 1);
    free(l->slots);
    l->slots = slots;
    l->nslots = n;
    return 0;
}

/* Adds a name (wire form, wlen octets, lowercase, well formed, not yet in
 * l) whose hash is h.  names[] must have room for it (count < cap).
 * Returns 0, or -1 when out of memory; l then still holds what it held. */
static int set_add(struct idng_nameset *l, const uint8_t *w, size_t wlen, uint32_t h)
{
    struct idng_name_block *b = l->blocks;
    uint8_t *copy;

    if (grow_slots(l, l->count + 1) != 0)
        return -1;
    if (b == NULL || b->cap - b->used < wlen) {
        size_t cap = b == NULL ? BLOCK_MIN : b->cap < BLOCK_MAX ? 2 * b->cap : BLOCK_MAX;
        b = malloc(sizeof *b + cap);
        if (b == NULL)
            return -1;
        b->next = l->blocks;
        b->used = 0;
        b->cap = cap;
        l->blocks = b;
    }
    copy = b->data + b->used;
    memcpy(copy, w, wlen);
    b->used += wlen;
    slot_put(l->slots, l->nslots, h, l->count);
    l->lens[wlen >> 6] |= UINT64_C(1) << (wlen & 63);
    l->names[l->count++] = copy;
    return 0;
}

static void set_free(struct idng_nameset *l)
{
    struct idng_name_block *b = l->blocks;

    while (b != NULL) {
        struct idng_name_block *next = b->next;
        free(b);
        b = next;
    }
    free(l->slots);
    free(l->names);
    memset(l, 0, sizeof *l);
    l->names = NULL;
    l->slots = NULL;
    l->blocks = NULL;
}


void idng_nameset_init(struct idng_nameset *s)
{
    memset(s, 0, sizeof *s);
    s->names = NULL;
    s->slots = NULL;
    s->blocks = NULL;
}

size_t idng_nameset_find(const struct idng_nameset *s, const uint8_t *wire, size_t len)
{
    uint8_t offs[LABELS_MAX];
    uint32_t h[LABELS_MAX];
    size_t nlab, total = 0;

    if (s == NULL || wire == NULL || s->count == 0)
        return NOT_FOUND;
    nlab = split_name(wire, len, offs, &total);
    if (nlab == 0)
        return NOT_FOUND;
    suffix_hashes(wire, offs, nlab, h);
    return set_find(s, wire, total, h[0]);
}

int idng_nameset_add(struct idng_nameset *s, const uint8_t *wire, size_t len, size_t *at)
{
    uint8_t offs[LABELS_MAX], low[WIRE_MAX];
    uint32_t h[LABELS_MAX];
    size_t nlab, total = 0, i;

    nlab = split_name(wire, len, offs, &total);
    if (nlab == 0)
        return -2;
    for (i = 0; i < total; i++)
        low[i] = lower(wire[i]);
    suffix_hashes(low, offs, nlab, h);
    i = set_find(s, low, total, h[0]);
    if (i != NOT_FOUND) {
        if (at != NULL)
            *at = i;
        return 1;
    }
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        uint8_t **names = realloc(s->names, cap * sizeof *names);
        if (names == NULL)
            return -1;
        s->names = names;
        s->cap = cap;
    }
    if (set_add(s, low, total, h[0]) != 0)
        return -1;
    if (at != NULL)
        *at = s->count - 1;
    return 0;
}

int idng_nameset_reserve(struct idng_nameset *s, size_t more)
{
    size_t want;

    if (more > SIZE_MAX / 4 - s->count)
        return -1;
    want = s->count + more;
    if (want > s->cap) {
        uint8_t **names = realloc(s->names, want * sizeof *names);
        if (names == NULL)
            return -1;
        s->names = names;
        s->cap = want;
    }
    return grow_slots(s, want);
}

void idng_nameset_free(struct idng_nameset *s)
{
    if (s != NULL)
        set_free(s);
}

size_t idng_nameset_mem(const struct idng_nameset *l)
{
    const struct idng_name_block *b;
    size_t n;

    if (l == NULL)
        return 0;
    n = l->cap * sizeof *l->names + l->nslots * sizeof *l->slots;
    for (b = l->blocks; b != NULL; b = b->next)
        n += sizeof *b + b->cap;
    return n;
}

/* The longest name of l (non-empty) that the name with those labels and
 * suffix hashes equals or lies below: its length, or 0. */
static int longest_listed(const struct idng_nameset *l, const uint8_t *wire, const uint8_t *offs,
                          size_t nlab, size_t total, const uint32_t *h)
{
    size_t i;

    /* The name itself first, then each parent: the first hit is the
     * longest listed name that matches. */
    for (i = 0; i < nlab; i++) {
        size_t slen = total - offs[i];
        if (set_has_len(l, slen) && set_find(l, wire + offs[i], slen, h[i]) != NOT_FOUND)
            return (int)slen;
    }
    return 0;
}

void idng_nameset_listed2(const struct idng_nameset *a, const struct idng_nameset *b,
                          const uint8_t *wire, size_t len, int *in_a, int *in_b)
{
    uint8_t offs[LABELS_MAX];
    uint32_t h[LABELS_MAX];
    size_t nlab, total = 0;
    int use_a = a != NULL && a->count > 0 && a->slots != NULL;
    int use_b = b != NULL && b->count > 0 && b->slots != NULL;

    *in_a = *in_b = 0;
    if (wire == NULL || (!use_a && !use_b))
        return;
    nlab = split_name(wire, len, offs, &total);
    if (nlab == 0)
        return;
    suffix_hashes(wire, offs, nlab, h);
    if (use_a)
        *in_a = longest_listed(a, wire, offs, nlab, total, h);
    if (use_b)
        *in_b = longest_listed(b, wire, offs, nlab, total, h);
}

int idng_nameset_listed(const struct idng_nameset *l, const uint8_t *wire, size_t len)
{
    uint8_t offs[LABELS_MAX];
    uint32_t h[LABELS_MAX];
    size_t nlab, total = 0;

    if (l == NULL || wire == NULL || l->count == 0 || l->slots == NULL)
        return 0;
    nlab = split_name(wire, len, offs, &total);
    if (nlab == 0)
        return 0;
    suffix_hashes(wire, offs, nlab, h);
    return longest_listed(l, wire, offs, nlab, total, h);
}
