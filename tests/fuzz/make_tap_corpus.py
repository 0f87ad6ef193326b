#!/usr/bin/env python3
"""Writes the seed corpora of the DNS message harnesses:
tests/fuzz/corpus/{fstrm,dnstap,dnsmsg,scan_message}/.

    python3 tests/fuzz/make_tap_corpus.py        (from the top of the tree)

Deterministic, standard library only.  Seeds: Frame Streams files and
handshakes (libfstrm's framing), Dnstap messages (dnstap.proto's field
numbers), DNS queries and responses with OPT and EDE (RFC 6891, RFC 8914),
responses with compressed CNAME and DNAME chains, and pointers that go
forwards or loop (RFC 1035 4.1.4).
"""
import os
import struct

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(TOP, "tests", "fuzz", "corpus")
CT = b"protobuf:dnstap.Dnstap"


def name(text):
    out = b""
    for label in text.split(".") if text else []:
        out += bytes([len(label)]) + label.encode()
    return out + b"\0"


def dns(ident, flags, questions, answers=b"", an=0, opt=None):
    ar = 1 if opt is not None else 0
    msg = struct.pack(">6H", ident, flags, len(questions), an, 0, ar)
    for qn, qt in questions:
        msg += name(qn) + struct.pack(">HH", qt, 1)
    msg += answers
    if opt is not None:
        msg += b"\0" + struct.pack(">HHIH", 41, 1232, 0x8000, len(opt)) + opt
    return msg


def ede(code, text):
    return struct.pack(">HHH", 15, 2 + len(text), code) + text


def varint(v):
    out = b""
    while v >= 0x80:
        out += bytes([v & 0x7F | 0x80])
        v >>= 7
    return out + bytes([v])


def field(num, wt, value):
    key = varint(num << 3 | wt)
    if wt == 0:
        return key + varint(value)
    if wt == 5:
        return key + struct.pack("<I", value)
    return key + varint(len(value)) + value


def dnstap(mtype, qmsg, rmsg=None, v6=False):
    m = field(1, 0, mtype) + field(2, 0, 2 if v6 else 1) + field(3, 0, 1)
    m += field(4, 2, bytes(16) if v6 else bytes([192, 0, 2, 1])) + field(6, 0, 53000)
    m += field(8, 0, 1700000000) + field(9, 5, 123456789) + field(10, 2, qmsg)
    if rmsg is not None:
        m += field(12, 0, 1700000001) + field(13, 5, 5) + field(14, 2, rmsg)
    return field(1, 2, b"ns1") + field(2, 2, b"unbound 1.17.1") + field(14, 2, m) + field(15, 0, 1)


def control(ctype, ctypes=()):
    payload = struct.pack(">I", ctype)
    for c in ctypes:
        payload += struct.pack(">II", 1, len(c)) + c
    return struct.pack(">II", 0, len(payload)) + payload


def data(frame):
    return struct.pack(">I", len(frame)) + frame


QUERY = dns(0x1234, 0x0100, [("xn--bcher-kva.example", 1)])
RESP = dns(0x1234, 0x8183, [("xn--bcher-kva.example", 1)],
           b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, 300, 4) + bytes([192, 0, 2, 7]), 1,
           ede(18, b"blocked") + ede(3, b""))
def cname_chain(target):
    """www.example. A: a CNAME owned by a pointer to the question name, to
    lo.TARGET.example. (compressed), and the target's A record, owned by a
    pointer to the CNAME's rdata."""
    hdr = struct.pack(">6H", 7, 0x8180, 1, 2, 0, 0)
    question = name("www.example") + struct.pack(">HH", 1, 1)
    rdata = b"\2lo" + bytes([len(target)]) + target.encode() + b"\xc0\x10"
    cname = b"\xc0\x0c" + struct.pack(">HHIH", 5, 1, 300, len(rdata)) + rdata
    at = 12 + len(question) + 12
    a = struct.pack(">H", 0xC000 | at) + struct.pack(">HHIH", 1, 1, 300, 4) + bytes([127, 0, 0, 1])
    return hdr + question + cname + a


CHAIN = cname_chain("xn--bcher-kva")
DT_Q = dnstap(5, QUERY)
DT_R = dnstap(6, QUERY, RESP, v6=True)

SEEDS = {
    "fstrm": {
        "file": b"\0" + control(2, [CT]) + data(DT_Q) + data(DT_R) + control(3),
        "bidi": b"\1" + control(4, [b"x", CT]) + control(2, [CT]) + data(DT_Q) + control(3),
        "unknown_control": b"\0" + control(2, [CT]) + control(9, [b"?"]) + control(3),
        "bad_order": b"\1" + control(2, [CT]) + data(b"x"),
    },
    "dnstap": {"client_query": DT_Q, "client_response": DT_R,
               "unknown_fields": DT_Q + field(99, 1, b"") + b"\x01" * 8},
    "dnsmsg": {
        "query": QUERY,
        "response_ede": RESP,
        "compressed_qname": dns(1, 0, [("a", 1)])[:12] + b"\xc0\x0c\0\1\0\1",
        "two_questions": dns(2, 0, [("a.b", 1), ("c", 28)]),
        "opt_do": dns(3, 0x0100, [("example", 48)], opt=b""),
    },
    "scan_message": {
        "response_ede": RESP,
        "cname_chain": CHAIN,
        "cname_fake": cname_chain("xn--ab-m1t"),
        "dname": dns(8, 0x8180, [("www.example", 1)],
                     b"\xc0\x10" + struct.pack(">HHIH", 39, 1, 300, len(name("xn--ab-m1t.net")))
                     + name("xn--ab-m1t.net"), 1),
        "forward_pointer": CHAIN[:29] + struct.pack(">H", 0xC000 | (len(CHAIN) - 16)) + CHAIN[31:],
        "loop": dns(9, 0x8180, [("a", 1)])[:12] + b"\1b\xc0\x0e\0\1\0\1",
        "long_name": struct.pack(">6H", 10, 0x8180, 1, 0, 0, 1) + (b"\x3f" + b"a" * 63) * 3
        + b"\0\0\1\0\1" + b"\x3e" + b"a" * 62 + b"\xc0\x0c"
        + struct.pack(">HHIH", 1, 1, 300, 4) + bytes(4),
    },
}

for harness, seeds in SEEDS.items():
    d = os.path.join(OUT, harness)
    os.makedirs(d, exist_ok=True)
    for seed, content in seeds.items():
        with open(os.path.join(d, seed), "wb") as f:
            f.write(content)
