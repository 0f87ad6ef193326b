# idnguard for Unbound's python module: Debian's stock unbound package
# (with python3-unbound), no rebuild.  unbound.conf:
#
#   server:
#       module-config: "python validator iterator"
#   python:
#       python-script: "/usr/lib/idnguard/idnguard.py"
#
# A thin layer: every decision (the settings file, judging a name, the scan of
# an answer, the EDE text, the log line, the counters) is made by the same C
# as the dynlib module's, in libidnguard.so.0 beside this file (libidnguard,
# lib/libidnguard.h), called with ctypes.  What this file does that the dynlib
# module does otherwise, and why, is in docs/unbound.md ("The stock package:
# Unbound's python module").
#
# The cache (docs/unbound.md, "Answer paths"): nothing that names a rejected name
# may enter Unbound's caches, because the worker answers a cache hit before
# any module runs.  Where Unbound's python API has the iterator's
# query_response callback (Unbound 1.19 and later: Debian 13's 1.26), every
# upstream response is judged in it before anything of it is stored, as the
# dynlib module does.  Where it has not (Debian 12's 1.17.1), every query
# state this module sees is marked no_cache_store when it starts, and the
# module stores the answer itself once it has judged it clean; the
# iterator's own lookups, which never pass through a module, are judged by
# the names they send upstream (the query callback).  Either way no
# rejected answer is ever in the cache, not even for a moment.
#
# Settings: $IDNGUARD_CONF, else /etc/unbound/idnguard.conf (the same file
# and parser).  A changed file is applied without a reload by a thread of the
# library's (watch-settings, conf/idng_watch.h), which tells this script through
# a ctypes callback (_watch_said).  $IDNGUARD_LOG_CACHE_HITS=yes also logs
# answers from the message cache (a python reply callback on every cache hit:
# costly, see docs/performance.md); without it cache hits are neither logged
# nor counted.
import ctypes
import os
import struct
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
_LIB_NAME = "libidnguard.so.0"

# The actions, by the names the settings file gives them: their values come
# from the library when it loads (_load_lib).
PASS = LOG = REFUSE = NXDOMAIN = DROP = NORMALIZE = None
REJECTS = ()  # the actions that answer for the name
# The numbers of lib/libidnguard.h's other enums: idnguard_path,
# idnguard_counter, idnguard_load.
P_RESOLVED, P_CACHE, P_LOCAL, P_SERVFAIL, P_POLICY = range(5)
C_NORMALIZED, C_ANSWERS_REJECTED, C_UNCACHED, C_INTERNAL = range(4)
LOAD_FIRST, LOAD_RELOADED, LOAD_KEPT = range(3)
EDE_OPTION = 15  # EDNS option code of Extended DNS Errors (RFC 8914)
EDE_BLOCKED = 15  # its info-code: blocked by the operator's policy
LINE_MAX = 8192

_lib = None
_h = None  # the settings handle (idnguard_open)
_vsize = 0
_ede = False
_stats_every = 0
_stats_next = 0.0
# What the library's watch says: a ctypes callback, kept referenced while
# the handle is open (idnguard_watch).
_SAY = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_char_p)
_say_cb = None
# Does this Unbound's python API offer the query_response callback?  (The
# functions are the embedded interpreter's globals, as log_info is.)
_HAS_QUERY_RESPONSE = "register_inplace_cb_query_response" in globals()


def _load_lib():
    lib = ctypes.CDLL(os.path.join(_HERE, _LIB_NAME))
    vp, sz, cp, u8p = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_char_p
    sigs = {
        "idnguard_conf_path": (cp, []),
        "idnguard_open": (vp, [cp, ctypes.POINTER(ctypes.c_int), cp, sz, cp, sz]),
        "idnguard_close": (None, [vp, cp, sz]),
        "idnguard_daemon_log": (None, [cp, ctypes.c_int, cp, cp, ctypes.c_int]),
        "idnguard_loaded_line": (sz, [vp, cp, ctypes.c_int, cp, cp, cp, sz]),
        "idnguard_watch": (ctypes.c_int, [vp, _SAY]),
        "idnguard_mode": (cp, [vp]),
        "idnguard_ede_enabled": (ctypes.c_int, [vp]),
        "idnguard_stats_interval": (ctypes.c_uint, [vp]),
        "idnguard_verdict_size": (sz, []),
        "idnguard_judge": (ctypes.c_int, [vp, u8p, sz, ctypes.c_int, vp]),
        "idnguard_action": (ctypes.c_int, [vp]),
        "idnguard_set_action": (None, [vp, ctypes.c_int]),
        "idnguard_action_named": (ctypes.c_int, [cp]),
        "idnguard_normalize": (sz, [vp, u8p, sz, vp, vp]),
        "idnguard_scan": (ctypes.c_int, [vp, u8p, sz, vp]),
        "idnguard_for_client": (None, [vp, vp]),
        "idnguard_ede_text": (sz, [vp, cp, sz]),
        "idnguard_count": (None, [ctypes.c_int]),
        "idnguard_log": (sz, [vp, vp, cp, ctypes.c_uint, u8p, sz, ctypes.c_uint, ctypes.c_uint,
                             ctypes.c_int, ctypes.c_int, ctypes.c_int, u8p, sz, cp,
                             ctypes.c_longlong, cp, sz]),
        "idnguard_stats": (sz, [vp, cp, cp, sz, cp, sz]),
        "idnguard_interesting": (ctypes.c_int, [vp]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    _take_actions(lib)
    return lib


def _take_actions(lib):
    """The actions' values, asked of the library by name."""
    global PASS, LOG, REFUSE, NXDOMAIN, DROP, NORMALIZE, REJECTS
    names = ("pass", "log", "refuse", "nxdomain", "drop", "normalize")
    values = [lib.idnguard_action_named(n.encode()) for n in names]
    for n, v in zip(names, values):
        if v < 0:
            raise OSError("%s knows no action named %s" % (_LIB_NAME, n))
    PASS, LOG, REFUSE, NXDOMAIN, DROP, NORMALIZE = values
    REJECTS = (REFUSE, NXDOMAIN, DROP)


def _report(text, warning):
    for line in text.splitlines():
        (log_warn if warning else log_err)("idnguard: " + line)


def _settings_changed():
    """What this script keeps of the settings in force, read again."""
    global _ede, _stats_every, _stats_next
    _ede = bool(_lib.idnguard_ede_enabled(_h))
    every = _lib.idnguard_stats_interval(_h)
    if every != _stats_every:
        _stats_every = every
        _stats_next = time.monotonic() + every if every else 0.0


def _watch_said(level, text):
    """The library's watch, from its own thread: a line for Unbound's log
    (0 info, 1 warning, 2 error); new settings may have been applied."""
    try:
        (log_info, log_warn, log_err)[min(max(level, 0), 2)](
            "idnguard: " + text.decode("utf-8", "replace"))
        if level == 0 and _h:
            _settings_changed()
    except Exception:  # a callback must not raise into C
        pass


def init_standard(id, env):
    global _lib, _h, _vsize, _ede, _stats_every, _stats_next, _say_cb
    # Unbound's python module ignores what init returns; only an exception
    # stops the daemon from starting, so a bad settings file raises.
    try:
        _lib = _lib or _load_lib()
    except OSError as e:
        log_err("idnguard: cannot load %s: %s" % (os.path.join(_HERE, _LIB_NAME), e))
        raise
    path = _lib.idnguard_conf_path()
    err = ctypes.create_string_buffer(8192)
    changes = ctypes.create_string_buffer(4096)
    state = ctypes.c_int(0)
    h = _lib.idnguard_open(path, ctypes.byref(state), changes, len(changes), err, len(err))
    if not h:
        _report(err.value.decode("utf-8", "replace"), False)
        raise RuntimeError("idnguard: settings not loaded (see the lines above)")
    if state.value == LOAD_KEPT:
        _report(err.value.decode("utf-8", "replace"), False)
    elif err.value:
        _report(err.value.decode("utf-8", "replace"), True)
    _keep_log_settings(env)
    _h = h
    _vsize = _lib.idnguard_verdict_size()
    _ede = bool(_lib.idnguard_ede_enabled(h))
    _stats_every = _lib.idnguard_stats_interval(h)
    _stats_next = time.monotonic() + _stats_every if _stats_every else 0.0
    register_inplace_cb_reply_local(_cb_local, env, id)
    register_inplace_cb_reply_servfail(_cb_servfail, env, id)
    if _HAS_QUERY_RESPONSE:
        ok = register_inplace_cb_query_response(_cb_query_response, env, id)
    else:
        ok = register_inplace_cb_query(_cb_query, env, id)
    if not ok:
        raise RuntimeError("idnguard: cannot register the callback that guards the cache")
    cache_log = os.environ.get("IDNGUARD_LOG_CACHE_HITS", "").lower() in ("1", "yes", "true")
    if cache_log:
        register_inplace_cb_reply_cache(_cb_cache, env, id)
    _log_loaded(h, path, state.value, changes.value, cache_log)
    _say_cb = _SAY(_watch_said)
    if not _lib.idnguard_watch(h, _say_cb):
        log_err("idnguard: cannot start watching %s: a changed file needs a reload"
                % path.decode("utf-8", "replace"))
    return True


def _log_loaded(h, path, state, changes, cache_log):
    """The line that ends init (path and changes: bytes): what was loaded, or
    that a reload was not; the library words it, as for every host."""
    host = ", python module, cache guarded %s%s" % (
        "before the store" if _HAS_QUERY_RESPONSE else "by the module's store",
        ", cache hits logged" if cache_log else "")
    line = ctypes.create_string_buffer(8400)
    n = _lib.idnguard_loaded_line(h, path, state, changes, host.encode(), line, len(line))
    if n == 0:
        return
    text = line.value.decode("utf-8", "replace")
    if state == LOAD_KEPT:
        log_err(text)
    else:
        log_info(text)


def _keep_log_settings(env):
    """Where Unbound logs, for the counters line that libidnguard writes at the
    daemon's exit.  Unbound's python API shows logfile, use-syslog and
    chroot; log-identity and log-time-ascii where a version shows them."""
    def text(name):
        v = getattr(env.cfg, name, None) if env is not None else None
        return v.encode() if isinstance(v, str) and v else None
    try:
        _lib.idnguard_daemon_log(text("logfile"), int(getattr(env.cfg, "use_syslog", 0) or 0),
                                 text("chrootdir"), text("log_identity"),
                                 int(getattr(env.cfg, "log_time_ascii", 0) or 0))
    except Exception as e:  # the counters line at exit then goes to standard error
        log_warn("idnguard: cannot read where unbound logs: %s" % e)


def _stats(when):
    line = ctypes.create_string_buffer(LINE_MAX)
    err = ctypes.create_string_buffer(1024)
    _lib.idnguard_stats(_h, when.encode(), line, len(line), err, len(err))
    log_info(line.value.decode("utf-8", "replace"))
    if err.value:
        log_err("idnguard: " + err.value.decode("utf-8", "replace"))


def deinit(id):
    """A reload's or the stop's: Unbound does not say which.  The stats file
    is written now; the counters line at the daemon's exit (libidnguard), so a
    reload logs none."""
    global _h
    if _h:
        err = ctypes.create_string_buffer(1024)
        _lib.idnguard_close(_h, err, len(err))  # stops the watch: no callback after this
        _h = None
        if err.value:
            log_err("idnguard: " + err.value.decode("utf-8", "replace"))
    return True


def inform_super(id, qstate, superqstate, qdata):
    return True


# ---- log lines ----

def _emit(v, client, port, qname, qtype, qclass, rcode, ede, path, target=None, elapsed_us=-1):
    out = ctypes.create_string_buffer(LINE_MAX)
    n = _lib.idnguard_log(_h, v, client, port, qname, len(qname), qtype, qclass, rcode, ede, path,
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
    act = _lib.idnguard_action(v)
    qstate.return_msg = None
    rcode = RCODE_NXDOMAIN if act == NXDOMAIN else RCODE_REFUSED
    qstate.return_rcode = rcode
    ede = -1
    if _ede and act != DROP:
        text = ctypes.create_string_buffer(512)
        n = _lib.idnguard_ede_text(v, text, len(text))
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
    n = _lib.idnguard_normalize(_h, qi.qname, len(qi.qname), out, v)
    if not n:
        return _reject(qstate, id, qdata, v)
    target = out.raw[:n]
    tv = _new_verdict()
    if _lib.idnguard_judge(_h, target, n, 0, tv) in REJECTS:
        return _reject(qstate, id, qdata, tv)
    qdata["target"] = target
    _lib.idnguard_count(C_NORMALIZED)
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


def _flatten(rep, names=()):
    """What libidnguard's idnguard_scan reads: the names a response is for
    (kind 0), then, of the reply rep (None: none), every owner by section
    and the targets of answer CNAMEs and DNAMEs."""
    parts = [struct.pack("!BHB", 0, 0, len(n)) + n for n in names]
    if rep is None:
        return b"".join(parts)
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


def _scan(rep, names, v):
    """The response scan: 0 pass, 1 log, 2 reject (v: the verdict)."""
    buf = _flatten(rep, names)
    return _lib.idnguard_scan(_h, buf, len(buf), v)


# ---- the cache ----

# Verdicts of RD=0 responses rejected before the cache (Unbound 1.19+),
# held for the client's answer at moddone; keyed by the query state's
# address and question, taken at moddone, and never more than a bound.
_held = {}
_HELD_MAX = 4096


def _qkey(qstate):
    qi = qstate.qinfo
    return (int(qstate.this), qi.qname, qi.qtype, qi.qclass)


def _empty(rep):
    """Leaves no RRset in a response (None: nothing to do)."""
    if rep is not None:
        rep.an_numrrsets = rep.ns_numrrsets = rep.ar_numrrsets = 0
        rep.rrset_count = 0


def _cb_query_response(qstate, response, **kwargs):
    """Unbound 1.19+: the iterator calls this with every upstream response
    (None when no server answered) before it stores anything of it, for
    client queries and its own lookups alike.  A response that names a
    rejected name, or that is for one, is not stored: the dynlib module's
    rule (module/reply.c, idng_mod_cb_query_response)."""
    try:
        if not _h or qstate is None:
            return True
        rep = response.rep if response is not None else None
        if _held and not qstate.query_flags & QF_BIT_RD and _qkey(qstate) in _held:
            # An RD=0 state already rejected: whichever of its responses
            # comes last is what the validator stores, so each is emptied.
            _empty(rep)
            return True
        if qstate.no_cache_store:
            return True
        v = _new_verdict()
        names = [qstate.qinfo.qname]
        if response is not None and response.qinfo.qname.lower() != names[0].lower():
            names.append(response.qinfo.qname)
        if _scan(rep, names, v) != 2:
            return True
        qstate.no_cache_store = 1
        _lib.idnguard_count(C_UNCACHED)
        if rep is not None and not qstate.query_flags & QF_BIT_RD:
            # RD=0 (allow_snoop): the validator stores every RRset of such
            # an answer whatever no_cache_store says, so none is left in
            # it; the client gets the held verdict at moddone.
            _empty(rep)
            if len(_held) >= _HELD_MAX:
                _held.clear()
            _held[_qkey(qstate)] = v
    except Exception as e:  # never let the iterator log a failed callback
        log_err("idnguard: query_response: %s" % e)
    return True


def _cb_query(qinfo, flags, qstate, addr, zone, region, **kwargs):
    """Unbound without the query_response callback (Debian 12's 1.17.1):
    called before each query the iterator sends upstream.  The states this
    module saw store nothing (operate); the iterator's own lookups (name
    server addresses) never pass through a module, so one that asks for a
    rejected name stores nothing from then on (a CNAME step into one was
    stored before the chase asks for it: see _store).  It must return
    True: False would stop the query."""
    try:
        if _h and qstate is not None and not qstate.no_cache_store:
            if _scan(None, [qinfo.qname, qstate.qinfo.qname], _new_verdict()) == 2:
                qstate.no_cache_store = 1
                _lib.idnguard_count(C_UNCACHED)
    except Exception as e:
        log_err("idnguard: query callback: %s" % e)
    return True


def _ends_in_cname(rep):
    """Is the answer section's last RRset a CNAME?"""
    n = rep.an_numrrsets
    return n > 0 and ntohs(rep.rrsets[n - 1].rk.type) == 5


def _store(qstate, msg):
    """Unbound without query_response: stores an answer this module has
    judged clean, as the validator would have (it stored nothing: the
    state is no_cache_store).  RD=0 answers come from the cache and are not
    stored again as messages; nor are authoritative ones (auth-zone).
    Nor is an answer whose answer section ends in a CNAME (a CNAME query,
    or a chain to no data): a stored message refers to its RRsets, and an
    expired CNAME RRset is replaced in place, same id, by the next one
    stored, which the iterator's own lookups do unjudged on this Unbound;
    served stale (serve-expired), this message would then carry the new
    target.  Earlier CNAMEs of a chain cannot change unseen: the worker
    checks that each one's target is the next owner."""
    if msg is None or msg.rep is None or msg.rep.authoritative:
        return
    if not qstate.query_flags & QF_BIT_RD or _ends_in_cname(msg.rep):
        return
    try:
        storeQueryInCache(qstate, msg.qinfo, msg.rep, 0)
    except Exception as e:
        log_err("idnguard: cannot store a judged answer: %s" % e)


def _has_clients(qstate):
    m = qstate.mesh_info
    return m is not None and m.reply_list is not None


def _moddone(qstate, id, qdata):
    v = qdata.get("v")
    msg = qstate.return_msg
    held = _held.pop(_qkey(qstate), None) if _held else None
    if v is None and not qdata.get("internal") and _has_clients(qstate):
        # A lookup the iterator started (harden-referral-path's, or
        # harden-below-nxdomain's), which clients asking the same name
        # joined: it never passed through operate, so their name is
        # judged now, as at MODULE_EVENT_NEW.
        v = qdata["v"] = _new_verdict()
        qname = qstate.qinfo.qname
        if _lib.idnguard_judge(_h, qname, len(qname), 0, v) in REJECTS:
            return _reject(qstate, id, qdata, v)
    if qdata.get("internal") or v is None:
        # The validator's DS/DNSKEY lookup: not a client's; stored only
        # when nothing in it is rejected (deny: deny.sig keeps deny.sig's
        # keys out of the cache, where a CD=1 client would find them).
        if qdata.get("store") and msg is not None and msg.rep is not None:
            if _scan(msg.rep, [qstate.qinfo.qname], _new_verdict()) != 2:
                _store(qstate, msg)
            else:
                _lib.idnguard_count(C_UNCACHED)
        qstate.ext_state[id] = MODULE_FINISHED
        return
    if held is not None:
        _lib.idnguard_count(C_ANSWERS_REJECTED)
        _lib.idnguard_for_client(held, v)
        qdata["v"] = held
        return _reject(qstate, id, qdata, held)
    if msg is not None and msg.rep is not None:
        sv = _new_verdict()
        found = _scan(msg.rep, [], sv)
        if found == 2:
            if not qdata.get("store"):
                # Judged before the store, every part of this answer was
                # kept out of the cache; expire it all the same, in case a
                # settings reload changed the verdict of cached data.
                invalidateQueryInCache(qstate, qstate.qinfo)
            _lib.idnguard_count(C_UNCACHED)
            _lib.idnguard_count(C_ANSWERS_REJECTED)
            _lib.idnguard_for_client(sv, v)  # the log shows the client's name
            qdata["v"] = sv
            return _reject(qstate, id, qdata, sv)
        if found == 1 and not _lib.idnguard_interesting(v):
            _lib.idnguard_for_client(sv, v)
            v = qdata["v"] = sv
        if qdata.get("store"):
            _store(qstate, msg)
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
        if not _HAS_QUERY_RESPONSE:
            # Nothing of this state's is stored by the iterator or the
            # validator: only what _moddone judged clean, by _store.
            qstate.no_cache_store = 1
            qdata["store"] = True
        if qstate.is_valrec:
            # The validator's DS/DNSKEY lookup: no client asks it; refusing
            # it would fail names the operator allowed.
            qdata["internal"] = True
            _lib.idnguard_count(C_INTERNAL)
            qstate.ext_state[id] = MODULE_WAIT_MODULE
            return True
        qdata["t0"] = time.monotonic()
        v = _new_verdict()
        qdata["v"] = v
        qname = qstate.qinfo.qname
        act = _lib.idnguard_judge(_h, qname, len(qname), 0, v)
        if act == NORMALIZE:
            _normalize(qstate, id, qdata, v)
        elif act in REJECTS:
            _reject(qstate, id, qdata, v)
        else:
            qstate.ext_state[id] = MODULE_WAIT_MODULE
        return True
    if event == MODULE_EVENT_MODDONE:
        _moddone(qstate, id, qdata)
        return True
    qstate.ext_state[id] = MODULE_ERROR
    return True
