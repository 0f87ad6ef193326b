#!/usr/bin/env python3
"""Generates codec/unicode_tables.c and codec/unicode_tables.h for idnguard.

Inputs, all for one Unicode version (15.0), each pinned by name, Unicode
version, Debian package and SHA-256 in tools/tables.manifest:
  --ucd DIR    the Unicode Character Database as Debian's unicode-data package
               installs it (UnicodeData.txt, PropList.txt, ..., extracted/,
               emoji/emoji-data.txt)
  --idna DIR   the UTS #46 data as Debian's unicode-idna package installs it
               (IdnaMappingTable.txt, Unicode's own file: every status,
               valid, mapped, ignored, deviation, disallowed and the two
               disallowed_STD3 ones, is read from its data lines)
  --icu DIR    the source/ directory of Debian's icu source package, for
               UTS #39: data/unidata/confusables.txt, and i18n/uspoof.cpp,
               whose two UnicodeSet patterns are the Identifier_Status=Allowed
               set (parsed here; anything but plain characters, escapes and
               ranges stops the generator)

Before it reads any input, the generator checks every file the manifest
names against its SHA-256 (and, where the file states one in its first
lines, its Unicode version), and stops at the first mismatch, naming the
file, the digest the manifest expects and the one it found.

Derived per code point:
  - the UTS #46 status with UseSTD3ASCIIRules folded in, and the mapping;
  - the RFC 5892 derived property (section 3's algorithm over categories
    A-J of section 2, exceptions of 2.6; BackwardCompatible is empty);
  - Bidi_Class, Joining_Type, the scripts RFC 5892 appendix A asks about,
    General_Category=Mark, NFC_Quick_Check, Canonical_Combining_Class;
  - canonical decompositions and primary composites for NFC;
  - simple case mappings (the public idng_simple_lower/idng_simple_upper);
  - UTS #39, in a second trie of "security words": the augmented
    Script_Extensions set (section 5.1; Common and Inherited: every script),
    Identifier_Status=Allowed, General_Category=Nd with its digit value, and
    whether confusables.txt gives a prototype; the prototypes, in NFD;
  - for lookalikes beyond UTS #39's skeleton (core/idng_lookalike.h): the
    scripts each letter can pass for (whole-script confusables, section 4,
    character by character, over the scripts top-level domains expect,
    WS_TARGETS); the extra lookalike mappings of tools/lookalike_extra.txt
    (a file of this repository, made by tools/find_lookalikes.py; see its
    head) and tools/lookalike_browser.txt, and the letters that
    tools/lookalike_browser_ws.txt lets pass for Latin (Chromium's data; see
    the heads of those files); and the letters named "<LETTER> WITH <mark>" that have no
    decomposition, folded to the letter (UnicodeData.txt's names);
  - the emoji code points (emoji-data.txt: Extended_Pictographic, and
    Emoji_Component but ASCII), which the mixed-script rule sets aside.

The header holds what C code needs to read the tables: the Unicode version,
the enum values of every property, the shift and mask of each field of a
property word, the sizes of the tables and the declarations of the data.

Only the Python standard library is used; the output is deterministic.
"""
import argparse
import hashlib
import os
import re
import sys

MAXCP = 0x110000
HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "tables.manifest")
# The extra lookalike mappings, the first file's winning where both map a
# code point: Chromium's (facts from its source) and those of rendered glyphs.
# Both key names against protected names; only the rendered glyphs' make a
# letter pass for Latin in the whole-script test, as Chromium too uses its
# list only to compare names with its top domains.  The whole-script test
# also takes Chromium's own whole-script sets: the letters that pass for
# Latin when a whole label is written in them.
EXTRA_BROWSER = os.path.join(HERE, "lookalike_browser.txt")
EXTRA_RENDERED = os.path.join(HERE, "lookalike_extra.txt")
EXTRA = [EXTRA_BROWSER, EXTRA_RENDERED]
WS_BROWSER_FILE = os.path.join(HERE, "lookalike_browser_ws.txt")

# The values of each property as the codec numbers them; the generated
# header turns every one into a C enum constant (prefix + name).
U46 = {"valid": 0, "mapped": 1, "ignored": 2, "disallowed": 3, "deviation": 4}
I08 = {"PVALID": 0, "CONTEXTJ": 1, "CONTEXTO": 2, "DISALLOWED": 3, "UNASSIGNED": 4}
BIDI = ["L", "R", "AL", "EN", "ES", "ET", "AN", "CS", "NSM", "BN", "B", "S", "WS", "ON",
        "LRE", "LRO", "RLE", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"]
JT = ["U", "C", "D", "L", "R", "T"]
SCRIPTS = {"Greek": 1, "Hebrew": 2, "Hiragana": 3, "Katakana": 4, "Han": 5}
QC = {"Y": 0, "N": 1, "M": 2}
QC_NAMES = {"Y": "YES", "N": "NO", "M": "MAYBE"}

# The fields of a property word, lowest bits first: (name, width in bits).
# The packing below and the header's UP_* macros both come from this list.
# DECOMP is 1 for the code points of idng_ut_dec_cp (a canonical
# decomposition in the table; Hangul syllables decompose by algorithm), so
# that NFC searches that table only for them.  STD3 is 1 for UTS #46's
# disallowed_STD3_valid code points (U46 says disallowed): valid when
# UseSTD3ASCIIRules is false (IDNG_F_NO_STD3).
FIELDS = [("U46", 3), ("I08", 3), ("BIDI", 5), ("JT", 3), ("SCRIPT", 3), ("MARK", 1),
          ("NFCQC", 2), ("CCC", 8), ("DECOMP", 1), ("STD3", 1)]

# The trie's block size is 1 << TRIE_SHIFT code points.  A reference into
# the sequence pool is offset << REF_LEN_BITS | length.  A composition key
# is first << COMP_SHIFT | second.
TRIE_SHIFT = 7
REF_LEN_BITS = 5
COMP_SHIFT = 21

UCD_FILES = [
    "UnicodeData.txt", "PropList.txt", "DerivedCoreProperties.txt",
    "DerivedNormalizationProps.txt", "CaseFolding.txt", "Blocks.txt",
    "HangulSyllableType.txt", "Scripts.txt", "ScriptExtensions.txt",
    "PropertyValueAliases.txt", "extracted/DerivedBidiClass.txt",
    "extracted/DerivedJoiningType.txt", "emoji/emoji-data.txt",
]
# The UCD files that ICU's preparsed UCD (source/data/unidata/ppucd.txt)
# can stand in for, when the manifest pins it instead of them: ICU's source
# package carries UnicodeData.txt, DerivedCoreProperties.txt,
# DerivedNormalizationProps.txt and CaseFolding.txt as they are, and the
# other properties only in ppucd.txt (Debian ships no unicode-data of every
# Unicode version ICU has).
PPUCD = "data/unidata/ppucd.txt"
PPUCD_FILES = [
    "PropList.txt", "Blocks.txt", "HangulSyllableType.txt", "Scripts.txt",
    "ScriptExtensions.txt", "PropertyValueAliases.txt", "extracted/DerivedBidiClass.txt",
    "extracted/DerivedJoiningType.txt", "emoji/emoji-data.txt",
]
IDNA_FILES = ["IdnaMappingTable.txt"]
# From ICU's source package (its source/ directory): UTS #39's confusables.txt,
# and the spoof checker, whose two UnicodeSet patterns are UTS #39's
# Identifier_Status=Allowed set (IdentifierStatus.txt: Identifier_Type
# Recommended or Inclusion) of the same Unicode version.
ICU_FILES = ["data/unidata/confusables.txt", "i18n/uspoof.cpp"]

# UTS #39 section 5.1: the script sets added to Han, Hiragana, Katakana,
# Hangul and Bopomofo ("augmented" script sets); they are not Script values.
AUGMENT = {"Hani": ["Hanb", "Jpan", "Kore"], "Hira": ["Jpan"], "Kana": ["Jpan"],
           "Hang": ["Kore"], "Bopo": ["Hanb"]}
# The fields of a UTS #39 property word, lowest bits first: the index of the
# code point's augmented Script_Extensions set in idng_ut_scx (Common and
# Inherited: the set of all scripts); Identifier_Status=Allowed; the digit
# value of General_Category=Nd (DIGIT_NONE otherwise); for the skeleton, a
# canonical decomposition (Hangul syllables included), a nonzero combining
# class, whether the code point's confusables.txt prototype (one other than
# itself) is all starters, and 1 + the index of that prototype in
# idng_ut_conf_ref (0: no
# prototype; US_CONF), so that
# the common code point needs one lookup and no search; and, for the
# lookalike rules beyond the skeleton, whether the code point's looser keys
# differ from its skeleton (an extra lookalike mapping or a fold,
# idng_ut_extra_cp and idng_ut_fold_cp, or a capital in its prototype) and
# whether it can pass for another script (idng_ut_ws_mask), so that most code
# points skip those searches.
SEC_FIELDS = [("SCX", 9), ("ALLOWED", 1), ("DIGIT", 4), ("DEC", 1), ("NZCCC", 1),
              ("PSTART", 1), ("CONFIDX", 13), ("LKMAP", 1), ("WS", 1)]
DIGIT_NONE = 15

# The scripts a whole-script confusable is judged against: those a
# top-level domain can expect (core/tld_scripts.c), in the order of their
# IDNG_SCRIPT_* bits (codec/idnguard.h), each a set of script codes: "cjk"
# is every script UTS #39 5.1 augments into Hanb, Jpan or Kore (Han, Kana,
# Hangul, Bopomofo).  At most 32 (the masks are 32 bits).
# The bit of idng_ut_ws_mask that marks a letter of Chromium's whole-script
# sets (tools/lookalike_browser_ws.txt), above every target's.
WS_BROWSER = 1 << 31
WS_TARGETS = [("Latn",), ("Cyrl",), ("Grek",), ("Armn",), ("Geor",), ("Hebr",), ("Arab",),
              ("Thai",), ("Hanb", "Jpan", "Kore"), ("Ethi",), ("Mymr",), ("Beng",),
              ("Deva",), ("Gujr",), ("Guru",), ("Knda",), ("Mlym",), ("Orya",), ("Taml",),
              ("Telu",)]
assert len(WS_TARGETS) < 31, "the masks hold 31 targets and WS_BROWSER"

# The letters that a dot above makes i or j again under the extra mappings
# (codec/spoof.c idng_skeleton_ex): dotless i, dotless j, Cyrillic palochka.
DOTLESS = (0x131, 0x237, 0x4CF)

SBASE, LBASE, VBASE, TBASE = 0xAC00, 0x1100, 0x1161, 0x11A7
LCOUNT, VCOUNT, TCOUNT = 19, 21, 28
NCOUNT = VCOUNT * TCOUNT
SCOUNT = LCOUNT * NCOUNT


def die(msg):
    sys.stderr.write("gen_tables.py: %s\n" % msg)
    sys.exit(1)


def rng(field):
    if ".." in field:
        a, b = field.split("..")
        return int(a, 16), int(b, 16)
    v = int(field, 16)
    return v, v


def data_lines(path):
    """Yields (line number, [fields]) for each data line of a UCD-style file:
    ';'-separated fields, '#' comments and blank lines skipped."""
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if line:
                yield n, [x.strip() for x in line.split(";")]


def records(path):
    """Yields (first, last, [fields]) for each data line of a UCD-style file."""
    for _, fields in data_lines(path):
        a, b = rng(fields[0])
        yield a, b, fields[1:]


def records_any(path):
    """Yields (None, None, [fields]) for each data line of a UCD-style file
    whose first field is not a code point range (PropertyValueAliases.txt)."""
    for _, fields in data_lines(path):
        yield None, None, fields


def missing_defaults(path):
    """@missing lines give defaults for code points the file does not list."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"#\s*@missing:\s*([0-9A-F.]+)\s*;\s*(\S+)", line)
            if m:
                a, b = rng(m.group(1))
                out.append((a, b, m.group(2)))
    return out


class Ppucd:
    """ICU's preparsed UCD (ppucd.txt, written by ICU's preparseucd.py) read
    as the UCD files of PPUCD_FILES, record for record: records(name) yields
    what records() yields for that file, with the same value spellings
    (short names where the UCD file has them, long names in Scripts.txt and
    Blocks.txt; block names compare loosely, UAX #44 LM3).

    The format: "property;TYPE;SHORT;LONG..." and "value;PROP;SHORT;LONG..."
    name properties and values; "defaults;RANGE;..." gives every code point
    its default values; "block;RANGE;..." gives the values common to a
    block's code points, which its "cp;RANGE;..." lines (assigned code
    points) amend; an "unassigned;RANGE;..." line amends the defaults
    instead (keeping the block).  A value is "PROP=VALUE", a binary
    property "PROP" (true) or "-PROP" (false); "scx=<script>" means "the
    same as sc" (no Script_Extensions of its own).  Hangul_Syllable_Type is
    not in it: it is Grapheme_Cluster_Break's L, V, T, LV or LVT where that
    is one of those (UAX #29's definition of those GCB values), else NA."""

    WANTED = ("bc", "blk", "GCB", "jt", "sc", "scx", "Join_C", "NChar", "WSpace", "ID_Type",
              "ExtPict", "EComp")

    def __init__(self, path):
        self.version = None
        self.values = {}  # property short name -> [[short, long, ...], ...], in order
        self.val = {p: [None] * MAXCP for p in self.WANTED}
        blocks = []
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.rstrip("\n")
                if not line or line.startswith("#"):
                    continue
                fl = line.split(";")
                kind = fl[0]
                if kind == "ucd":
                    self.version = fl[1]
                elif kind == "value":
                    self.values.setdefault(fl[1], []).append(fl[2:])
                elif kind == "defaults":
                    a, b = rng(fl[1])
                    self.apply(a, b, self.parse(fl[2:]), reset=True)
                elif kind == "block":
                    a, b = rng(fl[1])
                    props = self.parse(fl[2:])
                    blocks.append((a, b, props))
                    self.apply(a, b, props)
                elif kind in ("cp", "unassigned"):
                    a, b = rng(fl[1])
                    if kind == "unassigned":
                        self.apply(a, b, self.defaults, reset=True)
                        blk = [x for x in blocks if x[0] <= a <= x[1]]
                        if blk:
                            self.apply(a, b, {"blk": blk[-1][2].get("blk")})
                    self.apply(a, b, self.parse(fl[2:]))
                elif kind not in ("property", "binary", "algnamesrange"):
                    die("%s:%d: unknown line kind '%s'" % (path, n, kind))
        if self.version is None:
            die("%s: no 'ucd;VERSION' line" % path)

    def parse(self, items):
        out = {}
        for it in items:
            if "=" in it:
                k, v = it.split("=", 1)
                out[k] = v
            elif it.startswith("-"):
                out[it[1:]] = False
            elif it:
                out[it] = True
        return out

    def apply(self, a, b, props, reset=False):
        """Sets the values props gives on a..b; reset: every other one to its
        default (binary properties: false)."""
        if reset and not hasattr(self, "defaults"):
            self.defaults = props
        for k in self.WANTED:
            if k in props or reset:
                v = props.get(k, self.defaults.get(k))
                if k == "scx" and v == "<script>":
                    v = None
                self.val[k][a:b + 1] = [v] * (b - a + 1)

    def aliases(self, prop):
        return {v[0]: v for v in self.values.get(prop, [])}

    def runs(self, prop, skip=lambda v: False, spell=lambda v: v):
        """(first, last, [spell(value)]) for each run of equal values."""
        vals, a = self.val[prop], 0
        while a < MAXCP:
            b = a
            while b + 1 < MAXCP and vals[b + 1] == vals[a]:
                b += 1
            if vals[a] is not None and vals[a] is not False and not skip(vals[a]):
                yield a, b, [spell(vals[a])]
            a = b + 1

    def records(self, name):
        if name == "PropList.txt":
            for short, long_name in (("Join_C", "Join_Control"),
                                     ("NChar", "Noncharacter_Code_Point"),
                                     ("WSpace", "White_Space")):
                for a, b, _ in self.runs(short):
                    yield a, b, [long_name]
        elif name == "Blocks.txt":
            blk = self.aliases("blk")
            yield from self.runs("blk", lambda v: v == "NB", lambda v: blk[v][1].replace("_", " "))
        elif name == "HangulSyllableType.txt":
            yield from self.runs("GCB", lambda v: v not in ("L", "V", "T", "LV", "LVT"))
        elif name == "Scripts.txt":
            sc = self.aliases("sc")
            yield from self.runs("sc", lambda v: v == "Zzzz", lambda v: sc[v][1])
        elif name == "ScriptExtensions.txt":
            yield from self.runs("scx")
        elif name == "extracted/DerivedBidiClass.txt":
            yield from self.runs("bc")
        elif name == "extracted/DerivedJoiningType.txt":
            yield from self.runs("jt")
        elif name == "emoji/emoji-data.txt":
            # Only the two properties the generator reads (emoji_data).
            for short, long_name in (("ExtPict", "Extended_Pictographic"),
                                     ("EComp", "Emoji_Component")):
                for a, b, _ in self.runs(short):
                    yield a, b, [long_name]
        else:
            die("ppucd.txt stands in for no %s" % name)

    def records_any(self, name):
        """PropertyValueAliases.txt's script lines: the Script values some
        code point has (ppucd.txt also names ISO 15924 codes that are no
        Script value, such as Afak), Zzzz, and Hrkt (Katakana_Or_Hiragana, a
        Script value no code point has had since Unicode 4.1, which
        PropertyValueAliases.txt still lists), in ppucd.txt's order."""
        if name != "PropertyValueAliases.txt":
            die("ppucd.txt stands in for no %s" % name)
        used = {"Zzzz", "Hrkt"} | {v for v in self.val["sc"] if v}
        for v in self.val["scx"]:
            if v:
                used.update(v.split())
        for v in self.values.get("sc", []):
            if v[0] in used:
                yield None, None, ["sc"] + v


class UcdSource:
    """The UCD files the generator reads, by name: from their paths, or for
    the names of PPUCD_FILES from a Ppucd when one is given."""

    def __init__(self, paths, ppucd=None):
        self.paths, self.ppucd = paths, ppucd

    def _pp(self, name):
        return self.ppucd is not None and name in PPUCD_FILES

    def records(self, name):
        return self.ppucd.records(name) if self._pp(name) else records(self.paths[name])

    def records_any(self, name):
        return self.ppucd.records_any(name) if self._pp(name) else records_any(self.paths[name])

    def missing_defaults(self, name):
        # ppucd.txt gives every code point its value: no defaults are left.
        return [] if self._pp(name) else missing_defaults(self.paths[name])


def loose(name):
    """A property value name under UAX #44's loose matching (LM3)."""
    return re.sub(r"[ _-]", "", name).lower()


def load_unicode_data(path):
    gc = ["Cn"] * MAXCP
    ccc = [0] * MAXCP
    decomp = {}
    upper = {}
    lower = {}
    first = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            p = line.rstrip("\n").split(";")
            cp = int(p[0], 16)
            if p[1].endswith(", First>"):
                first = cp
                continue
            lo = first if p[1].endswith(", Last>") else cp
            first = None
            for c in range(lo, cp + 1):
                gc[c] = p[2]
                ccc[c] = int(p[3])
            if p[5]:
                d = p[5].split()
                compat = d[0].startswith("<")
                if compat:
                    d = d[1:]
                decomp[cp] = (compat, [int(x, 16) for x in d])
            if p[12]:
                upper[cp] = int(p[12], 16)
            if p[13]:
                lower[cp] = int(p[13], 16)
    return gc, ccc, decomp, upper, lower


class Normalizer:
    def __init__(self, ccc, decomp, excluded):
        self.ccc = ccc
        self.decomp = decomp
        self.comp = {}
        for cp, (compat, d) in decomp.items():
            if not compat and len(d) == 2 and cp not in excluded:
                self.comp[(d[0], d[1])] = cp

    def decompose(self, s, compat):
        out = []
        for cp in s:
            self._dec1(cp, compat, out)
        # Canonical ordering: stable sort of each run of non-starters.
        i = 0
        while i < len(out):
            if self.ccc[out[i]] == 0:
                i += 1
                continue
            j = i
            while j < len(out) and self.ccc[out[j]] != 0:
                j += 1
            out[i:j] = sorted(out[i:j], key=lambda c: self.ccc[c])
            i = j
        return out

    def _dec1(self, cp, compat, out):
        if SBASE <= cp < SBASE + SCOUNT:
            s = cp - SBASE
            out.append(LBASE + s // NCOUNT)
            out.append(VBASE + (s % NCOUNT) // TCOUNT)
            if s % TCOUNT:
                out.append(TBASE + s % TCOUNT)
            return
        d = self.decomp.get(cp)
        if d and (compat or not d[0]):
            for c in d[1]:
                self._dec1(c, compat, out)
        else:
            out.append(cp)

    def compose(self, s):
        if not s:
            return s
        out = [s[0]]
        starter = 0 if self.ccc[s[0]] == 0 else None
        last_ccc = 0 if starter == 0 else 256
        for cp in s[1:]:
            c = self.ccc[cp]
            if starter is not None and (last_ccc < c or (last_ccc == 0 and len(out) - 1 == starter)):
                comp = self.pair(out[starter], cp)
                if comp is not None:
                    out[starter] = comp
                    continue
            if c == 0:
                starter = len(out)
            last_ccc = c
            out.append(cp)
        return out

    def pair(self, a, b):
        if LBASE <= a < LBASE + LCOUNT and VBASE <= b < VBASE + VCOUNT:
            return SBASE + ((a - LBASE) * VCOUNT + (b - VBASE)) * TCOUNT
        if SBASE <= a < SBASE + SCOUNT and (a - SBASE) % TCOUNT == 0 and TBASE < b < TBASE + TCOUNT:
            return a + (b - TBASE)
        return self.comp.get((a, b))

    def nfc(self, s):
        return self.compose(self.decompose(s, False))

    def nfkc(self, s):
        return self.compose(self.decompose(s, True))


def load_idna_mapping_table(path):
    """Returns (status, mapping) for every code point from UTS #46's
    IdnaMappingTable.txt, with UseSTD3ASCIIRules folded in.

    Each data line is "range ; status [; mapping [; IDNA2008 status]]".  The
    mapping is kept for mapped and deviation code points (the codec uses only
    the former: it is nontransitional); the IDNA2008 status (NV8, XV8) is a
    remark that UTS #46 processing does not use.
    """
    statuses = {"valid", "ignored", "mapped", "deviation", "disallowed",
                "disallowed_STD3_valid", "disallowed_STD3_mapped"}
    status = [None] * MAXCP
    mapping = {}
    for a, b, fl in records(path):
        st = fl[0]
        if st not in statuses:
            die("%s: unknown status %r for %04X" % (path, st, a))
        target = [int(x, 16) for x in fl[1].split()] if len(fl) > 1 else []
        if st in ("mapped", "disallowed_STD3_mapped") and not target:
            die("%s: %04X is %s without a mapping" % (path, a, st))
        if st not in ("mapped", "disallowed_STD3_mapped", "deviation") and target:
            die("%s: %04X is %s but has a mapping" % (path, a, st))
        for c in range(a, b + 1):
            if status[c] is not None:
                die("%s: %04X listed twice" % (path, c))
            status[c] = st
            if st in ("mapped", "deviation"):
                mapping[c] = target
    holes = [c for c in range(MAXCP) if status[c] is None]
    if holes:
        die("%s does not cover %d code points, first %04X" % (path, len(holes), holes[0]))
    # Fold UseSTD3ASCIIRules.  Up to Unicode 15.1 the table has it: both
    # disallowed_STD3 statuses are disallowed, and the table marks every
    # mapping into a code point that STD3 disallows as
    # disallowed_STD3_mapped (a plain mapped entry that did so would be a
    # misread table).  From 16.0 (UTS #46 revision 33) the table has neither
    # status: UseSTD3ASCIIRules is a validity criterion on the mapped,
    # normalized label (its ASCII code points are letters, digits and '-'),
    # so those ASCII code points are disallowed_STD3_valid here, and a code
    # point mapped into them stays mapped (U+2474 to "(1)"): the codec's
    # validity check of the mapped label then refuses the ASCII it holds.
    legacy = any(st.startswith("disallowed_STD3") for st in status)
    if not legacy:
        for c in range(0x80):
            if status[c] == "valid" and not (0x61 <= c <= 0x7A or 0x30 <= c <= 0x39
                                             or c in (0x2D, 0x2E)):
                status[c] = "disallowed_STD3_valid"
    std3 = {c for c in range(MAXCP) if status[c] == "disallowed_STD3_valid"}
    for c in range(MAXCP):
        if status[c] in ("disallowed_STD3_valid", "disallowed_STD3_mapped"):
            status[c] = "disallowed"
        elif legacy and status[c] == "mapped" and any(t in std3 for t in mapping[c]):
            die("%s: %04X is mapped into a disallowed_STD3_valid code point" % (path, c))
    # Only the three full-stop variants may map to '.', which is what lets
    # the codec split labels before mapping.
    dots = sorted(c for c, t in mapping.items() if 0x2E in t and status[c] == "mapped")
    if dots != [0x3002, 0xFF0E, 0xFF61]:
        die("unexpected mappings to FULL STOP: %s" % ["%04X" % c for c in dots])
    return status, mapping, std3


def derive_idna2008(gc, props, blocks, hst, norm, casefold):
    """RFC 5892 section 3, over the categories of section 2."""
    exc_pvalid = {0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007}
    exc_contexto = {0x00B7, 0x0375, 0x05F3, 0x05F4, 0x30FB} | set(range(0x0660, 0x066A)) \
        | set(range(0x06F0, 0x06FA))
    exc_disallowed = {0x0640, 0x07FA, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033, 0x3034,
                      0x3035, 0x303B}
    ignorable_blocks = {loose(b) for b in ("Combining Diacritical Marks for Symbols",
                                           "Musical Symbols", "Ancient Greek Musical Notation")}
    letter_digits = {"Ll", "Lu", "Lo", "Nd", "Lm", "Mn", "Mc"}
    ldh = {0x2D} | set(range(0x30, 0x3A)) | set(range(0x61, 0x7B))

    def fold(s):
        out = []
        for c in s:
            out.extend(casefold.get(c, [c]))
        return out

    res = [0] * MAXCP
    for cp in range(MAXCP):
        if cp in exc_pvalid:
            v = "PVALID"
        elif cp in exc_contexto:
            v = "CONTEXTO"
        elif cp in exc_disallowed:
            v = "DISALLOWED"
        elif gc[cp] == "Cn" and cp not in props["Noncharacter_Code_Point"]:
            v = "UNASSIGNED"
        elif cp in ldh:
            v = "PVALID"
        elif cp in props["Join_Control"]:
            v = "CONTEXTJ"
        elif gc[cp] in letter_digits and norm.nfkc(fold(norm.nfkc([cp]))) != [cp]:
            v = "DISALLOWED"  # Unstable (2.2)
        elif (cp in props["Default_Ignorable_Code_Point"] or cp in props["White_Space"]
              or cp in props["Noncharacter_Code_Point"]):
            v = "DISALLOWED"  # IgnorableProperties (2.3)
        elif blocks[cp] is not None and loose(blocks[cp]) in ignorable_blocks:
            v = "DISALLOWED"  # IgnorableBlocks (2.4)
        elif hst[cp] in ("L", "V", "T"):
            v = "DISALLOWED"  # OldHangulJamo (2.9)
        elif gc[cp] in letter_digits:
            v = "PVALID"
        else:
            v = "DISALLOWED"
        res[cp] = I08[v]
    return res


def unicode_set(pattern, what):
    """The code points of a UnicodeSet pattern of the plain kind ICU's spoof
    checker writes: "[" then single characters, \\uXXXX, \\UXXXXXXXX and
    backslash-escaped punctuation, and ranges of them joined by '-', then
    "]".  Anything else stops the generator rather than being guessed at."""
    if not (pattern.startswith("[") and pattern.endswith("]")):
        die("%s: not a bracketed UnicodeSet pattern" % what)
    body = pattern[1:-1]
    i = 0

    def one():
        nonlocal i
        if body[i] == "\\":
            if body[i + 1] == "u":
                v, i = int(body[i + 2:i + 6], 16), i + 6
            elif body[i + 1] == "U":
                v, i = int(body[i + 2:i + 10], 16), i + 10
            elif not body[i + 1].isalnum():
                v, i = ord(body[i + 1]), i + 2
            else:
                die("%s: escape %s is not understood" % (what, body[i:i + 2]))
            return v
        if body[i] in "[]{}$^&":
            die("%s: %r at %d is not understood" % (what, body[i], i))
        i += 1
        return ord(body[i - 1])

    out = set()
    while i < len(body):
        a = one()
        b = a
        if i < len(body) and body[i] == "-":
            i += 1
            b = one()
            if b < a:
                die("%s: range %04X-%04X is backwards" % (what, a, b))
        out.update(range(a, b + 1))
    return out


def icu_pattern(source, name):
    """The UnicodeSet pattern of the C++ string constant `name` in uspoof.cpp:
    its u"..." literal pieces joined, C++ backslash escapes undone."""
    m = re.search(r"\b%s\s*=\s*((?:\s*u\"(?:[^\"\\]|\\.)*\")+)\s*;" % re.escape(name), source)
    if not m:
        die("uspoof.cpp: no string constant %s" % name)
    pieces = re.findall(r'u"((?:[^"\\]|\\.)*)"', m.group(1))
    text = "".join(pieces)
    return re.sub(r"\\(.)", r"\1", text)


def load_uts39(ucd, icu_paths, gc, norm, u46_status, ignorable):
    """UTS #39 data per code point: the augmented Script_Extensions set,
    Identifier_Status=Allowed, the confusables.txt prototype and the decimal
    digit value.  Returns (script names, scx index per code point, list of
    script sets as ints, allowed set, {cp: NFD of its prototype}, digit)."""
    # Script short names, in PropertyValueAliases.txt's order, then the
    # augmented sets of section 5.1.
    short, long_to_short = [], {}
    for _, _, fl in ucd.records_any("PropertyValueAliases.txt"):
        if fl[0] == "sc":
            short.append(fl[1])
            for alias in fl[2:]:
                long_to_short[alias] = fl[1]
    names = short + ["Hanb", "Jpan", "Kore"]
    bit = {n: i for i, n in enumerate(names)}
    sc = [None] * MAXCP
    for a, b, fl in ucd.records("Scripts.txt"):
        s = long_to_short.get(fl[0])
        if s is None:
            die("Scripts.txt: script %s is not in PropertyValueAliases.txt" % fl[0])
        for c in range(a, b + 1):
            sc[c] = s
    scx = [None] * MAXCP
    for a, b, fl in ucd.records("ScriptExtensions.txt"):
        for s in fl[0].split():
            if s not in bit:
                die("ScriptExtensions.txt: script %s is not in PropertyValueAliases.txt" % s)
        for c in range(a, b + 1):
            scx[c] = fl[0].split()
    every = (1 << len(names)) - 1
    sets, set_index, index = [], {}, [0] * MAXCP
    for c in range(MAXCP):
        own = scx[c] if scx[c] is not None else [sc[c] or "Zzzz"]
        if own == ["Zyyy"] or own == ["Zinh"]:
            v = every
        else:
            v = 0
            for s in own:
                v |= 1 << bit[s]
                for extra in AUGMENT.get(s, []):
                    v |= 1 << bit[extra]
        if v not in set_index:
            set_index[v] = len(sets)
            sets.append(v)
        index[c] = set_index[v]

    if "i18n/uspoof.cpp" in icu_paths:
        # ICU up to 73 spells the set out in its spoof checker's source.
        with open(icu_paths["i18n/uspoof.cpp"], encoding="utf-8") as f:
            source = f.read()
        allowed = (unicode_set(icu_pattern(source, "recommendedPat"), "uspoof.cpp recommendedPat")
                   | unicode_set(icu_pattern(source, "inclusionPat"), "uspoof.cpp inclusionPat"))
    else:
        # Later ICU builds it from the Identifier_Type property, which its
        # ppucd.txt carries: the code points of type Recommended or
        # Inclusion (UTS #39's Identifier_Status=Allowed).
        if ucd.ppucd is None or not any(ucd.ppucd.val["ID_Type"]):
            die("neither uspoof.cpp nor a ppucd.txt with Identifier_Type is pinned")
        allowed = {c for c, v in enumerate(ucd.ppucd.val["ID_Type"])
                   if v and {"Recommended", "Inclusion"} & set(v.split())}

    proto = {}
    with open(icu_paths["data/unidata/confusables.txt"], encoding="utf-8-sig") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fl = [x.strip() for x in line.split(";")]
            if len(fl) != 3 or fl[2] != "MA":
                die("confusables.txt:%d: expected 'source ; target ; MA'" % n)
            src = [int(x, 16) for x in fl[0].split()]
            if len(src) != 1 or src[0] in proto:
                die("confusables.txt:%d: source must be one code point, listed once" % n)
            target = norm.decompose([int(x, 16) for x in fl[1].split()], False)
            # The skeleton looks a code point up only after NFD, so a source
            # that NFD changes is never asked for.
            if norm.decompose(src, False) == src and target != src:
                proto[src[0]] = target
    # From UTS #39 15.1 the skeleton drops Default_Ignorable_Code_Point
    # characters after NFD, before the prototypes: an empty prototype
    # (ignorable: that set, or None for an earlier version).
    for c in sorted(ignorable or ()):
        if norm.decompose([c], False) == [c]:
            proto[c] = []

    digit = [None] * MAXCP
    with open(ucd.paths["UnicodeData.txt"], encoding="utf-8") as f:
        for line in f:
            p = line.split(";")
            if p[2] == "Nd":
                digit[int(p[0], 16)] = int(p[6])
    for c in range(MAXCP):
        if (gc[c] == "Nd") != (digit[c] is not None):
            die("U+%04X: General_Category Nd and a digit value disagree" % c)
    return names, index, sets, allowed, proto, digit


def emoji_edges(ucd):
    """The code points where the emoji code points start and end, alternately,
    sorted (a code point is one when an odd number of edges are at or below
    it).  An emoji code point is a pictograph or a piece of an emoji
    sequence, as UTS #51 and emoji-data.txt define them: Extended_Pictographic
    (the pictographs, reserved code points of their blocks included), and
    Emoji_Component but ASCII (U+200D ZWJ, U+20E3 the keycap, U+FE0F VS16,
    the regional indicators, the skin-tone modifiers, the hair components
    and the tags; '#', '*' and the digits are Emoji_Component too, but
    letters of every label).  The lookalike rules set them aside: they are
    no letters, so they cannot pass for a letter of another script."""
    emoji = bytearray(MAXCP)
    for a, b, fl in ucd.records("emoji/emoji-data.txt"):
        if fl[0] == "Extended_Pictographic":
            emoji[a:b + 1] = b"\x01" * (b - a + 1)
        elif fl[0] == "Emoji_Component":
            a = max(a, 0x80)
            if a <= b:
                emoji[a:b + 1] = b"\x01" * (b - a + 1)
    edges = [c for c in range(MAXCP) if emoji[c] != (emoji[c - 1] if c > 0 else 0)]
    for c, want in ((0x1F4A9, 1), (0x2764, 1), (0xA9, 1), (0x1F1E6, 1), (0x1F3FB, 1),
                    (0x20E3, 1), (0x200D, 1), (0x41, 0), (0x30, 0), (0x4E00, 0)):
        if emoji[c] != want:
            die("emoji-data.txt: U+%04X is %san emoji code point" % (c, "not " if want else ""))
    return edges


def load_names(path):
    """The Name field of UnicodeData.txt, for the code points listed one by one."""
    names = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            p = line.split(";")
            if not p[1].startswith("<"):
                names[int(p[0], 16)] = p[1]
    return names


def load_extra(paths):
    """The extra lookalike mappings (source code point -> ASCII target):
    'SOURCE ; TARGET ; ...' lines, the first file's winning."""
    extra = {}
    for path in paths:
        for src, target in load_extra_file(path).items():
            extra.setdefault(src, target)
    return extra


def load_extra_file(path):
    extra = {}
    for n, fl in data_lines(path):
        if len(fl) < 2 or not re.fullmatch(r"[0-9A-F]{4,6}", fl[0]):
            die("%s:%d: expected 'SOURCE ; TARGET ; ...'" % (path, n))
        src = int(fl[0], 16)
        target = [int(x, 16) for x in fl[1].split()]
        if src in extra or not 0 < len(target) <= 4 or any(
                not (0x30 <= t <= 0x39 or 0x61 <= t <= 0x7A or t == 0x2D) for t in target):
            die("%s:%d: a source listed twice, or a target that is not 1-4 ASCII "
                "lowercase letters, digits and '-'" % (path, n))
        extra[src] = target
    return extra


def load_ws_browser(path, sc_names, scx_index, scx_sets):
    """The letters of tools/lookalike_browser_ws.txt ('CODE POINT ; SCRIPT'
    lines), each checked to be of the script it is listed under."""
    letters = set()
    for n, fl in data_lines(path):
        if len(fl) != 2 or not re.fullmatch(r"[0-9A-F]{4,6}", fl[0]) or fl[1] not in sc_names:
            die("%s:%d: expected 'CODE POINT ; SCRIPT' (a four-letter script code)" % (path, n))
        c = int(fl[0], 16)
        if c in letters or not scx_sets[scx_index[c]] >> sc_names.index(fl[1]) & 1:
            die("%s:%d: U+%04X listed twice, or not of script %s" % (path, n, c, fl[1]))
        letters.add(c)
    return letters


def lookalike_data(names, decomp, valid, sc_names, scx_index, scx_sets, skel, extra,
                   ws_latin):
    """The data of the lookalike checks beyond the skeleton.

    Whole-script confusables: a code point "can pass for" script T when every
    code point of its skeleton is Common or Inherited, or is the skeleton of
    some valid, Identifier_Status=Allowed code point of T (UTS #39 section 4's
    whole-script test, one character at a time); a rendered-glyph extra
    mapping to a Latin letter makes it pass for Latin.  Kept: the letters
    with a target script that is not their own, and the bits of those
    scripts (WS_TARGETS order); and the letters of ws_latin (Chromium's
    whole-script sets), with the bit WS_BROWSER: a label whose every letter
    has it passes for Latin as a whole (Chromium's rule, which the two
    sources are not mixed in: a label is not judged by letters of both).

    Folds, for near misses: a letter whose name is "<X> WITH <...>" and that
    has no canonical decomposition (stroke, bar, hook, descender: the marks
    Unicode draws into the letter) folds to the letter named <X>."""
    bit = {n: i for i, n in enumerate(sc_names)}
    every = (1 << len(sc_names)) - 1
    writers = {}
    for d in valid:
        s = skel(d)
        if len(s) == 1:
            writers[s[0]] = writers.get(s[0], 0) | scx_sets[scx_index[d]]
    ws = {}
    for c in valid:
        own = scx_sets[scx_index[c]]
        if own == every:
            continue
        mask = 0
        for k, t in enumerate(WS_TARGETS):
            tbits = sum(1 << bit[x] for x in t)
            if own & tbits:
                continue
            if all(scx_sets[scx_index[q]] == every or writers.get(q, 0) & tbits
                   for q in skel(c)) or (t == ("Latn",) and any(0x61 <= x <= 0x7A
                                                                for x in extra.get(c, []))):
                mask |= 1 << k
        if c in ws_latin:
            mask |= WS_BROWSER
        if mask:
            ws[c] = mask
    by_name = {v: k for k, v in names.items()}
    fold = {}
    for c in valid:
        m = re.match(r"^(.* LETTER [A-Z]+) WITH ", names.get(c, ""))
        if m and c not in decomp and m.group(1) in by_name:
            fold[c] = by_name[m.group(1)]
    return ws, fold


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def read_manifest(path):
    """Returns {input name: (Unicode version, package, package version, SHA-256)}."""
    entries = {}
    try:
        f = open(path, encoding="utf-8")
    except OSError as e:
        die("cannot read the manifest %s: %s" % (path, e.strerror))
    with f:
        for n, line in enumerate(f, 1):
            fields = line.split("#", 1)[0].split()
            if not fields:
                continue
            if len(fields) != 5 or not re.fullmatch(r"[0-9a-f]{64}", fields[4]):
                die("%s:%d: expected 'name unicode-version package package-version sha256'"
                    % (path, n))
            if fields[0] in entries:
                die("%s:%d: %s pinned twice" % (path, n, fields[0]))
            entries[fields[0]] = tuple(fields[1:])
    return entries


def stated_version(path):
    """The Unicode version a file states in its first lines ("# Name-15.0.0.txt"
    or "# Version: 15.0.0"), or None when it states none (UnicodeData.txt)."""
    with open(path, encoding="utf-8") as f:
        for _ in range(12):
            m = re.match(r"#.*?-(\d+\.\d+\.\d+)\.txt\s*$|#\s*Version:\s*(\d+\.\d+\.\d+)",
                         f.readline())
            if m:
                return m.group(1) or m.group(2)
    return None


def verify_inputs(manifest, paths):
    """Checks every input (paths: manifest name -> file) against the manifest
    before anything is read; returns the entries and their Unicode version."""
    manifest = os.path.relpath(manifest)
    entries = read_manifest(manifest)
    unpinned = [n for n in paths if n not in entries]
    if unpinned:
        die("%s does not pin %s" % (manifest, ", ".join(unpinned)))
    unread = sorted(n for n in entries if n not in paths)
    if unread:
        die("%s pins %s, which the generator does not read" % (manifest, ", ".join(unread)))
    versions = sorted({e[0] for e in entries.values()})
    if len(versions) != 1:
        die("%s mixes Unicode versions %s" % (manifest, ", ".join(versions)))
    for name, path in paths.items():
        uver, pkg, pver, want = entries[name]
        if not os.path.isfile(path):
            die("missing input %s (%s): it comes from Debian's %s %s" % (name, path, pkg, pver))
        got = sha256(path)
        if got != want:
            die("input %s (%s) is not the pinned file\n"
                "  expected SHA-256 %s (%s %s, Unicode %s, %s)\n"
                "  actual   SHA-256 %s" % (name, path, want, pkg, pver, uver, manifest, got))
        stated = stated_version(path)
        if stated is not None and stated != uver:
            die("input %s (%s) says Unicode %s; %s pins it as %s"
                % (name, path, stated, manifest, uver))
    return entries, versions[0]


def check_public_version(version):
    """codec/idnguard.h states the tables' Unicode version by hand, since an
    installed public header must stand alone; it must be this one."""
    path = os.path.join(HERE, "..", "codec", "idnguard.h")
    with open(path, encoding="utf-8") as f:
        m = re.search(r'^#define IDNG_UNICODE_VERSION "([^"]*)"', f.read(), re.M)
    if not m:
        die("codec/idnguard.h defines no IDNG_UNICODE_VERSION")
    if m.group(1) != version:
        die('codec/idnguard.h says IDNG_UNICODE_VERSION "%s", but the tables are for '
            "Unicode %s: update it" % (m.group(1), version))


def build_trie(words, shift):
    """Two-stage table: stage1[cp >> shift] is an offset into stage2."""
    uniq = {}
    props = []
    idx = []
    for w in words:
        if w not in uniq:
            uniq[w] = len(props)
            props.append(w)
        idx.append(uniq[w])
    size = 1 << shift
    blocks = {}
    stage1 = []
    stage2 = []
    for start in range(0, MAXCP, size):
        blk = tuple(idx[start:start + size])
        if blk not in blocks:
            blocks[blk] = len(stage2)
            stage2.extend(blk)
        stage1.append(blocks[blk])
    return stage1, stage2, props


def c_array(ctype, name, values, per_line=12, fmt="%d"):
    lines = ["const %s %s[] = {" % (ctype, name)]
    for i in range(0, len(values), per_line):
        lines.append("    " + ", ".join(fmt % v for v in values[i:i + per_line]) + ",")
    if not values:
        lines.append("    0")
    lines.append("};")
    return "\n".join(lines)


def c_enum(comment, names):
    """A commented C enum of (name, value) pairs, wrapped at 96 columns."""
    out = ["/* %s */" % comment]
    items = ["%s = %d" % nv for nv in names]
    line = "enum {"
    if len(line) + sum(len(i) + 2 for i in items) + 2 <= 96:
        return "\n".join(out + ["enum { " + ", ".join(items) + " };"])
    out.append(line)
    line = "   "
    for i, item in enumerate(items):
        piece = " " + item + ("," if i + 1 < len(items) else "")
        if len(line) + len(piece) > 96:
            out.append(line)
            line = "   "
        line += piece
    out.append(line)
    out.append("};")
    return "\n".join(out)


def field_layout(fields=FIELDS):
    """(name, shift, mask) of each field of a property word."""
    out, shift = [], 0
    for name, width in fields:
        out.append((name, shift, (1 << width) - 1))
        shift += width
    if shift > 32:
        die("the property word needs %d bits" % shift)
    return out


def pack(values, fields=FIELDS):
    """Packs {field name: value} into a property word."""
    w = 0
    for name, shift, mask in field_layout(fields):
        if not 0 <= values[name] <= mask:
            die("%s value %d does not fit its field" % (name, values[name]))
        w |= values[name] << shift
    return w


def write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def provenance(entries, version, command):
    """The comment lines naming the generator, its inputs and their digests."""
    lines = [
        " * Unicode %s property tables for idnguard.  DO NOT EDIT: generated by" % version,
        " *   %s" % command,
        " * (`make tables`), where UCD is Debian's unicode-data package's /usr/share/unicode,",
        " * IDNA is Debian's unicode-idna package's /usr/share/unicode/idna and ICU the",
        " * source/ directory of Debian's icu source package; every input is pinned in",
        " * tools/tables.manifest and checked before generating.",
        " *",
        " * Inputs, their packages and SHA-256:",
    ]
    for name, (_, pkg, pver, digest) in entries.items():
        lines.append(" *   %s %s (%s %s)" % (digest, name, pkg, pver))
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ucd", required=True, help="the UCD directory (unicode-data)")
    ap.add_argument("--idna", required=True, help="the UTS #46 data directory (unicode-idna)")
    ap.add_argument("--icu", required=True,
                    help="the source/ directory of ICU's source package (UTS #39 data)")
    ap.add_argument("--manifest", default=MANIFEST, help="the pinned inputs")
    ap.add_argument("-o", "--output", required=True, help="the C file to write")
    ap.add_argument("--header", required=True, help="the C header to write")
    args = ap.parse_args()

    # Where each UCD file comes from, as the manifest pins it: Debian's
    # unicode-data (UCD/NAME), or ICU's source package
    # (ICU/data/unidata/NAME); and ppucd.txt, when pinned, for PPUCD_FILES.
    pinned = read_manifest(os.path.relpath(args.manifest))
    use_ppucd = "ICU/" + PPUCD in pinned
    inputs, keys = {}, {}
    for n in UCD_FILES:
        if use_ppucd and n in PPUCD_FILES:
            continue
        keys[n] = "ICU/data/unidata/" + n if "ICU/data/unidata/" + n in pinned else "UCD/" + n
        inputs[keys[n]] = (os.path.join(args.icu, keys[n][len("ICU/"):])
                           if keys[n].startswith("ICU/") else os.path.join(args.ucd, n))
    inputs.update({"IDNA/" + n: os.path.join(args.idna, n) for n in IDNA_FILES})
    icu_files = [n for n in ICU_FILES if "ICU/" + n in pinned or n != "i18n/uspoof.cpp"]
    inputs.update({"ICU/" + n: os.path.join(args.icu, n)
                   for n in icu_files + ([PPUCD] if use_ppucd else [])})
    entries, version = verify_inputs(args.manifest, inputs)
    check_public_version(version)
    paths = {n: inputs[k] for n, k in keys.items()}
    ppucd = Ppucd(inputs["ICU/" + PPUCD]) if use_ppucd else None
    if ppucd is not None and ppucd.version != version:
        die("ppucd.txt says Unicode %s; the manifest pins %s" % (ppucd.version, version))
    ucd = UcdSource(paths, ppucd)

    gc, ccc, decomp, upper, lower = load_unicode_data(paths["UnicodeData.txt"])

    props = {k: set() for k in ("Noncharacter_Code_Point", "Join_Control", "White_Space",
                                "Default_Ignorable_Code_Point")}
    for f in ("PropList.txt", "DerivedCoreProperties.txt"):
        for a, b, fl in ucd.records(f):
            if fl[0] in props:
                props[fl[0]].update(range(a, b + 1))

    excluded = set()
    nfc_qc = [0] * MAXCP
    for a, b, fl in records(paths["DerivedNormalizationProps.txt"]):
        if fl[0] == "Full_Composition_Exclusion":
            excluded.update(range(a, b + 1))
        elif fl[0] == "NFC_QC":
            for c in range(a, b + 1):
                nfc_qc[c] = QC[fl[1]]

    casefold = {}
    for a, b, fl in records(paths["CaseFolding.txt"]):
        if fl[0] in ("C", "F"):
            casefold[a] = [int(x, 16) for x in fl[1].split()]

    blocks = [None] * MAXCP
    for a, b, fl in ucd.records("Blocks.txt"):
        for c in range(a, b + 1):
            blocks[c] = fl[0]
    hst = [None] * MAXCP
    for a, b, fl in ucd.records("HangulSyllableType.txt"):
        for c in range(a, b + 1):
            hst[c] = fl[0]
    script = [0] * MAXCP
    for a, b, fl in ucd.records("Scripts.txt"):
        if fl[0] in SCRIPTS:
            for c in range(a, b + 1):
                script[c] = SCRIPTS[fl[0]]

    def by_default(fname, names, long_names):
        val = [None] * MAXCP
        for a, b, v in ucd.missing_defaults(fname):
            v = long_names.get(v, v)
            for c in range(a, b + 1):
                val[c] = names.index(v)
        for a, b, fl in ucd.records(fname):
            for c in range(a, b + 1):
                val[c] = names.index(fl[0])
        if None in val:
            die("%s leaves %04X without a value" % (fname, val.index(None)))
        return val

    bidi = by_default("extracted/DerivedBidiClass.txt", BIDI,
                      {"Left_To_Right": "L", "Right_To_Left": "R", "Arabic_Letter": "AL",
                       "European_Terminator": "ET", "Arabic_Number": "AN",
                       "Boundary_Neutral": "BN"})
    jt = by_default("extracted/DerivedJoiningType.txt", JT,
                    {"Non_Joining": "U", "Transparent": "T"})

    norm = Normalizer(ccc, decomp, excluded)
    u46_status, u46_map, u46_std3 = load_idna_mapping_table(inputs["IDNA/IdnaMappingTable.txt"])
    i08 = derive_idna2008(gc, props, blocks, hst, norm, casefold)

    words = []
    for cp in range(MAXCP):
        words.append(pack({"U46": U46[u46_status[cp]], "I08": i08[cp], "BIDI": bidi[cp],
                           "JT": jt[cp], "SCRIPT": script[cp],
                           "MARK": 1 if gc[cp][0] == "M" else 0, "NFCQC": nfc_qc[cp],
                           "CCC": ccc[cp],
                           "DECOMP": 1 if cp in decomp and not decomp[cp][0] else 0,
                           "STD3": 1 if cp in u46_std3 else 0}))

    sc_names, scx_index, scx_sets, allowed, proto, digit = load_uts39(
        ucd, {n: inputs["ICU/" + n] for n in icu_files}, gc, norm, u46_status,
        props["Default_Ignorable_Code_Point"]
        if tuple(int(x) for x in version.split(".")) >= (15, 1, 0) else None)
    extra = load_extra(EXTRA)
    # How long a skeleton can get: a code point's skeleton is its NFD with
    # each piece replaced by its prototype, and a string's is the canonical
    # reordering of its code points' skeletons one after another, so the
    # longest of one code point bounds every string's per code point.
    def skel(cp):
        out = []
        for d in norm.decompose([cp], False):
            out.extend(proto.get(d, [d]))
        return out
    valid_cps = [cp for cp in range(MAXCP) if u46_status[cp] in ("valid", "deviation")]
    skel_max = max(len(skel(cp)) for cp in range(MAXCP) if not 0xD800 <= cp < 0xE000)
    skel_valid_max = max(len(skel(cp)) for cp in valid_cps)
    skel_valid_octets = max(len("".join(map(chr, skel(cp))).encode("utf-8"))
                            for cp in valid_cps)

    allowed_valid = [cp for cp in valid_cps if cp in allowed]
    # A rendered-glyph mapping of a letter whose skeleton is already ASCII
    # (Greek alpha: a) would replace what UTS #39 says with a second guess:
    # only the browser's list may do that (palochka: l, not i).
    def ascii_skel(c):
        return all(0x30 <= x <= 0x39 or 0x61 <= x <= 0x7A or 0x41 <= x <= 0x5A for x in skel(c))
    # Keys hold every valid code point (a letter outside the Allowed set
    # makes its label mixed-script, but its name may still look like a
    # protected one: wynn for p); the whole-script test only Allowed ones.
    valid_set = set(valid_cps)
    rendered = {c: t for c, t in load_extra([EXTRA_RENDERED]).items()
                if c in valid_set and not ascii_skel(c)}
    browser = load_extra([EXTRA_BROWSER])
    extra = {c: t for c, t in extra.items() if c in valid_set and (c in browser or c in rendered)}
    rendered = {c: t for c, t in rendered.items() if c in set(allowed_valid)}
    ws_latin = load_ws_browser(WS_BROWSER_FILE, sc_names, scx_index, scx_sets)
    ws, fold = lookalike_data(load_names(paths["UnicodeData.txt"]), decomp, allowed_valid,
                              sc_names, scx_index, scx_sets, skel, rendered, ws_latin)
    fold_cp = sorted(fold)
    # Digit lookalikes: valid, allowed code points other than ASCII digits
    # whose skeleton is an ASCII digit's (U+09E6 BENGALI DIGIT ZERO, like 0),
    # or whose extra lookalike mapping is one (U+0A68 GURMUKHI DIGIT TWO).
    digit_skels = {tuple(skel(d)) for d in range(0x30, 0x3A)}
    digitlike = sorted(c for c in allowed_valid
                       if not 0x30 <= c <= 0x39 and (tuple(skel(c)) in digit_skels
                                                     or (len(extra.get(c, [])) == 1
                                                         and 0x30 <= extra[c][0] <= 0x39)))
    emoji = emoji_edges(ucd)
    # codec/spoof.c looks a code point up only when it has a prototype or an
    # extra mapping, or is l.
    for c in digitlike:
        if c not in proto and c not in extra and c not in fold and c != 0x6C:
            die("U+%04X: a digit lookalike without a prototype or a mapping" % c)

    # The distinct prototypes, each once (the Default_Ignorable code points
    # all share the empty one), in the order of their first code point.
    conf_protos, conf_slot, conf_index = [], {}, {}
    for cp in sorted(proto):
        key = tuple(proto[cp])
        if key not in conf_slot:
            conf_slot[key] = len(conf_protos)
            conf_protos.append(key)
        conf_index[cp] = conf_slot[key]
    sec_words = [pack({"SCX": scx_index[cp], "ALLOWED": 1 if cp in allowed else 0,
                       "DIGIT": DIGIT_NONE if digit[cp] is None else digit[cp],
                       "DEC": 1 if norm.decompose([cp], False) != [cp] else 0,
                       "NZCCC": 1 if ccc[cp] else 0,
                       # (an empty prototype can leave marks out of order)
                       "PSTART": 1 if proto.get(cp) and all(ccc[c] == 0 for c in proto[cp])
                       else 0,
                       "CONFIDX": conf_index[cp] + 1 if cp in proto else 0,
                       "LKMAP": 1 if cp in extra or cp in fold or cp in DOTLESS
                                or any(0x41 <= x <= 0x5A for x in skel(cp)) else 0,
                       "WS": 1 if cp in ws else 0}, SEC_FIELDS) for cp in range(MAXCP)]
    # One trie for both: an entry is a code point's property word, its
    # security word and its whole-script mask (0 for a letter that passes
    # for no other script), so that the validation's lookup of a code point
    # is the lookalike rules' too (the entry's index, idng_ucp).
    stage1, stage2, trie_entries = build_trie(
        list(zip(words, sec_words, [ws.get(cp, 0) for cp in range(MAXCP)])), TRIE_SHIFT)
    if len(trie_entries) > 0xFFFF or len(stage2) > 0xFFFF:
        die("trie does not fit 16-bit indexes")
    if stage1[0] != 0:
        die("the trie's first block is not at offset 0")
    pwords = [e[0] for e in trie_entries]
    scx_words = (len(sc_names) + 63) // 64
    scx_flat = [(v >> (64 * k)) & (2**64 - 1) for v in scx_sets for k in range(scx_words)]

    pool = []
    pool_index = {}
    len_mask = (1 << REF_LEN_BITS) - 1

    def intern(seq):
        key = tuple(seq)
        if key not in pool_index:
            # Reuse an existing occurrence when the sequence already appears.
            pool_index[key] = len(pool)
            pool.extend(seq)
        if len(seq) > len_mask:
            die("sequence too long")
        if pool_index[key] >> (32 - REF_LEN_BITS):
            die("sequence pool too large for 32-bit references")
        return pool_index[key] << REF_LEN_BITS | len(seq)

    map_cp, map_ref = [], []
    for cp in range(MAXCP):
        st = u46_status[cp]
        if st in ("mapped", "ignored"):
            map_cp.append(cp)
            map_ref.append(intern(u46_map.get(cp, [])))
    dec_cp, dec_ref = [], []
    for cp in sorted(decomp):
        if not decomp[cp][0]:
            dec_cp.append(cp)
            dec_ref.append(intern(norm.decompose([cp], False)))
    comp = sorted(((a << COMP_SHIFT | b), c) for (a, b), c in norm.comp.items())
    if max(max(a, b) for a, b in norm.comp) >> COMP_SHIFT:
        die("a composition pair does not fit %d-bit halves" % COMP_SHIFT)
    # The codec relies on these (codec/uts46.c NFC_DECOMP_MAX, codec/unicode.c
    # composition shortcut, the code points below which both skip lookups):
    # fail loudly if a new Unicode version breaks them.
    longest = max(len(norm.decompose([cp], False)) for cp in dec_cp)
    if longest > 4:
        die("a canonical decomposition has %d code points; the codec assumes <= 4" % longest)
    for (a, b) in norm.comp:
        if nfc_qc[b] != QC["M"]:
            die("U+%04X composes as a second character but is not NFC_QC=Maybe" % b)
    nfc_trivial = min(cp for cp in range(MAXCP) if ccc[cp] != 0 or nfc_qc[cp] != QC["Y"])
    if nfc_trivial < 0x300:
        die("U+%04X below U+0300 has a combining class or is not NFC_QC=Yes" % nfc_trivial)
    if dec_cp[0] < 0xC0:
        die("U+%04X below U+00C0 has a canonical decomposition" % dec_cp[0])
    conf_ref = [intern(list(p)) for p in conf_protos]
    extra_cp = sorted(extra)
    extra_ref = [intern(extra[c]) for c in extra_cp]
    low = sorted((c, t) for c, t in lower.items())
    up = sorted((c, t) for c, t in upper.items())

    counts = {}
    for cp in range(MAXCP):
        counts[i08[cp]] = counts.get(i08[cp], 0) + 1
    inv_i08 = {v: k for k, v in I08.items()}

    out_name = os.path.basename(args.output)
    hdr_name = os.path.basename(args.header)
    command = ("python3 tools/gen_tables.py --ucd UCD --idna IDNA --icu ICU -o codec/%s\n"
               " *     --header codec/%s" % (out_name, hdr_name))
    head = ["/**", " * \\file"] + provenance(entries, version, command)
    stats = [
        " *",
        " * RFC 5892 derived property counts: " + ", ".join(
            "%s %d" % (inv_i08[k], counts[k]) for k in sorted(counts)),
        " * Trie: %d entries (property word, security word, whole-script mask), stage2 %d"
        " entries," % (len(trie_entries), len(stage2)),
        " * block size %d." % (1 << TRIE_SHIFT),
        " */",
    ]

    # The data, with its C type, name and the macro of its size.
    arrays = [
        ("uint16_t", "idng_ut_stage1", stage1, 16, "%d", "STAGE1_SIZE", None),
        ("uint16_t", "idng_ut_stage2", stage2, 16, "%d", "STAGE2_SIZE", None),
        ("uint32_t", "idng_ut_props", pwords, 8, "0x%08xu", "PROPS_SIZE",
         "each trie entry's property word (UP_*)"),
        ("uint32_t", "idng_ut_pool", pool, 10, "0x%04x", "POOL_SIZE", None),
        ("uint32_t", "idng_ut_map_cp", map_cp, 10, "0x%04x", "MAP_COUNT",
         "sorted code points with a UTS #46 mapping"),
        ("uint32_t", "idng_ut_map_ref", map_ref, 10, "%d", "MAP_COUNT",
         "their replacements in idng_ut_pool, as references"),
        ("uint32_t", "idng_ut_dec_cp", dec_cp, 10, "0x%04x", "DEC_COUNT",
         "sorted: full canonical decompositions"),
        ("uint32_t", "idng_ut_dec_ref", dec_ref, 10, "%d", "DEC_COUNT", None),
        ("uint64_t", "idng_ut_comp_key", [k for k, _ in comp], 6, "0x%011xull", "COMP_COUNT",
         "sorted: first << IDNG_UT_COMP_SHIFT | second"),
        ("uint32_t", "idng_ut_comp_val", [v for _, v in comp], 10, "0x%04x", "COMP_COUNT",
         None),
        ("uint32_t", "idng_ut_lower_cp", [c for c, _ in low], 10, "0x%04x", "LOWER_COUNT",
         "sorted: simple lowercase mappings"),
        ("uint32_t", "idng_ut_lower_to", [t for _, t in low], 10, "0x%04x", "LOWER_COUNT",
         None),
        ("uint32_t", "idng_ut_upper_cp", [c for c, _ in up], 10, "0x%04x", "UPPER_COUNT",
         "sorted: simple uppercase mappings"),
        ("uint32_t", "idng_ut_upper_to", [t for _, t in up], 10, "0x%04x", "UPPER_COUNT",
         None),
        ("uint32_t", "idng_ut_sec_props", [e[1] for e in trie_entries], 8, "0x%08xu", "PROPS_SIZE",
         "each trie entry's UTS #39 security word (US_*)"),
        ("uint32_t", "idng_ut_ws_mask", [e[2] for e in trie_entries], 8, "0x%08x", "PROPS_SIZE",
         "each trie entry's whole-script mask: the scripts a letter can pass for,"
         " bit k = WS_TARGETS[k] (IDNG_UT_WS_*), and IDNG_UT_WS_BROWSER; 0 but where"
         " US_WS"),
        ("uint32_t", "idng_ut_sec_ascii", sec_words[:128], 8, "0x%08xu", "SEC_ASCII_SIZE",
         "the security words of U+0000-U+007F, for one load instead of the trie's three"),
        ("uint64_t", "idng_ut_scx", scx_flat, 3, "0x%016xull", "SCX_SIZE",
         "augmented script sets, IDNG_UT_SCX_WORDS words each, bit n = script n"),
        ("uint32_t", "idng_ut_conf_ref", conf_ref, 10, "%d", "CONF_COUNT",
         "the distinct confusables.txt prototypes, in NFD, in idng_ut_pool, as references"
         " (a security word's US_CONFIDX - 1 indexes them)"),
        ("uint32_t", "idng_ut_scx_targets", [sum(1 << k for k, t in enumerate(WS_TARGETS)
                                                  if any(v >> sc_names.index(x) & 1 for x in t))
                                              for v in scx_sets], 10, "0x%05x", "SCX_COUNT",
         "the IDNG_UT_WS_* targets in each script set (bit k = WS_TARGETS[k])"),
        ("uint32_t", "idng_ut_extra_cp", extra_cp, 10, "0x%04x", "EXTRA_COUNT",
         "sorted: extra lookalike mappings (tools/lookalike_extra.txt)"),
        ("uint32_t", "idng_ut_extra_ref", extra_ref, 10, "%d", "EXTRA_COUNT",
         "their ASCII targets in idng_ut_pool, as references"),
        ("uint32_t", "idng_ut_digitlike_cp", digitlike, 10, "0x%04x", "DIGITLIKE_COUNT",
         "sorted: letters whose skeleton is an ASCII digit's"),
        ("uint32_t", "idng_ut_emoji_edge", emoji, 10, "0x%04x", "EMOJI_COUNT",
         "sorted: where the emoji code points (Extended_Pictographic, and Emoji_Component"
         " but ASCII) start and end, alternately"),
        ("uint32_t", "idng_ut_fold_cp", fold_cp, 10, "0x%04x", "FOLD_COUNT",
         "sorted: letters '<X> WITH <mark>' without a decomposition"),
        ("uint32_t", "idng_ut_fold_to", [fold[c] for c in fold_cp], 10, "0x%04x", "FOLD_COUNT",
         "the letter <X> of each"),
    ]
    data = {name: values for _, name, values, _, _, _, _ in arrays}

    def table(name):
        ctype, _, values, per_line, fmt, _, _ = next(a for a in arrays if a[1] == name)
        return c_array(ctype, name, values, per_line, fmt)

    out = ["\n".join(head + stats), '#include "%s"' % hdr_name, ""]
    out.append("const unsigned idng_ut_shift = %d;" % TRIE_SHIFT)
    for name in ("idng_ut_stage1", "idng_ut_stage2", "idng_ut_props", "idng_ut_pool",
                 "idng_ut_map_cp", "idng_ut_map_ref"):
        out.append(table(name))
    out.append("const size_t idng_ut_map_count = %d;" % len(map_cp))
    out.append(table("idng_ut_dec_cp"))
    out.append(table("idng_ut_dec_ref"))
    out.append("const size_t idng_ut_dec_count = %d;" % len(dec_cp))
    out.append(table("idng_ut_comp_key"))
    out.append(table("idng_ut_comp_val"))
    out.append("const size_t idng_ut_comp_count = %d;" % len(comp))
    for case in ("lower", "upper"):
        out.append(table("idng_ut_%s_cp" % case))
        out.append(table("idng_ut_%s_to" % case))
        count = len(data["idng_ut_%s_cp" % case])
        out.append("const size_t idng_ut_%s_count = %d;" % (case, count))
    for name in ("idng_ut_sec_props", "idng_ut_ws_mask", "idng_ut_sec_ascii", "idng_ut_scx",
                 "idng_ut_conf_ref"):
        out.append(table(name))
    out.append("const size_t idng_ut_conf_count = %d;" % len(conf_ref))
    out.append(table("idng_ut_scx_targets"))
    out.append(table("idng_ut_digitlike_cp"))
    out.append("const size_t idng_ut_digitlike_count = %d;" % len(digitlike))
    out.append(table("idng_ut_emoji_edge"))
    out.append("const size_t idng_ut_emoji_count = %d;" % len(emoji))
    for name in ("extra", "fold"):
        for suffix in (("cp", "ref") if name == "extra" else ("cp", "to")):
            out.append(table("idng_ut_%s_%s" % (name, suffix)))
        out.append("const size_t idng_ut_%s_count = %d;" % (name, len(data["idng_ut_%s_cp" % name])))
    out.append("const char idng_ut_scx_names[IDNG_UT_SCX_SCRIPTS][5] = {")
    for i in range(0, len(sc_names), 12):
        out.append("    " + " ".join('"%s",' % n for n in sc_names[i:i + 12]))
    out.append("};")

    guard = "IDNG_" + re.sub(r"[^A-Z0-9]", "_", hdr_name.upper())
    h = ["/**", " * \\file"] + provenance(entries, version, command) + [
        " *",
        " * What C code needs to read the tables of %s: the Unicode version," % out_name,
        " * the values of every property, the layout of a property word, the sizes",
        " * of the tables and their declarations.  codec/unicode.h includes it.",
        " */",
        "#ifndef %s" % guard,
        "#define %s" % guard,
        "",
        "#include <stddef.h>",
        "#include <stdint.h>",
        "",
        "/* Unicode version of the tables; codec/idnguard.h repeats it as",
        " * IDNG_UNICODE_VERSION, and the generator refuses to run when they differ. */",
        '#define IDNG_UT_UNICODE_VERSION "%s"' % version,
        "",
        c_enum("UTS #46 status, with UseSTD3ASCIIRules folded in: disallowed_STD3_valid\n"
               " * and disallowed_STD3_mapped are U46_DISALLOWED.",
               [("U46_" + k.upper(), v) for k, v in U46.items()]),
        c_enum("RFC 5892 derived property.", [("I08_" + k, v) for k, v in I08.items()]),
        c_enum("Bidi_Class (UAX #9).", [("BC_" + k, i) for i, k in enumerate(BIDI)]),
        c_enum("Joining_Type.", [("JT_" + k, i) for i, k in enumerate(JT)]),
        c_enum("The scripts RFC 5892's CONTEXTO rules ask about.",
               [("SC_OTHER", 0)] + [("SC_" + k.upper(), v) for k, v in SCRIPTS.items()]),
        c_enum("NFC_Quick_Check.", [("QC_" + QC_NAMES[k], v) for k, v in QC.items()]),
        "",
        "/* Layout of a property word: each field's shift and its mask once shifted",
        " * down; UP_<field>(w) reads a field. */",
    ]
    for name, shift, mask in field_layout():
        h.append("#define UP_%s_SHIFT %d" % (name, shift))
        h.append("#define UP_%s_MASK %du" % (name, mask))
        h.append("#define UP_%s(w) (((w) >> UP_%s_SHIFT) & UP_%s_MASK)" % (name, name, name))
    h += [
        "",
        "/* UTS #39: layout of a security word (idng_ut_sec_props), as above. */",
    ]
    for name, shift, mask in field_layout(SEC_FIELDS):
        h.append("#define US_%s_SHIFT %d" % (name, shift))
        h.append("#define US_%s_MASK %du" % (name, mask))
        h.append("#define US_%s(w) (((w) >> US_%s_SHIFT) & US_%s_MASK)" % (name, name, name))
    h += ["/* Whether a code point has a confusables.txt prototype other than itself:",
          " * US_CONFIDX is 1 + its prototype's index in idng_ut_conf_ref, 0 for none. */",
          "#define US_CONF(w) (US_CONFIDX(w) != 0)"]
    h += [
        "/* Script sets: %d scripts (PropertyValueAliases.txt's sc values in its" % len(sc_names),
        " * order, then UTS #39's Hanb, Jpan and Kore), IDNG_UT_SCX_WORDS 64-bit words",
        " * each; the bits of the scripts the restriction levels ask about. */",
        "#define IDNG_UT_SCX_SCRIPTS %d" % len(sc_names),
        "#define IDNG_UT_SCX_WORDS %d" % scx_words,
        "#define IDNG_UT_SCX_COUNT %d" % len(scx_sets),
    ]
    for n in ("Latn", "Cyrl", "Grek", "Cher", "Hanb", "Jpan", "Kore", "Hani", "Hira", "Kana",
              "Bopo"):
        h.append("#define SCX_%s %d" % (n.upper(), sc_names.index(n)))
    every = (1 << len(sc_names)) - 1
    h += ["/* The index of the set of every script (Common and Inherited) in idng_ut_scx. */",
          "#define IDNG_UT_SCX_EVERY %d" % scx_sets.index(every)]
    h += ["/* The scripts of whole-script confusables (idng_ut_ws_mask bits): the bit",
          " * of each, and its bit in the script sets. */",
          "#define IDNG_UT_WS_TARGETS %d" % len(WS_TARGETS)]
    for k, t in enumerate(WS_TARGETS):
        h.append("#define IDNG_UT_WS_%s %d" % ("CJK" if len(t) > 1 else t[0].upper(), k))
    h.append("/* the mask bit of a letter of Chromium's whole-script sets */")
    h.append("#define IDNG_UT_WS_BROWSER 0x%08xu" % WS_BROWSER)
    h.append("/* each target's scripts, -1 for none more */")
    h.append("#define IDNG_UT_WS_SCX { %s }" % ", ".join(
        "{%s}" % ", ".join(str(sc_names.index(t[i])) if i < len(t) else "-1" for i in range(3))
        for t in WS_TARGETS))
    h += [
        "/* The longest skeleton of one code point, in code points: of any code point,",
        " * and of a code point UTS #46 keeps (valid or deviation); the latter in",
        " * UTF-8 octets too. */",
        "#define IDNG_UT_SKEL_MAX %d" % skel_max,
        "/* US_DIGIT of a code point that is not a decimal digit. */",
        "#define US_DIGIT_NONE %d" % DIGIT_NONE,
        "#define IDNG_UT_SKEL_VALID_MAX %d" % skel_valid_max,
        "#define IDNG_UT_SKEL_VALID_OCTETS %d" % skel_valid_octets,
        "",
        "/* The trie: the entry of cp is",
        " * idng_ut_stage2[idng_ut_stage1[cp >> IDNG_UT_SHIFT] + (cp & IDNG_UT_BLOCK_MASK)],",
        " * which indexes idng_ut_props (its property word), idng_ut_sec_props (its",
        " * security word) and idng_ut_ws_mask.  The first block is at offset 0:",
        " * below U+0080 the entry is idng_ut_stage2[cp]. */",
        "#define IDNG_UT_SHIFT %d" % TRIE_SHIFT,
        "#define IDNG_UT_BLOCK_MASK %du" % ((1 << TRIE_SHIFT) - 1),
        "/* A reference into idng_ut_pool: offset << IDNG_UT_REF_LEN_BITS | length. */",
        "#define IDNG_UT_REF_LEN_BITS %d" % REF_LEN_BITS,
        "#define IDNG_UT_REF_LEN_MASK %du" % len_mask,
        "/* A composition key: first << IDNG_UT_COMP_SHIFT | second. */",
        "#define IDNG_UT_COMP_SHIFT %d" % COMP_SHIFT,
        "/* The longest full canonical decomposition, in code points. */",
        "#define IDNG_UT_DECOMP_MAX %d" % longest,
        "/* Below this code point every combining class is 0 and every NFC_Quick_Check",
        " * Yes; below IDNG_UT_DECOMP_FROM no code point has a canonical decomposition. */",
        "#define IDNG_UT_NFC_TRIVIAL_BELOW 0x%04X" % nfc_trivial,
        "#define IDNG_UT_DECOMP_FROM 0x%04X" % dec_cp[0],
        "",
        "/* Table sizes, in entries. */",
    ]
    sizes = []
    for _, _, values, _, _, macro, _ in arrays:
        if macro not in [m for m, _ in sizes]:
            sizes.append((macro, max(len(values), 1)))
    for macro, n in sizes:
        h.append("#define IDNG_UT_%s %d" % (macro, n))
    h += ["", "/* The data (%s). */" % out_name, "extern const unsigned idng_ut_shift;"]
    for ctype, name, _, _, _, macro, comment in arrays:
        if comment:
            h.append("/* %s */" % comment)
        h.append("extern const %s %s[IDNG_UT_%s];" % (ctype, name, macro))
        if name in ("idng_ut_map_ref", "idng_ut_dec_ref", "idng_ut_comp_val",
                    "idng_ut_lower_to", "idng_ut_upper_to"):
            h.append("extern const size_t %s_count;" % name.rsplit("_", 1)[0])
        if name in ("idng_ut_conf_ref", "idng_ut_extra_ref",
                    "idng_ut_fold_to", "idng_ut_digitlike_cp", "idng_ut_emoji_edge"):
            h.append("extern const size_t %s_count;" % name.rsplit("_", 1)[0])
    h += ["/* the scripts' short names (ISO 15924 codes), by bit */",
          "extern const char idng_ut_scx_names[IDNG_UT_SCX_SCRIPTS][5];"]
    h += ["", "#endif /* %s */" % guard, ""]

    write(args.output, "\n".join(out) + "\n")
    write(args.header, "\n".join(h))


if __name__ == "__main__":
    main()
