/**
 * \file
 * The Bidi Rule (RFC 5893 section 2) for one label: whether the label is
 * right-to-left, and the rule's verdict on it.  The per-character steps
 * are inline in idna_internal.h, so that the U-label validator runs them
 * in its single pass over the label; this file finishes a run and holds
 * the pass of its own for labels that the validator did not see.
 */
#include "idna_internal.h"

void idng_bidi_finish(struct bidi_run *r, uint32_t last_cp, struct bidi *out)
{
    out->valid = 1;
    out->rtl = (r->seen & BIDI_RTL) != 0;
    out->st = r->st;
    out->bad = r->bad;
    if (r->st != IDNG_OK)
        return;
    if (r->rtl) {
        /* Rules 3 and 4. */
        if (r->last != BC_R && r->last != BC_AL && r->last != BC_EN && r->last != BC_AN) {
            out->st = IDNG_E_BIDI_3;
            out->bad = last_cp;
        } else if ((r->seen & BIDI_BIT(BC_EN)) && (r->seen & BIDI_BIT(BC_AN))) {
            out->st = IDNG_E_BIDI_4;
            out->bad = IDNG_NO_CODEPOINT;
        }
    } else if (r->last != BC_L && r->last != BC_EN) {
        /* Rule 6. */
        out->st = IDNG_E_BIDI_6;
        out->bad = last_cp;
    }
}

void idng_bidi_scan(const uint32_t *u, size_t n, struct bidi *out)
{
    struct bidi_run r;
    size_t i;

    if (n == 0) {
        out->valid = 1;
        out->rtl = 0;
        out->st = IDNG_OK;
        out->bad = IDNG_NO_CODEPOINT;
        return;
    }
    idng_bidi_start(&r, UP_BIDI(idng_uprops(u[0])), u[0]);
    for (i = 0; i < n; i++)
        idng_bidi_step(&r, UP_BIDI(idng_uprops(u[i])), u[i]);
    idng_bidi_finish(&r, u[n - 1], out);
}
