/**
 * \file
 * Fuzz target: the module's decisions on arbitrary wire bytes, under a
 * fixed configuration with allow and deny entries, in all three modes:
 * idng_policy_judge, idng_wire_check, idng_policy_ede_text and
 * idng_policy_normalize.
 *
 * Invariants:
 * - the verdict names the input (name, name_len) and its failing label lies
 *   within it; for a label's own failure, the octet before label_off is
 *   that label's length octet;
 * - lists first: an allowed name passes unjudged; a denied one gets a
 *   rejecting action; which list (if any) decides agrees with
 *   idng_conf_name_listed (the more specific wins);
 * - otherwise status equals idng_wire_check's, class is its class, and the
 *   action is the configured one for that class;
 * - the EDE text, at any capacity (an exact heap buffer), is
 *   NUL-terminated printable ASCII, starts "idnguard: <verdict>" when there
 *   is room, and its length is the returned one;
 * - normalize: on OK the output is one valid wire name of at most 255
 *   octets, ASCII only, with as many labels as the input, that
 *   idng_wire_check accepts in the same mode; on error the location lies
 *   within the input.
 */
#include "fuzz_common.h"
#include "core_policy.h"

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
                                "  deny: xn--bcher-kva.test\n";

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

static void judge(const struct idng_conf *c, const uint8_t *w, size_t len, size_t edecap)
{
    struct idng_verdict v;
    idng_error e;
    idng_status st;
    int allow = idng_conf_name_listed(&c->allow, w, len);
    int deny = idng_conf_name_listed(&c->deny, w, len);

    memset(&v, 0xA5, sizeof v);
    idng_policy_judge(c, w, len, &v);
    FUZZ_CHECK(v.name == w && v.name_len == len, "verdict names another name");
    FUZZ_CHECK(v.label_off <= len && v.label_len <= len - v.label_off,
               "verdict label at %zu+%zu in %zu octets", v.label_off, v.label_len, len);
    FUZZ_CHECK(allow >= 0 && allow <= 255 && deny >= 0 && deny <= 255, "listed %d %d", allow,
               deny);
    FUZZ_CHECK(!(allow && allow == deny), "a name matched allow and deny equally (%d)", allow);
    if (allow > deny) {
        FUZZ_CHECK(v.listed == IDNG_LISTED_ALLOW && v.action == IDNG_ACT_PASS
                       && v.status == IDNG_OK,
                   "allowed name: listed %d, action %d", v.listed, v.action);
    } else if (deny > allow) {
        FUZZ_CHECK(v.listed == IDNG_LISTED_DENY && idng_action_rejects(v.action),
                   "denied name: listed %d, action %d", v.listed, v.action);
    } else {
        st = idng_wire_check(w, len, c->mode, &e);
        FUZZ_CHECK(v.listed == IDNG_LISTED_NONE, "listed %d", v.listed);
        FUZZ_CHECK(v.status == st && v.cls == idng_status_class(st)
                       && v.action == c->action[v.cls],
                   "verdict %d/%d/%d, wire check %d", v.status, v.cls, v.action, st);
        FUZZ_CHECK(st == IDNG_OK || (e.label_off == v.label_off && e.label_len == v.label_len
                                     && e.codepoint == v.codepoint),
                   "verdict and wire check blame different places");
        if (st != IDNG_OK && st != IDNG_E_INVAL && st != IDNG_E_NAME_TOO_LONG)
            FUZZ_CHECK(v.label_off >= 1 && w[v.label_off - 1] == v.label_len,
                       "status %d: label_off %zu is not a label", st, v.label_off);
    }
    check_ede(&v, edecap);
    check_ede(&v, 512);
}


static void normalize(const struct idng_conf *c, const uint8_t *w, size_t len)
{
    uint8_t *out = fuzz_alloc(255);
    size_t olen = 0, i;
    idng_error e;
    idng_status st = idng_policy_normalize(c, w, len, out, &olen, &e);
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
    for (i = 0; i < olen; i++)
        FUZZ_CHECK(out[i] < 0x80, "normalized name holds 0x%02x", out[i]);
    st = idng_wire_check(out, olen, c->mode, &e);
    /* F2 (fixed; regress/classify/F2-*): in punycode mode a raw label that
     * began with "xn--" used to become "xn--xn--...". */
    FUZZ_CHECK(st == IDNG_OK, "mode %d: normalized name fails the wire check: %d (%s)", c->mode,
               st, idng_status_symbol(st));
    /* The input's own labels, up to its root label. */
    for (i = 0, in_labels = 0; i < len && w[i] != 0; i += 1 + w[i])
        in_labels++;
    /* F1 (fixed; regress/classify/F1-*): a label holding U+3002, U+FF0E or
     * U+FF61 used to be split in two. */
    FUZZ_CHECK(in_labels == out_labels, "normalize turned %d labels into %d", in_labels,
               out_labels);
    free(out);
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

        c.mode = (idng_mode)m;
        st = idng_wire_check(w, size, c.mode, &e);
        FUZZ_CHECK(fuzz_is_valid_status(st) && st != IDNG_E_NOSPACE, "wire check: %d", st);
        FUZZ_CHECK(e.status == st, "err.status %d, returned %d", e.status, st);
        if (st != IDNG_OK)
            FUZZ_CHECK(e.label_off <= size && e.label_len <= size - e.label_off,
                       "wire check: error at %zu+%zu in %zu", e.label_off, e.label_len, size);
        judge(&c, w, size, edecap);
        normalize(&c, w, size);
    }
    free(w);
    return 0;
}
