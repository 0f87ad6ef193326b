#!/usr/bin/env python3
"""The golden dnstap captures of tests/tap/golden, decoded and checked.

Each NAME.fstrm (made by tests/tap/make-golden.sh) has beside it:
  NAME.ldns    one line per dnstap message, from `dnstap-ldns -y -r`: the
               independent reading of the capture (kind, time, transport,
               client#port, DNS id, question, and for a response its rcode
               and EDE), names in idnguard's escaping
  NAME.module  (dynlib only) the module's own log lines of the same run
  NAME.text    `idnguard tap -r NAME.fstrm --conf idnguard.conf`
  NAME.json    the same with --format=json
Checks, each reported on its own:
  - NAME.ldns is what dnstap-ldns says of NAME.fstrm today;
  - NAME.module agrees with NAME.ldns (client, question, transport, rcode,
    EDE): the capture and the module's log are of the same queries;
  - `idnguard tap -r` (file and stdin) writes NAME.text and NAME.json
    exactly, exits 0 and closes with its summary line, whose counts fit
    the capture;
  - every line of NAME.text agrees with NAME.ldns: one line per client
    query, its time the query's, its rcode and EDE the response's ("-"
    without one), ms the difference of the two times, path "-";
  - with the module's lines: the same client, qname, Unicode form, type,
    class, rcode, verdict, action, EDE and transport;
  - NAME.json says what NAME.text says, key by key;
  - files that are not dnstap captures exit 2, a truncated capture 1.
With --write, NAME.ldns, NAME.text and NAME.json are written first (from
dnstap-ldns and the tap), and the checks then show, before they are
committed, where the tap's reading disagrees with the others; read them
line by line anyway.  --ldns NAME writes NAME.ldns only (make-golden.sh).

usage: golden.py [--write] [--ldns NAME] [--tap PATH]
  --tap PATH   the idnguard binary ($IDNGUARD_BIN, else build/idnguard)
Closes with "golden: N passed, N failed"; exit status 1 on any failure.
"""

import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden")
CONF = os.path.join(GOLDEN, "idnguard.conf")
SUMMARY_RE = re.compile(
    r"^idnguard tap: frames=(\d+) messages=(\d+) lines=(\d+) unanswered=(\d+) "
    r"unmatched=(\d+) dropped=(\d+) malformed_frames=(\d+) malformed_messages=(\d+) "
    r"malformed_dns=(\d+) connections=(\d+) closed=(\d+)$")
SUMMARY_KEYS = ("frames", "messages", "lines", "unanswered", "unmatched", "dropped",
                "malformed_frames", "malformed_messages", "malformed_dns", "connections",
                "closed")


class Report:
    """Counts checks; prints each failure with what it was about."""

    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok, what, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL %s%s" % (what, (": " + detail) if detail else ""))
        return ok


# ---- names: one spelling ----

PLAIN = set(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_*")


def canon_name(text):
    """A presentation-format name (ldns's escapes: \\DDD and \\X) in
    idnguard's name escaping (core/idng_log.h): letters, digits, '-',
    '_' and '*' as they are, '.' between labels, every other octet \\DDD."""
    out, i = [], 0
    data = text.encode("latin-1", "backslashreplace")
    while i < len(data):
        c = data[i]
        if c == ord("\\") and len(data[i + 1:i + 4]) == 3 and data[i + 1:i + 4].isdigit():
            code, i = int(data[i + 1:i + 4]), i + 4
        elif c == ord("\\") and i + 1 < len(data):
            code, i = data[i + 1], i + 2
        elif c == ord("."):
            out.append(".")
            i += 1
            continue
        else:
            code, i = c, i + 1
        out.append(chr(code) if code in PLAIN else "\\%03d" % code)
    return "".join(out)


# ---- dnstap-ldns's reading ----

def ldns_messages(path):
    """The messages of a capture as dnstap-ldns reads them, in order."""
    out = subprocess.run(["dnstap-ldns", "-y", "-r", path], capture_output=True, check=True,
                         env=dict(os.environ, TZ="UTC")).stdout.decode("latin-1")
    msgs = []
    for doc in out.split("\n---\n"):
        if "type: MESSAGE" not in doc:
            continue
        m = {}
        kind = re.search(r"^  type: (\w+)", doc, re.M).group(1)
        m["kind"] = {"CLIENT_QUERY": "CQ", "CLIENT_RESPONSE": "CR"}.get(kind, kind)
        t = re.search(r"_time: !!timestamp (\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)\.(\d{6})", doc)
        m["time"] = "%sT%s.%sZ" % t.groups()
        m["proto"] = re.search(r"socket_protocol: (\w+)", doc).group(1).lower()
        m["client"] = re.search(r'query_address: "([^"]*)"', doc).group(1)
        m["port"] = int(re.search(r"query_port: (\d+)", doc).group(1))
        h = re.search(r"rcode: (\w+), id: (\d+)", doc)
        m["rcode"], m["id"] = h.group(1), int(h.group(2))
        q = re.search(r";; QUESTION SECTION:\n\s*;([^\n]*)", doc)
        name, qclass, qtype = q.group(1).split("\t")[:3]
        m["qname"], m["qclass"], m["qtype"] = canon_name(name), qclass, qtype
        m["ede"] = None
        d = re.search(r";; Data: \\# \d+ ([0-9a-f]+)", doc)
        if d:  # EDNS options: code, length, data; EDE is 15 (RFC 8914)
            raw = bytes.fromhex(d.group(1))
            while len(raw) >= 4:
                code, n = int.from_bytes(raw[0:2], "big"), int.from_bytes(raw[2:4], "big")
                if code == 15 and n >= 2:
                    m["ede"] = int.from_bytes(raw[4:6], "big")
                raw = raw[4 + n:]
        msgs.append(m)
    return msgs


def ldns_line(m):
    s = "%s %s %s %s#%d id=%d %s %s %s" % (m["kind"], m["time"], m["proto"], m["client"], m["port"],
                                          m["id"], m["qname"], m["qclass"], m["qtype"])
    if m["kind"] == "CR":
        s += " " + m["rcode"]
        if m["ede"] is not None:
            s += " ede=%d" % m["ede"]
    return s


def parse_ldns_line(line):
    f = line.split()
    m = {"kind": f[0], "time": f[1], "proto": f[2], "id": int(f[4][3:]), "qname": f[5],
         "qclass": f[6], "qtype": f[7], "rcode": None, "ede": None}
    m["client"], port = f[3].rsplit("#", 1)
    m["port"] = int(port)
    if len(f) > 8:
        m["rcode"] = f[8]
    if len(f) > 9 and f[9].startswith("ede="):
        m["ede"] = int(f[9][4:])
    return m


def micros(rfc3339):
    """Microseconds since midnight of an RFC 3339 time (the captures span
    seconds, never a midnight)."""
    hms, frac = rfc3339[11:-1].split(".")
    h, mi, s = (int(x) for x in hms.split(":"))
    return ((h * 60 + mi) * 60 + s) * 1000000 + int(frac)


def queries(msgs):
    """Each client query and its response (None when there was none), by
    client, port, transport, id and question, in the order of the queries."""
    pending, pairs = {}, []
    for m in msgs:
        key = (m["client"], m["port"], m["proto"], m["id"], m["qname"], m["qtype"], m["qclass"])
        if m["kind"] == "CQ":
            pair = [m, None]
            pairs.append(pair)
            pending[key] = pair
        elif m["kind"] == "CR" and key in pending:
            pending.pop(key)[1] = m
    return pairs


# ---- log lines ----

def parse_text(line):
    """A text line of idng_log_format (with its time field) as a dict."""
    f = line.split(" ")
    q = {"time": f.pop(0)}
    client = f.pop(0)
    q["client"], port = client.rsplit("#", 1) if "#" in client else (client, None)
    q["port"] = int(port) if port else None
    q["qname"] = f.pop(0)
    q["unicode"] = f.pop(0)[1:-1] if f[0].startswith("(") else None
    for k in ("qtype", "qclass", "rcode", "verdict", "action", "path"):
        q[k] = f.pop(0)
    q["ede"] = q["lookalike"] = q["target"] = q["proto"] = q["ms"] = None
    for k in ("ede", "lookalike", "target", "proto", "ms"):
        if f and f[0].startswith(k + "="):
            q[k] = f.pop(0)[len(k) + 1:]
    if q["ede"] is not None:
        q["ede"] = int(q["ede"])
    if f:
        raise ValueError("unexpected fields %r" % f)
    return q


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


# ---- the tap ----

def run_tap(tap, args, stdin=None):
    with open(stdin, "rb") if stdin else open(os.devnull, "rb") as inp:
        p = subprocess.run([tap, "tap"] + args, stdin=inp, capture_output=True, timeout=60)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def summary_of(stderr):
    lines = stderr.strip().splitlines()
    m = SUMMARY_RE.match(lines[-1]) if lines else None
    return dict(zip(SUMMARY_KEYS, (int(x) for x in m.groups()))) if m else None


# ---- the checks ----

def check_ldns(rep, name, fstrm, write):
    path = os.path.join(GOLDEN, name + ".ldns")
    fresh = [ldns_line(m) for m in ldns_messages(fstrm)]
    if write:
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(fresh) + "\n")
    kept = read_lines(path)
    rep.check(kept == fresh, name + ".ldns is dnstap-ldns's reading of " + name + ".fstrm",
              "differs from a fresh run")
    return [parse_ldns_line(l) for l in kept]


def check_module(rep, name, pairs, module_lines):
    """The module's lines and the capture describe the same queries."""
    by_port = {(q["client"], q["port"], q["proto"]): (q, r) for q, r in pairs}
    for line in module_lines:
        mod = parse_text(line)
        what = "%s.module %s#%s %s" % (name, mod["client"], mod["port"], mod["qname"])
        got = by_port.get((mod["client"], mod["port"], mod["proto"]))
        if not rep.check(got is not None, what, "no such client query in the capture"):
            continue
        q, r = got
        rcode = r["rcode"] if r else "DROPPED"
        ede = r["ede"] if r else None
        rep.check((mod["qname"], mod["qtype"], mod["qclass"], mod["rcode"], mod["ede"])
                  == (q["qname"], q["qtype"], q["qclass"], rcode, ede), what,
                  "module says %s %s %s %s ede=%s; capture %s %s %s %s ede=%s"
                  % (mod["qname"], mod["qtype"], mod["qclass"], mod["rcode"], mod["ede"],
                     q["qname"], q["qtype"], q["qclass"], rcode, ede))


def check_text_vs_capture(rep, name, pairs, lines):
    seen = {}
    for line in lines:
        try:
            t = parse_text(line)
        except (ValueError, IndexError) as e:
            rep.check(False, name + ".text line parses", "%s: %s" % (e, line))
            continue
        seen.setdefault((t["client"], t["port"]), []).append(t)
    rep.check(len(lines) == len(pairs), name + ".text: one line per client query",
              "%d lines, %d queries" % (len(lines), len(pairs)))
    for q, r in pairs:
        what = "%s.text %s#%d %s %s" % (name, q["client"], q["port"], q["proto"], q["qname"])
        got = seen.get((q["client"], q["port"]), [])
        if not rep.check(len(got) == 1, what, "%d lines for it" % len(got)):
            continue
        t = got[0]
        want = {"time": q["time"], "proto": q["proto"], "qname": q["qname"], "qtype": q["qtype"],
                "qclass": q["qclass"], "rcode": r["rcode"] if r else "-",
                "ede": r["ede"] if r else None, "path": "-", "ms": None}
        if r:
            us = micros(r["time"]) - micros(q["time"])
            want["ms"] = "%d.%03d" % (us // 1000, us % 1000)
        diff = ["%s %s, capture %s" % (k, t[k], v) for k, v in want.items() if t[k] != v]
        rep.check(not diff, what, "; ".join(diff) + " | " + line_of(lines, t))


def line_of(lines, t):
    for l in lines:
        if l.startswith(t["time"] + " ") and ("#%s " % t["port"]) in l:
            return l
    return "?"


def check_text_vs_module(rep, name, lines, module_lines):
    tap = {}
    for line in lines:
        try:
            t = parse_text(line)
        except (ValueError, IndexError):
            continue  # reported by check_text_vs_capture
        tap[(t["client"], t["port"])] = t
    keys = ("client", "port", "qname", "unicode", "qtype", "qclass", "rcode", "verdict", "action",
            "ede", "lookalike", "proto")
    for line in module_lines:
        mod = parse_text(line)
        if mod["rcode"] == "DROPPED":
            mod["rcode"] = "-"  # the tap saw no response
        what = "%s.text vs module %s#%s %s" % (name, mod["client"], mod["port"], mod["qname"])
        t = tap.get((mod["client"], mod["port"]))
        if not rep.check(t is not None, what, "no tap line"):
            continue
        diff = ["%s: tap %s, module %s" % (k, t[k], mod[k]) for k in keys if t[k] != mod[k]]
        rep.check(not diff, what, "; ".join(diff))


def check_json_vs_text(rep, name, text_lines, json_lines):
    if not rep.check(len(text_lines) == len(json_lines), name + ".json: one object per text line",
                     "%d and %d" % (len(json_lines), len(text_lines))):
        return
    for n, (tl, jl) in enumerate(zip(text_lines, json_lines), 1):
        what = "%s.json line %d" % (name, n)
        try:
            j, t = json.loads(jl), parse_text(tl)
        except (ValueError, IndexError) as e:
            rep.check(False, what, str(e))
            continue
        verdict = j["verdict"] + (":" + j["label"] if j.get("label") is not None else "")
        ms = None if j["elapsed_ms"] is None else "%.3f" % j["elapsed_ms"]
        pairs = [("time", j["time"], t["time"]), ("client", j["client"], t["client"]),
                 ("port", j["port"], t["port"]), ("qname", j["qname"], t["qname"]),
                 ("qname_unicode", j["qname_unicode"], t["unicode"]),
                 ("lookalike", j["lookalike"], t["lookalike"]),
                 ("qtype", j["qtype"], t["qtype"]), ("qclass", j["qclass"], t["qclass"]),
                 ("rcode", j["rcode"] if j["rcode"] is not None else "-", t["rcode"]),
                 ("verdict", verdict, t["verdict"]), ("action", j["action"], t["action"]),
                 ("path", j["path"], None), ("ede", j["ede"], t["ede"]),
                 ("transport", j["transport"], t["proto"]), ("elapsed_ms", ms, t["ms"])]
        diff = ["%s: json %r, text %r" % p for p in pairs if p[1] != p[2]]
        rep.check(not diff, what, "; ".join(diff))


def check_tap(rep, name, fstrm, pairs, tap, write):
    text_path = os.path.join(GOLDEN, name + ".text")
    json_path = os.path.join(GOLDEN, name + ".json")
    base = ["--conf", CONF]
    rc, out, err = run_tap(tap, ["-r", fstrm] + base)
    rc_j, out_j, _ = run_tap(tap, ["-r", fstrm, "--format=json"] + base)
    if write and rc in (0, 1):
        with open(text_path, "w", encoding="utf-8") as f:
            f.write(out)
        with open(json_path, "w", encoding="utf-8") as f:
            f.write(out_j)
    rep.check(rc == 0 and rc_j == 0, "tap -r %s exits 0" % name, "%d, %d: %s" % (rc, rc_j, err.strip()[-300:]))
    if not os.path.exists(text_path):
        rep.check(False, name + ".text", "missing: run tests/tap/golden.py --write, then review")
        return
    want = read_lines(text_path)
    rep.check(out.splitlines() == want, "tap -r %s gives %s.text" % (name, name),
              first_diff(want, out.splitlines()))
    rep.check(out_j.splitlines() == read_lines(json_path),
              "tap -r %s --format=json gives %s.json" % (name, name),
              first_diff(read_lines(json_path), out_j.splitlines()))
    rc_s, out_s, _ = run_tap(tap, ["-r", "-"] + base, stdin=fstrm)
    rep.check(rc_s == 0 and out_s == out, "tap -r - < %s.fstrm reads it the same" % name,
              "exit %d" % rc_s)
    s = summary_of(err)
    if rep.check(s is not None, "tap -r %s: summary line last on stderr" % name, err.strip()[-300:]):
        nmsg = sum(1 + (r is not None) for _, r in pairs)
        want_s = {"frames": nmsg, "messages": nmsg, "lines": len(want),
                  "unanswered": sum(r is None for _, r in pairs), "malformed_frames": 0,
                  "malformed_messages": 0, "malformed_dns": 0}
        diff = ["%s=%d (expected %d)" % (k, s[k], v) for k, v in want_s.items() if s[k] != v]
        rep.check(not diff, "tap -r %s: summary counts" % name, "; ".join(diff))
    check_text_vs_capture(rep, name, pairs, want)
    module = os.path.join(GOLDEN, name + ".module")
    if os.path.exists(module):
        check_text_vs_module(rep, name, want, read_lines(module))
    check_json_vs_text(rep, name, want, read_lines(json_path))


def first_diff(want, got):
    for n, (a, b) in enumerate(zip(want, got), 1):
        if a != b:
            return "line %d: expected %s | got %s" % (n, a, b)
    return "%d lines expected, %d written" % (len(want), len(got))


def check_bad_input(rep, tap, fstrm, tmp):
    """Exit statuses for what is not a whole dnstap capture."""
    rc, _, err = run_tap(tap, ["-r", os.path.join(tmp, "no-such-file")])
    rep.check(rc == 2, "tap -r of a missing file exits 2", "exit %d: %s" % (rc, err.strip()[-300:]))
    rc, _, err = run_tap(tap, ["-r", CONF])
    rep.check(rc == 2, "tap -r of a text file exits 2", "exit %d: %s" % (rc, err.strip()[-300:]))
    with open(fstrm, "rb") as f:
        data = f.read()
    other = os.path.join(tmp, "other-type.fstrm")
    with open(other, "wb") as f:  # the same length, another content type
        f.write(data.replace(b"protobuf:dnstap.Dnstap", b"protobuf:dnstap.Dnstaq", 1))
    rc, _, err = run_tap(tap, ["-r", other])
    rep.check(rc == 2, "tap -r of a capture of another content type exits 2",
              "exit %d: %s" % (rc, err.strip()[-300:]))
    cut = os.path.join(tmp, "truncated.fstrm")
    with open(cut, "wb") as f:  # ends inside a data frame
        f.write(data[:len(data) // 2])
    rc, out, err = run_tap(tap, ["-r", cut, "--conf", CONF])
    s = summary_of(err)
    rep.check(rc == 1 and s is not None and s["malformed_frames"] >= 1 and out.count("\n") >= 1,
              "tap -r of a truncated capture: lines for what is whole, malformed_frames, exit 1",
              "exit %d, %d lines: %s" % (rc, out.count("\n"), err.strip()[-300:]))


def main(argv):
    write, ldns_only, tap = False, None, os.environ.get("IDNGUARD_BIN") or "build/idnguard"
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--write":
            write = True
        elif a == "--ldns" and args:
            ldns_only = args.pop(0)
        elif a == "--tap" and args:
            tap = args.pop(0)
        else:
            print(__doc__.split("usage:")[1].strip(), file=sys.stderr)
            return 2
    rep = Report()
    names = [ldns_only] if ldns_only else sorted(
        os.path.basename(p)[:-len(".fstrm")] for p in glob.glob(os.path.join(GOLDEN, "*.fstrm")))
    rep.check(bool(names), "captures in " + GOLDEN)
    for name in names:
        fstrm = os.path.join(GOLDEN, name + ".fstrm")
        msgs = check_ldns(rep, name, fstrm, write or ldns_only is not None)
        if ldns_only:
            continue
        pairs = queries(msgs)
        module = os.path.join(GOLDEN, name + ".module")
        if os.path.exists(module):
            check_module(rep, name, pairs, read_lines(module))
        check_tap(rep, name, fstrm, pairs, tap, write)
    if names and not ldns_only:
        tmp = os.path.join(os.environ.get("TMPDIR", "/tmp"), "idng-golden-%d" % os.getpid())
        os.makedirs(tmp, exist_ok=True)
        try:
            check_bad_input(rep, tap, os.path.join(GOLDEN, names[0] + ".fstrm"), tmp)
        finally:
            for f in glob.glob(os.path.join(tmp, "*")):
                os.unlink(f)
            os.rmdir(tmp)
    print("golden: %d passed, %d failed" % (rep.passed, rep.failed))
    return 1 if rep.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
