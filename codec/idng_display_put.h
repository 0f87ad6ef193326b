/**
 * \file
 * The buffer sink's one step, inline: idng_display_put (idnguard.h) is
 * this, and a writer of many short atoms (the log line, core/log.c) calls
 * it directly rather than through a function pointer or a call per atom.
 */
#ifndef IDNG_DISPLAY_PUT_H
#define IDNG_DISPLAY_PUT_H

#include "idnguard.h"

#include <string.h>

/** Appends the atom atom[0..n) to b whole, or, when it does not fit,
 *  nothing (and nothing further: b->full). */
static inline void idng_display_put_atom(struct idng_display_buf *b, const char *atom, size_t n)
{
    if (b->full)
        return;
    if (n > b->cap - 1 - b->len) {
        b->full = 1;
        return;
    }
    memcpy(b->out + b->len, atom, n);
    b->len += n;
    b->out[b->len] = '\0';
}

#endif /* IDNG_DISPLAY_PUT_H */
