#!/usr/bin/python3
"""find_lookalikes.py - derive extra lookalike mappings by comparing rendered glyphs.

UTS #39 confusables.txt maps some letters to a prototype other than what they
look like in common fonts (U+04CF CYRILLIC SMALL LETTER PALOCHKA is mapped to
"i" but is drawn as a dotless vertical stroke, like "l").  This script finds
such letters by rendering every candidate letter and every ASCII target
(a-z, 0-9) in several common sans-serif fonts and comparing the bitmaps, and
prints the pairs that UTS #39 does not already give.

Usage:  python3 tools/find_lookalikes.py > tools/lookalike_extra.txt
  --report HEX[,HEX...]  also print per-font scores of these code points to stderr
  --calib FILE           write the scores of all candidates and of the known
                         (confusables.txt) pairs to FILE

Needs (Debian 12): python3-pil python3-numpy python3-fonttools unicode-data
fonts-dejavu-core fonts-liberation2 fonts-freefont-ttf fonts-noto-core
fonts-noto-cjk fonts-wqy-microhei fonts-tlwg-loma-ttf fonts-sil-padauk
fonts-sil-abyssinica fonts-lklug-sinhala fonts-tibetan-machine fonts-khmeros
fonts-lohit-deva fonts-lohit-beng-bengali fonts-lohit-guru fonts-lohit-gujr
fonts-lohit-orya fonts-lohit-taml fonts-lohit-telu fonts-lohit-knda
fonts-lohit-mlym; and the ICU 72 source tree
(build/src/icu-*/source/data/unidata/confusables.txt).

The output is deterministic: it depends only on the data files and font files
named in its header.
"""
import os
import sys

try:
    import numpy as np
    from PIL import Image, ImageDraw, ImageFilter, ImageFont
    from fontTools.ttLib import TTFont
except ImportError:
    # The python3 first on PATH may be a private build without Debian's
    # python3-pil/numpy/fonttools; fall back to the system interpreter.
    if os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") \
            and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise

import glob
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
UCD = "/usr/share/unicode"
UNICODEDATA = os.path.join(UCD, "UnicodeData.txt")
SCRIPTS = os.path.join(UCD, "Scripts.txt")
IDNA = os.path.join(UCD, "idna", "IdnaMappingTable.txt")


def find_confusables():
    hits = sorted(glob.glob(os.path.join(
        ROOT, "build", "src", "icu-*", "source", "data", "unidata", "confusables.txt")))
    if not hits:
        sys.exit("confusables.txt not found under build/src/icu-*/source/data/unidata/")
    return hits[-1]


CONFUSABLES = find_confusables()

# ---------------------------------------------------------------------------
# Parameters of the method.
SIZE = 64            # pixel size of the em
CANVAS_W = 192       # render canvas
CANVAS_H = 128
ORIGIN_X = 48        # pen origin on the canvas (room for negative bearings)
BASELINE = 88        # baseline row: 1.375 em above it, 0.625 em below
CROP_W = 104         # compared width, starting BLUR_PAD px left of the ink
BLUR_PAD = 8
BLUR_RADIUS = 2.0    # Gaussian blur radius in px (at 64 px/em)
DOWN = 2             # box-downsample factor after the blur (speed)
THRESHOLD = 0.70     # see the header / report for the justification

SCRIPTS_ALLOWED = [
    "Latin", "Greek", "Cyrillic", "Armenian", "Georgian", "Hebrew", "Arabic",
    "Thai", "Lao", "Myanmar", "Cherokee", "Ethiopic", "Devanagari", "Bengali",
    "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada", "Malayalam",
    "Sinhala", "Tibetan", "Khmer", "Hangul", "Hiragana", "Katakana", "Bopomofo",
    "Han",
]
TARGETS = [chr(c) for c in range(ord("a"), ord("z") + 1)] + \
          [chr(c) for c in range(ord("0"), ord("9") + 1)]

FD = "/usr/share/fonts/truetype/"
FO = "/usr/share/fonts/opentype/"
NOTO_CJK = FO + "noto/NotoSansCJK-Regular.ttc"
CJK_SCRIPTS = {"Han", "Hiragana", "Katakana", "Bopomofo", "Hangul"}
NOTO_SCRIPT_FILE = {}   # script -> file stem, where it is not the script name


def noto_face(script):
    """(path, index) of the Noto Sans face for a script."""
    if script in CJK_SCRIPTS:
        return (NOTO_CJK, 0)          # Noto Sans CJK JP
    if script in ("Latin", "Greek", "Cyrillic"):
        return (FD + "noto/NotoSans-Regular.ttf", 0)
    stem = NOTO_SCRIPT_FILE.get(script, script.replace(" ", ""))
    for p in (FD + "noto/NotoSans%s-Regular.ttf" % stem,
              FD + "noto/NotoSerif%s-Regular.ttf" % stem):   # Tibetan: serif only
        if os.path.exists(p):
            return (p, 0)
    return (FD + "noto/NotoSans-Regular.ttf", 0)


# The usual free font of each script that the fonts above cover thinly.
REGIONAL = {
    "Thai": ("tlwg/Loma.ttf", "fonts-tlwg-loma-ttf"),
    "Myanmar": ("padauk/Padauk-Regular.ttf", "fonts-sil-padauk"),
    "Ethiopic": ("abyssinica/AbyssinicaSIL-Regular.ttf", "fonts-sil-abyssinica"),
    "Sinhala": ("sinhala/lklug.ttf", "fonts-lklug-sinhala"),
    "Tibetan": ("tibetan-machine/TibetanMachineUni.ttf", "fonts-tibetan-machine"),
    "Khmer": ("khmeros/KhmerOS.ttf", "fonts-khmeros"),
    "Devanagari": ("lohit-devanagari/Lohit-Devanagari.ttf", "fonts-lohit-deva"),
    "Bengali": ("lohit-bengali/Lohit-Bengali.ttf", "fonts-lohit-beng-bengali"),
    "Gurmukhi": ("lohit-punjabi/Lohit-Gurmukhi.ttf", "fonts-lohit-guru"),
    "Gujarati": ("lohit-gujarati/Lohit-Gujarati.ttf", "fonts-lohit-gujr"),
    "Oriya": ("lohit-oriya/Lohit-Odia.ttf", "fonts-lohit-orya"),
    "Tamil": ("lohit-tamil/Lohit-Tamil.ttf", "fonts-lohit-taml"),
    "Telugu": ("lohit-telugu/Lohit-Telugu.ttf", "fonts-lohit-telu"),
    "Kannada": ("lohit-kannada/Lohit-Kannada.ttf", "fonts-lohit-knda"),
    "Malayalam": ("lohit-malayalam/Lohit-Malayalam.ttf", "fonts-lohit-mlym"),
}


def regional_face(script):
    if script in REGIONAL:
        return (FD + REGIONAL[script][0], 0)
    return None


# A "font" is a family as a reader would see it: the face used for a
# candidate of a given script, and the face used for the ASCII targets.
FONTS = [
    # name, debian package, function script -> candidate face, target face
    ("DejaVu Sans", "fonts-dejavu-core",
     lambda s: (FD + "dejavu/DejaVuSans.ttf", 0), (FD + "dejavu/DejaVuSans.ttf", 0)),
    ("Liberation Sans", "fonts-liberation2",
     lambda s: (FD + "liberation2/LiberationSans-Regular.ttf", 0),
     (FD + "liberation2/LiberationSans-Regular.ttf", 0)),
    ("FreeSans", "fonts-freefont-ttf",
     lambda s: (FD + "freefont/FreeSans.ttf", 0), (FD + "freefont/FreeSans.ttf", 0)),
    ("Noto Sans", "fonts-noto-core, fonts-noto-cjk",
     noto_face, (FD + "noto/NotoSans-Regular.ttf", 0)),
    ("WenQuanYi Micro Hei", "fonts-wqy-microhei",
     lambda s: (FD + "wqy/wqy-microhei.ttc", 0), (FD + "wqy/wqy-microhei.ttc", 0)),
    ("Regional", ", ".join(sorted(p for f, p in REGIONAL.values())),
     regional_face, (FD + "dejavu/DejaVuSans.ttf", 0)),
]

# ---------------------------------------------------------------------------
# Unicode data


def parse_ranges(path, nfields):
    """Yield (lo, hi, fields[1:]) from a UCD-style semicolon file."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = [p.strip() for p in line.split(";")]
            r = parts[0]
            if ".." in r:
                lo, hi = r.split("..")
            else:
                lo = hi = r
            yield int(lo, 16), int(hi, 16), parts[1:1 + nfields]


def load_unicodedata():
    names, gc, decomp, ccc = {}, {}, {}, {}
    first = None
    with open(UNICODEDATA, encoding="utf-8") as f:
        for line in f:
            fl = line.rstrip("\n").split(";")
            cp = int(fl[0], 16)
            name, cat = fl[1], fl[2]
            if name.endswith(", First>"):
                first = cp
                continue
            if name.endswith(", Last>"):
                base = name[1:-7]
                for c in range(first, cp + 1):
                    gc[c] = cat
                    if base.startswith("CJK Ideograph"):
                        names[c] = "CJK UNIFIED IDEOGRAPH-%04X" % c
                    elif base.startswith("Hangul Syllable"):
                        names[c] = hangul_name(c)
                    else:
                        names[c] = "%s-%04X" % (base.upper(), c)
                continue
            names[cp] = name
            gc[cp] = cat
            if int(fl[3]):
                ccc[cp] = int(fl[3])
            d = fl[5]
            if d and not d.startswith("<"):
                decomp[cp] = [int(x, 16) for x in d.split()]
    return names, gc, decomp, ccc


JAMO_L = "G GG N D DD R M B BB S SS  J JJ C K T P H".split(" ")
JAMO_V = "A AE YA YAE EO E YEO YE O WA WAE OE YO U WEO WE WI YU EU YI I".split(" ")
JAMO_T = ["", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS",
          "LT", "LP", "LH", "M", "B", "BS", "S", "SS", "NG", "J", "C", "K", "T",
          "P", "H"]


def hangul_name(c):
    s = c - 0xAC00
    return "HANGUL SYLLABLE " + JAMO_L[s // 588] + JAMO_V[(s % 588) // 28] + JAMO_T[s % 28]


def nfd(cps, decomp, ccc):
    out = []

    def dec(c):
        if 0xAC00 <= c <= 0xD7A3:
            s = c - 0xAC00
            out.append(0x1100 + s // 588)
            out.append(0x1161 + (s % 588) // 28)
            if s % 28:
                out.append(0x11A7 + s % 28)
        elif c in decomp:
            for x in decomp[c]:
                dec(x)
        else:
            out.append(c)
    for c in cps:
        dec(c)
    # canonical ordering (stable sort of runs of non-starters)
    i = 0
    while i < len(out):
        if ccc.get(out[i], 0):
            j = i
            while j < len(out) and ccc.get(out[j], 0):
                j += 1
            out[i:j] = sorted(out[i:j], key=lambda c: ccc[c])
            i = j
        else:
            i += 1
    return out


def load_confusables():
    m = {}
    with open(CONFUSABLES, encoding="utf-8-sig") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            src, dst = [p.strip() for p in line.split(";")[:2]]
            m[int(src, 16)] = [int(x, 16) for x in dst.split()]
    return m


def skeleton(cps, conf, decomp, ccc):
    x = nfd(cps, decomp, ccc)
    y = []
    for c in x:
        y.extend(conf.get(c, [c]))
    return nfd(y, decomp, ccc)


def load_scripts():
    sc = {}
    for lo, hi, f in parse_ranges(SCRIPTS, 1):
        for c in range(lo, hi + 1):
            sc[c] = f[0]
    return sc


def load_idna():
    st = {}
    for lo, hi, f in parse_ranges(IDNA, 3):
        status = f[0]
        idna2008 = f[2] if len(f) > 2 else ""
        for c in range(lo, hi + 1):
            st[c] = (status, idna2008)
    return st


# ---------------------------------------------------------------------------
# Rendering

_face_cache = {}
_cmap_cache = {}


def pil_font(face):
    if face not in _face_cache:
        _face_cache[face] = ImageFont.truetype(face[0], SIZE, index=face[1],
                                               layout_engine=ImageFont.Layout.BASIC)
    return _face_cache[face]


def cmap(face):
    if face not in _cmap_cache:
        tt = TTFont(face[0], fontNumber=face[1], lazy=True)
        _cmap_cache[face] = set(tt.getBestCmap().keys())
        tt.close()
    return _cmap_cache[face]


def render(ch, face):
    """Blurred, downsampled ink bitmap aligned on the baseline and on the
    glyph's own left ink edge, plus the advance width in px; None if the
    face lacks the glyph or it has no ink."""
    if face is None or ord(ch) not in cmap(face):
        return None
    font = pil_font(face)
    img = Image.new("L", (CANVAS_W, CANVAS_H), 0)
    ImageDraw.Draw(img).text((ORIGIN_X, BASELINE), ch, font=font, fill=255, anchor="ls")
    a = np.asarray(img)
    cols = np.nonzero(a.max(axis=0))[0]
    if cols.size == 0:
        return None
    left = int(cols[0]) - BLUR_PAD
    crop = np.zeros((CANVAS_H, CROP_W), dtype=np.uint8)
    seg = a[:, max(left, 0):left + CROP_W]
    crop[:, :seg.shape[1]] = seg
    im = Image.fromarray(crop).filter(ImageFilter.GaussianBlur(BLUR_RADIUS))
    im = im.resize((CROP_W // DOWN, CANVAS_H // DOWN), Image.BOX)
    arr = np.asarray(im, dtype=np.float32) / 255.0
    return arr, float(font.getlength(ch))


def scores(cand, tstack, tsum, tadv):
    """Soft IoU (sum of min / sum of max) of the candidate bitmap against
    each target, times the ratio of advance widths (smaller/larger)."""
    arr, adv = cand
    s = arr.sum()
    # IoU <= min(area)/max(area): skip targets that cannot reach the threshold
    ratio = np.minimum(s, tsum) / np.maximum(s, tsum)
    out = np.zeros(len(tsum), dtype=np.float64)
    idx = np.nonzero(ratio >= THRESHOLD * 0.8)[0]
    if idx.size:
        t = tstack[idx]
        inter = np.minimum(t, arr).sum(axis=(1, 2))
        union = np.maximum(t, arr).sum(axis=(1, 2))
        iou = inter / np.maximum(union, 1e-9)
        aw = np.minimum(adv, tadv[idx]) / np.maximum(np.maximum(adv, tadv[idx]), 1e-9)
        out[idx] = iou * aw
    return out


# ---------------------------------------------------------------------------


def candidates(names, gc, scripts, idna):
    allowed = set(SCRIPTS_ALLOWED)
    out = []
    for c in sorted(gc):
        cat = gc[c]
        if not (cat[0] == "L" or cat == "Nd"):
            continue          # letters and digits
        if c < 0x80:
            continue          # the targets themselves
        s = scripts.get(c)
        if s not in allowed:
            continue
        if s == "Han" and not (0x4E00 <= c <= 0x9FFF):
            continue
        # UTS #46 'valid' (this drops the uppercase letters, which it maps to
        # lowercase, but keeps e.g. Cherokee, whose uppercase is the valid
        # form) and valid in IDNA2008 too (not NV8/XV8)
        st, i2008 = idna.get(c, ("disallowed", ""))
        if st != "valid" or i2008 in ("NV8", "XV8"):
            continue
        out.append((c, s))
    return out


def pkg_version(pkg):
    try:
        r = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg],
                           capture_output=True, text=True, check=False)
        return r.stdout.strip() or "?"
    except OSError:
        return "?"


def parse_args(argv):
    opts = {"report": set(), "calib": None}
    i = 0
    while i < len(argv):
        if argv[i] == "--report" and i + 1 < len(argv):
            opts["report"] = {int(x, 16) for x in argv[i + 1].split(",")}
            i += 2
        elif argv[i] == "--calib" and i + 1 < len(argv):
            opts["calib"] = argv[i + 1]
            i += 2
        else:
            sys.exit("usage: find_lookalikes.py [--report HEX[,HEX...]] [--calib FILE]")
    return opts


def main():
    opts = parse_args(sys.argv[1:])
    report = opts["report"]

    names, gc, decomp, ccc = load_unicodedata()
    scripts = load_scripts()
    idna = load_idna()
    conf = load_confusables()
    cands = candidates(names, gc, scripts, idna)

    # target bitmaps per font
    tdata = []
    for fname, pkg, cface, tface in FONTS:
        rs = [render(t, tface) for t in TARGETS]
        assert all(r is not None for r in rs), fname
        tstack = np.stack([r[0] for r in rs])
        tdata.append((tstack, tstack.sum(axis=(1, 2)), np.array([r[1] for r in rs])))

    tskel = [skeleton([ord(t)], conf, decomp, ccc) for t in TARGETS]

    results = []        # (cp, best target index, its score, per-target minima, fonts)
    held_by = {}
    for c, s in cands:
        per_font = []
        for fi, (fname, pkg, cface, tface) in enumerate(FONTS):
            r = render(chr(c), cface(s))
            if r is None:
                continue
            tstack, tsum, tadv = tdata[fi]
            per_font.append((fname, scores(r, tstack, tsum, tadv)))
        held_by[c] = len(per_font)
        if len(per_font) < 2:
            continue
        # The median over the fonts: a letter that looks like the target in
        # half the common fonts that hold it is a lookalike for a reader of
        # those fonts.
        mins = np.median(np.stack([p[1] for p in per_font]), axis=0)
        best = int(np.argmax(mins))
        results.append((c, best, float(mins[best]), mins, per_font))

    def proto(c):
        return "".join(chr(x) for x in skeleton([c], conf, decomp, ccc))

    # --report: per-font scores of chosen code points, to stderr
    res_by_cp = {r[0]: r for r in results}
    for c in sorted(report):
        if c not in held_by:
            sys.stderr.write("U+%04X %s: not a candidate\n" % (c, names.get(c, "?")))
            continue
        if c not in res_by_cp:
            sys.stderr.write("U+%04X %s: held by %d font(s) only\n" % (c, names[c], held_by[c]))
            continue
        _, ti, sc, mins, per_font = res_by_cp[c]
        sys.stderr.write("U+%04X %s %s: best %s %.3f (prototype %s); per font best: %s; "
                         "score for %s per font: %s\n" % (
                             c, chr(c), names[c], TARGETS[ti], sc, proto(c),
                             ", ".join("%s %s %.2f" % (fn, TARGETS[int(np.argmax(v))], v.max())
                                       for fn, v in per_font),
                             TARGETS[ti], " ".join("%.2f" % v[ti] for fn, v in per_font)))

    # known pairs: confusables.txt already gives the candidate the skeleton of
    # a target; their scores calibrate the threshold
    known = []
    for c, ti, sc, mins, per_font in results:
        sk = skeleton([c], conf, decomp, ccc)
        ks = [k for k in range(len(TARGETS)) if tskel[k] == sk]
        if ks:
            known.append((c, ks[0], float(mins[ks[0]]), per_font))
    if opts["calib"]:
        with open(opts["calib"], "w", encoding="utf-8") as f:
            for c, k, sc, per_font in sorted(known, key=lambda r: (-r[2], r[0])):
                f.write("KNOWN %.3f U+%04X %s -> %s fonts=%s %s\n" % (
                    sc, c, chr(c), TARGETS[k],
                    " ".join("%.2f" % p[1][k] for p in per_font), names[c]))
            for c, ti, sc, mins, per_font in sorted(results, key=lambda r: (-r[2], r[0])):
                f.write("BEST %.3f U+%04X %s -> %s prototype=%s fonts=%s %s\n" % (
                    sc, c, chr(c), TARGETS[ti], proto(c),
                    " ".join("%.2f" % p[1][ti] for p in per_font), names[c]))

    extra, already, decomposable = [], 0, 0
    for c, ti, sc, mins, per_font in results:
        if sc < THRESHOLD:
            continue
        sk = skeleton([c], conf, decomp, ccc)
        if sk == tskel[ti]:
            already += 1
            continue
        if c in decomp:
            decomposable += 1
            continue
        extra.append((c, ti, sc, sk))

    kn = {c: sc for c, k, sc, pf in known}
    cyr = [0x0430, 0x0435, 0x043E, 0x0440, 0x0441, 0x0443, 0x0445]
    distinct = [sc for c, k, sc, pf in known
                if any(p[1][k] < 0.99 for p in pf)]   # outlines not shared in every font
    pe = res_by_cp.get(0x043F)

    w = sys.stdout.write
    w("# lookalike_extra.txt - extra lookalike mappings, beyond UTS #39 confusables.txt\n")
    w("#\n")
    w("# For keying names against protected names and for the whole-script test:\n")
    w("# each line maps a letter or digit to the ASCII letter or digit that it looks\n")
    w("# like in common sans-serif fonts, where the UTS #39 skeleton of the letter\n")
    w("# (%s) is not\n" % os.path.relpath(CONFUSABLES, ROOT))
    w("# already the skeleton of that ASCII character.\n")
    w("#\n")
    w("# Made by: python3 tools/find_lookalikes.py > tools/lookalike_extra.txt\n")
    w("# (deterministic; nothing is added or removed by hand)\n")
    w("#\n")
    w("# Method:\n")
    w("#  Candidates (%d): General_Category L* or Nd, not ASCII, Scripts.txt script one of\n"
      % len(cands))
    for k in range(0, len(SCRIPTS_ALLOWED), 10):
        w("#   %s%s\n" % (", ".join(SCRIPTS_ALLOWED[k:k + 10]),
                          "," if k + 10 < len(SCRIPTS_ALLOWED) else ""))
    w("#   (Han: 4E00-9FFF only), UTS #46 status 'valid' and not NV8/XV8\n")
    w("#   (Unicode 15.0.0 UnicodeData.txt, Scripts.txt, IdnaMappingTable.txt from\n")
    w("#   unicode-data %s).\n" % pkg_version("unicode-data"))
    w("#  Targets: a-z, 0-9.\n")
    w("#  Fonts: a candidate is drawn in each of these whose cmap holds it, and scored\n")
    w("#   only if at least two do; targets are drawn in the Latin face of the same font:\n")
    for fname, pkg, cface, tface in FONTS:
        if fname == "Regional":
            w("#   Regional (one per script; targets in DejaVu Sans):\n")
            for sc_ in sorted(REGIONAL):
                f_, p_ = REGIONAL[sc_]
                w("#     %s: %s (%s %s)\n" % (sc_, os.path.basename(f_), p_, pkg_version(p_)))
            continue
        vers = ", ".join("%s %s" % (p.strip(), pkg_version(p.strip())) for p in pkg.split(","))
        w("#   %s (%s)\n" % (fname, vers))
    w("#   Noto Sans is NotoSans-Regular for Latin, Greek, Cyrillic and the targets,\n")
    w("#   NotoSans<Script>-Regular for other scripts (NotoSerifTibetan: no sans),\n")
    w("#   Noto Sans CJK JP for Han, kana, Bopomofo and Hangul.\n")
    w("#  Rendering: python3-pil %s (basic layout), %d px per em,\n"
      % (pkg_version("python3-pil"), SIZE))
    w("#   common baseline;")
    w(" each bitmap shifted so that its leftmost ink is at a fixed column;\n")
    w("#   Gaussian blur radius %.1f px, then %dx%d box downsampling.\n" % (BLUR_RADIUS, DOWN, DOWN))
    w("#  Score in one font: soft intersection over union of the blurred ink\n")
    w("#   (sum of min / sum of max) times the ratio of the advance widths\n")
    w("#   (smaller / larger). Score of a pair: the median over the fonts that hold\n")
    w("#   the candidate (a letter that looks like the target in half the common\n")
    w("#   fonts looks like it to their readers). Each candidate takes the target\n")
    w("#   with the highest score.\n")
    w("#  Threshold: %.2f. Known pairs (skeleton already that of a target):\n" % THRESHOLD)
    w("#   Cyrillic %s score %s\n" % (
        " ".join(chr(c) for c in cyr), " ".join("%.2f" % kn.get(c, 0) for c in cyr)))
    w("#   (same outlines as Latin in these fonts); of the %d known pairs whose\n" % len(distinct))
    w("#   outlines differ in some font, %d score >= %.2f (e.g. Greek ο %.2f, ρ %.2f,\n" % (
        sum(1 for x in distinct if x >= THRESHOLD), THRESHOLD, kn.get(0x03BF, 0), kn.get(0x03C1, 0)))
    w("#   σ %.2f, Armenian ս %.2f, ց %.2f); Cyrillic п -> n scores %.2f.\n" % (
        kn.get(0x03C3, 0), kn.get(0x057D, 0), kn.get(0x0581, 0), pe[2] if pe else 0))
    w("#  Kept: score >= threshold and skeleton not that of the target (%d dropped\n" % already)
    w("#   as already in UTS #39); candidates with a canonical decomposition\n")
    w("#   (letter + combining marks, e.g. é -> e) are left out (%d dropped).\n" % decomposable)
    w("#\n")
    w("# SOURCE ; TARGET ; SCORE ; NAME # source \u2192 target (prototype: UTS #39 skeleton)\n")
    for c, ti, sc, sk in sorted(extra):
        w("%04X ; %04X ; %.2f ; %s # %s \u2192 %s (prototype: %s)\n" % (
            c, ord(TARGETS[ti]), sc, names[c], chr(c), TARGETS[ti],
            "".join(chr(x) for x in sk)))


if __name__ == "__main__":
    main()
