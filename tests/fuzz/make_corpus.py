#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz harnesses: tests/fuzz/corpus/NAME/.

    python3 tests/fuzz/make_corpus.py        (from the top of the tree)

Deterministic (no randomness, standard library only), so the committed
files are reproducible; rerun after changing a list below.  Seeds are the
RFC 3492 samples, the failure classes of the project's reference notes,
length limits, Unicode separators, invalid UTF-8, wire names with pointers
and lying lengths, log-injection names, and the config examples.  Keep the
corpus small: libFuzzer finds the rest.
"""
import glob
import os
import re
import shutil
import struct

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(TOP, "tests", "fuzz", "corpus")

# RFC 3492 section 7.1, (A)-(S): the Punycode strings as printed (case kept).
RFC3492 = [
    "egbpdaj6bu4bxfgehfvwxn", "ihqwcrb4cv8a8dqg056pqjye", "ihqwctvzc91f659drss3x8bo0yb",
    "Proprostnemluvesky-uyb24dma41a", "4dbcagdahymbxekheh6e0a7fei0b",
    "i1baa7eci9glrd9b2ae1bj0hfcgg6iyaf8o0a1dig0cd", "n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa",
    "989aomsvi5e83db1d2a355cv1e0vak1dwrv93d5xbh15a0dt30a5jpsd879ccm6fea98c",
    "b1abfaaepdrnnbgefbaDotcwatmq2g4l", "PorqunopuedensimplementehablarenEspaol-fmd56a",
    "TisaohkhngthchnitingVit-kjcr8268qyxafd2f1b9g", "3B-ww4c5e180e575a65lsy2b",
    "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n", "Hello-Another-Way--fc4qua05auwb3674vfr0b",
    "2-u9tlzr9756bt3uc0v", "MajiKoi5-783gue6qz075azm5e", "de-jg4avhby1noc0d",
    "d9juau41awczczp", "-> $1.00 <--",
]

# Punycode parts of the reference failure classes and other edge cases.
PUNY_EXTRA = [
    "0000h", "a-9z5g", "example-nka", "bc-3fa", "bc-kw3n", "ab-uub", "ab-m1t", "a", "example-",
    "", "1-0hc", "bcher-kva", "BCHER-KVA", "ls8h", "n28h", "-", "--", "abc-", "-abc", "a-",
    "99999999999", "zzzzzzzzzzzzz", "9zzzzzzzzzzzzzz", "ygbi2ammxeg6a", "a" * 59, "4db", "0-sfa",
    "ab\x00-tda", "a\xc3\xbc-tda",
]

UNICODE_TEXTS = [
    "München", "Bücher", "правда", "도메인", "ドメイン名例", "Majiでkoiする5秒前", "「bücher」",
    "\U0001F609", "😀" * 10, "ß", "faß", "αβγ", "ابجد", "אבג", "0à", "a\u200db", "\u0915\u094d\u200d",
    "l\u00b7l", "\u30fb\u30a2", "\u0660\u06f0", "exa\u00admple", "\ufdfa", "\u0301a", "a\u202eb",
    "\U0010ffff", "\ue000",
]

NAMES = [
    "xn--0000h", "xn--a-9z5g", "xn--example-nka", "xn--bc-3fa", "xn--bc-kw3n", "xn--ab-uub",
    "xn--ab-m1t", "xn--a", "xn--example-", "xn--", "xn--1-0hc", "xn--bcher-kva.example",
    "XN--BCHER-KVA.EXAMPLE.", "xn--ls8h.la", "xn--0-sfa.example", "xn--0-sfa.xn--4db",
    "xn--example-.org", "xn--xn--abc-9ja", "_dmarc.example", "r3---sn-abc.googlevideo.com",
    "-x.example", "a--b", "a..b", ".", "", "..", "example.", "example..", ".example",
    "xn--bcher-kva.example.", "a.b.c.d.e.f.g", "xn--80aafi6cg.xn--p1ai", "xn--ygbi2ammxeg6a",
    "xn--4db.xn--5db", "xn--l-fda.l", "xn--ll-0ea", "xn--" + "a" * 59, "xn--" + "a" * 60,
    "a" * 63, "a" * 64, "a" * 63 + "." + "b" * 63 + "." + "c" * 63 + "." + "d" * 61,
    "a" * 63 + "." + "b" * 63 + "." + "c" * 63 + "." + "d" * 61 + ".",
    "a" * 63 + "." + "b" * 63 + "." + "c" * 63 + "." + "d" * 62,
    ("a." * 127)[:-1], "a." * 127, "xn--bcher-kva." * 18,
    "Bücher.DE", "bücher。example", "bücher．example", "bücher｡example", "bücher.example。",
    "ｘｎ--bcher-kva.example", "ＸＮ－－ＢＣＨＥＲ－ＫＶＡ", "ＢＵＣＨＥＲ.de", "exa\u00admple.com",
    "a\u200db.example", "\u0915\u094d\u200d.in", "\u05d0\u05d1.example", "0à.א", "\u202egoogle.com",
    "\u2028.example", "faß.de", "l·l.cat", "😉.la", "\ufdfa" * 20, "\u0301a.example",
    "xn--bcher-kva.\u00fc", "\U0001F609" * 60 + ".la",
]

BAD_UTF8 = [
    b"\xc0\xaf.example", b"\xed\xa0\x80.example", b"\xf4\x90\x80\x80", b"\xe2\x82", b"\x80",
    b"b\xc3\xbccher\xff.example", b"\xef\xbb\xbfexample", b"a\x00b.example", b"a\nb.example",
]


def puny(s):
    return s.encode("punycode")


def alabel(s):
    return b"xn--" + puny(s)


def write(name, files):
    d = os.path.join(OUT, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    seen = set()
    n = 0
    for data in files:
        if data in seen:
            continue
        seen.add(data)
        slug = re.sub(rb"[^A-Za-z0-9_-]+", b"_", data[:24]).decode("ascii").strip("_")
        with open(os.path.join(d, "seed-%03d%s" % (n, "-" + slug if slug else "")), "wb") as f:
            f.write(data)
        n += 1
    return n


def text_names():
    out = [n.encode("utf-8") for n in NAMES]
    out += [t.encode("utf-8") for t in UNICODE_TEXTS]
    out += [alabel(t) for t in UNICODE_TEXTS]
    out += BAD_UTF8
    out += [b"x" * 1024, b"x" * 1025, (b"a." * 512)[:1024], b"\xf0\x9f\x98\x80" * 256]
    return out


def wire(name):
    """Text name (bytes, '.'-separated) to wire form; no checks."""
    if name in (b"", b"."):
        return b"\x00"
    labels = name.rstrip(b".").split(b".")
    return b"".join(bytes([len(l) & 0xFF]) + l for l in labels) + b"\x00"


def wire_names():
    names = [n.encode("utf-8") for n in NAMES if ".." not in n and not n.startswith(".")]
    out = [wire(n) for n in names if all(0 < len(l) <= 63 for l in n.rstrip(b".").split(b"."))
           or n in (b"", b".")]
    out += [
        wire(b"ok.example"), wire(b"OK.Example"), wire(b"deny.ok.example"),
        wire(b"x.deny.ok.example"), wire(b"bad.example"), wire(b"xn--ab-m1t.example"),
        wire(b"xn--bcher-kva.allow.example"), wire("bücher.allow.example".encode()),
        wire(b"xn--bcher-kva.test"), wire("bücher.test".encode()), wire("Bücher.example".encode()),
        wire("ｂüｃｈｅｒ.example".encode()), wire("a。b.example".encode()),
        wire("a．b".encode()), b"\x03a.b\x07example\x00", wire(b"xn--0000h.example"),
        b"\x07example\xc0\x0c", b"\xc0\x0c", b"\x0aexa\x00", b"\x07example", b"",
        b"\x41abc\x00", b"\x3f" + b"a" * 63 + b"\x00", b"\x40" + b"a" * 64 + b"\x00",
        (b"\x01a" * 127) + b"\x00", (b"\x01a" * 128) + b"\x00",
        b"\x3f" + b"a" * 63 + b"\x3f" + b"b" * 63 + b"\x3f" + b"c" * 63 + b"\x3d" + b"d" * 61 + b"\x00",
        b"\x3f" + b"a" * 63 + b"\x3f" + b"b" * 63 + b"\x3f" + b"c" * 63 + b"\x3e" + b"d" * 62 + b"\x00",
        b"\x00trailing", wire(b"\xff\xfe.example"), wire(b"\xc0\xaf.example"),
        wire(alabel("a\u202eb") + b".example"), wire(b"xn--a.example"),
        # lookalikes of the harness's protected names, and a mixed-number label
        wire(b"xn--pypal-4ve.example"), wire(b"login.xn--pypal-4ve.example"),
        wire(b"paypal.example"), wire("p\u0430ypal.example".encode()),
        wire(b"xn--bcher-kva.example"), wire(b"xn--2-wtd80a.example"),
        wire(b"xn--aypal-i4k.example"), wire(b"xn--ls8h.example"),
    ]
    return out


def uts39_inputs():
    """A control byte, then 3 octets per code point (fuzz_uts39.c)."""
    def cps(s, ctl=0):
        return bytes([ctl]) + b"".join(ord(c).to_bytes(3, "big") for c in s)
    out = [cps(t) for t in UNICODE_TEXTS]
    out += [cps("p\u0430ypal"), cps("paypal.com", 4), cps("\u0660\u06f0"),
            cps("a\u0301\u0323\u1e0b\u0307"), cps("\ufdfa\ufdfb", 8),
            cps("\u01c4\u321d\u048b"), cps("\u4e2d\u3042\u30a2abc"),
            cps("\u0905\u0967" + "2"), cps("x" * 70, 12), cps("\u1f80" * 40),
            bytes([0]) + b"\xff\x00\x00" + b"\x00\xd8\x00"]
    return out


def log_names():
    base = [
        wire(b"xn--bcher-kva.example"), wire(b"a\nb.example"), wire(b"a\rb"), wire(b"\x1b[31mred"),
        wire("\u202egoogle.com".encode()), wire("\u2028x".encode()), wire(b"\xff\xfe\x80"),
        wire(b"a b(c)\\d\"e;f@g$h#i:j"), wire(b"a.b"), b"\x03a.b\x00", wire(b"\x7f\x00\x1f"),
        wire(alabel("a\u202eb")), wire(alabel("\u200e\u200f\u2066\u2069")),
        wire(alabel("\u2028é")), wire(b"xn--" + puny("a.b(é) c\n")), wire(alabel("é\"\\")),
        wire(b"xn--ab-m1t.example"), wire(b"XN--BCHER-KVA.Example"), wire(b"xn--ls8h.la"),
        wire(b"xn--4db.xn--0-sfa"), b"\x07example\xc0\x0c", b"\x0aexa\x00", b"", b"\x00",
        wire(b"\\#malformed"), (b"\x3f" + b"\xe2\x80\xae" * 21) * 3 + b"\x00",
        (b"\x01\x0a" * 127) + b"\x00", wire(alabel("\U0001F609" * 14)),
    ]
    out = []
    for i, q in enumerate(base):
        for ctl in (0x00, 0x01, 0x02 | 0x04, 0x01 | 0x08 | 0x10, 0x30 | 0x40, 0xFF):
            if (i + ctl) % 3 == 0 or ctl in (0x00, 0x01):
                out.append(bytes([ctl, (i * 37 + ctl) & 0xFF]) + q)
    return out


def encode_inputs():
    out = []
    texts = ["", "a", "A", "-", "London", "-> $1.00 <-"] + UNICODE_TEXTS + [
        "ÄÖÜäöü", "Mnchen-3ya", "\U0010FFFF\U00010000", "a" * 70, "\u00e9" * 200]
    for t in texts:
        cps = [ord(c) for c in t]
        for use_flags in (0, 1):
            b = bytes([use_flags | 0x40])
            for c in cps:
                flag = 1 if (c < 0x80 and chr(c).isupper()) or (c >= 0x80 and chr(c).isupper()) else 0
                b += struct.pack(">I", c)[1:] + bytes([flag])
            out.append(b)
    # Surrogates, the maximum, beyond it, and a long input.
    out.append(b"\x00" + b"\x00\xd8\x00\x00" + b"\x00\x00\x61\x00")
    out.append(b"\x01" + b"\x10\xff\xff\x01" + b"\x00\xdf\xff\x00")
    out.append(b"\x00" + b"\xff\x00\x00\x00")
    out.append(b"\x00" + b"\x00\x00\x80\x00" * 300)
    out.append(b"\x01" + b"\x10\xff\xff\x01\x00\x00\x80\x00" * 400)
    return out


def conf_inputs():
    files = [os.path.join(TOP, "conf", "idnguard.conf.example"),
             os.path.join(TOP, "conf", "unbound.conf.example")]
    files += sorted(glob.glob(os.path.join(TOP, "tests", "conf", "data", "*.in")))
    out = []
    for f in files:
        with open(f, "rb") as fh:
            out.append(fh.read())
    out += [
        b"idnguard:\n  allow: \xe2\x80\xae.example\n",
        b"idnguard:\n  deny: \"a\\\"b\"\n",
        b"idnguard:\n  mode: \xe2\x80\x8futs46\n",
        b"idnguard:\r\n  log-file: \"/tmp/x\x1b[2J\"\r\n",
        b"idnguard:\n  allow: " + "b\u00fccher.example".encode() + b"\n  deny: xn--bcher-kva.example\n",
    ]
    return out


def lint_inputs():
    """Control octet (bit 0 JSON, bits 1-2 mode, bit 3 an origin), then a master file:
    the lint-zone test zones, and a few of ldns's harder corners."""
    out = []
    for i, f in enumerate(sorted(glob.glob(os.path.join(TOP, "tests", "cli", "zones", "lint", "*.db")))):
        with open(f, "rb") as fh:
            out.append(bytes([i % 16]) + fh.read())
    out += [
        b"\x08www IN CNAME xn--zz\n( a b\n",
        b"\x01$ORIGIN xn--zz.\n@ IN SOA a b ( 1 2 3\n 4 5 )\n\\# IN TYPE65280 \\# 2 0102\n",
        b"\x09$TTL 1d\n$INCLUDE x.db sub\n\"quoted\" IN A 192.0.2.1\nb\\195\\188 IN MX 1 \\000.\n",
        b"\x00" + b"a." * 130 + b" IN A 192.0.2.1\n" + b"x" * 70 + b" IN A 192.0.2.1\n",
    ]
    return out


def main():
    counts = {}
    counts["punycode_decode"] = write(
        "punycode_decode", [p.encode("latin-1") for p in RFC3492 + PUNY_EXTRA]
        + [puny(t) for t in UNICODE_TEXTS])
    counts["punycode_encode"] = write("punycode_encode", encode_inputs())
    counts["label_check"] = write("label_check", text_names())
    counts["to_ascii"] = write("to_ascii", text_names())
    counts["to_unicode"] = write("to_unicode", text_names())
    counts["conf_parse"] = write("conf_parse", conf_inputs())
    counts["classify"] = write("classify", wire_names())
    counts["log_escape"] = write("log_escape", log_names())
    counts["uts39"] = write("uts39", uts39_inputs())
    counts["lint_zone"] = write("lint_zone", lint_inputs())
    for k, v in counts.items():
        print("%s: %d seeds" % (k, v))


if __name__ == "__main__":
    main()
