/**
 * \file
 * Names and messages of statuses and classes, from the X-macro lists in
 * idnguard.h, so that no second list can drift from them.
 */
#include "idnguard.h"

#include <string.h>

struct status_info {
    idng_status st;
    idng_class cls;
    const char *symbol, *msg;
};

static const struct status_info infos[] = {
#define IDNG_X_INFO(sym, val, cls, msg) {sym, cls, #sym, msg},
    IDNG_STATUS_LIST(IDNG_X_INFO)
#undef IDNG_X_INFO
};
#define NINFO (sizeof infos / sizeof infos[0])

static const char *const class_names[IDNG_CLASS_COUNT] = {
#define IDNG_X_CNAME(sym, name) name,
    IDNG_CLASS_LIST(IDNG_X_CNAME)
#undef IDNG_X_CNAME
};

static const struct status_info *info(idng_status st)
{
    /* Values are 0, -1, -2, ... in list order (checked by a unit test). */
    long i = -(long)st;
    if (i >= 0 && (size_t)i < NINFO && infos[i].st == st)
        return &infos[i];
    return NULL;
}

idng_class idng_status_class(idng_status st)
{
    const struct status_info *p = info(st);
    return p ? p->cls : IDNG_C_INVAL;
}

const char *idng_status_class_name(idng_status st)
{
    const struct status_info *p = info(st);
    return p ? class_names[p->cls] : "unknown";
}

const char *idng_status_message(idng_status st)
{
    const struct status_info *p = info(st);
    return p ? p->msg : "unknown status";
}

const char *idng_status_symbol(idng_status st)
{
    const struct status_info *p = info(st);
    return p ? p->symbol : "IDNG_UNKNOWN";
}

const char *idng_class_name(idng_class cls)
{
    return (unsigned)cls < IDNG_CLASS_COUNT ? class_names[cls] : NULL;
}

int idng_class_lookup(const char *name, size_t len, idng_class *cls)
{
    unsigned i;
    for (i = 0; i < IDNG_CLASS_COUNT; i++)
        if (strlen(class_names[i]) == len && memcmp(class_names[i], name, len) == 0) {
            *cls = (idng_class)i;
            return 0;
        }
    return -1;
}

const char *idng_mode_name(idng_mode mode)
{
    switch (mode) {
    case IDNG_MODE_PUNYCODE:
        return "punycode";
    case IDNG_MODE_IDNA2008:
        return "idna2008";
    case IDNG_MODE_UTS46:
        return "uts46";
    case IDNG_MODE_IDNA2008_LOOKUP:
        return "idna2008-lookup";
    }
    return NULL;
}

int idng_mode_lookup(const char *name, size_t len, idng_mode *mode)
{
    static const char registration[] = "idna2008-registration";
    int m;

    if (len == sizeof registration - 1 && memcmp(name, registration, len) == 0) {
        *mode = IDNG_MODE_IDNA2008;
        return 0;
    }
    for (m = IDNG_MODE_PUNYCODE; m <= IDNG_MODE_MAX; m++) {
        const char *n = idng_mode_name((idng_mode)m);
        if (strlen(n) == len && memcmp(n, name, len) == 0) {
            *mode = (idng_mode)m;
            return 0;
        }
    }
    return -1;
}
