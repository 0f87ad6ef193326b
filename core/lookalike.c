/**
 * \file
 * Lookalike names (see idng_lookalike.h): a run over one name, each label
 * judged on its own as the validation's walk hands it over (mixed-script,
 * mixed-number, the patterns, emoji set aside) and its code points kept for
 * the keys (lookalike_match.c).
 */
#include "idng_lookalike_internal.h"

#include <string.h>

void idng_lookalike_start(struct idng_lookalike_run *r, const struct idng_protect *protect,
                          idng_restriction limit, idng_mode mode, const uint8_t *wire, size_t len)
{
    r->protect = protect;
    r->limit = limit;
    r->mode = mode;
    r->wire = wire;
    r->wire_len = len;
    r->keys = protect != NULL && protect->used > 0;
    r->nlab = 0;
    r->first = 0;
    r->cp_at[0] = 0;
    r->any = 0; /* out is set up by the first judged label: most names have none */
    r->key_flags = 0;
    r->idn = 0;
}

void idng_lookalike_idn(struct idng_lookalike_run *r, unsigned scripts)
{
    r->idn = 1;
    r->idn_scripts = scripts;
    memset(r->foreign, 0, sizeof r->foreign);
}

/* Is a judged label of code points cps[0..n) written in none of the idn
 * scripts? */
static int foreign(const struct idng_lookalike_run *r, const uint32_t *cps, size_t n)
{
    int in = idng_in_scripts(cps, n, r->idn_scripts & IDNG_SCRIPTS_ALL);

    return in == 0 || (in < 0 && !(r->idn_scripts & IDNG_SCRIPT_COMMON));
}

int idng_lookalike_foreign(const struct idng_lookalike_run *r, size_t *i, size_t *off,
                           size_t *len)
{
    size_t k;

    for (k = *i; r->idn && k < r->nlab; k++)
        if (r->foreign[k / 64] >> (k % 64) & 1) {
            *i = k;
            *off = r->off[k];
            *len = r->len[k];
            return 1;
        }
    return 0;
}

/* What the mixed-script rule makes of an emoji code point c
 * (idng_is_emoji), by its UTS #39 skeleton: EMOJI_INVISIBLE, one whose
 * prototype is empty (the Default_Ignorable pieces of sequences: U+200D
 * ZWJ, U+FE0F VS16, the tags); EMOJI_PICTOGRAPH, one that is its own
 * prototype and that UTS #46 keeps, so the display unit shows it as itself
 * (a pictograph, a flag's regional indicator, a skin tone, the keycap);
 * EMOJI_KEPT, any other: one that confusables.txt gives another
 * character's prototype (U+2796 HEAVY MINUS SIGN is '-'), or that UTS #46
 * maps or refuses (U+2122 TRADE MARK SIGN is "tm"), which only an invalid
 * label or punycode mode brings here. */
enum { EMOJI_KEPT, EMOJI_PICTOGRAPH, EMOJI_INVISIBLE };
static int emoji_kind(uint32_t c)
{
    uint32_t sk[32];
    size_t n = sizeof sk / sizeof sk[0];

    if (idng_skeleton(&c, 1, sk, &n) != IDNG_OK)
        return EMOJI_KEPT;
    if (n == 0)
        return EMOJI_INVISIBLE;
    return n == 1 && sk[0] == c && idng_display_safe(c) ? EMOJI_PICTOGRAPH : EMOJI_KEPT;
}

/* A regional indicator symbol, U+1F1E6..U+1F1FF (A to Z). */
#define REGIONAL(c) ((c) >= 0x1F1E6 && (c) <= 0x1F1FF)

/*
 * Is cps[i], an emoji of the Enclosed Alphanumeric Supplement
 * (U+1F100..U+1F1FF), a letter in a frame rather than a pictograph?  That
 * block's emoji are letters and words in a box (U+1F170 🅰, U+1F17F 🅿,
 * U+1F197 🆗) and the regional indicators, each a boxed letter unless two
 * in a row make a flag (they pair from the left: ri is the number of them
 * just before cps[i]).  Set aside, p🅰ypal would be judged as pypal, one
 * script, and pass where UTS #39 calls it unrestricted.
 */
static int boxed_letter(const uint32_t *cps, size_t n, size_t i, size_t ri)
{
    uint32_t c = cps[i];

    if (c < 0x1F100 || c > 0x1F1FF)
        return 0;
    if (!REGIONAL(c))
        return 1;
    return ri % 2 == 0 && (i + 1 >= n || !REGIONAL(cps[i + 1]));
}

/*
 * The code points of cps[0..n) with its emoji set aside, into rest (room
 * for n); their number (n when none is).  UTS #39 counts an emoji
 * unrestricted, since no emoji is an identifier character; but a
 * pictograph is no letter and cannot pass for one, so the mixed-script
 * rule and the keys matched with the protected names judge a label
 * without them.
 *
 * Set aside are the pictographs (emoji_kind) but boxed letters
 * (boxed_letter), and the invisible pieces right after a code point that
 * was set aside: they join or modify the emoji before them, and elsewhere
 * they hide text (a, U+200D, b looks like ab).  (UTS #46 refuses those
 * pieces, by CONTEXTJ, as ignored and as disallowed; but an xn-- label
 * that decodes is judged here whatever else it failed, and punycode mode
 * checks none of that.)  Any other emoji
 * (EMOJI_KEPT: one that looks like another character, or that UTS #46
 * does not keep) stays.
 *
 * Every emoji code point makes its label unrestricted (none is Allowed:
 * test_lookalike_rules checks it), so only labels of that level are
 * asked: the common label pays nothing.
 */
static size_t emoji_aside(const uint32_t *cps, size_t n, uint32_t *rest)
{
    size_t i, k = 0, ri = 0;
    int aside = 0, kind;

    for (i = 0; i < n; i++) {
        kind = idng_is_emoji(cps[i]) ? emoji_kind(cps[i]) : EMOJI_KEPT;
        if (kind == EMOJI_PICTOGRAPH && boxed_letter(cps, n, i, ri))
            kind = EMOJI_KEPT;
        ri = REGIONAL(cps[i]) ? ri + 1 : 0;
        aside = kind == EMOJI_PICTOGRAPH || (kind == EMOJI_INVISIBLE && aside);
        if (!aside)
            rest[k++] = cps[i];
    }
    return k;
}

/*
 * The restriction level of a label that is beyond the limit, for the
 * mixed-script rule: UTS #39's level of the label with its emoji set
 * aside (emoji_aside).  A label of emoji alone, or of emoji and letters of
 * one script, is not mixed-script, and one with Latin and Cyrillic still
 * is; an emoji kept keeps the label unrestricted.
 *
 * A label that had emoji is not ASCII, so it is at least single-script
 * (as if its emoji were Allowed Common characters): restriction-level:
 * ascii-only still flags it.  Asked only of labels beyond the limit.
 */
static idng_restriction level_emoji_aside(const uint32_t *cps, size_t n, idng_restriction level)
{
    uint32_t rest[IDNG_LABEL_MAX + 1];
    size_t k;
    idng_restriction rl;

    if (level < IDNG_RL_UNRESTRICTED || n > sizeof rest / sizeof rest[0])
        return level;
    k = emoji_aside(cps, n, rest);
    if (k == n)
        return level;
    rl = idng_restriction_level(rest, k);
    return rl < IDNG_RL_SINGLE_SCRIPT ? IDNG_RL_SINGLE_SCRIPT : rl;
}

/* What rule 6 makes of one judged label, the i-th, on its own (ents as
 * idng_judge_label takes them); its UTS #39 restriction level. */
static idng_restriction judge_label(struct idng_lookalike_run *r, size_t i, const uint32_t *cps,
                                    const uint16_t *ents, size_t n, size_t off, size_t len)
{
    struct idng_lookalike *o = &r->out;
    struct idng_spoof_facts f;
    int mixed, cls;
    idng_restriction level = idng_judge_label(cps, ents, n, &mixed, &f);
    unsigned patterns;

    if (level > o->level)
        o->level = level;
    if (level > r->limit && level_emoji_aside(cps, n, level) > r->limit)
        note(o, IDNG_C_MIXED_SCRIPT, off, len);
    if (mixed)
        note(o, IDNG_C_MIXED_NUMBER, off, len);
    r->ws_own[i] = f.ws_own;
    r->ws_pass[i] = f.ws_pass;
    r->tld_letters[i] = (uint8_t)f.tld_letters;
    r->key_flags |= f.keys;
    for (cls = IDNG_C_MARK_PATTERN, patterns = f.patterns; patterns != 0; cls++, patterns >>= 1)
        if (patterns & 1)
            note(o, cls, off, len);
    return level;
}

void idng_lookalike_label(void *ctx, size_t off, size_t len, const uint32_t *cps,
                          const uint16_t *ents, size_t n)
{
    struct idng_lookalike_run *r = ctx;
    const uint8_t *lab = r->wire + off;
    uint32_t own[IDNG_LABEL_MAX], rest[IDNG_LABEL_MAX];
    size_t i = r->nlab, k;
    int judged = cps != NULL;
    idng_restriction level = IDNG_RL_ASCII;

    if (i >= IDNG_LABELS_MAX)
        return;
    r->nlab++;
    r->off[i] = off;
    r->len[i] = (uint8_t)len;
    if (!judged) {
        /* A raw label is judged as what it normalizes to. */
        if (has_8bit(lab, len)) {
            char a[IDNG_LABEL_MAX];
            size_t alen = sizeof a;
            n = IDNG_LABEL_MAX;
            judged = idng_label_to_ascii((const char *)lab, len, a, &alen, r->mode, NULL)
                         == IDNG_OK
                     && idng_is_ace(a, alen)
                     && idng_punycode_decode(a + 4, alen - 4, own, &n, NULL) == IDNG_OK;
            for (k = 0; judged && k < n; k++)
                own[k] += own[k] - 'A' < 26u ? 'a' - 'A' : 0;
        } else if (!r->keys) {
            r->judged[i] = 0;
            r->ws_own[i] = IDNG_SCRIPTS_ALL;
            r->ws_pass[i] = 0;
            r->tld_letters[i] = 0;
            r->cp_at[i + 1] = r->cp_at[i];
            return;
        }
        if (!judged) {
            for (k = 0; k < len; k++)
                own[k] = idng_ascii_lower(lab[k]);
            n = len;
            if (has_8bit(lab, len))
                r->key_flags |= IDNG_SK_EXTRA | IDNG_SK_FOLD; /* octets as code points */
        }
        cps = own;
        ents = NULL;
    }
    r->judged[i] = (unsigned char)judged;
    r->ws_own[i] = IDNG_SCRIPTS_ALL;
    r->ws_pass[i] = 0;
    r->tld_letters[i] = 0;
    if (judged) {
        if (!r->any) {
            memset(&r->out, 0, sizeof r->out);
            r->out.level = IDNG_RL_ASCII;
            r->any = 1;
        }
        level = judge_label(r, i, cps, ents, n, off, len);
        if (r->idn && foreign(r, cps, n))
            r->foreign[i / 64] |= UINT64_C(1) << (i % 64);
    }
    if (r->keys) {
        /* The label is keyed with its emoji set aside, as mixed-script
         * judges it: paypal🍎 keys as paypal.  A label of emoji alone keys
         * as itself (🍔 is no 🍕). */
        if (level == IDNG_RL_UNRESTRICTED && n <= sizeof rest / sizeof rest[0]
            && (k = emoji_aside(cps, n, rest)) > 0 && k < n) {
            cps = rest;
            n = k;
        }
        /* Raw labels can map to more code points than they have octets
         * (U+3316 to six).  A parent of more code points than a key holds
         * cannot match (its key is at least that long), so the labels on
         * the left make room for the new one: only their parents go
         * uncompared. */
        size_t at = r->cp_at[i], j, drop;
        if (n > IDNG_LK_KEY_MAX - at) {
            for (j = r->first; j < i && n > IDNG_LK_KEY_MAX - (at - r->cp_at[j]); j++)
                ;
            drop = r->cp_at[j];
            memmove(r->cps, r->cps + drop, (at - drop) * sizeof *r->cps);
            for (k = j; k <= i; k++)
                r->cp_at[k] -= drop;
            r->first = j;
            at = r->cp_at[i];
        }
        memcpy(r->cps + at, cps, n * sizeof *cps);
        r->cp_at[i + 1] = at + n;
    }
}

/* Every label of a well-formed wire name to idng_lookalike_label, by the
 * validation's own walk (xn-- labels decoded as the policy sees them); 0
 * when the name is malformed. */
int lk_walk(struct idng_lookalike_run *r, const uint8_t *wire, size_t len)
{
    idng_error each[IDNG_LABELS_MAX];
    size_t n;

    if (idng_wire_len(wire, len) == 0)
        return 0;
    idng_wire_check_labels(wire, len, r->mode, each, IDNG_LABELS_MAX, &n, idng_lookalike_label, r);
    return 1;
}

int idng_lookalike_scan(const struct idng_protect *protect, idng_restriction limit,
                        idng_mode mode, const uint8_t *wire, size_t len,
                        struct idng_lookalike *out)
{
    struct idng_lookalike_run r;

    /* Names without an xn-- label or an octet >= 0x80 are not judged. */
    if (idng_wire_is_plain(wire, len)) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    idng_lookalike_start(&r, protect, limit, mode, wire, len);
    if (!lk_walk(&r, wire, len)) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    return idng_lookalike_finish(&r, out);
}

const char *idng_lookalike_name(unsigned found)
{
    static _Thread_local char text[IDNG_LK_COUNT * 20];
    size_t len = 0;
    int cls;

    if (found == 0)
        return NULL;
    for (cls = IDNG_C_MIXED_SCRIPT; cls < IDNG_C_MIXED_SCRIPT + IDNG_LK_COUNT; cls++) {
        const char *name = idng_class_name((idng_class)cls);
        size_t n = strlen(name);
        if (!(found & IDNG_LK_BIT(cls)) || len + n + 2 > sizeof text)
            continue;
        if (len > 0)
            text[len++] = ',';
        memcpy(text + len, name, n);
        len += n;
    }
    text[len] = '\0';
    return text;
}
