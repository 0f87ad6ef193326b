# idnguard for Unbound's python module: Debian's stock unbound package
# (with python3-unbound), no rebuild.  unbound.conf:
#
#   server:
#       module-config: "python validator iterator"
#   python:
#       python-script: "/usr/lib/idnguard/idnguard.py"
#
# Thin glue: every decision (the settings file, judging a name, the scan of
# an answer, the EDE text, the log line, the counters) is made by the same C
# as the dynlib module's, in libidnguard-glue.so beside this file
# (python/glue.c), called with ctypes.  What this file does that the dynlib
# module does otherwise, and why, is in README.md ("The stock package:
# Unbound's python module").
#
# Settings: $IDNGUARD_CONF, else /etc/unbound/idnguard.conf (the same file
# and parser).  $IDNGUARD_LOG_CACHE_HITS=yes also logs answers from the
# message cache (a python reply callback on every cache hit: costly, see
# README); without it cache hits are neither logged nor counted.
import ctypes
import os
import struct
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
_LIB_NAME = "libidnguard-glue.so"

# enum idng_action, enum idng_path (core/), enum idng_py_counter (glue.c)
PASS, LOG, REFUSE, NXDOMAIN, DROP, NORMALIZE = range(6)
P_RESOLVED, P_CACHE, P_LOCAL, P_SERVFAIL, P_POLICY = range(5)
C_NORMALIZED, C_ANSWERS_REJECTED, C_UNCACHED, C_INTERNAL = range(4)
EDE_OPTION = 15  # EDNS option code of Extended DNS Errors (RFC 8914)
EDE_BLOCKED = 15  # its info-code: blocked by the operator's policy
LINE_MAX = 8192

_glue = None
_h = None  # the settings handle (idng_py_open)
_vsize = 0
_ede = False
_stats_every = 0
_stats_next = 0.0


def _load_glue():
    lib = ctypes.CDLL(os.path.join(_HERE, _LIB_NAME))
    vp, sz, cp, u8p = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_char_p
    sigs = {
        "idng_py_conf_path": (cp, []),
        "idng_py_version": (cp, []),
        "idng_py_open": (vp, [cp, ctypes.POINTER(ctypes.c_int), cp, sz]),
        "idng_py_close": (None, [vp]),
        "idng_py_mode": (cp, [vp]),
        "idng_py_ede_enabled": (ctypes.c_int, [vp]),
        "idng_py_stats_interval": (ctypes.c_uint, [vp]),
        "idng_py_verdict_size": (sz, []),
        "idng_py_judge": (ctypes.c_int, [vp, u8p, sz, ctypes.c_int, vp]),
        "idng_py_action": (ctypes.c_int, [vp]),
        "idng_py_set_action": (None, [vp, ctypes.c_int]),
        "idng_py_normalize": (sz, [vp, u8p, sz, vp, vp]),
        "idng_py_scan": (ctypes.c_int, [vp, u8p, sz, vp]),
        "idng_py_for_client": (None, [vp, vp]),
        "idng_py_ede_text": (sz, [vp, cp, sz]),
        "idng_py_count": (None, [ctypes.c_int]),
        "idng_py_log": (sz, [vp, vp, cp, ctypes.c_uint, u8p, sz, ctypes.c_uint, ctypes.c_uint,
                             ctypes.c_int, ctypes.c_int, ctypes.c_int, u8p, sz, cp,
                             ctypes.c_longlong, cp, sz]),
        "idng_py_stats": (sz, [vp, cp, cp, sz, cp, sz]),
        "idng_py_reload_failures": (ctypes.c_ulonglong, []),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    return lib


def _report(text, warning):
    for line in text.splitlines():
        (log_warn if warning else log_err)("idnguard: " + line)


def init_standard(id, env):
    global _glue, _h, _vsize, _ede, _stats_every, _stats_next
    # Unbound's python module ignores what init returns; only an exception
    # stops the daemon from starting, so a bad settings file raises.
    try:
        _glue = _glue or _load_glue()
    except OSError as e:
        log_err("idnguard: cannot load %s: %s" % (os.path.join(_HERE, _LIB_NAME), e))
        raise
    path = _glue.idng_py_conf_path()
    err = ctypes.create_string_buffer(8192)
    kept = ctypes.c_int(0)
    h = _glue.idng_py_open(path, ctypes.byref(kept), err, len(err))
    if not h:
        _report(err.value.decode("utf-8", "replace"), False)
        raise RuntimeError("idnguard: settings not loaded (see the lines above)")
    if kept.value:
        _report(err.value.decode("utf-8", "replace"), False)
        log_err("idnguard: keeping previous settings (reload failures: %d)"
                % _glue.idng_py_reload_failures())
    elif err.value:
        _report(err.value.decode("utf-8", "replace"), True)
    _h = h
    _vsize = _glue.idng_py_verdict_size()
    _ede = bool(_glue.idng_py_ede_enabled(h))
    _stats_every = _glue.idng_py_stats_interval(h)
    _stats_next = time.monotonic() + _stats_every if _stats_every else 0.0
    register_inplace_cb_reply_local(_cb_local, env, id)
    register_inplace_cb_reply_servfail(_cb_servfail, env, id)
    cache_log = os.environ.get("IDNGUARD_LOG_CACHE_HITS", "").lower() in ("1", "yes", "true")
    if cache_log:
        register_inplace_cb_reply_cache(_cb_cache, env, id)
    version = _glue.idng_py_version().decode().split()
    log_info("idnguard: loaded %s (mode %s, Unicode %s; idnguard %s, python module%s)"
             % (path.decode("utf-8", "replace"), _glue.idng_py_mode(h).decode(), version[1],
                version[0], ", cache hits logged" if cache_log else ""))
    return True


def _stats(when):
    line = ctypes.create_string_buffer(LINE_MAX)
    err = ctypes.create_string_buffer(1024)
    _glue.idng_py_stats(_h, when.encode(), line, len(line), err, len(err))
    log_info(line.value.decode("utf-8", "replace"))
    if err.value:
        log_err("idnguard: " + err.value.decode("utf-8", "replace"))


def deinit(id):
    global _h
    if _h:
        _stats("shutdown")
        _glue.idng_py_close(_h)
        _h = None
    return True


def inform_super(id, qstate, superqstate, qdata):
    return True


# ---- log lines ----

def _emit(v, client, port, qname, qtype, qclass, rcode, ede, path, target=None, elapsed_us=-1):
    out = ctypes.create_string_buffer(LINE_MAX)
    n = _glue.idng_py_log(_h, v, client, port, qname, len(qname), qtype, qclass, rcode, ede, path,
                          target, len(target) if target else 0, None, elapsed_us, out, len(out))
    if n:
        log_info(out.value.decode("utf-8", "replace"))


def _log_clients(qstate, qdata, v, rcode, ede, path):
    """One line per client waiting on this query (the mesh's reply list)."""
    qi = qstate.qinfo
    qname = qi.qname
    started = qdata.get("t0")
    us = int((time.monotonic() - started) * 1e6) if started else -1
    target = qdata.get("target")
    r = qstate.mesh_info.reply_list if qstate.mesh_info else None
    while r:
        rep = r.query_reply
        _emit(v, rep.addr.encode(), rep.port, qname, qi.qtype, qi.qclass, rcode, ede, path, target, us)
        r = r.next


def _cb_reply(path):
    def cb(qinfo, qstate, rep, rcode, edns, opt_list_out, region, **kwargs):
        if not _h or qinfo is None:
            return True
        if path == P_SERVFAIL and qstate is not None:
            return True  # the module's own answer: logged at moddone
        repinfo = kwargs.get("repinfo")
        start = kwargs.get("start_time") or 0.0
        # On a cache hit the rcode passed is the query's own RCODE bits.
        if rep is not None and (path == P_CACHE or rcode == 0):
            rcode = rep.flags & 0xF
        elif path == P_CACHE:
            rcode = 0
        us = int((time.time() - start) * 1e6) if start > 0 else -1
        client = repinfo.addr.encode() if repinfo is not None and repinfo.addr else None
        port = repinfo.port if client else 0
        _emit(None, client, port, qinfo.qname, qinfo.qtype, qinfo.qclass, rcode, -1, path,
              None, us)
        return True
    return cb


_cb_local = _cb_reply(P_LOCAL)
_cb_cache = _cb_reply(P_CACHE)
_cb_servfail = _cb_reply(P_SERVFAIL)  # answered by the worker: a bogus cache entry


# ---- answers ----

def _new_verdict():
    return ctypes.create_string_buffer(_vsize)


def _reject(qstate, id, qdata, v):
    """Answers with the verdict's action.  Unbound's python API cannot drop
    a query (module_qstate.is_drop is not wrapped): drop answers REFUSED,
    without EDE."""
    act = _glue.idng_py_action(v)
    qstate.return_msg = None
    rcode = RCODE_NXDOMAIN if act == NXDOMAIN else RCODE_REFUSED
    qstate.return_rcode = rcode
    ede = -1
    if _ede and act != DROP:
        text = ctypes.create_string_buffer(512)
        n = _glue.idng_py_ede_text(v, text, len(text))
        data = bytearray(struct.pack("!H", EDE_BLOCKED) + text.raw[:n])
        if edns_opt_list_append(qstate.edns_opts_front_out, EDE_OPTION, data, qstate.region):
            ede = EDE_BLOCKED
    qstate.ext_state[id] = MODULE_FINISHED
    _log_clients(qstate, qdata, v, rcode, ede, P_POLICY)


def _text_name(wire):
    """A wire name as presentation text that sldns reads back to the same
    octets: letters, digits, '-' and '_' as they are, every other octet \\DDD."""
    out, i = [], 0
    while i < len(wire) and wire[i]:
        n = wire[i]
        lab = wire[i + 1:i + 1 + n]
        out.append("".join(chr(c) if (chr(c).isalnum() and c < 128) or c in (45, 95)
                           else "\\%03d" % c for c in lab))
        i += 1 + n
    return ".".join(out) + "."


def _normalize(qstate, id, qdata, v):
    """No sub-queries from python (no attach_sub): the client gets a CNAME
    from its name to the A-label name, which it asks for next (judged then,
    and cached as usual).  The A-label name is judged first: rejected, the
    client gets its action."""
    out = ctypes.create_string_buffer(255)
    qi = qstate.qinfo
    n = _glue.idng_py_normalize(_h, qi.qname, len(qi.qname), out, v)
    if not n:
        return _reject(qstate, id, qdata, v)
    target = out.raw[:n]
    tv = _new_verdict()
    if _glue.idng_py_judge(_h, target, n, 0, tv) in (REFUSE, NXDOMAIN, DROP):
        return _reject(qstate, id, qdata, tv)
    qdata["target"] = target
    _glue.idng_py_count(C_NORMALIZED)
    msg = DNSMessage(_text_name(qi.qname), qi.qtype, qi.qclass, PKT_QR | PKT_RA | PKT_RD)
    msg.answer.append("%s 0 IN CNAME %s" % (_text_name(qi.qname), _text_name(target)))
    if not msg.set_return_msg(qstate):
        log_err("idnguard: cannot build the CNAME answer")
        qstate.ext_state[id] = MODULE_ERROR
        return
    # Not validated here: indeterminate (the validator would call an
    # unchecked answer bogus, and the client would get SERVFAIL).
    qstate.return_msg.rep.security = 2
    qstate.return_rcode = RCODE_NOERROR
    qstate.no_cache_store = 1
    qstate.ext_state[id] = MODULE_FINISHED
    _log_clients(qstate, qdata, v, RCODE_NOERROR, -1, P_POLICY)


def _flatten(rep):
    """The answer as glue.c's idng_py_scan reads it: every owner by
    section, and the targets of answer CNAMEs and DNAMEs."""
    parts = []
    an, ns = rep.an_numrrsets, rep.ns_numrrsets
    for i in range(rep.rrset_count):
        k = rep.rrsets[i]
        t = ntohs(k.rk.type)
        kind = 1 if i < an else 2 if i < an + ns else 3
        name = k.rk.dname
        parts.append(struct.pack("!BHB", kind, t, len(name)) + name)
        if kind == 1 and t in (5, 39):  # CNAME, DNAME
            d = k.entry.data
            for j in range(d.count):
                rd = d.rr_data[j]
                if len(rd) >= 3:
                    parts.append(struct.pack("!BHB", 4, t, len(rd) - 2) + rd[2:])
    return b"".join(parts)


def _moddone(qstate, id, qdata):
    v = qdata.get("v")
    if qdata.get("internal") or v is None:
        qstate.ext_state[id] = MODULE_FINISHED
        return
    msg = qstate.return_msg
    if msg is not None and msg.rep is not None:
        sv = _new_verdict()
        buf = _flatten(msg.rep)
        found = _glue.idng_py_scan(_h, buf, len(buf), sv)
        if found == 2:
            # The iterator and validator stored this answer already: expire
            # it, and every RRset it holds (the rejected name's too), so no
            # cache hit hands it out.
            invalidateQueryInCache(qstate, qstate.qinfo)
            _glue.idng_py_count(C_UNCACHED)
            _glue.idng_py_count(C_ANSWERS_REJECTED)
            _glue.idng_py_for_client(sv, v)  # the log shows the client's name
            qdata["v"] = sv
            return _reject(qstate, id, qdata, sv)
        if found == 1 and not _glue.idng_py_interesting(v):
            _glue.idng_py_for_client(sv, v)
            v = qdata["v"] = sv
        rcode = msg.rep.flags & 0xF
        if msg.rep.security in (1, 4) and not qstate.query_flags & QF_BIT_CD:
            rcode = RCODE_SERVFAIL  # bogus: the mesh answers SERVFAIL (without CD)
    else:
        rcode = qstate.return_rcode
    qstate.ext_state[id] = MODULE_FINISHED
    _log_clients(qstate, qdata, v, rcode, -1, P_SERVFAIL if rcode == RCODE_SERVFAIL else P_RESOLVED)


def operate(id, event, qstate, qdata):
    global _stats_next
    if _stats_every and time.monotonic() >= _stats_next:
        _stats_next = time.monotonic() + _stats_every
        _stats("interval")
    if event == MODULE_EVENT_NEW or event == MODULE_EVENT_PASS:
        if "v" in qdata or qdata.get("internal"):
            qstate.ext_state[id] = MODULE_WAIT_MODULE
            return True
        if qstate.is_valrec:
            # The validator's DS/DNSKEY lookup: no client asks it; refusing
            # it would fail names the operator allowed.
            qdata["internal"] = True
            _glue.idng_py_count(C_INTERNAL)
            qstate.ext_state[id] = MODULE_WAIT_MODULE
            return True
        qdata["t0"] = time.monotonic()
        v = _new_verdict()
        qdata["v"] = v
        qname = qstate.qinfo.qname
        act = _glue.idng_py_judge(_h, qname, len(qname), 0, v)
        if act == NORMALIZE:
            _normalize(qstate, id, qdata, v)
        elif act in (REFUSE, NXDOMAIN, DROP):
            _reject(qstate, id, qdata, v)
        else:
            qstate.ext_state[id] = MODULE_WAIT_MODULE
        return True
    if event == MODULE_EVENT_MODDONE:
        _moddone(qstate, id, qdata)
        return True
    qstate.ext_state[id] = MODULE_ERROR
    return True
