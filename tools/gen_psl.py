#!/usr/bin/env python3
"""Generates core/psl_table.c and core/idng_psl_table.h for idnguard:
the Public Suffix List as a read-only tree that core/psl.c walks.

Input, pinned by name, Debian package, package version and SHA-256 in
tools/psl.manifest:
  --psl DIR    the directory Debian's publicsuffix package installs the list
               in (/usr/share/publicsuffix); the list is
               DIR/public_suffix_list.dat

Before it reads the list, the generator checks it against the manifest and
stops, naming the file, the digest pinned and the one found, when it is not
the pinned file.  It then reads both sections of the list (ICANN and
PRIVATE), keeping for every rule the section it came from, and stops at
anything the format (https://github.com/publicsuffix/list/wiki/Format) does
not lead it to expect: a rule outside a section, a line that starts with
white space, an empty label, a wildcard other than a whole leftmost label,
an exception rule of one label or with no wildcard rule above it, a rule
under an exception, a label with ASCII capitals or that is not NFC, a
label whose A-label does not decode back to it, one over 63 octets, or a
rule listed twice (after conversion to A-labels).

Every Unicode label becomes its A-label, "xn--" followed by its RFC 3492
Punycode (Python's "punycode" codec).  The output is a tree of names:
node 0 is the root; every other node is a name that is a rule, the parent
of a wildcard rule, an exception, or a proper suffix of one of them, and
holds its leftmost label, its parent node and what the rules say about it.
An open-addressing hash table (linear probing, at most half full) finds the
child of a node by its label; the hash is child_hash() below, which
core/psl.c computes the same way.

Only the Python standard library is used; the output is deterministic.
"""
import argparse
import hashlib
import os
import re
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "psl.manifest")
INPUT = "PSL/public_suffix_list.dat"
SECTIONS = ("ICANN", "PRIVATE")

# What a node's flags say, per section: the name is a rule; "*." + the name
# is a rule; "!" + the name is a rule.  The ICANN bit of each is the lower.
FLAGS = [("RULE_ICANN", 0x01), ("RULE_PRIVATE", 0x02), ("WILD_ICANN", 0x04),
         ("WILD_PRIVATE", 0x08), ("EXC_ICANN", 0x10), ("EXC_PRIVATE", 0x20)]
FLAG = dict(FLAGS)

# child_hash: FNV-1a over the label's octets, seeded with the parent's node
# index, then the splitmix64 finalizer (core's idng_hash_mix); the low 32
# bits are the hash.
FNV_BASIS = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
M64 = (1 << 64) - 1

LDH = re.compile(r"[a-z0-9-]+")


def die(msg):
    sys.stderr.write("gen_psl.py: %s\n" % msg)
    sys.exit(1)


def mix(h):
    h ^= h >> 30
    h = (h * 0xBF58476D1CE4E5B9) & M64
    h ^= h >> 27
    h = (h * 0x94D049BB133111EB) & M64
    h ^= h >> 31
    return h


def child_hash(parent, label):
    h = FNV_BASIS ^ parent
    for octet in label.encode("ascii"):
        h = ((h ^ octet) * FNV_PRIME) & M64
    return mix(h) & 0xFFFFFFFF


def pinned(manifest):
    """The manifest's one line: (name, package, package version, SHA-256)."""
    try:
        with open(manifest, encoding="utf-8") as f:
            lines = [(n, line.split("#", 1)[0].split()) for n, line in enumerate(f, 1)]
    except OSError as e:
        die("cannot read the manifest %s: %s" % (manifest, e.strerror))
    lines = [(n, fields) for n, fields in lines if fields]
    for n, fields in lines:
        if len(fields) != 4 or not re.fullmatch(r"[0-9a-f]{64}", fields[3]):
            die("%s:%d: expected 'name package package-version sha256'" % (manifest, n))
    names = [fields[0] for _, fields in lines]
    if names != [INPUT]:
        die("%s must pin exactly %s (it pins %s)" % (manifest, INPUT, ", ".join(names) or "nothing"))
    return tuple(lines[0][1])


def verify_input(manifest, path):
    """Checks the list against the manifest before it is read."""
    manifest = os.path.relpath(manifest)
    name, pkg, pver, want = pinned(manifest)
    if not os.path.isfile(path):
        die("missing input %s (%s): it comes from Debian's %s %s" % (name, path, pkg, pver))
    with open(path, "rb") as f:
        got = hashlib.sha256(f.read()).hexdigest()
    if got != want:
        die("input %s (%s) is not the pinned file\n"
            "  expected SHA-256 %s (%s %s, %s)\n"
            "  actual   SHA-256 %s" % (name, path, want, pkg, pver, manifest, got))
    return name, pkg, pver, want


def a_label(label, where):
    """The A-label of one label of a rule (itself when it is ASCII)."""
    if label.isascii():
        if not LDH.fullmatch(label):
            die("%s: label '%s' is not lowercase letters, digits and hyphens" % (where, label))
        if label.startswith("xn--") and ulabel(label) is None:
            die("%s: '%s' is not a valid A-label" % (where, label))
        return label
    if re.search(r"[^a-z0-9-]", "".join(c for c in label if c.isascii())):
        die("%s: label '%s' holds ASCII other than lowercase letters, digits and hyphens"
            % (where, label))
    if not unicodedata.is_normalized("NFC", label):
        die("%s: label '%s' is not in NFC" % (where, label))
    if label.lower() != label:
        die("%s: label '%s' is not lowercase" % (where, label))
    out = "xn--" + label.encode("punycode").decode("ascii")
    if not LDH.fullmatch(out) or ulabel(out) != label:
        die("%s: label '%s' gives the A-label '%s', which does not decode back to it"
            % (where, label, out))
    return out


def ulabel(alabel):
    """The Unicode form of an A-label, or None when it does not decode."""
    try:
        return alabel[4:].encode("ascii").decode("punycode")
    except UnicodeError:
        return None


def read_rules(path):
    """The rules of both sections: a list of (kind, labels, section, line),
    kind "rule", "wild" or "exc", labels in A-label form, rightmost first."""
    rules = []
    section = None
    seen = set()
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            where = "%s:%d" % (path, n)
            line = line.rstrip("\n")
            m = re.fullmatch(r"// ===(BEGIN|END) (\w+) DOMAINS===\s*", line)
            if m:
                begin, name = m.group(1) == "BEGIN", m.group(2)
                if name not in SECTIONS:
                    die("%s: unknown section %s" % (where, name))
                if begin != (section is None) or (not begin and section != name):
                    die("%s: %s of section %s out of place" % (where, m.group(1), name))
                if begin and name in seen:
                    die("%s: section %s begins twice" % (where, name))
                seen.add(name)
                section = name if begin else None
                continue
            if line.startswith("//") or not line.strip():
                continue
            if line[0].isspace():
                die("%s: a line starting with white space" % where)
            if section is None:
                die("%s: rule '%s' outside the ICANN and PRIVATE sections" % (where, line.split()[0]))
            text = line.split()[0]
            kind = "rule"
            if text.startswith("!"):
                kind, text = "exc", text[1:]
            labels = text.split(".")
            if labels[0] == "*" and kind == "rule":
                kind, labels = "wild", labels[1:]
            if not labels or any(not x for x in labels):
                die("%s: rule '%s' has an empty label" % (where, line.split()[0]))
            if any("*" in x or "!" in x for x in labels):
                die("%s: rule '%s': '*' only as a whole leftmost label, '!' only first"
                    % (where, line.split()[0]))
            if kind == "exc" and len(labels) < 2:
                die("%s: exception rule '%s' of one label" % (where, line.split()[0]))
            labels = [a_label(x, where) for x in labels]
            # The name and one label more (of one octet), root included.
            if any(len(x) > 63 for x in labels) or sum(len(x) + 1 for x in labels) + 3 > 255:
                die("%s: rule '%s' leaves no room in a DNS name for a label more"
                    % (where, line.split()[0]))
            rules.append((kind, tuple(reversed(labels)), section, n))
    if seen != set(SECTIONS) or section is not None:
        die("%s: expected an ICANN and a PRIVATE section, each ended" % path)
    return rules


def check_rules(path, rules):
    """Duplicates, exceptions with no wildcard above, rules under exceptions."""
    first = {}
    for kind, labels, _, n in rules:
        if (kind, labels) in first:
            die("%s:%d: rule listed twice (line %d, after conversion to A-labels)"
                % (path, n, first[(kind, labels)]))
        first[(kind, labels)] = n
        other = {"rule": "exc", "exc": "rule"}.get(kind)
        if (other, labels) in first:
            die("%s:%d: '%s' is both a rule and an exception (line %d)"
                % (path, n, ".".join(reversed(labels)), first[(other, labels)]))
    excs = [labels for kind, labels, _, _ in rules if kind == "exc"]
    for kind, labels, _, n in rules:
        if kind == "exc" and ("wild", labels[:-1]) not in first:
            die("%s:%d: exception '!%s' has no wildcard rule above it"
                % (path, n, ".".join(reversed(labels))))
        for e in excs:
            if len(labels) > len(e) and labels[:len(e)] == e:
                die("%s:%d: rule '%s' lies under the exception '!%s'"
                    % (path, n, ".".join(reversed(labels)), ".".join(reversed(e))))


def build_tree(rules):
    """Nodes in order of depth, then of their labels from the root: (labels,
    flags); node 0 is the root."""
    flags = {(): 0}
    for kind, labels, section, _ in rules:
        for d in range(1, len(labels)):
            flags.setdefault(labels[:d], 0)
        flags[labels] = flags.get(labels, 0) | FLAG["%s_%s" % (kind.upper(), section)]
    order = sorted(flags, key=lambda k: (len(k), k))
    if len(order) > 0xFFFF:
        die("%d nodes do not fit the table's 16-bit indices" % len(order))
    return [(k, flags[k]) for k in order]


def build_labels(nodes):
    """The label pool: every distinct label once, in node order; the offset
    of each."""
    pool, at, size = [], {}, 0
    for labels, _ in nodes[1:]:
        if labels[-1] not in at:
            at[labels[-1]] = size
            pool.append(labels[-1])
            size += len(labels[-1])
    if size > 0xFFFF:
        die("the label pool does not fit 16-bit offsets")
    return pool, at


def build_slots(nodes):
    """The hash table: a power of two of slots, at most half of them used;
    each holds a node index, 0 for none (the root is no node's child).
    Returns the slots and the most probes any node takes."""
    index = {labels: i for i, (labels, _) in enumerate(nodes)}
    size = 1
    while size < 2 * len(nodes):
        size *= 2
    slots = [0] * size
    probes = 1
    for i, (labels, _) in enumerate(nodes[1:], 1):
        s = child_hash(index[labels[:-1]], labels[-1]) & (size - 1)
        k = 1
        while slots[s]:
            s = (s + 1) & (size - 1)
            k += 1
        slots[s] = i
        probes = max(probes, k)
    return slots, probes, index


def c_lines(items, per_line):
    return ["    " + " ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]


def write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--psl", required=True,
                    help="the directory of public_suffix_list.dat (Debian's publicsuffix)")
    ap.add_argument("--manifest", default=MANIFEST, help="the pinned input")
    ap.add_argument("-o", "--output", required=True, help="the C file to write")
    ap.add_argument("--header", required=True, help="the C header to write")
    args = ap.parse_args()

    path = os.path.join(args.psl, INPUT.split("/", 1)[1])
    name, pkg, pver, digest = verify_input(args.manifest, path)
    rules = read_rules(path)
    check_rules(path, rules)
    nodes = build_tree(rules)
    pool, label_at = build_labels(nodes)
    slots, probes, index = build_slots(nodes)

    count = {(k, s): 0 for k in ("rule", "wild", "exc") for s in SECTIONS}
    for kind, _, section, _ in rules:
        count[(kind, section)] += 1
    converted = sum(1 for _, labels, _, _ in rules if any(x.startswith("xn--") for x in labels))
    deepest = max(len(labels) for labels, _ in nodes)
    out_h = os.path.basename(args.header)
    head = [
        "/**",
        " * \\file",
        " * The Public Suffix List, %s %s, as a tree for core/psl.c." % (pkg, pver),
        " * DO NOT EDIT: generated by",
        " *   python3 tools/gen_psl.py --psl PSL -o core/psl_table.c",
        " *     --header core/idng_psl_table.h",
        " * (`make tables`), where PSL is Debian's publicsuffix package's /usr/share/publicsuffix;",
        " * the input is pinned in tools/psl.manifest and checked before generating.",
        " * The list is under the Mozilla Public License 2.0 (https://mozilla.org/MPL/2.0/).",
        " *",
        " * Input, its package and SHA-256:",
        " *   %s %s (%s %s)" % (digest, name, pkg, pver),
        " *",
    ]
    stats = [
        " * Rules: ICANN %d (%d wildcard, %d exception), PRIVATE %d (%d wildcard, %d exception);"
        % (sum(count[(k, "ICANN")] for k in ("rule", "wild", "exc")), count[("wild", "ICANN")],
           count[("exc", "ICANN")], sum(count[(k, "PRIVATE")] for k in ("rule", "wild", "exc")),
           count[("wild", "PRIVATE")], count[("exc", "PRIVATE")]),
        " * %d of them with Unicode labels, here as A-labels." % converted,
        " * Tree: %d nodes, the root included, at most %d labels deep; %d octets of labels;"
        % (len(nodes), deepest, sum(len(x) for x in pool)),
        " * %d slots, a node found in at most %d probes." % (len(slots), probes),
        " */",
    ]

    c = head + stats + [
        '#include "%s"' % out_h,
        '#include "idng_psl.h"',
        "",
        'const char idng_psl_version[] = "%s";' % pver,
        "",
        "/* The labels, each once; a node names its own by offset and length. */",
        "const char idng_psl_labels[] =",
    ]
    line = ""
    for label in pool:
        if len(line) + len(label) > 84:
            c.append('    "%s"' % line)
            line = ""
        line += label
    c.append('    "%s";' % line)
    c += ["", "/* The nodes: {parent, label offset, label length, flags}. */",
          "const struct idng_psl_node idng_psl_nodes[IDNG_PSL_NODES] = {"]
    items = []
    for labels, fl in nodes:
        if labels:
            items.append("{%d, %d, %d, 0x%02x}," % (index[labels[:-1]], label_at[labels[-1]],
                                                   len(labels[-1]), fl))
        else:
            items.append("{0, 0, 0, 0x00},")
    c += c_lines(items, 4) + ["};", "",
                              "/* The hash table: node indices, 0 for an empty slot. */",
                              "const uint16_t idng_psl_slots[IDNG_PSL_SLOTS] = {"]
    c += c_lines(["%d," % s for s in slots], 14) + ["};", ""]

    guard = "IDNG_PSL_TABLE_H"
    h = head + [" * What core/psl.c needs to read the tree of psl_table.c.", " */",
                "#ifndef %s" % guard, "#define %s" % guard, "", "#include <stdint.h>", "",
                "/* A name of the tree: its leftmost label (offset into idng_psl_labels and",
                " * length), the index of the node of its parent name, and IDNG_PSL_F_* flags. */",
                "struct idng_psl_node {",
                "    uint16_t parent;",
                "    uint16_t label;",
                "    uint8_t len;",
                "    uint8_t flags;",
                "};",
                "",
                "/* Flags of a node: the name is a rule (RULE), \"*.\" + the name is (WILD),",
                " * \"!\" + the name is (EXC); each from the ICANN or the PRIVATE section. */"]
    for fname, value in FLAGS:
        h.append("#define IDNG_PSL_F_%s 0x%02xu" % (fname, value))
    h += ["/* The flags of the ICANN section. */",
          "#define IDNG_PSL_F_ICANN 0x%02xu" % sum(v for k, v in FLAGS if k.endswith("ICANN")),
          "",
          "/* The child of node p with label L is the node n = idng_psl_slots[(h + i) &",
          " * (IDNG_PSL_SLOTS - 1)], for the first i < IDNG_PSL_PROBES with n == 0 (none)",
          " * or with parent p and label L; h is FNV-1a (basis IDNG_PSL_HASH_BASIS xor p,",
          " * the label's octets lowercase) finished by idng_hash_mix, its low 32 bits. */",
          "#define IDNG_PSL_NODES %d" % len(nodes),
          "#define IDNG_PSL_SLOTS %d" % len(slots),
          "#define IDNG_PSL_PROBES %d" % probes,
          "#define IDNG_PSL_DEPTH %d" % deepest,
          "#define IDNG_PSL_HASH_BASIS UINT64_C(0x%016x)" % FNV_BASIS,
          "#define IDNG_PSL_HASH_PRIME UINT64_C(0x%x)" % FNV_PRIME,
          "/* The input's size in octets, by which a test that reads the installed list",
          " * tells the pinned one from another version. */",
          "#define IDNG_PSL_INPUT_OCTETS %d" % os.path.getsize(path),
          "",
          "extern const char idng_psl_labels[];",
          "extern const struct idng_psl_node idng_psl_nodes[IDNG_PSL_NODES];",
          "extern const uint16_t idng_psl_slots[IDNG_PSL_SLOTS];",
          "",
          "#endif /* %s */" % guard, ""]

    write(args.output, "\n".join(c))
    write(args.header, "\n".join(h))


if __name__ == "__main__":
    main()
