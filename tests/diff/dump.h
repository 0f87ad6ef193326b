/**
 * \file
 * What dump.c (corpora, chunks, digests) takes from dump_lines.c (the line
 * of one input).
 */
#ifndef IDNG_TESTS_DIFF_DUMP_H
#define IDNG_TESTS_DIFF_DUMP_H

#include <stddef.h>

/** Loads the settings the policy and log parts of a line use. */
void dump_load_confs(void);
/** The line of one input of a codec corpus (a name in any form). */
void dump_one_input(const unsigned char *in, size_t n);
/** The line of one input of the settings parser's corpus. */
void dump_conf_input(const unsigned char *in, size_t n);
/** The line the last of these calls wrote, ended by '\n'; its length in *len. */
const char *dump_line(size_t *len);

#endif
