/**
 * \file
 * An object that worker threads read while another thread replaces it: the
 * settings in force, applied without a reload.  One home for the scheme, used
 * by the dynlib module and libidnguard alike.  Libc and POSIX threads only:
 * nothing of the codec or the rest of core/; no Unbound headers.
 *
 * The scheme is read-copy-update in user space, with no locks and no waits
 * on the reading side:
 * - The object lives on the heap and is reached through an atomic pointer
 *   (struct idng_live).  It never changes once published; a change is a new
 *   object.
 * - A reader brackets every use with idng_live_enter and idng_live_leave
 *   (a read section).  Between the two, an object it got from
 *   idng_live_get stays valid; after leave it may be freed at any time, so
 *   whatever must outlive the section is copied (a verdict, a name).
 *   Sections nest: only the outermost enter and leave count, so a callback
 *   may run inside another of ours.
 * - The writer publishes the new object (idng_live_publish), which waits
 *   until every reader that was inside a section when the pointer changed
 *   has left it: then no reader can hold the old object, and it is the
 *   writer's to free.  Readers that enter later get the new one.
 *
 * How a reader is seen: each thread has a slot of its own with a sequence
 * number, odd while the thread is inside a section.  Enter stores the odd
 * number with a sequentially consistent store and then loads the pointer;
 * the writer swaps the pointer (sequentially consistent too) and then reads
 * every slot.  In the single order of those operations either the writer
 * sees the reader inside (and waits for its number to change) or the
 * reader's load comes after the swap and sees the new object.  The writer
 * waits by polling with short sleeps (a reader's section is one callback,
 * microseconds); it never makes a reader wait.
 *
 * Slots: IDNG_LIVE_SLOTS of them, handed to threads at their first enter and
 * given back when the thread exits (Unbound makes new worker threads at
 * each reload), so any number of threads over the daemon's life fits.
 * Threads beyond IDNG_LIVE_SLOTS at one time share one counter of threads
 * inside: still correct, only slower, and a writer may then wait longer.
 *
 * Cost on the reading side, inlined: a few instructions and one
 * sequentially consistent store (on x86 an xchg) at enter, a plain store
 * at leave (docs/performance.md has the count per cache hit).
 */
#ifndef IDNG_LIVE_H
#define IDNG_LIVE_H

#include <stdatomic.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Threads that get a slot of their own. */
#define IDNG_LIVE_SLOTS 256

/** A published object; all zero is "none" (idng_live_get gives NULL). */
struct idng_live {
    _Atomic(void *) obj;
};

/** One thread's slot, on a cache line of its own: its thread stores to it
 *  at every section, a writer only reads it (live.c). */
struct idng_live_slot {
    _Alignas(64) atomic_ulong seq; /**< odd: its thread is inside a section */
    atomic_int taken;              /**< 1: a live thread holds it */
    /** The thread's other slots (one per reader): read and written by the
     *  thread holding it only, which gives them all back at its exit. */
    struct idng_live_slot *next_mine;
};

/**
 * A thread's side of the scheme: thread-local storage, all zero at first.
 * idng_live_enter uses one of this library's own; a caller that keeps other
 * thread-local state on its hot path (the module: its remembered verdicts)
 * may keep one beside it and use idng_live_enter_as, so that a callback
 * looks its thread-local storage up once (a call to __tls_get_addr in a
 * library loaded with dlopen).  One thread may have several: each takes a
 * slot of its own.
 */
struct idng_live_reader {
    struct idng_live_slot *slot; /**< NULL: none taken yet, or none to be had */
    unsigned long seq;           /**< the slot's number as this thread last stored it */
    unsigned depth;              /**< sections open (nesting) */
    int shared;                  /**< 1: no slot; counted in the shared counter */
};

/** The slow paths of enter and leave (the first section on a reader, and
 *  readers without a slot). */
void idng_live_enter_first(struct idng_live_reader *r);
void idng_live_leave_shared(void);

/** Starts a read section on the calling thread's reader r (nestable).
 *  Never waits. */
static inline void idng_live_enter_as(struct idng_live_reader *r)
{
    if (r->depth++ > 0)
        return;
    /* Sequentially consistent, before the caller's load of the pointer:
     * the order the scheme rests on (see above). */
    if (r->slot)
        atomic_store(&r->slot->seq, ++r->seq);
    else
        idng_live_enter_first(r);
}

/** Ends the read section begun by the matching idng_live_enter_as. */
static inline void idng_live_leave_as(struct idng_live_reader *r)
{
    if (r->depth == 0 || --r->depth > 0)
        return;
    /* Release: every read of the object happens before a writer sees this
     * thread outside. */
    if (r->slot)
        atomic_store_explicit(&r->slot->seq, ++r->seq, memory_order_release);
    else
        idng_live_leave_shared();
}

/** This library's reader for each thread (idng_live_enter). */
extern _Thread_local struct idng_live_reader idng_live_me;

/** Starts a read section on the calling thread (nestable).  Never waits. */
static inline void idng_live_enter(void)
{
    idng_live_enter_as(&idng_live_me);
}

/** Ends the read section begun by the matching idng_live_enter. */
static inline void idng_live_leave(void)
{
    idng_live_leave_as(&idng_live_me);
}

/**
 * The object published in l, valid until the calling thread's outermost
 * idng_live_leave.  Only inside a read section (or by the one writer, which
 * may read what it published itself at any time).
 */
static inline void *idng_live_get(struct idng_live *l)
{
    return atomic_load(&l->obj);
}

/**
 * Publishes next in l and waits until no reader can still hold the object
 * it replaces, which it returns (NULL when none): the caller frees it.  One
 * writer per l at a time; never from inside a read section (it would wait
 * for itself).  next may be NULL (nothing published from then on).
 */
void *idng_live_publish(struct idng_live *l, void *next);

/**
 * Waits until every read section that was open at the call (on any thread,
 * whatever object it reads) has ended.  idng_live_publish is a swap and
 * this.  Never from inside a read section.
 */
void idng_live_wait(void);

#ifdef __cplusplus
}
#endif
#endif /* IDNG_LIVE_H */
