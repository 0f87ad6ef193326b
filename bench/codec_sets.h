/**
 * \file
 * The codec benchmark's input sets (bench/codec_sets.c), as
 * bench/codec_bench.c uses them.
 */
#ifndef IDNG_BENCH_CODEC_SETS_H
#define IDNG_BENCH_CODEC_SETS_H

#include "idnguard.h"

#include <unicode/uidna.h>

#include <stddef.h>
#include <stdint.h>

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))
#define OUT_MAX 2048

struct name {
    char *s;
    size_t len;
    uint8_t *wire; /* uncompressed wire form (labels split at '.'), or NULL */
    size_t wire_len;
};

struct set {
    const char *id;
    struct name *v;
    size_t n, cap;
};

/* Adds s[0..len) to st, with its wire form when it has one. */
void set_add(struct set *st, const char *s, size_t len);
/* RFC 3492 section 7.1's samples, as A-labels and in Unicode. */
void build_rfc(struct set *ace, struct set *uni);
/* Every entry of the Public Suffix List at path: IDNs in both forms, ASCII ones. */
void build_psl(const char *path, struct set *ace, struct set *uni, struct set *asc,
               size_t *skipped);
/* Worst-case 63-octet labels built here, and those of
 * tests/codec/worst_case.h when it was there at build time. */
void build_worst(struct set *ace, struct set *uni);
void build_worst_tests(struct set *ace, struct set *uni);

extern const char *const six_names[];
extern const size_t six_names_count;
extern const char *const ascii_names[];
extern const size_t ascii_names_count;

struct wc_family {
    const char *id;
    int kind;
};
extern const struct wc_family wc_families[];
extern const size_t wc_families_count;

/* ICU's UTS #46 converter, opened by main (build_psl uses it). */
extern UIDNA *icu;

#endif
