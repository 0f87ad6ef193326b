/**
 * \file
 * The module's counters in their outward forms (see idng_stats.h).
 */
#include "idng_stats.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const path_names[IDNG_PATH_COUNT] = {
#define IDNG_X_PATH(sym, name) name,
    IDNG_PATH_LIST(IDNG_X_PATH)
#undef IDNG_X_PATH
};

const char *idng_path_name(enum idng_path p)
{
    return (unsigned)p < IDNG_PATH_COUNT ? path_names[p] : NULL;
}

enum idng_path idng_path_lookup(const char *name)
{
    unsigned p;
    for (p = 0; p < IDNG_PATH_COUNT; p++)
        if (strcmp(path_names[p], name) == 0)
            return (enum idng_path)p;
    return IDNG_PATH_COUNT;
}

const char *idng_verdict_row_name(unsigned row)
{
    if (row == IDNG_VERDICT_ALLOW)
        return "allow";
    if (row == IDNG_VERDICT_DENY)
        return "deny";
    return idng_class_name((idng_class)row);
}

void idng_counters_snapshot(const struct idng_counters *c, struct idng_stats *st)
{
    unsigned s, r, a, p;

    memset(st->answers, 0, sizeof st->answers);
    for (s = 0; s < IDNG_COUNTER_SHARDS; s++)
        for (r = 0; r < IDNG_VERDICT_COUNT; r++)
            for (a = 0; a < IDNG_ACTION_COUNT; a++)
                for (p = 0; p < IDNG_PATH_COUNT; p++)
                    st->answers[r][a][p] += atomic_load_explicit(
                        &c->shard[s].answers[r][a][p], memory_order_relaxed);
    st->normalized = atomic_load(&c->normalized);
    st->answers_rejected = atomic_load(&c->answers_rejected);
    st->uncached = atomic_load(&c->uncached);
    st->stripped = atomic_load(&c->stripped);
    st->internal = atomic_load(&c->internal);
    st->reload_failures = atomic_load(&c->reload_failures);
    st->log_errors = atomic_load(&c->log_errors);
}

unsigned idng_verdict_row(const struct idng_verdict *v)
{
    return v->listed == IDNG_LISTED_ALLOW  ? IDNG_VERDICT_ALLOW
           : v->listed == IDNG_LISTED_DENY ? IDNG_VERDICT_DENY
                                           : (unsigned)idng_status_class(v->err.status);
}

/* This thread's shard, plus one (0: none taken yet). */
static _Thread_local unsigned my_shard;

unsigned idng_counters_shard(void)
{
    static atomic_uint next;

    if (!my_shard)
        my_shard = 1 + atomic_fetch_add_explicit(&next, 1, memory_order_relaxed)
                           % IDNG_COUNTER_SHARDS;
    return my_shard - 1;
}

void idng_counters_count(struct idng_counters *c, unsigned row, enum idng_action action,
                         enum idng_path path)
{
    if (row < IDNG_VERDICT_COUNT && (unsigned)action < IDNG_ACTION_COUNT
        && (unsigned)path < IDNG_PATH_COUNT)
        atomic_fetch_add_explicit(&c->shard[idng_counters_shard()].answers[row][action][path], 1,
                                  memory_order_relaxed);
}

void idng_counters_answer(struct idng_counters *c, const struct idng_verdict *v,
                          enum idng_path path)
{
    idng_counters_count(c, idng_verdict_row(v), v->action, path);
}

/* Output that counts what does not fit. */
struct out {
    char *p;
    size_t cap, len;
};

__attribute__((format(printf, 2, 3))) static void put(struct out *o, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(o->len < o->cap ? o->p + o->len : NULL, o->len < o->cap ? o->cap - o->len : 0,
                  fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len += (size_t)n;
}

/* The counters other than answers: name, help, value. */
struct other {
    const char *name, *help;
    uint64_t v;
};

static size_t others(const struct idng_stats *s, struct other *o)
{
    struct other t[] = {
        {"normalized", "normalize sub-queries started", s->normalized},
        {"answers_rejected", "answers refused for a rejected name in their chain",
         s->answers_rejected},
        {"uncached", "responses kept out of the cache", s->uncached},
        {"stripped", "RRsets stripped from responses", s->stripped},
        {"internal", "the validator's own lookups, passed unjudged", s->internal},
        {"reload_failures", "reloads that kept the previous settings", s->reload_failures},
        {"log_errors", "query-log lines that could not be written", s->log_errors},
    };
    memcpy(o, t, sizeof t);
    return sizeof t / sizeof t[0];
}

size_t idng_stats_line(const struct idng_stats *s, const char *when, char *out, size_t cap)
{
    struct out o = {out, cap, 0};
    struct other ot[8];
    unsigned r, a, p;
    size_t i, n = others(s, ot);

    if (cap == 0)
        return 0;
    put(&o, "idnguard stats (%s):", when);
    for (r = 0; r < IDNG_VERDICT_COUNT; r++)
        for (a = 0; a < IDNG_ACTION_COUNT; a++) {
            uint64_t k = 0;
            for (p = 0; p < IDNG_PATH_COUNT; p++)
                k += s->answers[r][a][p];
            if (k)
                put(&o, " %s/%s=%llu", idng_verdict_row_name(r),
                    idng_action_name((enum idng_action)a), (unsigned long long)k);
        }
    for (i = 0; i < n; i++) {
        char name[32];
        size_t j;
        snprintf(name, sizeof name, "%s", ot[i].name);
        for (j = 0; name[j]; j++)
            if (name[j] == '_')
                name[j] = '-';
        put(&o, " %s=%llu", name, (unsigned long long)ot[i].v);
    }
    if (o.len >= cap) {
        out[cap - 1] = '\0';
        return cap - 1;
    }
    return o.len;
}

/* A label value: backslash, double quote and newline escaped (the format's rule). */
static void put_label(struct out *o, const char *v)
{
    for (; v && *v; v++) {
        if (*v == '\\' || *v == '"')
            put(o, "\\%c", *v);
        else if (*v == '\n')
            put(o, "\\n");
        else
            put(o, "%c", *v);
    }
}

size_t idng_stats_prometheus(const struct idng_stats *s, const char *unbound_version,
                             idng_mode mode, char *out, size_t cap)
{
    struct out o = {out, cap, 0};
    struct other ot[8];
    unsigned r, a, p;
    size_t i, n = others(s, ot);

    put(&o, "# HELP idnguard_info idnguard's build and settings\n# TYPE idnguard_info gauge\n");
    put(&o, "idnguard_info{version=\"");
    put_label(&o, IDNG_VERSION);
    put(&o, "\",unicode=\"");
    put_label(&o, IDNG_UNICODE_VERSION);
    put(&o, "\",unbound=\"");
    put_label(&o, unbound_version);
    put(&o, "\",mode=\"");
    put_label(&o, idng_mode_name(mode));
    put(&o, "\"} 1\n");
    put(&o, "# HELP idnguard_answers_total client answers (and dropped clients), one per "
            "query-log line\n# TYPE idnguard_answers_total counter\n");
    for (r = 0; r < IDNG_VERDICT_COUNT; r++)
        for (a = 0; a < IDNG_ACTION_COUNT; a++)
            for (p = 0; p < IDNG_PATH_COUNT; p++)
                if (s->answers[r][a][p])
                    put(&o, "idnguard_answers_total{class=\"%s\",action=\"%s\",path=\"%s\"} %llu\n",
                        idng_verdict_row_name(r), idng_action_name((enum idng_action)a),
                        path_names[p], (unsigned long long)s->answers[r][a][p]);
    for (i = 0; i < n; i++)
        put(&o, "# HELP idnguard_%s_total %s\n# TYPE idnguard_%s_total counter\n"
                "idnguard_%s_total %llu\n",
            ot[i].name, ot[i].help, ot[i].name, ot[i].name, (unsigned long long)ot[i].v);
    return o.len;
}
