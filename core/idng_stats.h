/**
 * \file
 * The module's counters as numbers, and their two outward forms: the
 * summary line of the log, and the Prometheus text file (`stats-file:`)
 * that node_exporter's textfile collector reads.  Pure functions of the
 * policy's verdicts (idng_policy.h) and the codec; libc only besides, no
 * Unbound headers: unit tested as they are.
 *
 * Metric names (all counters, cumulative since the daemon started; a
 * reload keeps them):
 * - idnguard_answers_total{class,action,path}: client answers (and dropped
 *   clients), one per query-log line: the verdict class ("ok",
 *   "contextj", ..., "allow", "deny"), the action, and the answer path
 *   ("resolved", "cache", "local", "servfail", "policy");
 * - idnguard_normalized_total: normalize sub-queries started;
 * - idnguard_answers_rejected_total: answers refused for a rejected name
 *   in their chain;
 * - idnguard_uncached_total: responses kept out of the cache;
 * - idnguard_stripped_total: RRsets stripped from responses;
 * - idnguard_internal_total: the validator's own lookups, passed unjudged;
 * - idnguard_reload_failures_total: reloads that kept the previous
 *   settings;
 * - idnguard_log_errors_total: query-log lines that could not be written;
 * - idnguard_info{version,unicode,unbound,mode} 1.
 */
#ifndef IDNG_STATS_H
#define IDNG_STATS_H

#include "idng_policy.h"
#include "idnguard.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/** Answer paths: X(symbol, name). */
#define IDNG_PATH_LIST(X)                                                          \
    X(IDNG_PATH_RESOLVED, "resolved")                                              \
    X(IDNG_PATH_CACHE, "cache")                                                    \
    X(IDNG_PATH_LOCAL, "local")                                                    \
    X(IDNG_PATH_SERVFAIL, "servfail")                                              \
    X(IDNG_PATH_POLICY, "policy")

enum idng_path {
#define IDNG_X_PATH(sym, name) sym,
    IDNG_PATH_LIST(IDNG_X_PATH)
#undef IDNG_X_PATH
        IDNG_PATH_COUNT
};

/** Rows of the verdict dimension: the classes, then "allow" and "deny". */
#define IDNG_VERDICT_ALLOW IDNG_CLASS_COUNT
#define IDNG_VERDICT_DENY (IDNG_CLASS_COUNT + 1)
#define IDNG_VERDICT_COUNT (IDNG_CLASS_COUNT + 2)

/** Name of a path ("cache"); NULL when out of range. */
const char *idng_path_name(enum idng_path p);

/** A path by name; IDNG_PATH_COUNT when it names none. */
enum idng_path idng_path_lookup(const char *name);

/** A snapshot of the counters. */
struct idng_stats {
    uint64_t answers[IDNG_VERDICT_COUNT][IDNG_ACTION_COUNT][IDNG_PATH_COUNT];
    uint64_t normalized, answers_rejected, uncached, stripped, internal;
    uint64_t reload_failures, log_errors;
};

/**
 * Shards of the answer counters.  Every cache hit counts one answer, so a
 * counter all threads add to would be a cache line passed between the
 * cores at every query: each thread counts in a shard of its own (taken at
 * its first count, in turn), and a snapshot sums the shards.  Threads past
 * the last shard share the shards again, which stays exact (the adds are
 * atomic), only slower.
 */
#define IDNG_COUNTER_SHARDS 16

/** One thread's answer counters, on cache lines of their own. */
struct idng_counter_shard {
    _Alignas(64) atomic_ullong answers[IDNG_VERDICT_COUNT][IDNG_ACTION_COUNT][IDNG_PATH_COUNT];
};

/** The counters themselves, counted by every thread at once.  The other
 *  counters count rarer events (a cache miss at most), so they are shared. */
struct idng_counters {
    struct idng_counter_shard shard[IDNG_COUNTER_SHARDS];
    atomic_ullong normalized, answers_rejected, uncached, stripped, internal;
    atomic_ullong reload_failures, log_errors;
};

/** Reads every counter of c into st (each one atomically; the answers
 *  summed over the shards). */
void idng_counters_snapshot(const struct idng_counters *c, struct idng_stats *st);

/** The verdict row of v: its class, or IDNG_VERDICT_ALLOW / _DENY when a
 *  list decided. */
unsigned idng_verdict_row(const struct idng_verdict *v);

/** The calling thread's shard (0 to IDNG_COUNTER_SHARDS - 1): the first
 *  thread to ask gets 0, the next 1, and so on, round again past the last. */
unsigned idng_counters_shard(void);

/** Counts one client answer: answers[row][action][path], in the calling
 *  thread's shard (nothing when one is out of range). */
void idng_counters_count(struct idng_counters *c, unsigned row, enum idng_action action,
                         enum idng_path path);

/** idng_counters_count of v's row and action. */
void idng_counters_answer(struct idng_counters *c, const struct idng_verdict *v,
                          enum idng_path path);

/** Name of a verdict row ("ok", "contextj", "allow", "deny"); NULL out of range. */
const char *idng_verdict_row_name(unsigned row);

/**
 * The summary line: "idnguard stats (<when>): <verdict>/<action>=N ..."
 * (answers summed over paths, nonzero ones only) then every other counter
 * as name=N.  Always NUL-terminated (cap >= 1); returns the length.
 */
size_t idng_stats_line(const struct idng_stats *s, const char *when, char *out, size_t cap);

/**
 * The Prometheus text exposition (format 0.0.4) of s: HELP and TYPE lines
 * for every metric, idnguard_answers_total for its nonzero series, every
 * other counter, and idnguard_info with the labels given (values are
 * escaped as the format requires).
 * @return the length of the whole text; it was written only if it is less
 *   than cap (NUL-terminated); else nothing usable was.
 */
size_t idng_stats_prometheus(const struct idng_stats *s, const char *unbound_version,
                             idng_mode mode, char *out, size_t cap);

#endif /* IDNG_STATS_H */
