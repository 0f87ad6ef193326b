/**
 * \file
 * Lookalike names (see idng_lookalike.h).
 */
#include "idng_lookalike.h"
#include "idng_psl.h"

#include <stdlib.h>
#include <string.h>

/*
 * A name's skeleton key: for each label, first to last, the length of its
 * skeleton then the skeleton's code points (a skeleton may be longer than
 * the label, and may hold '.', so the lengths keep labels apart).  A
 * label's skeleton is the skeleton of its code points: a judged label's
 * (an xn-- label decoded, a raw label as what it normalizes to), any other
 * label's octets; ASCII letters lowercased in both.
 *
 * The key of a parent name is the tail of its child's key, so one pass
 * from the last label to the first gives every parent's hash, each label
 * folded into the hash of its parent (as core/idng_nameset.c hashes
 * names), and a lookup costs one probe per label.
 *
 * Bounds: a wire name has at most 253 label octets, hence at most 253 code
 * points, and the skeleton of one is at most IDNG_SKELETON_GROWTH code
 * points (a UTS #46 valid code point's; an ASCII one's is 3 at most), so
 * IDNG_LK_KEY_MAX holds the key of any name whose labels are valid.  A
 * name whose key does not fit is not compared (a protected name's key
 * fits, so it could not match).
 */

struct idng_skel_slot {
    uint64_t hash;  /**< hash of the key */
    uint32_t off;   /**< the key at keys[off..off + len) */
    uint32_t len;
    uint32_t index; /**< 1 + the name's index in names.names; 0: empty slot */
    uint32_t kinds; /**< bit k: the key is a name's key of kind k; bit KINDS + k:
                         a registrable label's key of kind k */
};

/*
 * Three kinds of key, each a name's skeleton key made with other
 * idng_skeleton_ex flags: UTS #39's skeleton; with the extra lookalike
 * mappings (both make a confusable name); and with marks and strokes
 * dropped too (a near miss).  A protected name is held under each of its
 * distinct keys, a query name is looked up under each kind in turn.
 */
enum { KIND_SKELETON, KIND_EXTRA, KIND_FOLD, KINDS };
static const unsigned kind_flags[KINDS] = {0, IDNG_SK_EXTRA, IDNG_SK_EXTRA | IDNG_SK_FOLD};

/* A protected name's registrable label (the label left of its public
 * suffix) is held under each kind too, as a key of its own (its skeleton,
 * no length): bit KINDS + k of a slot.  protect-suffixes and
 * protect-embedded look labels up there.
 *
 * Most names have one key for every kind: their letters have no extra
 * mapping, no mark, nothing to fold.  So a slot holds one key and the bits
 * of every kind it is the key of, and a kind is made only where it differs
 * (struct idng_spoof_facts.keys): a query name whose looser key is its
 * skeleton looks its skeleton up under those kinds' bits too. */

/* The bits a lookup of kind's key accepts: its own, and those of the looser
 * kinds whose key it is too (flags: the IDNG_SK_* under which the name's key
 * differs). */
static unsigned accept_bits(unsigned kind, unsigned flags)
{
    unsigned bits = 1u << kind, k;

    for (k = kind + 1; k < KINDS; k++) {
        if ((kind_flags[k] & ~kind_flags[kind]) & flags)
            break;
        bits |= 1u << k;
    }
    return bits;
}

static uint64_t fold(uint64_t parent, const uint32_t *p, size_t n)
{
    uint64_t h = parent;
    size_t i;

    for (i = 0; i < n; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return idng_hash_mix(h);
}
#define ROOT_HASH UINT64_C(0x9e3779b97f4a7c15)
#define LABEL_HASH (ROOT_HASH + UINT64_C(0xc2b2ae3d27d4eb4f))

/* Does p[0..n) hold an octet >= 0x80 (a raw label, or a name with one)? */
static int has_8bit(const uint8_t *p, size_t n)
{
    uint8_t high = 0;

    while (n-- > 0)
        high |= *p++;
    return (high & 0x80) != 0;
}

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

static int same_label(const uint8_t *tld, size_t len, const uint8_t *t, size_t tlen);

/* Notes class cls at the label at off, unless an earlier label has it. */
static void note(struct idng_lookalike *o, int cls, size_t off, size_t len)
{
    unsigned bit = IDNG_LK_BIT(cls);

    if (o->found & bit)
        return;
    o->found |= bit;
    o->at[cls - IDNG_C_MIXED_SCRIPT].off = off;
    o->at[cls - IDNG_C_MIXED_SCRIPT].len = len;
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

/* What rule 6 makes of one judged label, the i-th, on its own; its UTS #39
 * restriction level. */
static idng_restriction judge_label(struct idng_lookalike_run *r, size_t i, const uint32_t *cps,
                                    size_t n, size_t off, size_t len)
{
    struct idng_lookalike *o = &r->out;
    struct idng_spoof_facts f;
    int mixed, cls;
    idng_restriction level = idng_uts39_label(cps, n, &mixed);
    unsigned patterns;

    if (level > o->level)
        o->level = level;
    if (level > r->limit && level_emoji_aside(cps, n, level) > r->limit)
        note(o, IDNG_C_MIXED_SCRIPT, off, len);
    if (mixed)
        note(o, IDNG_C_MIXED_NUMBER, off, len);
    idng_spoof_label(cps, n, level, &f);
    r->ws_own[i] = f.ws_own;
    r->ws_pass[i] = f.ws_pass;
    r->tld_letters[i] = (uint8_t)f.tld_letters;
    r->key_flags |= f.keys;
    for (cls = IDNG_C_MARK_PATTERN, patterns = f.patterns; patterns != 0; cls++, patterns >>= 1)
        if (patterns & 1)
            note(o, cls, off, len);
    return level;
}

void idng_lookalike_label(void *ctx, size_t off, size_t len, const uint32_t *cps, size_t n)
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
        level = judge_label(r, i, cps, n, off, len);
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

/* The slot of key (hash h) with any of the bits accept, or NULL. */
/* The next slot of key (hash h) with any of the bits accept, from *pos on
 * in its probe sequence (*pos = (size_t)-1 to start), or NULL. */
static struct idng_skel_slot *find_next(const struct idng_protect *s, unsigned accept,
                                        uint64_t h, const uint32_t *key, size_t len, size_t *pos)
{
    size_t mask, i;

    if (s->nslots == 0)
        return NULL;
    mask = s->nslots - 1;
    i = *pos == (size_t)-1 ? (size_t)h & mask : (*pos + 1) & mask;
    for (; s->slots[i].index != 0; i = (i + 1) & mask) {
        struct idng_skel_slot *sl = &s->slots[i];
        if (sl->hash == h && (sl->kinds & accept) && sl->len == len
            && memcmp(s->keys + sl->off, key, len * sizeof *key) == 0) {
            *pos = i;
            return sl;
        }
    }
    return NULL;
}

static struct idng_skel_slot *find_key(const struct idng_protect *s, unsigned accept, uint64_t h,
                                       const uint32_t *key, size_t len)
{
    size_t pos = (size_t)-1;

    return find_next(s, accept, h, key, len, &pos);
}

/* The registrable label of protected name p (A-label wire form): its
 * length octet, or NULL when p is a public suffix. */
static const uint8_t *registrable_label(const uint8_t *p)
{
    size_t plen = idng_wire_len(p, IDNG_WIRE_MAX), reg = idng_psl_registrable(p, plen, 0);

    return reg < plen ? p + reg : NULL;
}

/* The key of kind of label i of r alone, into sk (*n in: capacity, out:
 * length); 0 when it does not fit or the label's code points were not kept. */
static int label_key(const struct idng_lookalike_run *r, unsigned kind, size_t i, uint32_t *sk,
                     size_t *n)
{
    if (i < r->first || i >= r->nlab)
        return 0;
    return idng_skeleton_ex(r->cps + r->cp_at[i], r->cp_at[i + 1] - r->cp_at[i],
                            kind_flags[kind], sk, n)
           == IDNG_OK;
}

/* The index of the label whose content starts at off, or nlab. */
static size_t label_at(const struct idng_lookalike_run *r, size_t off)
{
    size_t i;

    for (i = 0; i < r->nlab && r->off[i] != off; i++)
        ;
    return i;
}

/* Is h the hash of a parent of a protected name? */
static int is_parent(const struct idng_protect *s, uint64_t h)
{
    size_t mask = s->nparents - 1, i;

    h |= 1; /* 0 marks an empty slot */
    for (i = (size_t)h & mask; s->parents[i] != 0; i = (i + 1) & mask)
        if (s->parents[i] == h)
            return 1;
    return 0;
}

/* Puts the skeleton of label i before the key already built (the labels
 * after it), after its length, and returns the new parent's hash; 0 and
 * r->keys cleared when it does not fit. */
static uint64_t key_label(struct idng_lookalike_run *r, unsigned kind, uint32_t *key, size_t i,
                          uint64_t parent)
{
    uint32_t sk[(IDNG_LABEL_MAX + 1) * IDNG_SKELETON_GROWTH];
    size_t n = sizeof sk / sizeof sk[0], end = r->key_at[i + 1];

    if (idng_skeleton_ex(r->cps + r->cp_at[i], r->cp_at[i + 1] - r->cp_at[i], kind_flags[kind], sk,
                         &n)
            != IDNG_OK
        || n + 1 > end) {
        r->keys = 0;
        return 0;
    }
    r->key_at[i] = end - n - 1;
    key[r->key_at[i]] = (uint32_t)n;
    memcpy(key + r->key_at[i] + 1, sk, n * sizeof *sk);
    return fold(parent, key + r->key_at[i], n + 1);
}

/* Is the parent at w a protected name itself?  One that holds raw labels
 * is compared in its A-label form, as the protected names are held. */
static int is_protected(const struct idng_lookalike_run *r, const uint8_t *w, size_t len)
{
    uint8_t a[IDNG_WIRE_MAX];
    size_t alen = sizeof a;
    int raw = has_8bit(w, len);

    if (raw && idng_wire_to_ascii(w, len, a, &alen, r->mode, IDNG_F_KEEP_GOING, NULL) != IDNG_OK)
        return 0;
    return raw ? idng_nameset_find(&r->protect->names, a, alen) != IDNG_NAMESET_NONE
               : idng_nameset_find(&r->protect->names, w, len) != IDNG_NAMESET_NONE;
}

/* The top-level domains of the IDNG_TL_* letters, in the order of the bits. */
static const char *const tld_letter_home[][2] = {{"is", "fo"}, {"az", NULL}, {"cat", NULL}};

/* The rules that need the top-level domain (the last label), for every
 * judged label below it:
 * - whole-script: a label written in none of the scripts the domain
 *   expects, that can pass for one of them;
 * - tld-letter: an IDNG_TL_* letter under a domain that is not its home. */
static void by_tld(const struct idng_lookalike_run *r, struct idng_lookalike *out)
{
    size_t tld = r->nlab - 1, i, k;
    const uint8_t *t = r->wire + r->off[tld];
    unsigned own, expect, home = 0, letters = 0, passes = 0;

    /* Most labels can pass for no script but their own, and hold no TLD
     * letter: then the TLD need not be looked at. */
    for (i = 0; i < tld; i++) {
        passes |= r->ws_pass[i] & ~r->ws_own[i];
        letters |= r->tld_letters[i];
    }
    if (passes == 0 && letters == 0)
        return;
    own = r->judged[tld] && r->ws_own[tld] != IDNG_SCRIPTS_ALL ? r->ws_own[tld] : 0;
    expect = idng_tld_scripts(r->protect, t, r->len[tld], own);
    for (k = 0; letters && k < sizeof tld_letter_home / sizeof tld_letter_home[0]; k++)
        for (i = 0; i < 2 && tld_letter_home[k][i] != NULL; i++)
            if (same_label(t, r->len[tld], (const uint8_t *)tld_letter_home[k][i],
                           strlen(tld_letter_home[k][i])))
                home |= 1u << k;
    for (i = 0; i < tld; i++) {
        if (!r->judged[i])
            continue;
        if (!(r->ws_own[i] & expect) && (r->ws_pass[i] & expect))
            note(out, IDNG_C_WHOLE_SCRIPT, r->off[i], r->len[i]);
        if (r->tld_letters[i] & ~home)
            note(out, IDNG_C_TLD_LETTER, r->off[i], r->len[i]);
    }
}

/* The class of a match on slot sl by a lookup that accepts the bits
 * accept: confusable when the skeleton or the extra mappings match, a
 * near miss when only the folded keys do. */
static int match_class(const struct idng_skel_slot *sl, unsigned accept, unsigned shift)
{
    unsigned bits = sl->kinds & accept;

    return bits & ((1u << KIND_SKELETON | 1u << KIND_EXTRA) << shift) ? IDNG_C_CONFUSABLE
                                                                       : IDNG_C_NEAR_MISS;
}

/* The parents from the last label on, each one label longer, keyed with
 * kind: those that are no protected name's parent end the walk; of those
 * holding a judged label, the longest whose key is a protected name's
 * (under the bits accept), when it is not a protected name itself, is
 * noted.  0 when a key did not fit (nothing more can match). */
static int match_keys(struct idng_lookalike_run *r, unsigned kind, unsigned accept, size_t last,
                      struct idng_lookalike *out)
{
    uint32_t key[IDNG_LK_KEY_MAX];
    uint64_t h = ROOT_HASH;
    size_t i, first;

    r->key_at[r->nlab] = IDNG_LK_KEY_MAX;
    for (i = r->nlab; i-- > r->first;) {
        const struct idng_skel_slot *sl;
        size_t start = r->off[i] - 1; /* the parent's length octet */
        int cls;
        h = key_label(r, kind, key, i, h);
        if (!r->keys)
            return 0;
        if (!is_parent(r->protect, h))
            break;
        if (i > last)
            continue;
        sl = find_key(r->protect, accept, h, key + r->key_at[i], IDNG_LK_KEY_MAX - r->key_at[i]);
        if (sl == NULL || is_protected(r, r->wire + start, r->wire_len - start))
            continue;
        cls = match_class(sl, accept, 0);
        if (cls == IDNG_C_NEAR_MISS && (out->found & IDNG_LK_CONFUSABLE))
            continue;
        for (first = i; !r->judged[first]; first++)
            ;
        out->found |= IDNG_LK_BIT(cls);
        out->at[cls - IDNG_C_MIXED_SCRIPT].off = r->off[first];
        out->at[cls - IDNG_C_MIXED_SCRIPT].len = r->len[first];
        out->like = sl->index - 1;
    }
    return 1;
}

/* The A-label form of label i of r (a raw label converted), into a; its
 * length, or 0 when it does not convert. */
static size_t a_label(const struct idng_lookalike_run *r, size_t i, char *a)
{
    size_t alen = IDNG_LABEL_MAX, k;
    const char *lab = (const char *)r->wire + r->off[i];

    if (!has_8bit(r->wire + r->off[i], r->len[i])) {
        for (k = 0; k < r->len[i]; k++)
            a[k] = (char)idng_ascii_lower((unsigned char)lab[k]);
        return r->len[i];
    }
    return idng_label_to_ascii(lab, r->len[i], a, &alen, r->mode, NULL) == IDNG_OK ? alen : 0;
}

/* protect-suffixes: the registrable label of the name, when judged, keyed
 * with each kind and looked up among the protected names' registrable
 * labels; a match that is not that same label (bücher.com against
 * bücher.de) is noted as cls. */
static void match_registrable(const struct idng_lookalike_run *r, struct idng_lookalike *out)
{
    uint32_t sk[(IDNG_LABEL_MAX + 1) * IDNG_SKELETON_GROWTH];
    size_t reg = idng_psl_registrable(r->wire, r->wire_len, 0), i, n, alen;
    char a[IDNG_LABEL_MAX];
    unsigned kind;

    if (reg >= r->wire_len || (i = label_at(r, reg + 1)) >= r->nlab || !r->judged[i]
        || is_protected(r, r->wire + reg, r->wire_len - reg))
        return;
    alen = a_label(r, i, a);
    for (kind = 0; kind < KINDS && !(out->found & IDNG_LK_CONFUSABLE); kind++) {
        const struct idng_skel_slot *sl;
        unsigned accept = accept_bits(kind, r->key_flags) << KINDS;
        size_t pos = (size_t)-1;
        n = sizeof sk / sizeof sk[0];
        if ((kind > 0 && !(kind_flags[kind] & ~kind_flags[kind - 1] & r->key_flags))
            || !label_key(r, kind, i, sk, &n))
            continue;
        /* Each protected name of this key (a slot per registrable label):
         * the name's own label under another suffix is no lookalike of it
         * (bücher.com against bücher.de), another one's may be. */
        while ((sl = find_next(r->protect, accept, fold(LABEL_HASH, sk, n), sk, n, &pos))
               != NULL) {
            const uint8_t *p = registrable_label(r->protect->names.names[sl->index - 1]);
            int cls = match_class(sl, accept, KINDS);
            if (p != NULL && alen == p[0] && memcmp(a, p + 1, alen) == 0)
                continue;
            if (cls == IDNG_C_NEAR_MISS && (out->found & IDNG_LK_NEAR_MISS))
                continue;
            note(out, cls, r->off[i], r->len[i]);
            out->like = sl->index - 1;
            if (cls == IDNG_C_CONFUSABLE)
                break;
        }
    }
}

/* protect-embedded: each part between hyphens (not the whole) of each judged label, keyed
 * with the skeleton and the extra mappings, looked up among the protected
 * names' registrable labels. */
static void match_embedded(const struct idng_lookalike_run *r, struct idng_lookalike *out)
{
    uint32_t sk[(IDNG_LABEL_MAX + 1) * IDNG_SKELETON_GROWTH];
    size_t i, n, at, end;
    unsigned kind;

    for (i = r->first; i < r->nlab && !(out->found & IDNG_LK_EMBEDS_PROTECTED); i++) {
        if (!r->judged[i])
            continue;
        for (kind = KIND_SKELETON; kind <= KIND_EXTRA; kind++) {
            unsigned accept = (accept_bits(kind, r->key_flags) << KINDS)
                              & ((1u << KIND_SKELETON | 1u << KIND_EXTRA) << KINDS);
            n = sizeof sk / sizeof sk[0];
            if ((kind > 0 && !(IDNG_SK_EXTRA & r->key_flags)) || !label_key(r, kind, i, sk, &n))
                continue;
            for (at = 0; at < n; at = end + 1) {
                const struct idng_skel_slot *sl;
                for (end = at; end < n && sk[end] != '-'; end++)
                    ;
                if (end == at || (at == 0 && end == n))
                    continue; /* the whole label: not a part of it */
                sl = find_key(r->protect, accept, fold(LABEL_HASH, sk + at, end - at), sk + at,
                              end - at);
                if (sl != NULL) {
                    note(out, IDNG_C_EMBEDS_PROTECTED, r->off[i], r->len[i]);
                    if (!(out->found & (IDNG_LK_CONFUSABLE | IDNG_LK_NEAR_MISS)))
                        out->like = sl->index - 1;
                    return;
                }
            }
        }
    }
}

int idng_lookalike_finish(struct idng_lookalike_run *r, struct idng_lookalike *out)
{
    size_t i, last = 0;
    unsigned kind;

    if (!r->any) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    *out = r->out;
    if (r->nlab >= 2)
        by_tld(r, out);
    if (!r->keys)
        return 1;
    for (i = 0; i < r->nlab; i++)
        if (r->judged[i])
            last = i;
    /* Confusable by the skeleton, else with the extra mappings; a near
     * miss only when neither.  A looser kind is keyed only where the name's
     * key differs under it; else the stricter lookup accepts its bit. */
    for (kind = 0; kind < KINDS && !(out->found & IDNG_LK_CONFUSABLE); kind++) {
        if (kind > 0 && !(kind_flags[kind] & ~kind_flags[kind - 1] & r->key_flags))
            continue;
        if (!match_keys(r, kind, accept_bits(kind, r->key_flags), last, out))
            break;
    }
    if (r->protect->suffixes)
        match_registrable(r, out);
    if (r->protect->embedded)
        match_embedded(r, out);
    return 1;
}

/* Every label of a well-formed wire name to idng_lookalike_label, by the
 * validation's own walk (xn-- labels decoded as the policy sees them); 0
 * when the name is malformed. */
static int walk(struct idng_lookalike_run *r, const uint8_t *wire, size_t len)
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
    if (!walk(&r, wire, len)) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    return idng_lookalike_finish(&r, out);
}

/* ---- the protected names ---- */

void idng_protect_init(struct idng_protect *s)
{
    memset(s, 0, sizeof *s);
    idng_nameset_init(&s->names);
}

void idng_protect_free(struct idng_protect *s)
{
    if (s == NULL)
        return;
    idng_nameset_free(&s->names);
    free(s->slots);
    free(s->keys);
    free(s->parents);
    free(s->tld);
    idng_protect_init(s);
}

static void slot_put(struct idng_skel_slot *slots, size_t nslots, const struct idng_skel_slot *sl)
{
    size_t i = (size_t)sl->hash & (nslots - 1);

    while (slots[i].index != 0)
        i = (i + 1) & (nslots - 1);
    slots[i] = *sl;
}

/* Room for more slots (at most half full) and keylen more key entries. */
static int reserve(struct idng_protect *s, size_t more, size_t keylen)
{
    if (s->keys_cap - s->keys_len < keylen) {
        size_t cap = s->keys_cap ? s->keys_cap : 4096;
        uint32_t *k;
        while (cap - s->keys_len < keylen)
            cap *= 2;
        if (cap > UINT32_MAX || (k = realloc(s->keys, cap * sizeof *k)) == NULL)
            return -1;
        s->keys = k;
        s->keys_cap = cap;
    }
    if (2 * (s->used + more) > s->nslots) {
        size_t n = s->nslots ? 2 * s->nslots : 64, i;
        while (2 * (s->used + more) > n)
            n *= 2;
        struct idng_skel_slot *t = calloc(n, sizeof *t);
        if (t == NULL)
            return -1;
        for (i = 0; i < s->nslots; i++)
            if (s->slots[i].index != 0)
                slot_put(t, n, &s->slots[i]);
        free(s->slots);
        s->slots = t;
        s->nslots = n;
    }
    return 0;
}

/* Adds h to the parents' set; 0, or -1 out of memory. */
static int parent_add(struct idng_protect *s, uint64_t h)
{
    size_t i;

    h |= 1;
    if (2 * (s->parents_used + 1) > s->nparents) {
        size_t n = s->nparents ? 2 * s->nparents : 64, k;
        uint64_t *t = calloc(n, sizeof *t);
        if (t == NULL)
            return -1;
        for (k = 0; k < s->nparents; k++) {
            if (s->parents[k] == 0)
                continue;
            for (i = (size_t)s->parents[k] & (n - 1); t[i] != 0; i = (i + 1) & (n - 1))
                ;
            t[i] = s->parents[k];
        }
        free(s->parents);
        s->parents = t;
        s->nparents = n;
    }
    for (i = (size_t)h & (s->nparents - 1); s->parents[i] != 0; i = (i + 1) & (s->nparents - 1))
        if (s->parents[i] == h)
            return 0;
    s->parents[i] = h;
    s->parents_used++;
    return 0;
}

/* Holds key (hash h) under the bits kinds for the name at index: merged
 * into the slot of the same key, else a new slot (room is reserved). */
static void slot_hold(struct idng_protect *s, uint64_t h, const uint32_t *key, size_t len,
                      unsigned kinds, size_t index)
{
    struct idng_skel_slot *sl, nsl;
    size_t pos = (size_t)-1;

    /* Names with one key share a slot: the first name stands for them in
     * messages, and the others are found by idng_nameset_find.  A
     * registrable label's key is shared only by names of that same label,
     * so that a lookup can tell the label itself from its lookalikes. */
    while ((sl = find_next(s, (unsigned)-1, h, key, len, &pos)) != NULL) {
        const uint8_t *a = registrable_label(s->names.names[sl->index - 1]), *b;
        if (kinds & ((1u << KINDS) - 1)) {
            if (sl->kinds & ((1u << KINDS) - 1))
                break;
            continue;
        }
        if (!(sl->kinds & ~((1u << KINDS) - 1)))
            continue;
        b = registrable_label(s->names.names[index]);
        if (a != NULL && b != NULL && a[0] == b[0] && memcmp(a + 1, b + 1, a[0]) == 0)
            break;
    }
    if (sl != NULL) {
        sl->kinds |= kinds;
        return;
    }
    memcpy(s->keys + s->keys_len, key, len * sizeof *key);
    nsl.hash = h;
    nsl.off = (uint32_t)s->keys_len;
    nsl.len = (uint32_t)len;
    nsl.index = (uint32_t)(index + 1);
    nsl.kinds = kinds;
    s->keys_len += len;
    slot_put(s->slots, s->nslots, &nsl);
    s->used++;
}

int idng_protect_add(struct idng_protect *s, const uint8_t *wire, size_t len)
{
    /* The key is made as a query name's is, with every label keyed. */
    static const struct idng_protect keyed = {.used = 1};
    struct idng_lookalike_run r;
    uint32_t key[KINDS][IDNG_LK_KEY_MAX];
    uint32_t lk[KINDS][(IDNG_LABEL_MAX + 1) * IDNG_SKELETON_GROWTH];
    size_t start[KINDS] = {0}, lk_len[KINDS] = {0}, at, klen, reg, li;
    uint64_t h[KINDS];
    unsigned kind, made = 0;
    int rc;

    /* Only A-label names: no octet is >= 0x80 (length octets are below
     * 0x40, so the whole name may be tested), every xn-- label decodes. */
    if (has_8bit(wire, len))
        return -2;
    idng_lookalike_start(&r, &keyed, IDNG_RL_UNRESTRICTED, IDNG_MODE_UTS46, wire, len);
    if (!walk(&r, wire, len) || !r.keys)
        return -2;
    for (at = 0; at < r.nlab; at++)
        if (idng_is_ace((const char *)wire + r.off[at], r.len[at]) && !r.judged[at])
            return -2;
    if (r.nlab == 0)
        return -2;
    if (idng_nameset_find(&s->names, wire, len) != IDNG_NAMESET_NONE)
        return 1;
    /* Every kind (the skeleton's key must fit; a looser one that does not
     * is left out), each parent's hash among the parents; a kind whose key
     * is the one before's shares its slot.  Unlike a query name's, every
     * kind is made: an ASCII label is not judged, so nothing says where
     * its looser keys differ (0 is O to the skeleton, o to the looser). */
    r.key_flags = IDNG_SK_EXTRA | IDNG_SK_FOLD;
    reg = idng_psl_registrable(wire, len, 0);
    li = reg < len ? label_at(&r, reg + 1) : r.nlab;
    for (kind = 0; kind < KINDS; kind++) {
        if (kind > 0 && !(kind_flags[kind] & ~kind_flags[kind - 1] & r.key_flags))
            continue;
        h[kind] = ROOT_HASH;
        r.keys = 1;
        r.key_at[r.nlab] = IDNG_LK_KEY_MAX;
        for (at = r.nlab; at-- > 0 && r.keys;) {
            h[kind] = key_label(&r, kind, key[kind], at, h[kind]);
            if (r.keys && parent_add(s, h[kind]) != 0)
                return -1;
        }
        if (!r.keys && kind == KIND_SKELETON)
            return -2;
        if (!r.keys)
            continue;
        made |= 1u << kind;
        start[kind] = r.key_at[0];
        lk_len[kind] = sizeof lk[kind] / sizeof lk[kind][0];
        if (li >= r.nlab || !label_key(&r, kind, li, lk[kind], &lk_len[kind]))
            lk_len[kind] = 0;
    }
    klen = 0;
    for (kind = 0; kind < KINDS; kind++)
        if (made & 1u << kind)
            klen += IDNG_LK_KEY_MAX - start[kind] + lk_len[kind];
    if (reserve(s, 2 * KINDS, klen) != 0)
        return -1;
    rc = idng_nameset_add(&s->names, wire, len, &at);
    if (rc != 0)
        return rc;
    for (kind = 0; kind < KINDS; kind++) {
        /* A kind not made has the key of the stricter one before it. */
        unsigned bits = 1u << kind, k;
        if (!(made & bits))
            continue;
        for (k = kind + 1; k < KINDS && !(made & 1u << k); k++)
            bits |= 1u << k;
        slot_hold(s, h[kind], key[kind] + start[kind], IDNG_LK_KEY_MAX - start[kind], bits, at);
        if (lk_len[kind] > 0)
            slot_hold(s, fold(LABEL_HASH, lk[kind], lk_len[kind]), lk[kind], lk_len[kind],
                      bits << KINDS, at);
    }
    return 0;
}

size_t idng_protect_mem(const struct idng_protect *s)
{
    if (s == NULL)
        return 0;
    return idng_nameset_mem(&s->names) + s->nslots * sizeof *s->slots
           + s->keys_cap * sizeof *s->keys + s->nparents * sizeof *s->parents
           + s->ntld * sizeof *s->tld;
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

/* ---- the scripts top-level domains expect ---- */

/*
 * The country-code top-level domains whose countries write a script of
 * IDNG_SCRIPT_LIST besides Latin (the ISO 3166-1 countries whose official
 * languages are written in it): a label in that script is at home there,
 * and is judged whole-script under every other ASCII domain.  Sorted.
 */
#define L IDNG_SCRIPT_LATIN
#define CYRL (L | IDNG_SCRIPT_CYRILLIC)
#define ARAB (L | IDNG_SCRIPT_ARABIC)
#define CJK (L | IDNG_SCRIPT_CJK)
/* India's scheduled languages (Hindi, Bengali, Gujarati, Punjabi, Kannada,
 * Malayalam, Odia, Tamil, Telugu, and more in Devanagari; Urdu in Arabic). */
#define INDIA                                                                          \
    (ARAB | IDNG_SCRIPT_BENGALI | IDNG_SCRIPT_DEVANAGARI | IDNG_SCRIPT_GUJARATI         \
     | IDNG_SCRIPT_GURMUKHI | IDNG_SCRIPT_KANNADA | IDNG_SCRIPT_MALAYALAM               \
     | IDNG_SCRIPT_ORIYA | IDNG_SCRIPT_TAMIL | IDNG_SCRIPT_TELUGU)
static const struct {
    char tld[3];
    unsigned scripts;
} builtin_tld[] = {
    {"ae", ARAB}, {"af", ARAB}, {"am", L | IDNG_SCRIPT_ARMENIAN}, {"ba", CYRL},
    {"bd", L | IDNG_SCRIPT_BENGALI}, {"bg", CYRL}, {"bh", ARAB}, {"by", CYRL}, {"cn", CJK},
    {"cy", L | IDNG_SCRIPT_GREEK}, {"dz", ARAB}, {"eg", ARAB}, {"er", ARAB | IDNG_SCRIPT_ETHIOPIC},
    {"et", L | IDNG_SCRIPT_ETHIOPIC}, {"fj", L | IDNG_SCRIPT_DEVANAGARI},
    {"ge", L | IDNG_SCRIPT_GEORGIAN},
    {"gr", L | IDNG_SCRIPT_GREEK}, {"hk", CJK}, {"il", L | IDNG_SCRIPT_HEBREW}, {"in", INDIA},
    {"iq", ARAB}, {"ir", ARAB}, {"jo", ARAB}, {"jp", CJK}, {"kg", CYRL}, {"kp", CJK},
    {"kr", CJK}, {"kw", ARAB}, {"kz", CYRL}, {"lb", ARAB}, {"lk", L | IDNG_SCRIPT_TAMIL},
    {"ly", ARAB}, {"ma", ARAB}, {"me", CYRL}, {"mk", CYRL}, {"mm", L | IDNG_SCRIPT_MYANMAR},
    {"mn", CYRL}, {"mo", CJK}, {"mr", ARAB}, {"np", L | IDNG_SCRIPT_DEVANAGARI}, {"om", ARAB},
    {"pk", ARAB}, {"ps", ARAB}, {"qa", ARAB}, {"rs", CYRL}, {"ru", CYRL}, {"sa", ARAB},
    {"sd", ARAB}, {"sg", CJK | IDNG_SCRIPT_TAMIL}, {"su", CYRL}, {"sy", ARAB},
    {"th", L | IDNG_SCRIPT_THAI}, {"tj", CYRL}, {"tn", ARAB}, {"tw", CJK}, {"ua", CYRL},
    {"uz", CYRL}, {"ye", ARAB},
};
#undef L
#undef CYRL
#undef ARAB
#undef CJK
#undef INDIA

/* Is tld[0..len) the label t, ASCII case aside? */
static int same_label(const uint8_t *tld, size_t len, const uint8_t *t, size_t tlen)
{
    size_t i;

    if (len != tlen)
        return 0;
    for (i = 0; i < len; i++)
        if (idng_ascii_lower(tld[i]) != t[i])
            return 0;
    return 1;
}

unsigned idng_tld_scripts(const struct idng_protect *s, const uint8_t *tld, size_t len,
                          unsigned own_scripts)
{
    size_t k, lo = 0, hi = sizeof builtin_tld / sizeof builtin_tld[0];

    for (k = 0; s != NULL && k < s->ntld; k++)
        if (same_label(tld, len, s->tld[k].label, s->tld[k].len))
            return s->tld[k].scripts;
    if (len == 2) {
        char t[2] = {(char)idng_ascii_lower(tld[0]), (char)idng_ascii_lower(tld[1])};
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            int c = memcmp(t, builtin_tld[mid].tld, 2);
            if (c == 0)
                return builtin_tld[mid].scripts;
            if (c < 0)
                hi = mid;
            else
                lo = mid + 1;
        }
    }
    /* Any other expects Latin, an IDN top-level domain its own script too. */
    return own_scripts | IDNG_SCRIPT_LATIN;
}

int idng_protect_tld(struct idng_protect *s, const char *tld, size_t len, unsigned scripts)
{
    struct idng_tld_scripts *t;
    size_t i;

    if (len == 0 || len > sizeof t->label)
        return -2;
    for (i = 0; i < len; i++)
        if ((uint8_t)tld[i] >= 0x80 || tld[i] == '.')
            return -2;
    for (i = 0; i < s->ntld; i++)
        if (same_label((const uint8_t *)tld, len, s->tld[i].label, s->tld[i].len)) {
            s->tld[i].scripts = scripts;
            return 0;
        }
    t = realloc(s->tld, (s->ntld + 1) * sizeof *t);
    if (t == NULL)
        return -1;
    s->tld = t;
    t += s->ntld++;
    for (i = 0; i < len; i++)
        t->label[i] = idng_ascii_lower((unsigned char)tld[i]);
    t->len = (uint8_t)len;
    t->scripts = scripts;
    return 0;
}
