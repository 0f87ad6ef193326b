/**
 * \file
 * Symbols and messages of the tap statuses, from the one X-macro list in
 * idng_tap.h.
 */
#include "idng_tap.h"

#include <stddef.h>

struct tap_status_info {
    idng_tap_status st;
    const char *symbol, *msg;
};

static const struct tap_status_info infos[] = {
#define IDNG_TAP_X_INFO(sym, val, msg) {sym, #sym, msg},
    IDNG_TAP_STATUS_LIST(IDNG_TAP_X_INFO)
#undef IDNG_TAP_X_INFO
};

/* Values are 0, -1, -2, ... in list order (checked by a unit test). */
static const struct tap_status_info *info(idng_tap_status st)
{
    long i = -(long)st;
    if (i >= 0 && (size_t)i < sizeof infos / sizeof infos[0] && infos[i].st == st)
        return &infos[i];
    return NULL;
}

const char *idng_tap_status_symbol(idng_tap_status st)
{
    const struct tap_status_info *p = info(st);
    return p ? p->symbol : "IDNG_TAP_UNKNOWN";
}

const char *idng_tap_status_message(idng_tap_status st)
{
    const struct tap_status_info *p = info(st);
    return p ? p->msg : "unknown status";
}
