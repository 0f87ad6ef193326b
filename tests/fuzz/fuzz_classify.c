/**
 * \file
 * Fuzz target: the module's decisions on arbitrary wire bytes, under a
 * fixed configuration with allow and deny entries, in all three modes:
 * idng_policy_judge, idng_wire_check, idng_policy_ede_text and
 * idng_policy_normalize.
 *
 * Invariants:
 * - the verdict's label lies within the input and is a copy of it; for a
 *   label's own failure, the octet before label_off is that label's
 *   length octet;
 * - lists first: an allowed name passes unjudged; a denied one gets a
 *   rejecting action; which list (if any) decides agrees with
 *   idng_nameset_listed (the more specific wins);
 * - otherwise every label counts: the action is the most severe of the
 *   failing labels' actions (a raw label's action is that of what it
 *   normalizes to, computed here independently) and of the lookalike
 *   classes idng_lookalike_scan finds (rule 6, by its own walk over the
 *   labels: the policy gets the same facts from the validation's walk);
 *   the verdict names the first label with that action; a name the wire
 *   check accepts and that is no lookalike passes; a name with raw labels
 *   gets its A-label form's verdict when that is more severe; the
 *   verdict's lookalike bits are the scan's;
 * - idng_policy_judge_data never answers normalize, and rejects with the
 *   same action whatever idng_policy_judge rejects;
 * - the EDE text, at any capacity (an exact heap buffer), is
 *   NUL-terminated printable ASCII, starts "idnguard: <verdict>" when there
 *   is room, and its length is the returned one;
 * - the response scan, over records cut from the input (section, type,
 *   owner, one target): the outcome is the most severe judge_data verdict
 *   of the names the rules say are judged, RRsets are stripped exactly when
 *   they stand outside the answer section, are no NSEC/NSEC3 and their
 *   owner is rejected (IDNG_STRIP_EXTRA; they then do not count), or in
 *   any section when an owner or CNAME/DNAME target is rejected
 *   (IDNG_STRIP_ALL; they still count);
 * - normalize: on OK the output is one valid wire name of at most 255
 *   octets with as many labels as the input (F1); ASCII labels are copied
 *   lowercased; a raw label is either converted into an ASCII label that
 *   idng_label_check accepts in the same mode (F2) or kept as it is; on
 *   error the location lies within the input.
 */
#include "fuzz_common.h"
#include "idng_conf.h"
#include "idng_policy.h"
#include "idng_scan.h"

static const char conf_text[] = "idnguard:\n"
                                "  mode: uts46\n"
                                "  on-invalid: refuse\n"
                                "  on-contextj: nxdomain\n"
                                "  on-bidi: log\n"
                                "  on-hyphen: pass\n"
                                "  on-raw-8bit: normalize\n"
                                "  allow: xn--ab-m1t.example\n"
                                "  allow: ok.example\n"
                                "  allow: bücher.allow.example\n"
                                "  deny: bad.example\n"
                                "  deny: deny.ok.example\n"
                                "  deny: xn--bcher-kva.test\n"
                                "  on-mixed-number: nxdomain\n"
                                "  protect: paypal.example\n"
                                "  protect: bücher.example\n";

static struct idng_conf conf;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    char err[256];
    (void)argc;
    (void)argv;
    idng_conf_init(&conf);
    if (idng_conf_parse(&conf, conf_text, sizeof conf_text - 1, "classify", err, sizeof err)) {
        fprintf(stderr, "fuzz_classify: %s\n", err);
        abort();
    }
    return 0;
}

static void check_ede(const struct idng_verdict *v, size_t cap)
{
    char *out = fuzz_alloc(cap);
    size_t n = idng_policy_ede_text(v, out, cap), i;
    char head[64];

    FUZZ_CHECK(n < cap && out[n] == '\0' && strlen(out) == n, "EDE text: %zu in %zu", n, cap);
    for (i = 0; i < n; i++)
        FUZZ_CHECK(out[i] >= 0x20 && out[i] < 0x7f, "EDE text octet 0x%02x",
                   (unsigned char)out[i]);
    snprintf(head, sizeof head, "idnguard: %s", idng_verdict_name(v));
    FUZZ_CHECK(!strncmp(out, head, n < strlen(head) ? n : strlen(head)), "EDE text \"%s\"", out);
    free(out);
}

/* The reference model of one failing label's action. */
static enum idng_action model_action(const struct idng_conf *c, const uint8_t *w,
                                     const idng_error *e)
{
    if (e->status == IDNG_E_RAW_8BIT) {
        char a[IDNG_LABEL_MAX];
        size_t n = sizeof a;
        idng_status st = idng_label_to_ascii((const char *)w + e->label_off, e->label_len, a, &n,
                                             c->policy.mode, NULL);
        if (st != IDNG_OK)
            return idng_policy_fallback(&c->policy, st);
    }
    return c->policy.action[idng_status_class(e->status)];
}

static void judge(const struct idng_conf *c, const uint8_t *w, size_t len, size_t edecap)
{
    struct idng_verdict v, d;
    idng_error each[IDNG_LABELS_MAX];
    size_t n = 0, i;
    int allow = idng_nameset_listed(&c->policy.allow, w, len);
    int deny = idng_nameset_listed(&c->policy.deny, w, len);

    memset(&v, 0xA5, sizeof v);
    idng_policy_judge(&c->policy, w, len, &v);
    FUZZ_CHECK(v.err.label_len <= IDNG_LABEL_MAX, "verdict label of %zu octets", v.err.label_len);
    FUZZ_CHECK(allow >= 0 && allow <= 255 && deny >= 0 && deny <= 255, "listed %d %d", allow,
               deny);
    FUZZ_CHECK(!(allow && allow == deny), "a name matched allow and deny equally (%d)", allow);
    if (allow > deny) {
        FUZZ_CHECK(v.listed == IDNG_LISTED_ALLOW && v.action == IDNG_ACT_PASS
                       && v.err.status == IDNG_OK,
                   "allowed name: listed %d, action %d", v.listed, v.action);
    } else if (deny > allow) {
        FUZZ_CHECK(v.listed == IDNG_LISTED_DENY && idng_action_rejects(v.action),
                   "denied name: listed %d, action %d", v.listed, v.action);
    } else {
        int worst = -1, raw = 0, aworst = -1, k;
        size_t first_off = 0;
        idng_status first_st = IDNG_OK;
        struct idng_lookalike f;
        /* Rule 6's findings, in the order they win among equals (as
         * core/policy.c orders them). */
        static const idng_status lk[] = {
            IDNG_E_CONFUSABLE,   IDNG_E_WHOLE_SCRIPT,    IDNG_E_NEAR_MISS,
            IDNG_E_MIXED_SCRIPT, IDNG_E_MIXED_NUMBER,    IDNG_E_DIGIT_LOOKALIKE,
            IDNG_E_PUNCTUATION,  IDNG_E_CJK_PATTERN,     IDNG_E_MARK_PATTERN,
            IDNG_E_TLD_LETTER,   IDNG_E_EMBEDS_PROTECTED};
        _Static_assert(sizeof lk / sizeof lk[0] == IDNG_LK_COUNT, "every lookalike class");
        idng_wire_check_each(w, len, c->policy.mode, each, IDNG_LABELS_MAX, &n);
        FUZZ_CHECK(v.listed == IDNG_LISTED_NONE || n > 0, "listed %d", v.listed);
        FUZZ_CHECK((n == 0) == (idng_wire_check(w, len, c->policy.mode, NULL) == IDNG_OK),
                   "%zu failing labels, wire check disagrees", n);
        for (i = 0; i < n && i < IDNG_LABELS_MAX; i++) {
            int sev = idng_action_severity(model_action(c, w, &each[i]));
            raw |= each[i].status == IDNG_E_RAW_8BIT;
            if (sev > worst) {
                worst = sev;
                first_off = each[i].label_off;
                first_st = each[i].status;
            }
        }
        /* A raw label's status is what converting it says (checked below
         * only for the lookalike classes, which rule 6 alone gives). */
        if (idng_lookalike_scan(&c->policy.protect, c->policy.restriction_level, c->policy.mode,
                                w, len, &f)) {
            for (k = 0; k < (int)(sizeof lk / sizeof lk[0]); k++) {
                int cls = idng_status_class(lk[k]);
                size_t off = f.at[cls - IDNG_C_MIXED_SCRIPT].off;
                int sev = idng_action_severity(c->policy.action[cls]);
                if (!(f.found & IDNG_LK_BIT(cls)))
                    continue;
                if (sev > worst || (sev == worst && off < first_off)) {
                    worst = sev;
                    first_off = off;
                    first_st = lk[k];
                }
            }
        } else {
            FUZZ_CHECK(f.found == 0, "nothing judged, yet found %u", f.found);
        }
        if (raw) {
            /* Rule 5: the A-label form is judged too (it has no raw label
             * left that converts, so its own judgement is rules 1-3). */
            uint8_t a[255];
            size_t alen = sizeof a;
            struct idng_verdict av;
            if (idng_policy_normalize(&c->policy, w, len, a, &alen, NULL) == IDNG_OK
                && (alen != len || memcmp(a, w, len) != 0)) {
                idng_policy_judge(&c->policy, a, alen, &av);
                aworst = idng_action_severity(av.action);
            }
        }
        if (worst < 0) {
            FUZZ_CHECK(v.err.status == IDNG_OK && v.action == IDNG_ACT_PASS && v.listed == 0
                           && v.lookalike == 0,
                       "clean name judged %d/%d", v.err.status, v.action);
        } else if (aworst > worst) {
            FUZZ_CHECK(idng_action_severity(v.action) == aworst,
                       "name action %d, its A-label form's severity %d", v.action, aworst);
        } else {
            FUZZ_CHECK(v.listed == IDNG_LISTED_NONE, "listed %d", v.listed);
            FUZZ_CHECK(v.lookalike == f.found, "verdict's lookalike bits %u, the scan's %u",
                       v.lookalike, f.found);
            FUZZ_CHECK(idng_action_severity(v.action) == worst,
                       "name action %d, most severe label severity %d", v.action, worst);
            FUZZ_CHECK(v.err.label_off == first_off
                           && (v.err.status == first_st
                               || (idng_status_class(first_st) < IDNG_C_MIXED_SCRIPT
                                   && idng_status_class(v.err.status) < IDNG_C_MIXED_SCRIPT)),
                       "verdict blames %s at %zu, the first most severe is %s at %zu",
                       idng_status_symbol(v.err.status), v.err.label_off,
                       idng_status_symbol(first_st), first_off);
            FUZZ_CHECK(v.err.label_len == 0
                           || (v.err.label_off <= len && v.err.label_len <= len - v.err.label_off
                               && memcmp(v.label, w + v.err.label_off, v.err.label_len) == 0),
                       "verdict label at %zu+%zu in %zu octets", v.err.label_off, v.err.label_len, len);
            if (v.err.status != IDNG_E_INVAL && v.err.status != IDNG_E_NAME_TOO_LONG)
                FUZZ_CHECK(v.err.label_off >= 1 && w[v.err.label_off - 1] == v.err.label_len,
                           "status %d: label_off %zu is not a label", v.err.status, v.err.label_off);
        }
    }
    idng_policy_judge_data(&c->policy, w, len, &d);
    FUZZ_CHECK(d.action != IDNG_ACT_NORMALIZE, "judge_data answered normalize");
    FUZZ_CHECK(!idng_action_rejects(v.action) || d.action == v.action,
               "judge rejects with %d, judge_data answers %d", v.action, d.action);
    check_ede(&v, edecap);
    check_ede(&v, 512);
}

static void normalize(const struct idng_conf *c, const uint8_t *w, size_t len)
{
    uint8_t *out = fuzz_alloc(255);
    size_t olen = 0, i, o;
    idng_error e;
    idng_status st = idng_policy_normalize(&c->policy, w, len, out, &olen, &e);
    int in_labels, out_labels;

    FUZZ_CHECK(fuzz_is_valid_status(st) && st != IDNG_E_NOSPACE, "normalize: %d", st);
    if (st != IDNG_OK) {
        FUZZ_CHECK(e.status == st, "normalize: err.status %d, returned %d", e.status, st);
        FUZZ_CHECK(e.label_off <= len && e.label_len <= len - e.label_off,
                   "normalize: error at %zu+%zu in %zu octets", e.label_off, e.label_len, len);
        free(out);
        return;
    }
    out_labels = fuzz_wire_labels(out, olen);
    FUZZ_CHECK(olen <= 255 && out_labels >= 0, "normalized name malformed (%zu octets)", olen);
    /* The input's own labels, up to its root label. */
    for (i = 0, in_labels = 0; i < len && w[i] != 0; i += 1 + w[i])
        in_labels++;
    /* F1 (fixed; regress/classify/F1-*): a label holding U+3002, U+FF0E or
     * U+FF61 used to be split in two. */
    FUZZ_CHECK(in_labels == out_labels, "normalize turned %d labels into %d", in_labels,
               out_labels);
    for (i = 0, o = 0; i < len && w[i] != 0 && o < olen; i += 1 + w[i], o += 1 + out[o]) {
        const uint8_t *il = w + i + 1, *ol = out + o + 1;
        size_t in_n = w[i], out_n = out[o], k;
        int raw = 0;
        for (k = 0; k < in_n; k++)
            raw |= il[k] >= 0x80;
        if (!raw) {
            FUZZ_CHECK(out_n == in_n, "ASCII label changed length");
            for (k = 0; k < in_n; k++)
                FUZZ_CHECK(ol[k] == (il[k] >= 'A' && il[k] <= 'Z' ? il[k] + 32 : il[k]),
                           "ASCII label not copied lowercased");
        } else if (out_n == in_n && memcmp(il, ol, in_n) == 0) {
            continue; /* kept: it could not be converted */
        } else {
            /* F2 (fixed; regress/classify/F2-*): in punycode mode a raw
             * label that began with "xn--" used to become "xn--xn--...". */
            st = idng_label_check((const char *)ol, out_n, c->policy.mode, &e);
            FUZZ_CHECK(st == IDNG_OK, "mode %d: converted label fails the label check: %s",
                       c->policy.mode, idng_status_symbol(st));
        }
    }
    free(out);
}


/* The response scan against a model of its rules.  The input is cut into
 * records: section (octet % 3), type (octet % 6 of CNAME, DNAME, NSEC,
 * NSEC3, A, MX), then an owner and a target, each a length octet and that
 * many octets (a wire name, well-formed or not). */
static void scan(const struct idng_conf *c, const uint8_t *w, size_t len)
{
    static const uint16_t types[] = {5, 39, 47, 50, 1, 15};
    struct idng_scan s[3];
    int worst[3] = {-1, -1, -1}, strip;
    size_t pos = 0;

    for (strip = 0; strip < 3; strip++)
        idng_scan_init(&s[strip]);
    while (pos + 4 <= len) {
        enum idng_section sec = (enum idng_section)(w[pos] % 3);
        uint16_t t = types[w[pos + 1] % 6];
        size_t on = w[pos + 2], tn;
        const uint8_t *owner = w + pos + 3, *target;
        struct idng_verdict vo, vt;
        int proof = sec != IDNG_SEC_ANSWER && (t == 47 || t == 50);
        int targets = sec == IDNG_SEC_ANSWER && (t == 5 || t == 39);

        if (pos + 3 + on + 1 > len)
            break;
        tn = w[pos + 3 + on];
        target = owner + on + 1;
        if (pos + 4 + on + tn > len)
            break;
        pos += 4 + on + tn;
        idng_policy_judge_data(&c->policy, owner, on, &vo);
        idng_policy_judge_data(&c->policy, target, tn, &vt);
        FUZZ_CHECK(idng_scan_has_targets(sec, t) == targets, "targets of %u in %d", t, sec);
        for (strip = 0; strip < 3; strip++) {
            int cut = idng_scan_owner(&c->policy, &s[strip], sec, t, owner, on, (enum idng_strip)strip);
            int orej = !proof && idng_action_rejects(vo.action);
            int want = strip == IDNG_STRIP_ALL ? orej
                       : strip == IDNG_STRIP_EXTRA ? orej && sec != IDNG_SEC_ANSWER
                                                   : 0;
            FUZZ_CHECK(cut == want, "strip %d, section %d, type %u: cut %d", strip, sec, t, cut);
            if (!proof && !(cut && strip == IDNG_STRIP_EXTRA)
                && idng_action_severity(vo.action) > worst[strip])
                worst[strip] = idng_action_severity(vo.action);
            if (cut && strip == IDNG_STRIP_EXTRA)
                continue;
            if (targets) {
                cut = idng_scan_target(&c->policy, &s[strip], target, tn, (enum idng_strip)strip);
                FUZZ_CHECK(cut == (strip == IDNG_STRIP_ALL && idng_action_rejects(vt.action)),
                           "strip %d: target cut %d", strip, cut);
                if (idng_action_severity(vt.action) > worst[strip])
                    worst[strip] = idng_action_severity(vt.action);
            }
        }
    }
    for (strip = 0; strip < 3; strip++) {
        struct idng_verdict v;
        enum idng_scan_result r = idng_scan_result(&s[strip], &v);
        FUZZ_CHECK(worst[strip] < 0 ? r == IDNG_SCAN_PASS
                                    : idng_action_severity(v.action) == worst[strip],
                   "scan: outcome %d (%s), model severity %d", r, idng_action_name(v.action),
                   worst[strip]);
        FUZZ_CHECK((r == IDNG_SCAN_REJECT) == (worst[strip] >= 0 && idng_action_rejects(v.action)),
                   "scan: outcome %d with action %s", r, idng_action_name(v.action));
        FUZZ_CHECK(v.action != IDNG_ACT_NORMALIZE, "scan verdict normalizes");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *w = fuzz_dup(data, size);
    struct idng_conf c = conf; /* shallow copy: only the mode changes */
    size_t edecap = size ? (size_t)data[0] % 100 + 1 : 1;
    int m;

    for (m = IDNG_MODE_PUNYCODE; m <= IDNG_MODE_UTS46; m++) {
        idng_error e;
        idng_status st;

        c.policy.mode = (idng_mode)m;
        st = idng_wire_check(w, size, c.policy.mode, &e);
        FUZZ_CHECK(fuzz_is_valid_status(st) && st != IDNG_E_NOSPACE, "wire check: %d", st);
        FUZZ_CHECK(e.status == st, "err.status %d, returned %d", e.status, st);
        if (st != IDNG_OK)
            FUZZ_CHECK(e.label_off <= size && e.label_len <= size - e.label_off,
                       "wire check: error at %zu+%zu in %zu", e.label_off, e.label_len, size);
        judge(&c, w, size, edecap);
        normalize(&c, w, size);
        scan(&c, w, size);
    }
    free(w);
    return 0;
}
