/**
 * \file
 * The remembered verdicts of the cache-hit path (core/memo.c): a
 * brief from the table is always the brief idng_policy_judge gives, under
 * collisions, case changes, new settings and names that lie; the table
 * answers what it should (a name judged once is looked up after); and a
 * verdict whose row is ok is idng_verdict_ok's, all of it.
 */
#include "common.h"
#include "idng_conf.h"
#include "idng_memo.h"
#include "idng_scan.h"
#include "idng_stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Settings from the lines of body, under the clause. */
static void load(struct idng_conf *c, const char *body)
{
    char text[512], err[512];

    snprintf(text, sizeof text, "idnguard:\n%s", body);
    idng_conf_init(c);
    ck_assert_msg(idng_conf_parse(c, text, strlen(text), "t.conf", err, sizeof err) == 0, "%s",
                  err);
}

/* The brief idng_policy_judge gives, row and action. */
static void direct(const struct idng_policy *p, const uint8_t *w, size_t len, struct idng_brief *b)
{
    struct idng_verdict v;

    idng_policy_judge(p, w, len, &v);
    b->row = idng_verdict_row(&v);
    b->action = v.action;
}

/* Judges through m and directly; the briefs must agree.  Returns what
 * idng_memo_judge returned. */
static int agree(struct idng_memo *m, uint64_t gen, const struct idng_policy *p, const uint8_t *w,
                 size_t len)
{
    struct idng_brief got, want;
    int hit = idng_memo_judge(m, gen, p, w, len, &got);

    direct(p, w, len, &want);
    ck_assert_msg(got.row == want.row && got.action == want.action,
                  "len %zu: memo row %u action %d, judged row %u action %d (hit %d)", len, got.row,
                  got.action, want.row, want.action, hit);
    /* Today every verdict of class ok is the bare ok verdict, so the
     * shortcut is taken for all of them. */
    ck_assert_msg(got.ok == (got.row == IDNG_C_OK), "len %zu: row %u, ok %d", len, got.row,
                  got.ok);
    if (got.ok) {
        /* The module rebuilds such a verdict whole. */
        struct idng_verdict v, ok;

        idng_policy_judge(p, w, len, &v);
        idng_verdict_ok(&ok);
        ck_assert_msg(v.err.status == ok.err.status && v.err.label_len == ok.err.label_len
                          && v.err.codepoint == ok.err.codepoint && v.action == ok.action
                          && v.listed == ok.listed && v.lookalike == ok.lookalike
                          && v.like_len == ok.like_len,
                      "len %zu: an ok verdict with more in it (lookalike %u, label %zu)", len,
                      v.lookalike, v.err.label_len);
    }
    return hit;
}

static const char *const names[] = {
    "xn--bcher-kva.example.",          "xn--ab-m1t.example.",
    "xn--0000h.example.",              "xn--ls8h.example.",
    "xn--pypal-4ve.example.",          "login.xn--pypal-4ve.example.",
    "xn--bc-kw3n.xn--ab-m1t.example.", "XN--BCHER-KVA.example.",
    "xn--BCHER-kva.EXAMPLE.",          "b\\195\\188cher.example.",
    "\\200.example.",                  "xn--mgba3gch31f060k.example.",
    "xn--80aafi6cg.example.",          "xn--fa-hia.example.",
    "xn--1-0hc.example.",              "xn--cafe-yvc.example.",
    "xn--ab--c-kra.example.",          "xn--.example.",
    "xn--a.example.",                  "xn--zz-zzzzzzzzzzzzzzzzzzzzzzzzzzzz.example.",
};

static const char *const confs[] = {
    "",
    "on-invalid: log\n",
    "on-contextj: pass\non-mixed-script: refuse\nprotect: paypal.example\n",
    "deny: xn--bcher-kva.example.\nallow: xn--ab-m1t.example.\n",
    "mode: idna2008\non-raw-8bit: refuse\n",
    "mode: punycode\n",
    "on-idn: refuse\nidn-scripts: latin\n",
};

/* Every name under every settings file: the first look judges (but for a
 * plain name, never remembered), the second is answered from the table,
 * and both agree with idng_policy_judge.  The same table serves every
 * settings file in turn, each with its own generation. */
START_TEST(test_agrees_and_remembers)
{
    struct idng_memo *m = calloc(1, sizeof *m);
    uint8_t w[256];
    size_t c, i, len;

    ck_assert_ptr_nonnull(m);
    for (c = 0; c < sizeof confs / sizeof confs[0]; c++) {
        struct idng_conf conf;

        load(&conf, confs[c]);
        for (i = 0; i < sizeof names / sizeof names[0]; i++) {
            len = t_wire(names[i], w);
            ck_assert_int_eq(agree(m, c + 1, &conf.policy, w, len), 0);
            ck_assert_int_eq(agree(m, c + 1, &conf.policy, w, len), 1);
        }
        /* The first name again: still there, unless a later one took its
         * slot; either way its brief is right. */
        len = t_wire(names[0], w);
        agree(m, c + 1, &conf.policy, w, len);
        idng_conf_free(&conf);
    }
    free(m);
}
END_TEST

/* New settings under a new generation: a name remembered under the old
 * ones is judged again, and the change shows (contextj refused, then
 * logged, then refused again when the first settings come back, as after
 * a reload that failed). */
START_TEST(test_generation)
{
    struct idng_memo *m = calloc(1, sizeof *m);
    struct idng_conf a, b;
    struct idng_brief br;
    uint8_t w[256];
    size_t len = t_wire("xn--ab-m1t.example.", w);

    ck_assert_ptr_nonnull(m);
    load(&a, "");
    load(&b, "on-contextj: log\n");
    ck_assert_int_eq(idng_memo_judge(m, 7, &a.policy, w, len, &br), 0);
    ck_assert_int_eq(br.action, IDNG_ACT_REFUSE);
    ck_assert_uint_eq(br.row, IDNG_C_CONTEXTJ);
    ck_assert_int_eq(idng_memo_judge(m, 7, &a.policy, w, len, &br), 1);
    ck_assert_int_eq(br.action, IDNG_ACT_REFUSE);
    ck_assert_int_eq(idng_memo_judge(m, 8, &b.policy, w, len, &br), 0);
    ck_assert_int_eq(br.action, IDNG_ACT_LOG);
    ck_assert_int_eq(idng_memo_judge(m, 8, &b.policy, w, len, &br), 1);
    ck_assert_int_eq(br.action, IDNG_ACT_LOG);
    ck_assert_int_eq(idng_memo_judge(m, 9, &a.policy, w, len, &br), 0);
    ck_assert_int_eq(br.action, IDNG_ACT_REFUSE);
    /* Generation 0 remembers nothing. */
    ck_assert_int_eq(idng_memo_judge(m, 0, &b.policy, w, len, &br), 0);
    ck_assert_int_eq(idng_memo_judge(m, 0, &b.policy, w, len, &br), 0);
    ck_assert_int_eq(br.action, IDNG_ACT_LOG);
    idng_conf_free(&a);
    idng_conf_free(&b);
    free(m);
}
END_TEST

/* Plain names are judged every time (a deny list still decides them);
 * names that are not names (an empty one, one longer than 255 octets) are
 * judged as idng_policy_judge judges them and never remembered. */
START_TEST(test_not_remembered)
{
    struct idng_memo *m = calloc(1, sizeof *m);
    struct idng_conf conf;
    struct idng_brief br;
    uint8_t w[300];
    size_t len;

    ck_assert_ptr_nonnull(m);
    load(&conf, "deny: www.example.\n");
    len = t_wire("www.example.", w);
    ck_assert_int_eq(idng_memo_judge(m, 1, &conf.policy, w, len, &br), 0);
    ck_assert_int_eq(idng_memo_judge(m, 1, &conf.policy, w, len, &br), 0);
    ck_assert_uint_eq(br.row, IDNG_VERDICT_DENY);
    ck_assert_int_eq(agree(m, 1, &conf.policy, w, 0), 0);
    ck_assert_int_eq(agree(m, 1, &conf.policy, w, 0), 0);
    memset(w, 0, sizeof w);
    for (len = 0; len + 64 < 290; len += 64) {
        w[len] = 63;
        memcpy(w + len + 1, "xn--", 4);
    }
    ck_assert_int_eq(agree(m, 1, &conf.policy, w, 290), 0);
    ck_assert_int_eq(agree(m, 1, &conf.policy, w, 290), 0);
    idng_conf_free(&conf);
    free(m);
}
END_TEST

/* The slot of m that holds the name, or -1. */
static int slot_holding(const struct idng_memo *m, const uint8_t *w, size_t len)
{
    int i;

    for (i = 0; i < IDNG_MEMO_SLOTS; i++)
        if (m->slot[i].gen && m->slot[i].len == len && memcmp(m->slot[i].name, w, len) == 0)
            return i;
    return -1;
}

/* Names that hash to one set of two slots: two of them alternating both
 * stay; a third pushes out the one of the two looked up less recently; a
 * name asked once never pushes out the one looked up last. */
START_TEST(test_sets_of_two)
{
    struct idng_memo *m = calloc(1, sizeof *m);
    struct idng_conf conf;
    struct idng_brief br;
    char text[64], names3[3][64];
    uint8_t w[3][256];
    size_t len[3];
    int found = 0, set = -1, i;

    ck_assert_ptr_nonnull(m);
    load(&conf, "");
    /* Find three names of one set: each judged alone in an empty table. */
    for (i = 0; found < 3 && i < 100000; i++) {
        uint8_t x[256];
        size_t xl;
        int at;

        snprintf(text, sizeof text, "xn--n%d-kva.example.", i);
        xl = t_wire(text, x);
        memset(m, 0, sizeof *m);
        ck_assert_int_eq(idng_memo_judge(m, 1, &conf.policy, x, xl, &br), 0);
        at = slot_holding(m, x, xl);
        ck_assert_int_ge(at, 0);
        if (set < 0)
            set = at / 2;
        if (at / 2 == set) {
            memcpy(w[found], x, xl);
            len[found] = xl;
            snprintf(names3[found], sizeof names3[found], "%s", text);
            found++;
        }
    }
    ck_assert_int_eq(found, 3);
    memset(m, 0, sizeof *m);
    ck_assert_int_eq(agree(m, 1, &conf.policy, w[0], len[0]), 0);
    ck_assert_int_eq(agree(m, 1, &conf.policy, w[1], len[1]), 0);
    for (i = 0; i < 4; i++)
        ck_assert_msg(agree(m, 1, &conf.policy, w[i % 2], len[i % 2]) == 1,
                      "%s pushed out by %s", names3[i % 2], names3[!(i % 2)]);
    /* w[1] was looked up last: w[2] takes w[0]'s slot. */
    ck_assert_int_eq(agree(m, 1, &conf.policy, w[2], len[2]), 0);
    ck_assert_int_eq(agree(m, 1, &conf.policy, w[1], len[1]), 1);
    ck_assert_int_eq(agree(m, 1, &conf.policy, w[2], len[2]), 1);
    ck_assert_int_eq(agree(m, 1, &conf.policy, w[0], len[0]), 0);
    /* Names asked once (cache misses) do not push out a name asked again:
     * each newcomer takes the slot the hot name does not hold. */
    memset(m, 0, sizeof *m);
    ck_assert_int_eq(agree(m, 1, &conf.policy, w[0], len[0]), 0);
    ck_assert_int_eq(agree(m, 1, &conf.policy, w[0], len[0]), 1);
    ck_assert_int_eq(agree(m, 1, &conf.policy, w[1], len[1]), 0);
    ck_assert_int_eq(agree(m, 1, &conf.policy, w[2], len[2]), 0);
    ck_assert_msg(agree(m, 1, &conf.policy, w[0], len[0]) == 1,
                  "%s pushed out by names asked once", names3[0]);
    /* A slot of older settings counts as empty. */
    ck_assert_int_eq(agree(m, 2, &conf.policy, w[1], len[1]), 0);
    ck_assert_int_eq(agree(m, 2, &conf.policy, w[2], len[2]), 0);
    ck_assert_int_eq(agree(m, 2, &conf.policy, w[1], len[1]), 1);
    ck_assert_int_eq(agree(m, 2, &conf.policy, w[2], len[2]), 1);
    idng_conf_free(&conf);
    free(m);
}
END_TEST

/* The same verdict, as far as anyone reads one. */
static void same_verdict(const struct idng_verdict *a, const struct idng_verdict *b,
                         const char *what)
{
    ck_assert_msg(a->err.status == b->err.status && a->err.label_len == b->err.label_len
                      && a->err.label_off == b->err.label_off && a->action == b->action
                      && a->listed == b->listed && a->lookalike == b->lookalike
                      && a->like_len == b->like_len
                      && memcmp(a->label, b->label, a->err.label_len) == 0
                      && memcmp(a->like, b->like, a->like_len) == 0,
                  "%s: with the table (status %d, action %d) and without (status %d, "
                  "action %d) differ",
                  what, a->err.status, a->action, b->err.status, b->action);
}

/* One response scan of the name with the table and one without: as the
 * name a response is for, with owners an owner in each section, and as a
 * target; the same strips, the same result, the same verdict. */
static void scans_agree(struct idng_memo *m, uint64_t gen, const struct idng_policy *p,
                        const uint8_t *w, size_t len, enum idng_strip st, int owners,
                        const char *what)
{
    struct idng_scan a, b;
    struct idng_verdict va, vb;
    enum idng_section sec;

    idng_scan_init(&a);
    idng_scan_init(&b);
    a.memo = m;
    a.gen = gen;
    idng_scan_name(p, &a, w, len);
    idng_scan_name(p, &b, w, len);
    for (sec = IDNG_SEC_ANSWER; owners && sec <= IDNG_SEC_ADDITIONAL; sec++)
        ck_assert_int_eq(idng_scan_owner(p, &a, sec, 1, w, len, st),
                         idng_scan_owner(p, &b, sec, 1, w, len, st));
    ck_assert_int_eq(idng_scan_target(p, &a, w, len, st), idng_scan_target(p, &b, w, len, st));
    ck_assert_int_eq(idng_scan_result(&a, &va), idng_scan_result(&b, &vb));
    same_verdict(&va, &vb, what);
}

/* The response scan (idng_policy.h) with the thread's table gives what it
 * gives without: every name of the list as the name a response is for, as
 * an owner in each section and as a target, under every settings file,
 * each twice (the second time from the table), and strips the same RRsets. */
START_TEST(test_scan_with_memo)
{
    struct idng_memo *m = calloc(1, sizeof *m);
    uint8_t w[256];
    size_t c, i, k;

    ck_assert_ptr_nonnull(m);
    for (c = 0; c < sizeof confs / sizeof confs[0]; c++) {
        struct idng_conf conf;

        load(&conf, confs[c]);
        for (k = 0; k < 2; k++)
            for (i = 0; i < sizeof names / sizeof names[0]; i++) {
                size_t len = t_wire(names[i], w);
                enum idng_strip st;

                for (st = IDNG_STRIP_NONE; st <= IDNG_STRIP_ALL; st++)
                    scans_agree(m, c + 1, &conf.policy, w, len, st, 1, names[i]);
            }
        idng_conf_free(&conf);
    }
    free(m);
}
END_TEST

static uint32_t seed = 0x6d656d6f;
static uint32_t rnd(void)
{
    return t_xorshift32(&seed);
}

/* 200,000 random names that may lie, from an alphabet rich in xn--
 * prefixes and Punycode digits, through one table of 256 slots: every
 * brief agrees with idng_policy_judge, whichever name held the slot
 * before.  Each name is asked twice in a row, so the table is also read
 * back, and once more later, by then often pushed out. */
START_TEST(test_random_names)
{
    static const char alphabet[] = "xn--xn--abcz09-XN";
    struct idng_memo *m = calloc(1, sizeof *m);
    struct idng_conf conf;
    uint8_t w[256], prev[256];
    size_t prev_len = 0;
    unsigned i, hits = 0;

    ck_assert_ptr_nonnull(m);
    load(&conf, "protect: paypal.example\non-mixed-number: refuse\n");
    for (i = 0; i < 200000; i++) {
        size_t len = 1 + rnd() % 64;

        t_random_wire(w, len, alphabet, sizeof alphabet - 1, 2, 40, rnd);
        agree(m, 3, &conf.policy, w, len);
        hits += (unsigned)agree(m, 3, &conf.policy, w, len);
        if (prev_len)
            agree(m, 3, &conf.policy, prev, prev_len);
        memcpy(prev, w, len);
        prev_len = len;
    }
    /* Most names are not plain, so most second looks were answered. */
    ck_assert_uint_gt(hits, 100000);
    idng_conf_free(&conf);
    free(m);
}
END_TEST

/* From an attacker's review of the table: names made of pieces that each
 * test something (raw UTF-8 and its A-label, case variants of xn--, a
 * lookalike of a protected name, an emoji, a joiner, U+202E, a fullwidth
 * full stop, Arabic, Devanagari and Greek, octets that are not UTF-8, a
 * bare or short xn--) under twelve settings files (raw names passed or
 * refused, a deny of a raw name's A-label form, lists on parents,
 * protected names, the lookalike classes passed, the other modes, the
 * loosest restriction level, on-invalid pass): the table's brief is the
 * judgment's, and a response scan with it is one without. */
static const char *const review_confs[] = {
    "",
    "on-raw-8bit: pass\n",
    "on-raw-8bit: refuse\n",
    "on-raw-8bit: pass\ndeny: xn--dj-kia8a.example.\n",
    "allow: example.\n",
    "deny: example.\nallow: xn--bcher-kva.example.\n",
    "protect: paypal.example\nprotect: bucher.example\n",
    "on-mixed-script: pass\non-confusable: pass\non-mixed-number: pass\nprotect: paypal.example\n",
    "mode: idna2008\n",
    "mode: punycode\non-invalid: log\n",
    "restriction-level: unrestricted\n",
    "on-invalid: pass\n",
};

static const char *const pieces[] = {
    "xn--bcher-kva", "XN--BCHER-KVA", "xn--Bcher-KVA", "b\\195\\188cher", "B\\195\\156CHER",
    "d\\195\\169j\\195\\160", "xn--dj-kia8a", "p\\208\\176ypal", "xn--pypal-4ve", "paypal",
    "bucher", "example", "EXAMPLE", "xn--ls8h", "\\240\\159\\146\\169", "a\\226\\128\\141b",
    "xn--mgba3gch31f060k", "\\216\\167\\217\\132", "xn--1-0hc", "1", "\\226\\128\\174x",
    "\\200", "\\255\\254", "xn--", "xn--a", "www", "\\195\\188", "\\239\\188\\142",
    "xn--ab-m1t", "\\224\\165\\1072", "a", "\\206\\177", "xn--mxa",
};

START_TEST(test_review_pieces)
{
    struct idng_memo *m = calloc(1, sizeof *m);
    size_t c;
    unsigned i, k;

    ck_assert_ptr_nonnull(m);
    for (c = 0; c < sizeof review_confs / sizeof review_confs[0]; c++) {
        struct idng_conf conf;

        load(&conf, review_confs[c]);
        for (i = 0; i < 10000; i++) {
            char text[600] = "";
            uint8_t w[256];
            size_t len, n = 1 + rnd() % 4;

            for (k = 0; k < n; k++) {
                strcat(text, pieces[rnd() % (sizeof pieces / sizeof pieces[0])]);
                strcat(text, ".");
            }
            len = t_wire(text, w);
            for (k = 0; k < 2; k++) {
                agree(m, c + 1, &conf.policy, w, len);
                scans_agree(m, c + 1, &conf.policy, w, len, IDNG_STRIP_ALL, 0, text);
            }
        }
        idng_conf_free(&conf);
    }
    free(m);
}
END_TEST

/* Names of 255 octets, three labels of 63 and one of 61, xn-- or XN-- or
 * neither, sometimes an 8-bit octet, told apart only by their octet 253:
 * each its own verdict. */
START_TEST(test_review_long_names)
{
    static const char *const cf[] = {"", "deny: xn--bcher-kva.example.\n",
                                     "protect: paypal.example\n"};
    static const char alnum[] = "abcdefghijklmnopqrstuvwxyz0123456789-";
    struct idng_memo *m = calloc(1, sizeof *m);
    uint8_t w[256];
    unsigned i, k, c;

    ck_assert_ptr_nonnull(m);
    for (c = 0; c < 3; c++) {
        struct idng_conf conf;

        load(&conf, cf[c]);
        for (i = 0; i < 4000; i++) {
            size_t pos = 0;

            for (k = 0; k < 4; k++) {
                size_t l = k < 3 ? 63 : 61, j;

                w[pos++] = (uint8_t)l;
                for (j = 0; j < l; j++)
                    w[pos + j] = (uint8_t)alnum[rnd() % (sizeof alnum - 1)];
                if (rnd() % 2)
                    memcpy(w + pos, rnd() % 2 ? "xn--" : "XN--", 4);
                if (rnd() % 4 == 0)
                    w[pos + rnd() % l] = (uint8_t)(0x80 + rnd() % 0x80);
                pos += l;
            }
            w[pos++] = 0;
            ck_assert_uint_eq(pos, 255);
            for (k = 0; k < 3; k++) {
                w[253] = (uint8_t)"abc"[k];
                agree(m, c + 1, &conf.policy, w, pos);
                agree(m, c + 1, &conf.policy, w, pos);
            }
        }
        idng_conf_free(&conf);
    }
    free(m);
}
END_TEST

/* idng_memo_verdict, the way the module and the scan judge a name with the
 * table, gives the whole verdict idng_policy_judge (or, for data,
 * idng_policy_judge_data) gives: the first time, when the lookup judged the
 * name, and the second, from the table; under every settings file. */
START_TEST(test_verdict_through_table)
{
    struct idng_memo *m = calloc(1, sizeof *m);
    uint8_t w[256];
    size_t c, i, k;

    ck_assert_ptr_nonnull(m);
    for (c = 0; c < sizeof review_confs / sizeof review_confs[0]; c++) {
        struct idng_conf conf;

        load(&conf, review_confs[c]);
        for (k = 0; k < 4; k++)
            for (i = 0; i < sizeof names / sizeof names[0]; i++) {
                size_t len = t_wire(names[i], w);
                int data = (int)(k / 2);
                struct idng_verdict got, want;

                /* k 0, 1: data 0 (miss, then hit); k 2, 3: data 1 under a
                 * new generation (miss, then hit). */
                idng_memo_verdict(m, 10 * c + 1 + (uint64_t)data, &conf.policy, w, len, data, &got);
                if (data)
                    idng_policy_judge_data(&conf.policy, w, len, &want);
                else
                    idng_policy_judge(&conf.policy, w, len, &want);
                same_verdict(&got, &want, names[i]);
            }
        idng_conf_free(&conf);
    }
    free(m);
}
END_TEST

static Suite *memo_suite(void)
{
    Suite *s = suite_create("memo");
    TCase *tc = tcase_create("memo");

    tcase_add_test(tc, test_agrees_and_remembers);
    tcase_add_test(tc, test_generation);
    tcase_add_test(tc, test_not_remembered);
    tcase_add_test(tc, test_sets_of_two);
    tcase_add_test(tc, test_scan_with_memo);
    tcase_add_test(tc, test_random_names);
    tcase_add_test(tc, test_review_pieces);
    tcase_add_test(tc, test_review_long_names);
    tcase_add_test(tc, test_verdict_through_table);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(memo_suite)
