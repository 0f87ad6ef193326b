/**
 * \file
 * Read sections and publishing (core/live.c): readers hammer an
 * object while a writer replaces it thousands of times, and never see one
 * that was retired (each is poisoned when publish hands it back, and kept
 * poisoned to the end, so a reader that still held it would read the
 * poison; under ASan the objects are also freed, so such a read is a
 * use-after-free report); publish waits for a reader inside a section,
 * nested sections included, and for threads that share the overflow
 * counter; a reader never waits; slots of threads that ended are used
 * again.
 */
#include "common.h"
#include "idng_live.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Under AddressSanitizer retired objects are freed (a late read is a
 * report); otherwise they are kept, poisoned, so malloc cannot hand their
 * memory to a new object that a late reader would take for whole. */
#if defined(__SANITIZE_ADDRESS__)
#define FREE_RETIRED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FREE_RETIRED 1
#endif
#endif
#ifndef FREE_RETIRED
#define FREE_RETIRED 0
#endif

#define MAGIC_LIVE 0x6c697665u /* "live" */
#define MAGIC_DEAD 0xdeadbeefu
#define PAYLOAD 64

struct obj {
    unsigned magic;
    unsigned id;
    unsigned char payload[PAYLOAD]; /* all (id & 0xff) */
};

static struct obj *obj_new(unsigned id)
{
    struct obj *o = malloc(sizeof *o);

    ck_assert_ptr_nonnull(o);
    o->magic = MAGIC_LIVE;
    o->id = id;
    memset(o->payload, (int)(id & 0xff), sizeof o->payload);
    return o;
}

/* Whole and not retired? */
static int obj_ok(const struct obj *o)
{
    size_t i;

    if (o->magic != MAGIC_LIVE)
        return 0;
    for (i = 0; i < PAYLOAD; i++)
        if (o->payload[i] != (unsigned char)(o->id & 0xff))
            return 0;
    return 1;
}

static void obj_poison(struct obj *o)
{
    o->magic = MAGIC_DEAD;
    memset(o->payload, 0xA5, sizeof o->payload);
}

static void pause_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};

    nanosleep(&ts, NULL);
}

/* ---- readers hammering, a writer replacing ---- */

#define READERS 4
#define SWAPS 1000

static struct idng_live hammer;
static atomic_int hammer_stop, hammer_started;
static atomic_long hammer_bad, hammer_reads;

static void *hammer_reader(void *arg)
{
    unsigned seed = (unsigned)(uintptr_t)arg;
    long reads = 0, bad = 0;

    while (!atomic_load(&hammer_stop)) {
        const struct obj *o;
        int nest = (seed = seed * 1103515245u + 12345u) >> 16 & 1, k;

        idng_live_enter();
        if (nest)
            idng_live_enter(); /* a callback inside a callback */
        o = idng_live_get(&hammer);
        /* Hold it a while, looking at it again and again. */
        for (k = 0; k < 8; k++)
            if (!obj_ok(o))
                bad++;
        if (nest)
            idng_live_leave();
        /* Still inside the outer section: still whole. */
        if (!obj_ok(o))
            bad++;
        idng_live_leave();
        if (reads++ == 0)
            atomic_fetch_add(&hammer_started, 1);
    }
    atomic_fetch_add(&hammer_bad, bad);
    atomic_fetch_add(&hammer_reads, reads);
    return NULL;
}

START_TEST(test_readers_never_see_retired)
{
    pthread_t t[READERS];
    struct obj **retired = malloc(SWAPS * sizeof *retired);
    unsigned i;

    ck_assert_ptr_nonnull(retired);
    atomic_store(&hammer.obj, obj_new(0));
    for (i = 0; i < READERS; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, hammer_reader, (void *)(uintptr_t)(i + 1)), 0);
    /* Every reader reading before the first swap: on a loaded machine the
     * swaps could otherwise all be over before a reader ran at all. */
    for (i = 0; i < 30000 && atomic_load(&hammer_started) < READERS; i++)
        pause_us(1000);
    REQUIRE(atomic_load(&hammer_started) == READERS, "only %d of %d readers started in 30 s",
            atomic_load(&hammer_started), READERS);
    for (i = 0; i < SWAPS; i++) {
        struct obj *old = idng_live_publish(&hammer, obj_new(i + 1));

        REQUIRE(old && old->id == i, "swap %u handed back object %u", i, old ? old->id : 0);
        obj_poison(old);
        if (FREE_RETIRED) {
            free(old);
            old = NULL;
        }
        retired[i] = old;
    }
    atomic_store(&hammer_stop, 1);
    for (i = 0; i < READERS; i++)
        pthread_join(t[i], NULL);
    ck_assert_msg(atomic_load(&hammer_bad) == 0, "%ld reads saw a retired object (of %ld)",
                  atomic_load(&hammer_bad), atomic_load(&hammer_reads));
    ck_assert_msg(atomic_load(&hammer_reads) > 0, "the readers read nothing");
    for (i = 0; i < SWAPS; i++)
        free(retired[i]);
    free(retired);
    free(idng_live_publish(&hammer, NULL));
}
END_TEST

/* ---- a writer waits for a reader inside ---- */

static struct idng_live held;
static atomic_int reader_inside, reader_go, writer_done;
static void *writer_result;

/* Enters depth sections, holds the object until told, leaves. */
static void *holding_reader(void *arg)
{
    int depth = (int)(intptr_t)arg, i;
    const struct obj *o;

    for (i = 0; i < depth; i++)
        idng_live_enter();
    o = idng_live_get(&held);
    atomic_store(&reader_inside, 1);
    while (!atomic_load(&reader_go))
        pause_us(1000);
    /* One level left: still inside, so the writer still waits. */
    if (depth > 1) {
        idng_live_leave();
        pause_us(20000);
        REQUIRE(!atomic_load(&writer_done), "publish returned while a nested section was open");
        for (i = 1; i < depth - 1; i++)
            idng_live_leave();
    }
    REQUIRE(obj_ok(o), "the object held was retired while its reader was inside");
    idng_live_leave();
    return NULL;
}

static void *publisher(void *arg)
{
    writer_result = idng_live_publish(&held, arg);
    atomic_store(&writer_done, 1);
    return NULL;
}

/* A publish started while a reader is inside (depth sections deep)
 * returns only after the reader left; a reader that enters meanwhile gets
 * the new object at once. */
static void check_waits(int depth)
{
    struct obj *first = obj_new(1), *second = obj_new(2);
    pthread_t r, w;
    const struct obj *seen;

    atomic_store(&held.obj, first);
    atomic_store(&reader_inside, 0);
    atomic_store(&reader_go, 0);
    atomic_store(&writer_done, 0);
    ck_assert_int_eq(pthread_create(&r, NULL, holding_reader, (void *)(intptr_t)depth), 0);
    while (!atomic_load(&reader_inside))
        pause_us(1000);
    ck_assert_int_eq(pthread_create(&w, NULL, publisher, second), 0);
    /* The writer has published (or is about to): a new reader never waits. */
    while (atomic_load(&held.obj) != second)
        pause_us(1000);
    idng_live_enter();
    seen = idng_live_get(&held);
    idng_live_leave();
    ck_assert_ptr_eq(seen, second);
    pause_us(50000);
    ck_assert_msg(!atomic_load(&writer_done),
                  "publish returned while a reader held the old object");
    atomic_store(&reader_go, 1);
    pthread_join(r, NULL);
    pthread_join(w, NULL);
    ck_assert_ptr_eq(writer_result, first);
    free(first);
    free(idng_live_publish(&held, NULL));
}

START_TEST(test_publish_waits_for_reader)
{
    check_waits(1);
}
END_TEST

START_TEST(test_publish_waits_for_nested_reader)
{
    check_waits(3);
}
END_TEST

/* ---- slots: given back at thread exit, and the overflow counter ---- */

static void *enter_leave(void *arg)
{
    (void)arg;
    idng_live_enter();
    idng_live_leave();
    return NULL;
}

/* Thread after thread (as Unbound makes new workers at each reload): many
 * more than there are slots, each with a section; then a publish still
 * returns (no slot is left marked inside). */
START_TEST(test_slots_given_back)
{
    struct idng_live l = {NULL};
    int i;

    for (i = 0; i < 3 * IDNG_LIVE_SLOTS; i++) {
        pthread_t t;

        ck_assert_int_eq(pthread_create(&t, NULL, enter_leave, NULL), 0);
        pthread_join(t, NULL);
    }
    atomic_store(&l.obj, obj_new(1));
    free(idng_live_publish(&l, NULL));
}
END_TEST

#define CROWD (IDNG_LIVE_SLOTS + 8)
static struct idng_live crowd_live;
static atomic_int crowd_in, crowd_go, crowd_bad;

static void *crowd_reader(void *arg)
{
    const struct obj *o;

    (void)arg;
    idng_live_enter();
    o = idng_live_get(&crowd_live);
    atomic_fetch_add(&crowd_in, 1);
    while (!atomic_load(&crowd_go))
        pause_us(1000);
    if (!obj_ok(o))
        atomic_fetch_add(&crowd_bad, 1);
    idng_live_leave();
    return NULL;
}

static void *crowd_publisher(void *arg)
{
    struct obj *old = idng_live_publish(&crowd_live, arg);

    atomic_store(&writer_done, 1);
    obj_poison(old);
    return old;
}

/* More threads inside at once than there are slots: the last ones share
 * the overflow counter, and publish waits for them all. */
START_TEST(test_more_threads_than_slots)
{
    pthread_t t[CROWD], w;
    struct obj *first = obj_new(1);
    void *old;
    int i;

    atomic_store(&crowd_live.obj, first);
    atomic_store(&writer_done, 0);
    for (i = 0; i < CROWD; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, crowd_reader, NULL), 0);
    while (atomic_load(&crowd_in) < CROWD)
        pause_us(1000);
    ck_assert_int_eq(pthread_create(&w, NULL, crowd_publisher, obj_new(2)), 0);
    pause_us(50000);
    ck_assert_msg(!atomic_load(&writer_done), "publish returned while %d readers were inside",
                  CROWD);
    atomic_store(&crowd_go, 1);
    for (i = 0; i < CROWD; i++)
        pthread_join(t[i], NULL);
    pthread_join(w, &old);
    ck_assert_ptr_eq(old, first);
    ck_assert_int_eq(atomic_load(&crowd_bad), 0);
    free(old);
    free(idng_live_publish(&crowd_live, NULL));
}
END_TEST

/* Nothing published: get gives NULL, and publishing the first object
 * waits for nobody. */
START_TEST(test_empty)
{
    struct idng_live l = {NULL};
    struct obj *o = obj_new(7);

    idng_live_enter();
    ck_assert_ptr_null(idng_live_get(&l));
    idng_live_leave();
    ck_assert_ptr_null(idng_live_publish(&l, o));
    ck_assert_ptr_eq(idng_live_publish(&l, NULL), o);
    free(o);
}
END_TEST

static Suite *live_suite(void)
{
    Suite *s = suite_create("live");
    TCase *tc = tcase_create("live");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_empty);
    tcase_add_test(tc, test_readers_never_see_retired);
    tcase_add_test(tc, test_publish_waits_for_reader);
    tcase_add_test(tc, test_publish_waits_for_nested_reader);
    tcase_add_test(tc, test_slots_given_back);
    tcase_add_test(tc, test_more_threads_than_slots);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(live_suite)
