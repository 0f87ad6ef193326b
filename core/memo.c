/**
 * \file
 * Verdicts remembered for the cache-hit path (see idng_memo.h).
 */
#include "idng_memo.h"

#include "idng_nameset.h"
#include "idng_stats.h"

#include <string.h>

_Static_assert((IDNG_MEMO_SLOTS & (IDNG_MEMO_SLOTS - 1)) == 0, "a power of two");
_Static_assert(IDNG_VERDICT_COUNT <= 256 && IDNG_ACTION_COUNT <= 256, "a row and an action fit an octet");

/* The set of a name (its first slot): FNV-1a over eight octets at a time, then the mix
 * the name sets use (idng_hash_mix), which spreads every octet into the
 * low bits that pick the slot. */
static size_t set_of(const uint8_t *wire, size_t len)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325) ^ len, w;
    size_t i;

    for (i = 0; i + 8 <= len; i += 8) {
        memcpy(&w, wire + i, 8);
        h = (h ^ w) * UINT64_C(0x100000001b3);
    }
    if (i < len) {
        w = 0;
        memcpy(&w, wire + i, len - i);
        h = (h ^ w) * UINT64_C(0x100000001b3);
    }
    return (size_t)(idng_hash_mix(h) & (IDNG_MEMO_SLOTS / 2 - 1)) * 2;
}

static int holds(const struct idng_memo_slot *s, uint64_t gen, const uint8_t *wire, size_t len)
{
    return s->gen == gen && s->len == len && memcmp(s->name, wire, len) == 0;
}

/* The brief of the name, from the table or judged (the verdict into *v,
 * which the caller may give or not, and remembered); 1 from the table. */
static int brief(struct idng_memo *m, uint64_t gen, const struct idng_policy *p,
                 const uint8_t *wire, size_t len, struct idng_brief *b, struct idng_verdict *v)
{
    struct idng_memo_slot *set = NULL, *s;
    struct idng_verdict own;
    int i, plain = idng_wire_is_plain(wire, len);

    if (!plain && gen != 0 && len >= 1 && len <= IDNG_WIRE_MAX) {
        set = &m->slot[set_of(wire, len)];
        for (i = 0; i < 2; i++)
            if (holds(&set[i], gen, wire, len)) {
                set[i].recent = 1;
                set[!i].recent = 0;
                b->row = set[i].row;
                b->action = (enum idng_action)set[i].action;
                b->ok = set[i].ok;
                return 1;
            }
    }
    if (v == NULL)
        v = &own;
    if (plain)
        idng_policy_judge_plain(p, wire, len, v);
    else
        idng_policy_judge(p, wire, len, v);
    b->row = idng_verdict_row(v);
    b->action = v->action;
    b->ok = idng_verdict_is_ok(v);
    if (set) {
        /* An empty slot (or one of older settings), else the one not looked
         * up last.  The newcomer is not made the recent one: a name asked
         * once (a cache miss) then never again takes only the slot a hot
         * name does not hold, and a name asked again is promoted by its
         * lookup. */
        i = set[0].gen != gen ? 0 : set[1].gen != gen ? 1 : set[0].recent;
        s = &set[i];
        s->gen = gen;
        s->len = (uint8_t)len;
        s->row = (uint8_t)b->row;
        s->action = (uint8_t)b->action;
        s->ok = (uint8_t)b->ok;
        memcpy(s->name, wire, len);
        s->recent = 0;
    }
    return 0;
}

int idng_memo_judge(struct idng_memo *m, uint64_t gen, const struct idng_policy *p,
                    const uint8_t *wire, size_t len, struct idng_brief *b)
{
    return brief(m, gen, p, wire, len, b, NULL);
}

void idng_memo_verdict(struct idng_memo *m, uint64_t gen, const struct idng_policy *p,
                       const uint8_t *wire, size_t len, int data, struct idng_verdict *v)
{
    struct idng_brief b;

    if (brief(m, gen, p, wire, len, &b, v)) {
        /* From the table: the bare ok verdict is rebuilt, any other judged. */
        if (b.ok)
            idng_verdict_ok(v);
        else if (data)
            idng_policy_judge_data(p, wire, len, v);
        else
            idng_policy_judge(p, wire, len, v);
    } else if (data && v->action == IDNG_ACT_NORMALIZE) {
        /* Judged just now, as a query name: judge_data differs only here. */
        idng_policy_judge_data(p, wire, len, v);
    }
}
