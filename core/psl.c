/**
 * \file
 * The Public Suffix List lookup (see idng_psl.h).
 */
#include "idng_psl.h"

#include "idng_nameset.h"
#include "idng_psl_table.h"
#include "idnguard.h"

/* The list is a tree of names (idng_psl_table.h): node 0 is the root, and
 * every other node is a name that is a rule, the parent of a wildcard
 * rule, an exception, or a proper suffix of one of these, with flags
 * saying which.  A lookup walks down from the root along the name's labels,
 * the top-level label first, and stops at the first label the tree has no
 * child for: no rule can match below a name the tree does not hold.  On
 * the way, a rule node makes its own depth the public suffix's, a wildcard
 * node one label more (when the name has it), and an exception node its
 * parent's depth, which then prevails over every other rule. */

/** Most labels of a name, the root's not counted. */
#define LABELS_MAX IDNG_LABELS_MAX

_Static_assert(IDNG_PSL_NODES <= 65536 && (IDNG_PSL_SLOTS & (IDNG_PSL_SLOTS - 1)) == 0,
               "node indices fit the slots' 16 bits, and the slots are a power of two");
_Static_assert(IDNG_WIRE_MAX < 256, "label offsets fit an octet");

static unsigned char lower(unsigned char ch)
{
    return ch >= 'A' && ch <= 'Z' ? (unsigned char)(ch + 32) : ch;
}

/* The child of node parent whose label is the n octets at label (any
 * case), or 0 when the tree has none. */
static unsigned child(unsigned parent, const uint8_t *label, size_t n)
{
    uint64_t h = IDNG_PSL_HASH_BASIS ^ parent;
    size_t i, k;

    for (i = 0; i < n; i++)
        h = (h ^ lower(label[i])) * IDNG_PSL_HASH_PRIME;
    h = (uint32_t)idng_hash_mix(h);
    for (k = 0; k < IDNG_PSL_PROBES; k++) {
        unsigned at = idng_psl_slots[(h + k) & (IDNG_PSL_SLOTS - 1)];
        const struct idng_psl_node *nd;
        const char *lab;

        if (at == 0)
            return 0;
        nd = &idng_psl_nodes[at];
        if (nd->parent != parent || nd->len != n)
            continue;
        lab = idng_psl_labels + nd->label;
        for (i = 0; i < n && lower(label[i]) == (unsigned char)lab[i]; i++)
            ;
        if (i == n)
            return at;
    }
    return 0; /* every node is found within IDNG_PSL_PROBES probes */
}

/* Offsets of the labels of the wire name into offs (LABELS_MAX entries),
 * its first label first, the root's not included.  Returns the number of
 * labels, or -1 when the name is malformed (idng_wire_next). */
static int split_labels(const uint8_t *wire, size_t len, uint8_t *offs)
{
    idng_wire_iter it;
    const uint8_t *lab;
    size_t n;

    idng_wire_iter_init(&it, wire, len);
    for (;;) {
        size_t at = it.pos;
        int st = idng_wire_next(&it, &lab, &n);

        if (st == IDNG_WIRE_BAD)
            return -1;
        if (st == IDNG_WIRE_END)
            return (int)it.labels;
        offs[it.labels - 1] = (uint8_t)at;
    }
}

/* The number of labels of the public suffix of a name of nlab >= 1 labels
 * at offs. */
static size_t suffix_labels(const uint8_t *wire, const uint8_t *offs, size_t nlab,
                            unsigned flags)
{
    unsigned mask = flags & IDNG_PSL_ICANN_ONLY ? IDNG_PSL_F_ICANN : 0xffu;
    size_t best = 1, exception = 0, d;
    unsigned node = 0;

    for (d = 1; d <= nlab; d++) {
        const uint8_t *label = wire + offs[nlab - d];
        unsigned f;

        node = child(node, label + 1, label[0]);
        if (node == 0)
            break;
        f = idng_psl_nodes[node].flags & mask;
        if (f & (IDNG_PSL_F_RULE_ICANN | IDNG_PSL_F_RULE_PRIVATE))
            best = d;
        if (f & (IDNG_PSL_F_WILD_ICANN | IDNG_PSL_F_WILD_PRIVATE) && d < nlab)
            best = d + 1;
        if (f & (IDNG_PSL_F_EXC_ICANN | IDNG_PSL_F_EXC_PRIVATE))
            exception = d - 1;
    }
    return exception ? exception : best;
}

size_t idng_psl_suffix(const uint8_t *wire, size_t len, unsigned flags, size_t *labels)
{
    uint8_t offs[LABELS_MAX];
    int nlab = wire == NULL ? -1 : split_labels(wire, len, offs);
    size_t n;

    if (labels != NULL)
        *labels = 0;
    if (nlab < 0)
        return len;
    if (nlab == 0)
        return 0;
    n = suffix_labels(wire, offs, (size_t)nlab, flags);
    if (labels != NULL)
        *labels = n;
    return offs[(size_t)nlab - n];
}

size_t idng_psl_registrable(const uint8_t *wire, size_t len, unsigned flags)
{
    uint8_t offs[LABELS_MAX];
    int nlab = wire == NULL ? -1 : split_labels(wire, len, offs);
    size_t n;

    if (nlab <= 0)
        return len;
    n = suffix_labels(wire, offs, (size_t)nlab, flags);
    return n < (size_t)nlab ? offs[(size_t)nlab - n - 1] : len;
}
