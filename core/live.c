/**
 * \file
 * Read sections and publishing (see idng_live.h for the scheme and why it
 * is safe).
 */
#include "idng_live.h"

#include <pthread.h>
#include <time.h>

static struct idng_live_slot slots[IDNG_LIVE_SLOTS];
/* Slots ever handed out are below this: the writer looks at no others. */
static atomic_uint slots_used;
/* Threads without a slot that are inside a section. */
static atomic_ulong shared_inside;

/* Each thread's side (idng_live.h). */
_Thread_local struct idng_live_reader idng_live_me;

/* Gives a thread's slot back when the thread exits. */
static pthread_key_t slot_key;
static pthread_once_t slot_key_once = PTHREAD_ONCE_INIT;
static int have_slot_key;

/* Thread exit: the thread's slots (a chain from the key's value) are
 * free for the next threads.  A thread that ends inside a section (it
 * should not) no longer reads anything, so its slot is marked outside, or
 * a writer would wait for it for ever. */
static void give_back(void *arg)
{
    struct idng_live_slot *s = arg;

    while (s) {
        struct idng_live_slot *next = s->next_mine;
        unsigned long seq = atomic_load(&s->seq);

        if (seq & 1)
            atomic_store(&s->seq, seq + 1);
        atomic_store(&s->taken, 0); /* from here on another thread's */
        s = next;
    }
}

static void make_slot_key(void)
{
    have_slot_key = pthread_key_create(&slot_key, give_back) == 0;
}

/* Unloaded (a module that could not pin itself, dlclose'd at a reload):
 * no thread may call give_back, which goes with the code. */
__attribute__((destructor)) static void drop_slot_key(void)
{
    if (have_slot_key)
        pthread_key_delete(slot_key);
    have_slot_key = 0;
}

/* A free slot for the calling thread, chained to its others, or NULL when
 * none is left (or it could not be given back at exit). */
static struct idng_live_slot *take_slot(void)
{
    unsigned i, used;

    pthread_once(&slot_key_once, make_slot_key);
    if (!have_slot_key)
        return NULL;
    for (i = 0; i < IDNG_LIVE_SLOTS; i++) {
        int free_slot = 0;

        if (!atomic_compare_exchange_strong(&slots[i].taken, &free_slot, 1))
            continue;
        /* The writer must look at this slot from now on: raised before
         * this thread's first section, so a writer that reads the bound
         * without it read the pointer before this thread can. */
        used = atomic_load(&slots_used);
        while (used < i + 1 && !atomic_compare_exchange_weak(&slots_used, &used, i + 1))
            ;
        slots[i].next_mine = pthread_getspecific(slot_key);
        if (pthread_setspecific(slot_key, &slots[i]) != 0) {
            atomic_store(&slots[i].taken, 0);
            return NULL;
        }
        return &slots[i];
    }
    return NULL;
}

void idng_live_enter_first(struct idng_live_reader *r)
{
    if (!r->slot && !r->shared) {
        r->slot = take_slot();
        if (r->slot)
            r->seq = atomic_load(&r->slot->seq);
        else
            r->shared = 1;
    }
    if (r->slot)
        atomic_store(&r->slot->seq, ++r->seq);
    else
        atomic_fetch_add(&shared_inside, 1);
}

void idng_live_leave_shared(void)
{
    atomic_fetch_sub_explicit(&shared_inside, 1, memory_order_release);
}

/* Sleeps a little longer each time (*us microseconds, doubled up to 2 ms). */
static void pause_writer(long *us)
{
    struct timespec ts = {0, *us * 1000};

    nanosleep(&ts, NULL);
    if (*us < 2000)
        *us *= 2;
}

void idng_live_wait(void)
{
    unsigned long seen[IDNG_LIVE_SLOTS];
    unsigned i, n = atomic_load(&slots_used);
    long us = 20;

    for (i = 0; i < n; i++)
        seen[i] = atomic_load(&slots[i].seq);
    /* A reader seen inside has left once its number moved on (it may have
     * entered again since: then it read the new pointer). */
    for (i = 0; i < n; i++)
        while ((seen[i] & 1) && atomic_load(&slots[i].seq) == seen[i])
            pause_writer(&us);
    while (atomic_load(&shared_inside) != 0)
        pause_writer(&us);
}

void *idng_live_publish(struct idng_live *l, void *next)
{
    void *old = atomic_exchange(&l->obj, next);

    if (old)
        idng_live_wait();
    return old;
}
