/**
 * \file
 * Check suite for the idnguard command-line tool: items given as operands
 * (conversions, check, the options anywhere before "--", formats and the
 * UTS #46 options), and encode --case | decode --case giving the input
 * back.  Runs the real binary (see cli_run.h).
 */
#include "cli_run.h"
#include "common.h"

#include "idng_log.h"
#include "idnguard.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* Items given as operands.                                                  */

/** One run with operands and no standard input. */
struct operand_case {
    const char *name;
    const char *args[MAX_ARGS + 1];
    const char *lines[MAX_ARGS + 1];
    int status;
};

static const struct operand_case codec_cases[] = {
    {"encode München", {"encode", "München"}, {"Mnchen-3ya"}, 0},
    {"decode Mnchen-3ya", {"decode", "Mnchen-3ya"}, {"München"}, 0},
    {"encode two operands", {"encode", "München", "bücher"}, {"Mnchen-3ya", "bcher-kva"}, 0},
    /* Without --case, basic code points are copied as they are. */
    {"encode Bücher", {"encode", "Bücher"}, {"Bcher-kva"}, 0},
    {"decode Bcher-kva", {"decode", "Bcher-kva"}, {"Bücher"}, 0},
    {"decode BCHER-kvA without --case", {"decode", "BCHER-kvA"}, {"BüCHER"}, 0},
    /* --case lowercases and records the case in the annotation: an
     * uppercase basic letter, or an uppercase final digit of a delta. */
    {"encode --case Bücher", {"encode", "--case", "Bücher"}, {"Bcher-kva"}, 0},
    {"decode --case Bcher-kva", {"decode", "--case", "Bcher-kva"}, {"Bücher"}, 0},
    {"encode --case BÜCHER", {"encode", "--case", "BÜCHER"}, {"BCHER-kvA"}, 0},
    /* In text, a code point UTS #46 maps (an uppercase letter) is shown
     * escaped, as the display unit shows text; JSON strings carry it. */
    {"decode --case BCHER-kvA", {"decode", "--case", "BCHER-kvA"}, {"B\\u{00DC}CHER"}, 0},
    {"decode --case --format=json BCHER-kvA",
     {"decode", "--case", "--format=json", "BCHER-kvA"},
     {"{\"input\":\"BCHER-kvA\",\"status\":\"ok\",\"output\":\"B\\u00dcCHER\"}"},
     0},
    {"decode --case bcher-kvA", {"decode", "--case", "bcher-kvA"}, {"b\\u{00DC}cher"}, 0},
    {"encode --case ÄÖÜ", {"encode", "--case", "ÄÖÜ"}, {"4cA0BS"}, 0},
    {"decode --case 4cA0BS", {"decode", "--case", "4cA0BS"}, {"\\u{00C4}\\u{00D6}\\u{00DC}"}, 0},
    /* RFC 3492 section 7.1, samples (L) and (M), with their case. */
    {"RFC 3492 (L) encode",
     {"encode", "--case", "3年B組金八先生"},
     {"3B-ww4c5e180e575a65lsy2b"},
     0},
    {"RFC 3492 (L) decode",
     {"decode", "--case", "3B-ww4c5e180e575a65lsy2b"},
     {"3年B組金八先生"},
     0},
    {"RFC 3492 (M) encode",
     {"encode", "--case", "安室奈美恵-with-SUPER-MONKEYS"},
     {"-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"},
     0},
    {"RFC 3492 (M) decode",
     {"decode", "--case", "--", "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"},
     {"安室奈美恵-with-SUPER-MONKEYS"},
     0},
    {"encode all-ASCII gets a delimiter", {"encode", "last"}, {"last-"}, 0},
    {"encode after --", {"encode", "--", "--case"}, {"--case-"}, 0},
    {"decode 0000h", {"decode", "0000h"}, {"ERROR bad-codepoint: *"}, 1},
    {"decode overflow", {"decode", "99999999999a"}, {"ERROR bad-punycode: *"}, 1},
    {"decode bad digit", {"decode", "zz%"}, {"ERROR bad-punycode: *"}, 1},
    {"decode truncated", {"decode", "zz"}, {"ERROR bad-punycode: *"}, 1},
    {"encode bad UTF-8", {"encode", "b\xc3"}, {"ERROR bad-utf8: *"}, 1},
    {"decode ok then failure",
     {"decode", "Mnchen-3ya", "0000h"},
     {"München", "ERROR bad-codepoint: *"},
     1},

    {"to-ascii Bücher.DE", {"to-ascii", "Bücher.DE"}, {"xn--bcher-kva.de"}, 0},
    {"to-ascii fullwidth", {"to-ascii", "ｂｕｃｈｅｒ.de"}, {"bucher.de"}, 0},
    {"to-ascii ideographic full stop", {"to-ascii", "bücher。de"}, {"xn--bcher-kva.de"}, 0},
    {"to-ascii _dmarc", {"to-ascii", "_dmarc.Bücher.de"}, {"_dmarc.xn--bcher-kva.de"}, 0},
    {"to-ascii trailing dot",
     {"to-ascii", "xn--bcher-kva.example."},
     {"xn--bcher-kva.example."},
     0},
    {"to-ascii uppercase ASCII", {"to-ascii", "WWW.Example.COM"}, {"www.example.com"}, 0},
    {"to-ascii empty label", {"to-ascii", "a..b"}, {"ERROR empty-label: *"}, 1},
    {"to-ascii xn-- label", {"to-ascii", "xn--.de"}, {"ERROR empty-label: xn--: *"}, 1},
    {"to-ascii --strict _dmarc",
     {"to-ascii", "--strict", "_dmarc.example"},
     {"ERROR disallowed: _dmarc: *"},
     1},
    {"to-ascii --strict -x",
     {"to-ascii", "--strict", "--", "-x.example"},
     {"ERROR hyphen: -x: label begins or ends with '-'"},
     1},
    {"to-unicode trailing dot", {"to-unicode", "xn--bcher-kva.example."}, {"bücher.example."}, 0},
    {"to-unicode emoji", {"to-unicode", "xn--ls8h.la"}, {"💩.la"}, 0},
    {"to-unicode uppercase A-label", {"to-unicode", "XN--BCHER-KVA.DE"}, {"bücher.de"}, 0},
    {"to-unicode emoji idna2008",
     {"to-unicode", "--mode=idna2008", "xn--ls8h.la"},
     {"ERROR disallowed: xn--ls8h: *"},
     1},
    {"to-unicode bidi", {"to-unicode", "xn--1-0hc.de"}, {"ERROR bidi: xn--1-0hc: *"}, 1},
};

static const struct operand_case check_cases[] = {
    {"check emoji uts46", {"check", "xn--ls8h.la"}, {"ok"}, 0},
    {"check emoji --mode=uts46", {"check", "--mode=uts46", "xn--ls8h.la"}, {"ok"}, 0},
    {"check emoji idna2008",
     {"check", "--mode=idna2008", "xn--ls8h.la"},
     {"ERROR disallowed: xn--ls8h: *"},
     1},
    {"check emoji punycode", {"check", "--mode=punycode", "xn--ls8h.la"}, {"ok"}, 0},
    {"check soft hyphen",
     {"check", "xn--example-nka.org"},
     {"ERROR not-canonical: xn--example-nka: *"},
     1},
    {"check soft hyphen idna2008",
     {"check", "--mode=idna2008", "xn--example-nka.org"},
     {"ERROR disallowed: xn--example-nka: *"},
     1},
    {"check _dmarc", {"check", "_dmarc.example"}, {"ok"}, 0},
    {"check r3---sn", {"check", "r3---sn-abc.googlevideo.com"}, {"ok"}, 0},
    {"check -x", {"check", "--", "-x.example"}, {"ok"}, 0},
    {"check a--b", {"check", "a--b.example"}, {"ok"}, 0},
    {"check uppercase A-label", {"check", "XN--BCHER-KVA.de"}, {"ok"}, 0},
    {"check A-label", {"check", "xn--bcher-kva.example."}, {"ok"}, 0},
    {"check root", {"check", "."}, {"ok"}, 0},
    {"check bidi", {"check", "xn--1-0hc"}, {"ERROR bidi: *"}, 1},
    {"check xn--", {"check", "xn--"}, {"ERROR empty-label: *"}, 1},
    {"check xn--example-", {"check", "xn--example-"}, {"ERROR ascii-only: *"}, 1},
    {"check raw UTF-8",
     {"check", "bücher.de"},
     {"ERROR raw-8bit: bücher: label holds octets >= 0x80; a U-label name: to-ascii gives "
      "xn--bcher-kva.de"},
     1},
    {"check raw UTF-8 to-ascii refuses",
     {"check", "b\xc3\xbc_cher.de"},
     {"ERROR raw-8bit: bü_cher: label holds octets >= 0x80; a U-label name, which to-ascii "
      "refuses too"},
     1},
    {"check raw UTF-8 --format=json",
     {"check", "--format=json", "bücher.de"},
     {"{\"input\":\"bücher.de\",\"status\":\"error\",\"class\":\"raw-8bit\",\"label\":"
      "\"bücher\",\"offset\":0,\"message\":"
      "\"label\\u0020holds\\u0020octets\\u0020>=\\u00200x80\",\"codepoint\":null,"
      "\"to_ascii\":\"xn--bcher-kva.de\"}"},
     1},
    {"check bad Punycode", {"check", "xn--zz%.de"}, {"ERROR bad-punycode: xn--zz%: *"}, 1},
    {"check all pass",
     {"check", "xn--ls8h.la", "_dmarc.example", "a--b.example"},
     {"ok", "ok", "ok"},
     0},
    {"check one fails",
     {"check", "xn--ls8h.la", "xn--", "a--b.example"},
     {"ok", "ERROR empty-label: xn--: *", "ok"},
     1},
    /* Without --conf the codec alone judges: a lookalike is a valid name,
     * and its raw spelling a U-label name. */
    {"check lookalike without --conf",
     {"check", "xn--pypal-4ve.com", "p\xd0\xb0ypal.com"},
     {"ok", "ERROR raw-8bit: p\xd0\xb0ypal: *"},
     1},
};

/* Options anywhere before "--", formats and the UTS #46 options: every
 * line exact. */
static const struct operand_case option_cases[] = {
    /* An option after an item applies to every item. */
    {"option after an item",
     {"check", "xn--ls8h.la", "--mode=idna2008"},
     {"ERROR disallowed: xn--ls8h: code point is disallowed (U+1F4A9)"},
     1},
    {"items after --", {"check", "--", "--help", "-h", "-"}, {"ok", "ok", "ok"}, 0},
    {"to-ascii -- -x", {"to-ascii", "--", "-X.example"}, {"-x.example"}, 0},
    /* text: an answer holds no space (\032), so it never reads as an
     * ERROR line; controls and '\\' escaped too. */
    {"to-ascii space", {"to-ascii", "a b.DE"}, {"a\\032b.de"}, 0},
    {"to-ascii ESC and backslash", {"to-ascii", "a\x1b\\.de"}, {"a\\027\\092.de"}, 0},
    {"decode ERROR lookalike", {"decode", "ERROR x-"}, {"ERROR\\032x"}, 0},
    {"to-unicode text", {"to-unicode", "xn--bcher-kva.de"}, {"bücher.de"}, 0},
    {"to-ascii tsv",
     {"to-ascii", "--format=tsv", "Bücher.DE", "a..b", "a b.de", "xn--zz%"},
     {"Bücher.DE\tok\txn--bcher-kva.de", "a..b\tempty-label\tempty label",
      "a\\032b.de\tok\ta\\032b.de", "xn--zz%\tbad-punycode\txn--zz%: invalid Punycode digit"},
     1},
    {"to-ascii json",
     {"to-ascii", "--format=json", "Bücher.DE", "a..b"},
     {"{\"input\":\"Bücher.DE\",\"status\":\"ok\",\"output\":\"xn--bcher-kva.de\"}",
      "{\"input\":\"a..b\",\"status\":\"error\",\"class\":\"empty-label\",\"label\":\"\","
      "\"offset\":2,\"message\":\"empty\\u0020label\",\"codepoint\":null}"},
     1},
    {"to-unicode json",
     {"to-unicode", "--format=json", "xn--bcher-kva.de", "a.xn--1-0hc"},
     {"{\"input\":\"xn--bcher-kva.de\",\"status\":\"ok\",\"output\":\"bücher.de\"}",
      "{\"input\":\"a.xn--1-0hc\",\"status\":\"error\",\"class\":\"bidi\",\"label\":"
      "\"xn--1-0hc\",\"offset\":2,\"message\":\"first\\u0020character\\u0020is\\u0020not"
      "\\u0020L,\\u0020R\\u0020or\\u0020AL\\u0020(RFC\\u00205893\\u0020rule\\u00201)\","
      "\"codepoint\":\"U+0031\"}"},
     1},
    {"json escapes input",
     {"to-ascii", "--format=json", "a\"\\\x01.de"},
     {"{\"input\":\"a\\\"\\\\\\u0001.de\",\"status\":\"ok\",\"output\":\"a\\\"\\\\\\u0001.de\"}"},
     0},
    {"json: an octet that is not UTF-8",
     {"to-ascii", "--format=json", "a\xff.de"},
     {"{\"input\":\"a\\ufffd.de\",\"status\":\"error\",\"class\":\"bad-utf8\",\"label\":"
      "\"a\\ufffd\",\"offset\":0,\"message\":\"invalid\\u0020UTF-8\",\"codepoint\":null}"},
     1},
    {"tsv fields hold no tab",
     {"check", "--format=tsv", "a b\tc.de"},
     {"a\\032b\\009c.de\tok\t"},
     0},
    {"check tsv",
     {"check", "--format=tsv", "xn--ls8h.la", "xn--"},
     {"xn--ls8h.la\tok\t", "xn--\tempty-label\txn--: A-label decodes to nothing"},
     1},
    {"check json",
     {"check", "--format=json", "xn--ls8h.la"},
     {"{\"input\":\"xn--ls8h.la\",\"status\":\"ok\"}"},
     0},
    {"encode tsv",
     {"encode", "--format=tsv", "München", "b\\c"},
     {"München\tok\tMnchen-3ya", "b\\092c\tok\tb\\092c-"},
     0},
    {"decode json error",
     {"decode", "--format=json", "0000h"},
     {"{\"input\":\"0000h\",\"status\":\"error\",\"class\":\"bad-codepoint\",\"label\":null,"
      "\"offset\":null,\"message\":\"code\\u0020point\\u0020above\\u0020U+10FFFF\","
      "\"codepoint\":null}"},
     1},
    /* UTS #46 options. */
    {"--transitional",
     {"to-ascii", "--transitional", "Faß.de",
      "a\xe2\x80\x8d"
      "b.de"},
     {"fass.de", "ab.de"},
     0},
    {"nontransitional",
     {"to-ascii", "Faß.de",
      "a\xe2\x80\x8d"
      "b.de"},
     {"xn--fa-hia.de",
      "ERROR contextj: a\\u{200D}b: joiner not allowed here (RFC 5892 A.1, A.2) (U+200D)"},
     1},
    {"to-unicode ignores --transitional",
     {"to-unicode", "--transitional", "Faß.de"},
     {"faß.de"},
     0},
    {"--no-check-hyphens",
     {"to-ascii", "--no-check-hyphens", "--", "-bü-.de"},
     {"xn---b--ioa.de"},
     0},
    {"check hyphens",
     {"to-ascii", "--", "-bü-.de"},
     {"ERROR hyphen: -bü-: label begins or ends with '-'"},
     1},
    {"--no-std3", {"to-ascii", "--no-std3", "ü_.de"}, {"xn--_-dha.de"}, 0},
    {"std3", {"to-ascii", "ü_.de"}, {"ERROR disallowed: ü_: code point is disallowed (U+005F)"}, 1},
    {"--no-dns-length", {"to-ascii", "--no-dns-length", "a..b", "\xc2\xad.de"}, {"a..b", ".de"}, 0},
    {"--no-bidi", {"to-ascii", "--no-bidi", "xn--1-0hc.de"}, {"xn--1-0hc.de"}, 0},
    {"--no-joiners",
     {"to-ascii", "--no-joiners",
      "a\xe2\x80\x8c"
      "b.de"},
     {"xn--ab-j1t.de"},
     0},
    {"--check-contexto",
     {"to-ascii", "--check-contexto", "a·b.de", "l·l.de"},
     {"ERROR contexto: a·b: code point not allowed in this context (RFC 5892 A.3-A.9) (U+00B7)",
      "xn--ll-0ea.de"},
     1},
    {"--profile=whatwg",
     {"to-ascii", "--profile=whatwg", "--", "a_b--c-.EX", "a..b", "xn--1-0hc.de"},
     {"a_b--c-.ex", "a..b",
      "ERROR bidi: xn--1-0hc: first character is not L, R or AL (RFC 5893 rule 1) (U+0031)"},
     1},
    {"--profile=whatwg then dns",
     {"to-ascii", "--profile=whatwg", "--profile=dns", "a..b"},
     {"ERROR empty-label: empty label"},
     1},
    {"--profile=idna2008-registration",
     {"to-ascii", "--profile=idna2008-registration", "--", "-x.de", "xn--ls8h.la"},
     {"ERROR hyphen: -x: label begins or ends with '-'",
      "ERROR disallowed: xn--ls8h: code point is disallowed (U+1F4A9)"},
     1},
    {"--profile=idna2008-lookup",
     {"to-ascii", "--profile=idna2008-lookup", "--", "-bücher.de"},
     {"xn---bcher-4ya.de"},
     0},
    /* The modes by name: idna2008 is the registration. */
    {"--mode=idna2008-lookup",
     {"to-unicode", "--mode=idna2008-lookup", "xn---bcher-4ya.de"},
     {"-bücher.de"},
     0},
    {"--mode=idna2008-registration",
     {"check", "--mode=idna2008-registration", "xn---bcher-4ya.de", "xn--ls8h.la"},
     {"ERROR hyphen: xn---bcher-4ya: label begins or ends with '-'",
      "ERROR disallowed: xn--ls8h: code point is disallowed (U+1F4A9)"},
     1},
    {"--mode=idna2008",
     {"check", "--mode=idna2008", "xn---bcher-4ya.de"},
     {"ERROR hyphen: xn---bcher-4ya: label begins or ends with '-'"},
     1},
    {"check --mode=idna2008-lookup",
     {"check", "--mode=idna2008-lookup", "xn---bcher-4ya.de"},
     {"ok"},
     0},
    /* A last label of ignored code points only is the root. */
    {"soft hyphen after the root", {"to-ascii", "example.com.\xc2\xad"}, {"example.com."}, 0},
};

static void run_operand_case(const struct operand_case *c)
{
    run_result r;

    run_cli(c->args, "", 0, &r);
    ck_assert_msg(r.status == c->status,
                  "%s: exit status %d, expected %d (stdout \"%s\", stderr \"%s\")", c->name,
                  r.status, c->status, r.out, r.err);
    expect_lines(c->name, r.out, r.out_len, c->lines);
    ck_assert_msg(r.err_len == 0, "%s: unexpected stderr \"%s\"", c->name, r.err);
    run_free(&r);
}

START_TEST(test_codec_operands)
{
    run_operand_case(&codec_cases[_i]);
}
END_TEST

START_TEST(test_check_operands)
{
    run_operand_case(&check_cases[_i]);
}
END_TEST

START_TEST(test_option_operands)
{
    run_operand_case(&option_cases[_i]);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* encode --case | decode --case gives the input back.                       */

static const char *const case_words[] = {
    "Bücher",  "BÜCHER",     "bÜcher",  "München",        "MÜNCHEN",
    "ÄÖÜ",     "ПРИВЕТ-Мир", "ΣΊΣΥΦΟΣ", "3年B組金八先生", "安室奈美恵-with-SUPER-MONKEYS",
    "Ünïcödé", "CamelCase",
};

START_TEST(test_case_roundtrip)
{
    const char *word = case_words[_i];
    const char *enc_args[] = {"encode", "--case", "--", word, NULL};
    char encoded[256];
    /* "--": an encoded label may itself begin with "--" ("ПРИВЕТ-Мир"). */
    const char *dec_args[] = {"decode", "--case", "--format=json", "--", encoded, NULL};
    char want[1024];
    run_result r;
    size_t i, n;
    int upper = 0;

    run_cli(enc_args, "", 0, &r);
    ck_assert_msg(r.status == 0, "encode --case %s: exit status %d (%s)", word, r.status, r.out);
    ck_assert_msg(r.out_len > 1 && r.out[r.out_len - 1] == '\n'
                      && count_lines(r.out, r.out_len) == 1,
                  "encode --case %s: not one line: \"%s\"", word, r.out);
    ck_assert(r.out_len < sizeof encoded);
    memcpy(encoded, r.out, r.out_len - 1);
    encoded[r.out_len - 1] = '\0';
    for (i = 0; encoded[i] != '\0'; i++) {
        ck_assert_msg((unsigned char)encoded[i] < 0x80, "encode --case %s: non-ASCII output", word);
        upper |= encoded[i] >= 'A' && encoded[i] <= 'Z';
    }
    ck_assert_msg(upper, "encode --case %s: \"%s\" carries no uppercase annotation", word, encoded);
    run_free(&r);

    /* JSON gives the code points exactly (text escapes the uppercase
     * ones): the output string is the word, escaped by the log's escaper. */
    n = (size_t)snprintf(want, sizeof want, "{\"input\":\"%s\",\"status\":\"ok\",\"output\":\"",
                         encoded);
    ck_assert(n + 6 * strlen(word) + 3 < sizeof want);
    n += idng_json_escape((const unsigned char *)word, strlen(word), want + n);
    memcpy(want + n, "\"}\n", 4);
    run_cli(dec_args, "", 0, &r);
    ck_assert_msg(r.status == 0, "decode --case %s: exit status %d (%s)", encoded, r.status, r.out);
    ck_assert_msg(strcmp(r.out, want) == 0, "decode --case %s: \"%s\", expected \"%s\"", encoded,
                  r.out, want);
    run_free(&r);
}
END_TEST

static Suite *cli_items_suite(void)
{
    Suite *s = suite_create("cli_items");
    TCase *tc;

    if (cli_bin_missing(s, "test_cli_items"))
        return s;

    tc = tcase_create("operands");
    tcase_add_loop_test(tc, test_codec_operands, 0, N_OF(codec_cases));
    tcase_add_loop_test(tc, test_check_operands, 0, N_OF(check_cases));
    tcase_add_loop_test(tc, test_option_operands, 0, N_OF(option_cases));
    tcase_add_loop_test(tc, test_case_roundtrip, 0, N_OF(case_words));
    suite_add_tcase(s, tc);

    return s;
}

IDNG_TEST_MAIN(cli_items_suite)
