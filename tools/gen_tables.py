#!/usr/bin/env python3
"""Generates codec/unicode_tables.c for idnguard.

Inputs, all for Unicode 15.0:
  --ucd DIR    the Unicode Character Database as Debian's unicode-data package
               installs it (UnicodeData.txt, PropList.txt, ..., extracted/)
  --uts46 FILE the UTS #46 15.0 mapping table in ICU's gennorm2 syntax
               (source/data/unidata/norm2/uts46.txt in Debian's icu source),
               whose comments keep the original IdnaMappingTable statuses

Derived per code point:
  - the UTS #46 status with UseSTD3ASCIIRules folded in, and the mapping;
  - the RFC 5892 derived property (section 3's algorithm over categories
    A-J of section 2, exceptions of 2.6; BackwardCompatible is empty);
  - Bidi_Class, Joining_Type, the scripts RFC 5892 appendix A asks about,
    General_Category=Mark, NFC_Quick_Check, Canonical_Combining_Class;
  - canonical decompositions and primary composites for NFC;
  - simple case mappings (for the CLI's mixed-case annotation).

Only the Python standard library is used; the output is deterministic.
"""
import argparse
import hashlib
import os
import re
import sys

MAXCP = 0x110000

U46 = {"valid": 0, "mapped": 1, "ignored": 2, "disallowed": 3, "deviation": 4}
I08 = {"PVALID": 0, "CONTEXTJ": 1, "CONTEXTO": 2, "DISALLOWED": 3, "UNASSIGNED": 4}
BIDI = ["L", "R", "AL", "EN", "ES", "ET", "AN", "CS", "NSM", "BN", "B", "S", "WS", "ON",
        "LRE", "LRO", "RLE", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"]
JT = ["U", "C", "D", "L", "R", "T"]
SCRIPTS = {"Greek": 1, "Hebrew": 2, "Hiragana": 3, "Katakana": 4, "Han": 5}
QC = {"Y": 0, "N": 1, "M": 2}

UCD_FILES = [
    "UnicodeData.txt", "PropList.txt", "DerivedCoreProperties.txt",
    "DerivedNormalizationProps.txt", "CaseFolding.txt", "Blocks.txt",
    "HangulSyllableType.txt", "Scripts.txt", "extracted/DerivedBidiClass.txt",
    "extracted/DerivedJoiningType.txt",
]

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


def records(path):
    """Yields (first, last, [fields]) for each data line of a UCD-style file."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = [x.strip() for x in line.split(";")]
            a, b = rng(fields[0])
            yield a, b, fields[1:]


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


def load_uts46(path):
    """Returns (status, mapping) lists for every code point, STD3 not yet folded."""
    status = [None] * MAXCP
    mapping = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            # Commented-out statuses; six-digit ranges run into the status
            # with no space, surrogates are "disallowed in code", and U+FFFD
            # (disallowed) is noted as "(avoid circular mapping)".
            m = re.match(r"#\s+([0-9A-F]{4,6}(?:\.\.[0-9A-F]{4,6})?)\s*"
                         r"(valid|disallowed_STD3_valid|deviation|disallowed in code|"
                         r"\(avoid circular mapping\))(.*)",
                         line)
            if m:
                a, b = rng(m.group(1))
                st = m.group(2)
                # U+FFFD is disallowed; ICU cannot map it to itself.
                if st in ("disallowed in code", "(avoid circular mapping)"):
                    st = "disallowed"
                dev = None
                if st == "deviation":
                    dm = re.match(r"\s*>([0-9A-F ]*)", m.group(3))
                    dev = [int(x, 16) for x in dm.group(1).split()] if dm else []
                for c in range(a, b + 1):
                    if status[c] is not None:
                        die("%04X listed twice" % c)
                    status[c] = st
                    if dev is not None:
                        mapping[c] = dev
                continue
            body = line.split("#", 1)[0].strip()
            if not body:
                continue
            m = re.match(r"([0-9A-F]{4,6}(?:\.\.[0-9A-F]{4,6})?)\s*>\s*([0-9A-F ]*)$", body)
            if not m:
                die("cannot parse uts46 line: %r" % line)
            a, b = rng(m.group(1))
            target = [int(x, 16) for x in m.group(2).split()]
            for c in range(a, b + 1):
                if status[c] is not None:
                    die("%04X listed twice" % c)
                if target == [0xFFFD]:
                    status[c] = "disallowed"
                elif not target:
                    status[c] = "ignored"
                else:
                    status[c] = "mapped"
                    mapping[c] = target
    holes = [c for c in range(MAXCP) if status[c] is None]
    if holes:
        die("uts46 table does not cover %d code points, first %04X" % (len(holes), holes[0]))
    # Fold UseSTD3ASCIIRules: disallowed_STD3_valid is disallowed, and so is
    # a mapping into one (that is what disallowed_STD3_mapped was).
    std3 = {c for c in range(MAXCP) if status[c] == "disallowed_STD3_valid"}
    for c in range(MAXCP):
        if status[c] == "disallowed_STD3_valid":
            status[c] = "disallowed"
        elif status[c] == "mapped" and any(t in std3 for t in mapping[c]):
            status[c] = "disallowed"
            del mapping[c]
    # Only the three full-stop variants may map to '.', which is what lets
    # the codec split labels before mapping.
    dots = sorted(c for c, t in mapping.items() if 0x2E in t and status[c] == "mapped")
    if dots != [0x3002, 0xFF0E, 0xFF61]:
        die("unexpected mappings to FULL STOP: %s" % ["%04X" % c for c in dots])
    return status, mapping


def derive_idna2008(gc, props, blocks, hst, norm, casefold):
    """RFC 5892 section 3, over the categories of section 2."""
    exc_pvalid = {0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007}
    exc_contexto = {0x00B7, 0x0375, 0x05F3, 0x05F4, 0x30FB} | set(range(0x0660, 0x066A)) \
        | set(range(0x06F0, 0x06FA))
    exc_disallowed = {0x0640, 0x07FA, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033, 0x3034,
                      0x3035, 0x303B}
    ignorable_blocks = {"Combining Diacritical Marks for Symbols", "Musical Symbols",
                        "Ancient Greek Musical Notation"}
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
        elif blocks[cp] in ignorable_blocks:
            v = "DISALLOWED"  # IgnorableBlocks (2.4)
        elif hst[cp] in ("L", "V", "T"):
            v = "DISALLOWED"  # OldHangulJamo (2.9)
        elif gc[cp] in letter_digits:
            v = "PVALID"
        else:
            v = "DISALLOWED"
        res[cp] = I08[v]
    return res


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ucd", required=True)
    ap.add_argument("--uts46", required=True)
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()

    paths = {n: os.path.join(args.ucd, n) for n in UCD_FILES}
    for p in list(paths.values()) + [args.uts46]:
        if not os.path.isfile(p):
            die("missing input %s" % p)

    gc, ccc, decomp, upper, lower = load_unicode_data(paths["UnicodeData.txt"])

    props = {k: set() for k in ("Noncharacter_Code_Point", "Join_Control", "White_Space",
                                "Default_Ignorable_Code_Point")}
    for f in ("PropList.txt", "DerivedCoreProperties.txt"):
        for a, b, fl in records(paths[f]):
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
    for a, b, fl in records(paths["Blocks.txt"]):
        for c in range(a, b + 1):
            blocks[c] = fl[0]
    hst = [None] * MAXCP
    for a, b, fl in records(paths["HangulSyllableType.txt"]):
        for c in range(a, b + 1):
            hst[c] = fl[0]
    script = [0] * MAXCP
    for a, b, fl in records(paths["Scripts.txt"]):
        if fl[0] in SCRIPTS:
            for c in range(a, b + 1):
                script[c] = SCRIPTS[fl[0]]

    def by_default(fname, names, long_names):
        path = paths[fname]
        val = [None] * MAXCP
        for a, b, v in missing_defaults(path):
            v = long_names.get(v, v)
            for c in range(a, b + 1):
                val[c] = names.index(v)
        for a, b, fl in records(path):
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
    u46_status, u46_map = load_uts46(args.uts46)
    i08 = derive_idna2008(gc, props, blocks, hst, norm, casefold)

    words = []
    for cp in range(MAXCP):
        w = (U46[u46_status[cp]] | i08[cp] << 3 | bidi[cp] << 6 | jt[cp] << 11
             | script[cp] << 14 | (1 if gc[cp][0] == "M" else 0) << 17 | nfc_qc[cp] << 18
             | ccc[cp] << 20)
        words.append(w)
    shift = 7
    stage1, stage2, pwords = build_trie(words, shift)
    if len(pwords) > 0xFFFF or len(stage2) > 0xFFFF:
        die("trie does not fit 16-bit indexes")

    pool = []
    pool_index = {}

    def intern(seq):
        key = tuple(seq)
        if key not in pool_index:
            # Reuse an existing occurrence when the sequence already appears.
            pool_index[key] = len(pool)
            pool.extend(seq)
        if len(seq) > 31:
            die("sequence too long")
        return pool_index[key] << 5 | len(seq)

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
    comp = sorted(((a << 21 | b), c) for (a, b), c in norm.comp.items())
    # The codec relies on these (codec/uts46.c NFC_DECOMP_MAX, codec/unicode.c
    # composition shortcut): fail loudly if a new Unicode version breaks them.
    longest = max(len(norm.decompose([cp], False)) for cp in dec_cp)
    if longest > 4:
        die("a canonical decomposition has %d code points; the codec assumes <= 4" % longest)
    for (a, b) in norm.comp:
        if nfc_qc[b] != QC["M"]:
            die("U+%04X composes as a second character but is not NFC_QC=Maybe" % b)
    low = sorted((c, t) for c, t in lower.items())
    up = sorted((c, t) for c, t in upper.items())

    counts = {}
    for cp in range(MAXCP):
        counts[i08[cp]] = counts.get(i08[cp], 0) + 1
    inv_i08 = {v: k for k, v in I08.items()}

    hdr = [
        "/**",
        " * \\file",
        " * Unicode %s property tables for idnguard.  DO NOT EDIT: generated by" % "15.0.0",
        " *   python3 tools/gen_tables.py --ucd UCD --uts46 UTS46 -o codec/unicode_tables.c",
        " * (`make tables`), where UCD is Debian's unicode-data package's /usr/share/unicode",
        " * and UTS46 is source/data/unidata/norm2/uts46.txt of Debian's icu source package.",
        " *",
        " * Inputs and their SHA-256:",
    ]
    for n in UCD_FILES:
        hdr.append(" *   %s %s" % (sha256(paths[n]), "UCD/" + n))
    hdr.append(" *   %s %s" % (sha256(args.uts46), "UTS46 (IdnaMappingTable 15.0.0)"))
    hdr.append(" *")
    hdr.append(" * RFC 5892 derived property counts: " + ", ".join(
        "%s %d" % (inv_i08[k], counts[k]) for k in sorted(counts)))
    hdr.append(" * Trie: %d property words, stage2 %d entries, block size %d." % (
        len(pwords), len(stage2), 1 << shift))
    hdr.append(" */")

    out = ["\n".join(hdr), '#include "unicode.h"', ""]
    out.append("const unsigned idng_ut_shift = %d;" % shift)
    out.append(c_array("uint16_t", "idng_ut_stage1", stage1, 16))
    out.append(c_array("uint16_t", "idng_ut_stage2", stage2, 16))
    out.append(c_array("uint32_t", "idng_ut_props", pwords, 8, "0x%08xu"))
    out.append(c_array("uint32_t", "idng_ut_pool", pool, 10, "0x%04x"))
    out.append(c_array("uint32_t", "idng_ut_map_cp", map_cp, 10, "0x%04x"))
    out.append(c_array("uint32_t", "idng_ut_map_ref", map_ref, 10))
    out.append("const size_t idng_ut_map_count = %d;" % len(map_cp))
    out.append(c_array("uint32_t", "idng_ut_dec_cp", dec_cp, 10, "0x%04x"))
    out.append(c_array("uint32_t", "idng_ut_dec_ref", dec_ref, 10))
    out.append("const size_t idng_ut_dec_count = %d;" % len(dec_cp))
    out.append(c_array("uint64_t", "idng_ut_comp_key", [k for k, _ in comp], 6, "0x%011xull"))
    out.append(c_array("uint32_t", "idng_ut_comp_val", [v for _, v in comp], 10, "0x%04x"))
    out.append("const size_t idng_ut_comp_count = %d;" % len(comp))
    out.append(c_array("uint32_t", "idng_ut_lower_cp", [c for c, _ in low], 10, "0x%04x"))
    out.append(c_array("uint32_t", "idng_ut_lower_to", [t for _, t in low], 10, "0x%04x"))
    out.append("const size_t idng_ut_lower_count = %d;" % len(low))
    out.append(c_array("uint32_t", "idng_ut_upper_cp", [c for c, _ in up], 10, "0x%04x"))
    out.append(c_array("uint32_t", "idng_ut_upper_to", [t for _, t in up], 10, "0x%04x"))
    out.append("const size_t idng_ut_upper_count = %d;" % len(up))
    tmp = args.output + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    os.replace(tmp, args.output)


if __name__ == "__main__":
    main()
