/**
 * \file
 * Name sets: the allow and deny lists (and any list to come), built once
 * and read-only afterwards.  Libc and the codec only; no Unbound headers.
 *
 * A set holds domain names in uncompressed DNS wire format with ASCII
 * letters lowercased (a caller stores non-ASCII names as A-labels).
 * Lookups are case-insensitive and cost one hash probe per label of the
 * name looked up, whatever the number of entries; any number of threads may
 * look up at once while nobody adds.
 */
#ifndef IDNG_NAMESET_H
#define IDNG_NAMESET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A slot of a set's hash table (defined in core/nameset.c). */
struct idng_name_slot;
/** A block of a set's name storage (defined in core/nameset.c). */
struct idng_name_block;

/**
 * A name set.  names[0..count) are the names in the order they were added
 * (so a settings file is written back in its own order); they point into
 * storage the set owns.  The fields after count are internals.  A set of
 * all zeros is empty and valid (idng_nameset_init makes one).
 */
struct idng_nameset {
    uint8_t **names;                /**< count names in order added; cap allocated */
    size_t count;                   /**< number of names */
    size_t cap;                     /**< entries allocated at names */
    struct idng_name_slot *slots;   /**< hash table of nslots (a power of two), or NULL */
    size_t nslots;
    struct idng_name_block *blocks; /**< where the names' octets live */
    uint64_t lens[4];               /**< bit n set: some name is n octets long */
};

/** Index idng_nameset_find returns for a name that is not in the set. */
#define IDNG_NAMESET_NONE ((size_t)-1)

/** Makes s an empty set. */
void idng_nameset_init(struct idng_nameset *s);

/** Releases everything s holds and makes it empty; NULL is fine. */
void idng_nameset_free(struct idng_nameset *s);

/**
 * Adds a well-formed wire name (any case; stored lowercase).
 * @return 0 added (at index count - 1); 1 already there (*at says where,
 *   when at is not NULL); -1 out of memory (the set is unchanged); -2 the
 *   name is malformed (see idng_nameset_listed).
 */
int idng_nameset_add(struct idng_nameset *s, const uint8_t *wire, size_t len, size_t *at);

/**
 * Makes room for more names to be added without growing the set's arrays
 * again (a list read from a file of a million names: one allocation of
 * each, no rehash on the way).  Adds nothing.
 * @return 0, or -1 out of memory (the set is unchanged, and still valid).
 */
int idng_nameset_reserve(struct idng_nameset *s, size_t more);

/** Index of exactly this name (any case), or IDNG_NAMESET_NONE. */
size_t idng_nameset_find(const struct idng_nameset *s, const uint8_t *wire, size_t len);

/**
 * Is the name listed: does it equal, or lie below, a name of s?  Compares
 * whole labels, so "xample.net." does not match a listed "example.net.",
 * and ASCII case-insensitively.  The root name, when listed, matches
 * everything.  Costs one hash probe per label of the name (at most 128),
 * whatever the number of names; allocates nothing and takes no lock.
 * @param wire: uncompressed wire-format name, in any case.
 * @param len: octets available at wire; the name must end (root label)
 *   within them.
 * @return 0 if not listed, or if the name is malformed (label over 63
 *   octets, a compression pointer, running past len, over 255 octets);
 *   else the wire length of the longest listed name that matches, so that
 *   the more specific of two sets can win.
 */
int idng_nameset_listed(const struct idng_nameset *s, const uint8_t *wire, size_t len);

/**
 * idng_nameset_listed of one name in two sets (either may be empty or
 * NULL), the name split and hashed once: *in_a and *in_b as it would
 * return for a and b.  The policy's allow and deny lists.
 */
void idng_nameset_listed2(const struct idng_nameset *a, const struct idng_nameset *b,
                          const uint8_t *wire, size_t len, int *in_a, int *in_b);

/**
 * The 64-bit mix both name-keyed tables finish their FNV-1a hashes with
 * (the splitmix64 finalizer), so that every bit of the result depends on
 * every octet, as a table indexed by the low bits needs.
 */
uint64_t idng_hash_mix(uint64_t h);

/**
 * Heap memory held by a set, in octets: its name array, hash table and
 * name storage, as requested from malloc (the allocator's own overhead is
 * not counted, nor the struct itself).  0 for an empty set and for NULL.
 */
size_t idng_nameset_mem(const struct idng_nameset *s);

#ifdef __cplusplus
}
#endif
#endif /* IDNG_NAMESET_H */
