/**
 * \file
 * IDNA layer: a table per error class (and good names beside the bad), the
 * hostile inputs that broke other codecs (OpenSSL, libidn2, Rust idna;
 * each test names its CVE or advisory), buffer
 * discipline of the name functions, wire-format names, and properties over
 * generated names: ToUnicode(ToASCII(x)) is stable and no call writes past
 * its capacity.
 */
#include "common.h"
#include "idnguard.h"

#include <stdio.h>
#include <string.h>

enum fn { CHECK, ASCII, UNICODE, LABEL };

struct row {
    enum fn fn;
    idng_mode mode;
    const char *in;
    idng_status want;
    const char *out; /* expected output for ASCII / UNICODE when want is OK */
};

#define P IDNG_MODE_PUNYCODE
#define I IDNG_MODE_IDNA2008
#define U IDNG_MODE_UTS46

/* Names that must pass, in the modes given. */
static const struct row good[] = {
    /* Plain ASCII labels are ordinary DNS names, never judged. */
    {CHECK, U, "_dmarc.example.", IDNG_OK, NULL},
    {CHECK, I, "r3---sn-abc.googlevideo.com", IDNG_OK, NULL},
    {CHECK, U, "-x.example", IDNG_OK, NULL},
    {CHECK, U, "a--b.example", IDNG_OK, NULL},
    {CHECK, U, "x-.example", IDNG_OK, NULL},
    {CHECK, U, "1.2.3.4.in-addr.arpa.", IDNG_OK, NULL},
    {CHECK, U, "*.example", IDNG_OK, NULL},
    {CHECK, U, ".", IDNG_OK, NULL},
    /* Valid A-labels, any ASCII case. */
    {CHECK, U, "xn--bcher-kva.example", IDNG_OK, NULL},
    {CHECK, I, "XN--BCHER-KVA.example", IDNG_OK, NULL},
    {CHECK, U, "Xn--Bcher-Kva.example", IDNG_OK, NULL},
    {CHECK, U, "xn--mgba3gch31f060k.com", IDNG_OK, NULL}, /* ZWNJ in Arabic joining context */
    {CHECK, I, "xn--mgba3gch31f060k.com", IDNG_OK, NULL},
    {CHECK, U, "xn--zca.xn--zca", IDNG_OK, NULL},         /* ß, a deviation: valid */
    {CHECK, I, "xn--fa-hia.de", IDNG_OK, NULL},
    {CHECK, U, "xn--nxasmm1c.com", IDNG_OK, NULL},        /* βόλος with final sigma */
    {CHECK, U, "xn--10cl1a0b660p.com", IDNG_OK, NULL},    /* ZWJ after virama (Sinhala) */
    {CHECK, I, "xn--10cl1a0b660p.com", IDNG_OK, NULL},
    {CHECK, U, "xn--ls8h.la", IDNG_OK, NULL},             /* emoji: UTS #46 admits it */
    {CHECK, P, "xn--ls8h.la", IDNG_OK, NULL},
    {CHECK, I, "xn--ll-0ea", IDNG_OK, NULL},              /* l·l, RFC 5892 A.3 */
    {CHECK, I, "xn--4db4e", IDNG_OK, NULL},               /* א׳: geresh after Hebrew */
    {CHECK, I, "xn--ccks3v", IDNG_OK, NULL},              /* ア・カ: with Katakana */
    {CHECK, I, "xn--ngb6id", IDNG_OK, NULL},              /* ب٠١: one digit set */
    {CHECK, I, "xn--4db.xn--5dbb", IDNG_OK, NULL},        /* Hebrew, bidi domain */
    {CHECK, U, "xn--0ca.xn--ssa73l", IDNG_OK, NULL},      /* à.א̈, IdnaTestV2 */
    {CHECK, U, "xn--0-sfa.example", IDNG_OK, NULL},       /* 0à: fine outside a bidi domain */
    {CHECK, U, "0a.xn--4db", IDNG_OK, NULL},              /* ASCII label not judged for bidi */
    /* A 63-octet label and a 253-octet name are the limits, not past them. */
    {CHECK, U, "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabc.x", IDNG_OK,
     NULL},
    /* to-ASCII: UTS #46 mapping and NFC, ASCII lowercased, root kept. */
    {ASCII, U, "Bücher.DE", IDNG_OK, "xn--bcher-kva.de"},
    {ASCII, U, "BÜCHER.de.", IDNG_OK, "xn--bcher-kva.de."},
    {ASCII, U, "bu\xcc\x88" "cher.de", IDNG_OK, "xn--bcher-kva.de"},  /* u + U+0308 */
    {ASCII, U, "\xef\xbd\x82\xef\xbd\x95\xef\xbd\x83\xef\xbd\x88\xef\xbd\x85\xef\xbd\x92.de",
     IDNG_OK, "bucher.de"},                                           /* fullwidth */
    {ASCII, U, "b\xc3\xbc" "cher\xe3\x80\x82" "de", IDNG_OK, "xn--bcher-kva.de"}, /* U+3002 */
    {ASCII, U, "faß.de", IDNG_OK, "xn--fa-hia.de"},
    {ASCII, U, "_dmarc.Bücher.de", IDNG_OK, "_dmarc.xn--bcher-kva.de"},
    {ASCII, U, "XN--BCHER-KVA.DE", IDNG_OK, "xn--bcher-kva.de"},
    {ASCII, U, "правда.рф", IDNG_OK, "xn--80aafi6cg.xn--p1ai"},
    {ASCII, U, "😉.example", IDNG_OK, "xn--n28h.example"},
    {ASCII, I, "Bücher.de", IDNG_OK, "xn--bcher-kva.de"},
    {ASCII, U, "meßagefactory.ca", IDNG_OK, "xn--meagefactory-m9a.ca"},
    {ASCII, U, ".", IDNG_OK, "."},
    /* to-Unicode. */
    {UNICODE, U, "xn--bcher-kva.example.", IDNG_OK, "bücher.example."},
    {UNICODE, U, "XN--BCHER-KVA.Example", IDNG_OK, "bücher.example"},
    {UNICODE, U, "xn--ls8h.la", IDNG_OK, "💩.la"},
    {UNICODE, U, "_dmarc.xn--fa-hia.de", IDNG_OK, "_dmarc.faß.de"},
    {UNICODE, U, "Bücher.de", IDNG_OK, "bücher.de"},
    {UNICODE, P, "xn--ls8h", IDNG_OK, "💩"},
    /* A single label, as the module judges one. */
    {LABEL, U, "xn--bcher-kva", IDNG_OK, NULL},
    {LABEL, U, "a.b", IDNG_OK, NULL}, /* wire labels may hold a dot; ASCII: not judged */
};

/* One or more rows per error class; among them the inputs other codecs are known to
 * have got wrong. */
static const struct row bad[] = {
    /* too-long */
    {CHECK, U, "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcd.x",
     IDNG_E_LABEL_TOO_LONG, NULL},
    {CHECK, P, "xn--aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-m1e.x",
     IDNG_E_LABEL_TOO_LONG, NULL}, /* 64 octets: a x 57 + ä */
    {ASCII, U, "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcd",
     IDNG_E_LABEL_TOO_LONG, NULL},
    {ASCII, U, "äbcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij",
     IDNG_E_LABEL_TOO_LONG, NULL}, /* fits as Unicode, not as an A-label */
    /* empty-label */
    {CHECK, U, "a..b", IDNG_E_EMPTY_LABEL, NULL},
    {CHECK, U, ".a", IDNG_E_EMPTY_LABEL, NULL},
    {CHECK, U, "", IDNG_E_EMPTY_LABEL, NULL},
    {CHECK, U, "xn--", IDNG_E_EMPTY_DECODE, NULL},
    {CHECK, P, "xn--.example", IDNG_E_EMPTY_DECODE, NULL},
    {ASCII, U, "a..b", IDNG_E_EMPTY_LABEL, NULL},
    {ASCII, U, "", IDNG_E_EMPTY_LABEL, NULL},
    {ASCII, U, "\xc2\xad.de", IDNG_E_EMPTY_LABEL, NULL}, /* soft hyphen alone maps to nothing */
    {LABEL, U, "", IDNG_E_EMPTY_LABEL, NULL},
    /* bad-punycode */
    {CHECK, P, "xn--a-b!.example", IDNG_E_PUNY_DIGIT, NULL},
    {CHECK, U, "xn--ab_c", IDNG_E_PUNY_DIGIT, NULL},
    {CHECK, U, "xn--99999", IDNG_E_PUNY_TRUNCATED, NULL},
    {CHECK, U, "xn--a-zz", IDNG_E_PUNY_TRUNCATED, NULL},
    {CHECK, U, "xn--99999999999999", IDNG_E_PUNY_OVERFLOW, NULL},
    {ASCII, U, "xn--zz", IDNG_E_PUNY_TRUNCATED, NULL},
    /* bad-codepoint */
    {CHECK, P, "xn--0000h", IDNG_E_CODEPOINT_MAX, NULL}, /* libidn: U+127252 */
    {CHECK, U, "xn--a-9z5g", IDNG_E_SURROGATE, NULL},
    {UNICODE, U, "xn--0000h.example", IDNG_E_CODEPOINT_MAX, NULL},
    /* ascii-only (RUSTSEC-2024-0421) */
    {CHECK, P, "xn--example-.org", IDNG_E_ASCII_ONLY, NULL},
    {CHECK, U, "xn--a-", IDNG_E_ASCII_ONLY, NULL},
    {ASCII, U, "xn--example-.org", IDNG_E_ASCII_ONLY, NULL},
    /* not-canonical */
    {CHECK, U, "xn--example-nka.org", IDNG_E_MAPPED, NULL}, /* CVE-2019-12290: U+00AD */
    {CHECK, U, "xn--bc-3fa", IDNG_E_MAPPED, NULL},          /* uppercase U+00C4 */
    {CHECK, U, "xn--bc-kw3n", IDNG_E_MAPPED, NULL},         /* fullwidth U+FF21 */
    {CHECK, U, "xn--ab-uub", IDNG_E_NOT_NFC, NULL},         /* a b U+0308: not NFC */
    {CHECK, I, "xn--ab-uub", IDNG_E_NOT_NFC, NULL},
    {CHECK, U, "xn--bcher-kva.xn--u-ccb", IDNG_E_NOT_NFC, NULL}, /* u + U+0308 */
    /* disallowed */
    {CHECK, I, "xn--example-nka.org", IDNG_E_DISALLOWED, NULL},
    {CHECK, I, "xn--bc-3fa", IDNG_E_DISALLOWED, NULL},
    {CHECK, I, "xn--bc-kw3n", IDNG_E_DISALLOWED, NULL},
    {CHECK, I, "xn--ls8h.la", IDNG_E_DISALLOWED, NULL}, /* emoji under IDNA2008 */
    {CHECK, U, "xn--a", IDNG_E_DISALLOWED, NULL},       /* U+0080 */
    {CHECK, I, "xn--a", IDNG_E_DISALLOWED, NULL},
    {CHECK, U, "xn--a_b-jua", IDNG_E_DISALLOWED, NULL}, /* '_' is not STD3 */
    {CHECK, U, "xn--a.b-pta", IDNG_E_DISALLOWED, NULL}, /* U-label holding '.' */
    {CHECK, U, "xn--0y0c", IDNG_E_DISALLOWED, NULL},    /* U+E000, private use */
    {CHECK, I, "xn--ss-h4b", IDNG_E_UNASSIGNED, NULL},  /* U+0378 unassigned */
    {CHECK, U, "xn--ss-h4b", IDNG_E_UNASSIGNED, NULL},
    {ASCII, U, "a\xe2\x91\xb4" "b", IDNG_E_DISALLOWED, NULL}, /* U+2474: STD3 mapped '(1)' */
    {ASCII, U, "ab\xe2\x80\xae" "cd", IDNG_E_DISALLOWED, NULL}, /* U+202E bidi override */
    {ASCII, U, "\xef\xbc\xbf.com", IDNG_E_DISALLOWED, NULL}, /* fullwidth '_' maps to '_' */
    /* contextj */
    {CHECK, U, "xn--ab-m1t", IDNG_E_CONTEXTJ, NULL}, /* a ZWJ b: no virama */
    {CHECK, I, "xn--ab-m1t", IDNG_E_CONTEXTJ, NULL},
    {CHECK, U, "xn--ab-j1t", IDNG_E_CONTEXTJ, NULL}, /* a ZWNJ b: no joining context */
    {ASCII, U, "a\xe2\x80\x8d" "b", IDNG_E_CONTEXTJ, NULL},
    /* contexto (IDNA2008 only) */
    {CHECK, I, "xn--ab-0ea", IDNG_E_CONTEXTO, NULL},   /* a·b: middle dot not between l */
    {CHECK, I, "xn--a-kib", IDNG_E_CONTEXTO, NULL},    /* a KERAIA: Greek must follow */
    {CHECK, I, "xn--a-0jc", IDNG_E_CONTEXTO, NULL},    /* a GERESH: Hebrew must precede */
    {CHECK, I, "xn--ab-3n4a", IDNG_E_CONTEXTO, NULL},  /* KATAKANA MIDDLE DOT with Latin */
    {CHECK, I, "xn--8hb20a", IDNG_E_CONTEXTO, NULL},   /* U+0660 with U+06F0 */
    /* hyphen */
    {CHECK, U, "xn--ab--c-kra", IDNG_E_HYPHEN_34, NULL}, /* ab--cä */
    {CHECK, I, "xn----0fa", IDNG_E_HYPHEN_EDGE, NULL}, /* leading hyphen: -ä */
    {CHECK, U, "xn----zfa", IDNG_E_HYPHEN_EDGE, NULL}, /* trailing hyphen: ä- */
    {CHECK, P, "xn--xn--abc-rba", IDNG_E_XN_PREFIX, NULL}, /* decodes to xn--abcä */
    {ASCII, U, "ab--cä", IDNG_E_HYPHEN_34, NULL},
    /* Fuzzing finding F2: even in punycode mode, no U-label may begin with
     * xn--, or ToASCII would mint "xn--xn--..." labels. */
    {ASCII, P, "xn--bc-\xcd\x99" "a", IDNG_E_XN_PREFIX, NULL},
    /* leading-mark */
    {CHECK, U, "xn--ssa", IDNG_E_LEADING_MARK, NULL}, /* U+0308 first */
    {CHECK, I, "xn--ssa", IDNG_E_LEADING_MARK, NULL},
    /* bidi (RFC 5893) */
    {CHECK, U, "xn--1-0hc", IDNG_E_BIDI_1, NULL},           /* digit then Hebrew */
    {CHECK, I, "xn--0-sfa.xn--4db", IDNG_E_BIDI_1, NULL},   /* 0à in a bidi domain */
    {CHECK, U, "xn--0ca24w", IDNG_E_BIDI_5, NULL},          /* àא: R in an LTR label */
    {CHECK, U, "xn--0ca.xn--0-zhcb98c", IDNG_E_BIDI_4, NULL}, /* EN and AN mixed */
    {CHECK, U, "xn--a-zhc", IDNG_E_BIDI_2, NULL},           /* א then 'a' */
    {CHECK, U, "xn--0ca88g.xn--4db", IDNG_E_BIDI_6, NULL},  /* àˇ ends with ON */
    {ASCII, U, "0à.\xd7\x90", IDNG_E_BIDI_1, NULL},
    /* raw-8bit */
    {CHECK, U, "bücher.de", IDNG_E_RAW_8BIT, NULL},
    {CHECK, P, "a.\xff", IDNG_E_RAW_8BIT, NULL},
    {LABEL, U, "b\xc3\xbc" "cher", IDNG_E_RAW_8BIT, NULL},
    /* bad-utf8 */
    {ASCII, U, "\xff.de", IDNG_E_BAD_UTF8, NULL},
    {ASCII, U, "a\xc0\xaf" "b", IDNG_E_BAD_UTF8, NULL},     /* overlong '/' */
    {ASCII, U, "\xed\xa0\x80", IDNG_E_BAD_UTF8, NULL},      /* encoded surrogate */
    {ASCII, U, "\xf4\x90\x80\x80", IDNG_E_BAD_UTF8, NULL},  /* above U+10FFFF */
    {ASCII, U, "ab\xe2\x82", IDNG_E_BAD_UTF8, NULL},        /* truncated */
    {UNICODE, U, "\x80", IDNG_E_BAD_UTF8, NULL},
    /* invalid-argument */
    {CHECK, (idng_mode)7, "xn--bcher-kva", IDNG_E_INVAL, NULL},
    {ASCII, (idng_mode)-1, "a", IDNG_E_INVAL, NULL},
};

static idng_status call(const struct row *r, unsigned flags, char *out, size_t *outlen,
                        idng_error *e)
{
    size_t len = strlen(r->in);
    switch (r->fn) {
    case CHECK:
        return idng_name_check(r->in, len, r->mode, e);
    case LABEL:
        return idng_label_check(r->in, len, r->mode, e);
    case ASCII:
        return idng_to_ascii(r->in, len, out, outlen, r->mode, flags, e);
    case UNICODE:
        return idng_to_unicode(r->in, len, out, outlen, r->mode, flags, e);
    }
    return IDNG_E_INVAL;
}

static void run_row_flags(const struct row *r, unsigned flags)
{
    char out[4096];
    size_t outlen = sizeof out;
    idng_error e;
    idng_status st = call(r, flags, out, &outlen, &e);
    static const char *const fnames[] = {"name_check", "to_ascii", "to_unicode", "label_check"};

    ck_assert_msg(st == r->want, "%s(%s, mode %d): want %s, got %s", fnames[r->fn], r->in,
                  (int)r->mode, idng_status_symbol(r->want), idng_status_symbol(st));
    ck_assert_msg(e.status == st, "%s(%s): error struct says %s", fnames[r->fn], r->in,
                  idng_status_symbol(e.status));
    if (st != IDNG_OK)
        ck_assert_msg(e.label_off <= strlen(r->in) && e.label_len <= strlen(r->in) - e.label_off,
                      "%s(%s): error location out of the input", fnames[r->fn], r->in);
    if (r->out) {
        ck_assert_uint_lt(outlen, sizeof out);
        out[outlen] = '\0';
        ck_assert_msg(strcmp(out, r->out) == 0, "%s(%s): want '%s', got '%s'", fnames[r->fn],
                      r->in, r->out, out);
    }
}

static void run_row(const struct row *r)
{
    run_row_flags(r, 0);
}

START_TEST(test_good)
{
    run_row(&good[_i]);
}
END_TEST

START_TEST(test_bad)
{
    run_row(&bad[_i]);
}
END_TEST

/*
 * The UTS #46 processing flags and the idna2008-lookup mode: each row is
 * run with its flags (want, out) and without them (want_default), so that
 * every row shows what its flag changes.
 */
#define L IDNG_MODE_IDNA2008_LOOKUP
static const struct flag_row {
    struct row r;
    unsigned flags;
    idng_status want_default;
} flagged[] = {
    /* Transitional to-ASCII: the four deviation code points mapped. */
    {{ASCII, U, "Fa\xc3\x9f.de", IDNG_OK, "fass.de"}, IDNG_F_TRANSITIONAL, IDNG_OK},
    {{ASCII, U, "\xcf\x82\xce\xb1.gr", IDNG_OK, "xn--mxa9a.gr"}, IDNG_F_TRANSITIONAL, IDNG_OK},
    {{ASCII, U, "a\xe2\x80\x8d" "b.de", IDNG_OK, "ab.de"}, IDNG_F_TRANSITIONAL, IDNG_E_CONTEXTJ},
    {{ASCII, U, "a\xe2\x80\x8c" "b.de", IDNG_OK, "ab.de"}, IDNG_F_TRANSITIONAL, IDNG_E_CONTEXTJ},
    /* A label made only of ignored code points after the mapping. */
    {{ASCII, U, "\xe2\x80\x8c.de", IDNG_E_EMPTY_LABEL, NULL}, IDNG_F_TRANSITIONAL,
     IDNG_E_CONTEXTJ},
    /* ToUnicode is nontransitional whatever the flag says; xn-- labels
     * are validated nontransitionally (UTS #46 15.0 section 4 step 4). */
    {{UNICODE, U, "Fa\xc3\x9f.de", IDNG_OK, "fa\xc3\x9f.de"}, IDNG_F_TRANSITIONAL, IDNG_OK},
    {{ASCII, U, "xn--fa-hia.de", IDNG_OK, "xn--fa-hia.de"}, IDNG_F_TRANSITIONAL, IDNG_OK},
    /* CheckHyphens=false. */
    {{ASCII, U, "-b\xc3\xbc-.de", IDNG_OK, "xn---b--ioa.de"}, IDNG_F_NO_CHECK_HYPHENS,
     IDNG_E_HYPHEN_EDGE},
    {{ASCII, U, "ab--\xc3\xbc.de", IDNG_OK, "xn--ab---3ra.de"}, IDNG_F_NO_CHECK_HYPHENS,
     IDNG_E_HYPHEN_34},
    {{ASCII, U, "xn--\xc3\xbc.de", IDNG_E_XN_PREFIX, NULL}, IDNG_F_NO_CHECK_HYPHENS,
     IDNG_E_XN_PREFIX},
    /* UseSTD3ASCIIRules=false: ASCII but letters, digits, '-' and '.'. */
    {{ASCII, U, "a_b.\xc3\xbc_.de", IDNG_OK, "a_b.xn--_-dha.de"}, IDNG_F_NO_STD3,
     IDNG_E_DISALLOWED},
    {{ASCII, U, "a$b.de", IDNG_OK, "a$b.de"}, IDNG_F_NO_STD3 | IDNG_F_STRICT,
     IDNG_E_DISALLOWED},
    /* ... the rules judge the mapped, normalized label (UTS #46 16.0):
     * U+2474 PARENTHESIZED DIGIT ONE maps to "(1)", refused with them;
     * U+2260 NOT EQUAL TO, though its decomposition holds '=', is valid
     * with them or without (it was disallowed_STD3_valid up to 15.0). */
    {{ASCII, U, "\xe2\x91\xb4.de", IDNG_OK, "(1).de"}, IDNG_F_NO_STD3, IDNG_E_DISALLOWED},
    {{ASCII, U, "\xe2\x89\xa0.de", IDNG_OK, "xn--1ch.de"}, IDNG_F_NO_STD3, IDNG_OK},
    {{ASCII, U, "xn--1ch.de", IDNG_OK, "xn--1ch.de"}, IDNG_F_NO_STD3, IDNG_OK},
    /* VerifyDnsLength=false: empty labels, long labels and names. */
    {{ASCII, U, "a..b", IDNG_OK, "a..b"}, IDNG_F_NO_DNS_LENGTH, IDNG_E_EMPTY_LABEL},
    {{ASCII, U, "\xc2\xad.de", IDNG_OK, ".de"}, IDNG_F_NO_DNS_LENGTH, IDNG_E_EMPTY_LABEL},
    {{ASCII, U,
      "\xc3\xbc" "0123456789012345678901234567890123456789012345678901234567890123.de",
      IDNG_OK, "xn--0123456789012345678901234567890123456789012345678901234567890123-kug.de"},
     IDNG_F_NO_DNS_LENGTH, IDNG_E_LABEL_TOO_LONG},
    /* CheckBidi=false. */
    {{ASCII, U, "xn--1-0hc.de", IDNG_OK, "xn--1-0hc.de"}, IDNG_F_NO_BIDI, IDNG_E_BIDI_1},
    {{UNICODE, U, "\xd7\x90.1a", IDNG_OK, "\xd7\x90.1a"}, IDNG_F_NO_BIDI | IDNG_F_STRICT,
     IDNG_E_BIDI_1},
    /* CheckJoiners=false. */
    {{ASCII, U, "a\xe2\x80\x8c" "b.de", IDNG_OK, "xn--ab-j1t.de"}, IDNG_F_NO_JOINERS,
     IDNG_E_CONTEXTJ},
    /* CONTEXTO: MIDDLE DOT between two l only (RFC 5892 A.3). */
    {{ASCII, U, "a\xc2\xb7" "b.de", IDNG_E_CONTEXTO, NULL}, IDNG_F_CHECK_CONTEXTO, IDNG_OK},
    {{ASCII, U, "l\xc2\xb7l.de", IDNG_OK, "xn--ll-0ea.de"}, IDNG_F_CHECK_CONTEXTO, IDNG_OK},
    {{ASCII, L, "a\xc2\xb7" "b.de", IDNG_E_CONTEXTO, NULL}, IDNG_F_CHECK_CONTEXTO, IDNG_OK},
    {{ASCII, I, "a\xc2\xb7" "b.de", IDNG_E_CONTEXTO, NULL}, 0, IDNG_E_CONTEXTO},
    /* idna2008-lookup (RFC 5891 5.4): '-' may begin or end a label, "--"
     * in positions 3-4 may not. */
    {{UNICODE, L, "xn---bcher-4ya.de", IDNG_OK, "-b\xc3\xbc" "cher.de"}, 0, IDNG_OK},
    {{UNICODE, I, "xn---bcher-4ya.de", IDNG_E_HYPHEN_EDGE, NULL}, 0, IDNG_E_HYPHEN_EDGE},
    {{CHECK, L, "xn---bcher-4ya.de", IDNG_OK, NULL}, 0, IDNG_OK},
    {{CHECK, L, "xn--ab---3ra.de", IDNG_E_HYPHEN_34, NULL}, 0, IDNG_E_HYPHEN_34},
    {{CHECK, L, "xn--ls8h.la", IDNG_E_DISALLOWED, NULL}, 0, IDNG_E_DISALLOWED},
    /* No flag: UTS #46 maps the whole name first, so a last label of
     * ignored code points only leaves the root's full stop. */
    {{ASCII, U, "example.com.\xc2\xad", IDNG_OK, "example.com."}, 0, IDNG_OK},
    {{UNICODE, U, "example.com\xe3\x80\x82\xc2\xad", IDNG_OK, "example.com."}, 0, IDNG_OK},
    {{ASCII, U, "example.com.\xe2\x80\x8c", IDNG_OK, "example.com."}, IDNG_F_TRANSITIONAL,
     IDNG_E_CONTEXTJ},
    {{ASCII, U, "example.com.\xc2\xad.", IDNG_E_EMPTY_LABEL, NULL}, 0, IDNG_E_EMPTY_LABEL},
    {{ASCII, U, "a..\xc2\xad", IDNG_E_EMPTY_LABEL, NULL}, 0, IDNG_E_EMPTY_LABEL},
    {{ASCII, U, "\xc2\xad", IDNG_E_EMPTY_LABEL, NULL}, 0, IDNG_E_EMPTY_LABEL},
};

START_TEST(test_flags)
{
    const struct flag_row *f = &flagged[_i];
    struct row without = f->r;

    run_row_flags(&f->r, f->flags);
    if (f->r.mode == L && f->flags == 0)
        return; /* a mode row: nothing to run without */
    without.want = f->want_default;
    without.out = NULL;
    run_row_flags(&without, f->flags & IDNG_F_STRICT);
}
END_TEST

/* The mode names: the new one, and the registration's alias. */
START_TEST(test_mode_names)
{
    idng_mode m;

    ck_assert_str_eq(idng_mode_name(IDNG_MODE_IDNA2008_LOOKUP), "idna2008-lookup");
    ck_assert_str_eq(idng_mode_name(IDNG_MODE_IDNA2008), "idna2008");
    ck_assert_int_eq(idng_mode_lookup("idna2008-registration", 21, &m), 0);
    ck_assert_int_eq(m, IDNG_MODE_IDNA2008);
    ck_assert_int_eq(idng_mode_lookup("idna2008-lookup", 15, &m), 0);
    ck_assert_int_eq(m, IDNG_MODE_IDNA2008_LOOKUP);
    ck_assert_int_eq(idng_mode_lookup("idna2008-", 9, &m), -1);
    ck_assert_ptr_null(idng_mode_name((idng_mode)(IDNG_MODE_MAX + 1)));
}
END_TEST

/* Every class has a bad row (ok and no-space aside, which are tested on
 * their own, and the lookalike classes, mixed-script and every class after
 * it (core/idng_lookalike.h), which no validation returns: the policy finds
 * them, and tests/core/test_policy.c has rows for each and checks that it
 * has), so a class cannot go untested. */
START_TEST(test_every_class_covered)
{
    int seen[IDNG_CLASS_COUNT] = {0};
    size_t i;
    int c;

    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        seen[idng_status_class(bad[i].want)] = 1;
    for (c = 0; c < IDNG_CLASS_COUNT; c++) {
        if (c == IDNG_C_OK || c == IDNG_C_NOSPACE || c >= IDNG_C_MIXED_SCRIPT)
            continue;
        ck_assert_msg(seen[c], "no negative row for class %s", idng_class_name((idng_class)c));
    }
}
END_TEST

/* The error location names the failing label, so logs can show it. */
START_TEST(test_error_location)
{
    idng_error e;
    const char *name = "ok.xn--bcher-kva.xn--ab-m1t.example";

    ck_assert_int_eq(idng_name_check(name, strlen(name), U, &e), IDNG_E_CONTEXTJ);
    ck_assert_uint_eq(e.label_off, 17);
    ck_assert_uint_eq(e.label_len, 10);
    ck_assert_uint_eq(e.codepoint, 0x200D);
}
END_TEST

/* Status names and classes come from one list: values are dense, names unique. */
START_TEST(test_status_table)
{
    int v;
    idng_class c;

    for (v = 0; v >= IDNG_E_IDN; v--) { /* the last status of the list */
        idng_status st = (idng_status)v;
        ck_assert_str_ne(idng_status_symbol(st), "IDNG_UNKNOWN");
        ck_assert_ptr_nonnull(idng_class_name(idng_status_class(st)));
        ck_assert_int_eq(idng_class_lookup(idng_status_class_name(st),
                                           strlen(idng_status_class_name(st)), &c), 0);
        ck_assert_int_eq(c, idng_status_class(st));
    }
    ck_assert_str_eq(idng_status_message((idng_status)-999), "unknown status");
    ck_assert_str_eq(idng_status_class_name((idng_status)1), "unknown");
    ck_assert_int_eq(idng_class_lookup("bad-punycode", 12, &c), 0);
    ck_assert_int_eq(c, IDNG_C_BAD_PUNYCODE);
    ck_assert_int_eq(idng_class_lookup("bogus", 5, &c), -1);
    ck_assert_ptr_null(idng_class_name(IDNG_CLASS_COUNT));
}
END_TEST

/* Exactly full, one short, and zero capacity, with canaries around. */
START_TEST(test_name_buffers)
{
    static const char *const names[] = {"Bücher.DE", "xn--bcher-kva.example.", "ドメイン名例.jp"};
    size_t i;

    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        int uni;
        for (uni = 0; uni < 2; uni++) {
            char full[256], buf[300];
            size_t need = sizeof full, cap, len;
            idng_status st;
            st = uni ? idng_to_unicode(names[i], strlen(names[i]), full, &need, U, 0, NULL)
                     : idng_to_ascii(names[i], strlen(names[i]), full, &need, U, 0, NULL);
            ck_assert_int_eq(st, IDNG_OK);
            for (cap = need + 1; cap + 2 > need && cap != (size_t)-1; cap--) {
                memset(buf, 0xA5, sizeof buf);
                len = cap;
                st = uni ? idng_to_unicode(names[i], strlen(names[i]), buf + 8, &len, U, 0, NULL)
                         : idng_to_ascii(names[i], strlen(names[i]), buf + 8, &len, U, 0, NULL);
                ck_assert_msg(st == (cap >= need ? IDNG_OK : IDNG_E_NOSPACE),
                              "%s cap %zu need %zu: %s", names[i], cap, need,
                              idng_status_symbol(st));
                ck_assert_uint_eq(len, need);
                ck_assert_msg(memcmp(buf + 8, full, cap < need ? cap : need) == 0,
                              "%s: partial output differs", names[i]);
                {
                    size_t j, end = 8 + cap;
                    for (j = 0; j < 8; j++)
                        ck_assert_int_eq((unsigned char)buf[j], 0xA5);
                    for (j = end; j < sizeof buf; j++)
                        ck_assert_msg((unsigned char)buf[j] == 0xA5,
                                      "%s: wrote past capacity %zu at %zu", names[i], cap, j);
                }
                if (cap == 0)
                    break;
            }
        }
    }
}
END_TEST

/* Wire-format names: labels that lie about their length, pointers. */
START_TEST(test_wire)
{
    static const uint8_t good_name[] = "\x0dxn--bcher-kva\x07" "example\x00";
    static const uint8_t emoji[] = "\x08xn--ls8h\x02la\x00";
    static const uint8_t fake[] = "\x0axn--ab-m1t\x00";
    static const uint8_t pointer[] = "\x03" "abc\xc0\x0c";
    static const uint8_t lying[] = "\x3f" "abc";
    static const uint8_t unterminated[] = "\x03" "abc";
    static const uint8_t dot_inside[] = "\x03" "a.b\x00";
    uint8_t longname[300];
    idng_error e;
    size_t i;

    ck_assert_int_eq(idng_wire_check(good_name, sizeof good_name - 1, U, &e), IDNG_OK);
    ck_assert_int_eq(idng_wire_check(emoji, sizeof emoji - 1, U, &e), IDNG_OK);
    ck_assert_int_eq(idng_wire_check(emoji, sizeof emoji - 1, I, &e), IDNG_E_DISALLOWED);
    ck_assert_int_eq(e.label_off, 1);
    ck_assert_int_eq(e.label_len, 8);
    ck_assert_int_eq(idng_wire_check(fake, sizeof fake - 1, U, &e), IDNG_E_CONTEXTJ);
    ck_assert_int_eq(idng_wire_check(pointer, sizeof pointer - 1, U, &e), IDNG_E_INVAL);
    ck_assert_int_eq(idng_wire_check(lying, sizeof lying - 1, U, &e), IDNG_E_INVAL);
    ck_assert_int_eq(idng_wire_check(unterminated, sizeof unterminated - 1, U, &e), IDNG_E_INVAL);
    ck_assert_int_eq(idng_wire_check(dot_inside, sizeof dot_inside - 1, U, &e), IDNG_OK);
    ck_assert_int_eq(idng_wire_check(good_name, 0, U, &e), IDNG_E_INVAL);
    /* 4 labels of 63 octets: 256 octets of wire name, one too many. */
    for (i = 0; i < 4; i++) {
        longname[i * 64] = 63;
        memset(longname + i * 64 + 1, 'a', 63);
    }
    longname[256] = 0;
    ck_assert_int_eq(idng_wire_check(longname, 257, U, &e), IDNG_E_NAME_TOO_LONG);
    longname[3 * 64] = 61; /* 255 octets in all, root included: the limit */
    longname[3 * 64 + 62] = 0;
    ck_assert_int_eq(idng_wire_check(longname, 255, U, &e), IDNG_OK);
}
END_TEST

/* Name length limits in text form: 253 octets pass, 254 do not. */
START_TEST(test_name_length)
{
    char name[300];
    size_t i;

    for (i = 0; i < 253; i++)
        name[i] = (i % 64 == 63) ? '.' : 'a';
    ck_assert_int_eq(idng_name_check(name, 253, U, NULL), IDNG_OK);
    name[253] = '.';
    ck_assert_int_eq(idng_name_check(name, 254, U, NULL), IDNG_OK);
    name[253] = 'a';
    ck_assert_int_eq(idng_name_check(name, 254, U, NULL), IDNG_E_NAME_TOO_LONG);
    ck_assert_int_eq(idng_to_ascii(name, 254, name, &(size_t){300}, U, 0, NULL),
                     IDNG_E_NAME_TOO_LONG);
}
END_TEST

/* The mapped code points of one label have room for 512: U+FDFA maps to
 * 18 (Arabic letters and spaces), so 28 of them and 8 ASCII letters fill
 * it exactly, and one more code point of either kind (ASCII or not, which
 * the mapping handles apart) is refused as too long, not written past the
 * end (the address sanitizer of asan-check watches the stack).  Exactly
 * full, the label gets as far as its spaces: disallowed. */
START_TEST(test_mapped_length)
{
    static const char *const tails[] = {"aaaaaaaa", "aaaaaaaaa", "aaaaaaaa\xC3\xA9"};
    static const idng_status want[] = {IDNG_E_DISALLOWED, IDNG_E_INPUT_TOO_LONG,
                                       IDNG_E_INPUT_TOO_LONG};
    char in[3 * 28 + 16], out[1024];
    size_t i, k, n;

    for (i = 0; i < sizeof tails / sizeof tails[0]; i++) {
        size_t outlen = sizeof out;
        idng_status st;
        for (n = 0, k = 0; k < 28; k++, n += 3)
            memcpy(in + n, "\xEF\xB7\xBA", 3); /* U+FDFA */
        memcpy(in + n, tails[i], strlen(tails[i]));
        n += strlen(tails[i]);
        st = idng_to_ascii(in, n, out, &outlen, U, 0, NULL);
        ck_assert_msg(st == want[i], "28 x U+FDFA + \"%s\": %s, want %s", tails[i],
                      idng_status_symbol(st), idng_status_symbol(want[i]));
    }
}
END_TEST

/* Canonically equivalent labels have one A-label, whichever form comes in:
 * composed, decomposed, marks in either order, or a precomposed letter
 * followed by a mark that must go inside it (U+00E9 U+0323 is U+1EB9
 * U+0301 in NFC, which composing alone would not find). */
static const char *const equivalents[][5] = {
    {"\xC3\xA9\xCC\xA3", "e\xCC\x81\xCC\xA3", "e\xCC\xA3\xCC\x81", "\xE1\xBA\xB9\xCC\x81", NULL},
    {"\xE1\xB9\xA1\xCC\xA3", "\xE1\xB9\xA3\xCC\x87", "s\xCC\x87\xCC\xA3", "s\xCC\xA3\xCC\x87",
     "\xE1\xB9\xA9"},
    {"\xEA\xB0\x80\xE1\x86\xA8", "\xE1\x84\x80\xE1\x85\xA1\xE1\x86\xA8", "\xEA\xB0\x81", NULL},
    {"\xE2\x84\xAB", "A\xCC\x8A", "\xC3\x85", "a\xCC\x8A", "\xC3\xA5"},
};

START_TEST(test_equivalents)
{
    const char *const *g = equivalents[_i];
    char first[64], out[64];
    size_t flen = sizeof first, k;
    idng_status st;

    st = idng_to_ascii(g[0], strlen(g[0]), first, &flen, U, 0, NULL);
    ck_assert_msg(st == IDNG_OK, "group %d form 0: %s", _i, idng_status_symbol(st));
    for (k = 1; k < 5 && g[k]; k++) {
        size_t olen = sizeof out;
        st = idng_to_ascii(g[k], strlen(g[k]), out, &olen, U, 0, NULL);
        ck_assert_msg(st == IDNG_OK && olen == flen && memcmp(out, first, flen) == 0,
                      "group %d form %zu: %s \"%.*s\", form 0 gave \"%.*s\"", _i, k,
                      idng_status_symbol(st), (int)olen, out, (int)flen, first);
    }
}
END_TEST

static uint32_t rng_state = 0x2545F491u;

static uint32_t rnd(void)
{
    return t_xorshift32(&rng_state);
}

/* Characters names are made of: letters of several scripts, digits, marks,
 * joiners, uppercase and compatibility characters that map. */
static const uint32_t pool[] = {
    'a', 'b', 'z', '0', '9', '-', 'A', 'Q', 0xE4, 0xDF, 0xC4, 0x0301, 0x0308, 0x03B1, 0x03C2,
    0x03A3, 0x0431, 0x0416, 0x05D0, 0x05D1, 0x0627, 0x0644, 0x0660, 0x06F0, 0x0915, 0x094D,
    0x200C, 0x200D, 0x0E01, 0x3042, 0x30AB, 0x30FB, 0x4E2D, 0xAC00, 0x1100, 0x1161, 0xFF21,
    0x00AD, 0x2474, 0x1F600, 0x1F4A9, 0x00B7, 'l', 0x0375, 0x10400, 0x1D400,
};

/* ToUnicode(ToASCII(x)) converts back to the same A-labels, for every
 * generated name that ToASCII accepts; and nothing writes past capacity. */
START_TEST(test_property_round_trip)
{
    unsigned iter, accepted = 0;

    for (iter = 0; iter < 20000; iter++) {
        uint32_t cps[24];
        char name[128], a[300], u[300], a2[300], small[40];
        size_t n = 1 + rnd() % 20, i, alen = sizeof a, ulen = sizeof u, a2len = sizeof a2, slen;
        int mode = (int)(rnd() % 3);
        idng_status st;

        for (i = 0; i < n; i++)
            cps[i] = (rnd() % 7 == 0) ? '.' : pool[rnd() % (sizeof pool / sizeof pool[0])];
        t_cps_to_utf8(cps, n, name, sizeof name);
        st = idng_to_ascii(name, strlen(name), a, &alen, (idng_mode)mode, 0, NULL);
        /* Capacity discipline on the same input with a small buffer. */
        memset(small, 0x5A, sizeof small);
        slen = 16;
        idng_to_ascii(name, strlen(name), small + 4, &slen, (idng_mode)mode, 0, NULL);
        for (i = 0; i < 4; i++)
            ck_assert_int_eq(small[i], 0x5A);
        for (i = 20; i < sizeof small; i++)
            ck_assert_msg(small[i] == 0x5A, "to_ascii(%s) wrote past capacity", name);
        if (st != IDNG_OK)
            continue;
        accepted++;
        st = idng_to_unicode(a, alen, u, &ulen, (idng_mode)mode, 0, NULL);
        ck_assert_msg(st == IDNG_OK, "to_unicode(to_ascii(%s) = %s) failed: %s", name, a,
                      idng_status_symbol(st));
        st = idng_to_ascii(u, ulen, a2, &a2len, (idng_mode)mode, 0, NULL);
        ck_assert_msg(st == IDNG_OK && a2len == alen && memcmp(a, a2, alen) == 0,
                      "to_ascii(to_unicode(%s)) = %s, not stable", a, st == IDNG_OK ? a2 : "error");
        ck_assert_msg(idng_name_check(a, alen, (idng_mode)mode, NULL) == IDNG_OK,
                      "name_check rejects to_ascii output %s", a);
    }
    printf("property: %u of 20000 generated names accepted by to_ascii, all stable\n", accepted);
    ck_assert_uint_gt(accepted, 1000);
}
END_TEST

static Suite *idna_suite(void)
{
    Suite *s = suite_create("idna");
    TCase *tc = tcase_create("tables");

    tcase_add_loop_test(tc, test_good, 0, (int)(sizeof good / sizeof good[0]));
    tcase_add_loop_test(tc, test_bad, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, test_every_class_covered);
    tcase_add_test(tc, test_error_location);
    tcase_add_test(tc, test_status_table);
    tcase_add_loop_test(tc, test_flags, 0, (int)(sizeof flagged / sizeof flagged[0]));
    tcase_add_test(tc, test_mode_names);
    tcase_add_loop_test(tc, test_equivalents, 0, (int)(sizeof equivalents / sizeof equivalents[0]));
    suite_add_tcase(s, tc);
    tc = tcase_create("limits");
    tcase_add_test(tc, test_name_buffers);
    tcase_add_test(tc, test_wire);
    tcase_add_test(tc, test_name_length);
    tcase_add_test(tc, test_mapped_length);
    suite_add_tcase(s, tc);
    tc = tcase_create("properties");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_property_round_trip);
    suite_add_tcase(s, tc);
    return s;
}

IDNG_TEST_MAIN(idna_suite)
