-- kresd.lua: idnguard in Knot Resolver 5 (kresd), as a module of its own
-- whose layer calls lua/idnguard.lua (libidnguard through LuaJIT's FFI).
-- docs/engines.md ("Knot Resolver") says what each answer path gets; in
-- short:
--
--   begin            the client's query name is judged: a rejected name is
--                    answered at once (REFUSED or NXDOMAIN with EDE 15, or
--                    no answer for drop); a raw UTF-8 name is resolved as
--                    its A-label name (normalize).
--   consume          every upstream response (the client's chain, the
--                    validator's DS/DNSKEY, name server addresses) is
--                    scanned before the cache layer stores it: one that
--                    names a rejected name stores nothing.
--   answer_finalize  what the client is about to get, from upstream or from
--                    the cache (CD=1 included), is judged as the dynlib
--                    module judges an answer: a rejected name in the
--                    answer section answers for the query; RRsets of the
--                    authority and additional sections owned by one are
--                    left out.
--   finish           one query-log line per client.
--
-- The module goes right before kresd's cache layer ('idnguard < cache'):
-- after the iterator and the validator have picked a response's RRsets,
-- before the cache stores them, and ahead of the extended_error module,
-- which writes the EDE that begin and answer_finalize set.
--
-- In kresd's configuration:
--   package.path = '/usr/local/share/idnguard/lua/?.lua;' .. package.path
--   require('kresd').load { lib = '/usr/local/lib/idnguard/libidnguard.so.0',
--                           conf = '/etc/knot-resolver/idnguard.conf' }
local ffi = require('ffi')
local bit = require('bit')
local kres = require('kres')
local idnguard = require('idnguard')

local M = {}

local g -- the guard, once load has opened it

local T_CNAME, T_DNAME = kres.type.CNAME, kres.type.DNAME
local T_RRSIG, T_NSEC, T_NSEC3 = kres.type.RRSIG, kres.type.NSEC, kres.type.NSEC3
local EDNS_EDE = 15 -- the EDNS option code of Extended DNS Errors (RFC 8914)
-- The TTL of the CNAME that normalize puts in front of the answer, at most
-- (the A-label name's own TTLs when lower), as the dynlib module's.
local NORMALIZE_TTL = 300

-- A declaration kresd's own do not have (another module may have made it
-- already).
pcall(ffi.cdef, 'const char *inet_ntop(int af, const void *src, char *dst, unsigned size);')
local C = ffi.C

local vsize -- the size of a verdict block
local scratch -- a verdict for scans whose verdict is not kept
local line_buf = ffi.new('char[?]', 8192)
local client_buf = ffi.new('char[64]')

local now_tv = ffi.new('struct timeval')
local function now_us()
    C.gettimeofday(now_tv, nil)
    return tonumber(now_tv.tv_sec) * 1000000 + tonumber(now_tv.tv_usec)
end

local function done_or_failed(state)
    return bit.band(state, bit.bor(kres.DONE, kres.FAIL)) ~= 0
end

-- A client's query (kresd's own requests, priming, prefetch, have no
-- source address).
local function from_client(req)
    return req.qsource.addr ~= nil
end

-- The request's state of ours, kept here by the request's address and
-- dropped at finish.  Not kresd's req:vars(): its lookup (worker.vars, a
-- table with keys in both its array and its hash part) is one LuaJIT's
-- compiler gives up on ("NYI: mixed sparse/dense table"), so every layer
-- function that asked for it ran in the interpreter.  The state carries
-- the request's uid: a request at the address of one that never reached
-- finish gets a fresh one, never the other's.
local states = {}

local function request_key(req)
    return tonumber(ffi.cast('uintptr_t', req))
end

local function vars_of(req)
    local key = request_key(req)
    local vars = states[key]
    if vars == nil or vars.uid ~= req.uid then
        vars = { uid = req.uid }
        states[key] = vars
    end
    return vars
end

-- A verdict block in the request's memory pool (freed with the request;
-- one the garbage collector frees when the pool has no room).
local function request_verdict(req)
    local p = C.mm_realloc(req.pool, nil, vsize, 0)
    if p == nil then
        return g:verdict()
    end
    return ffi.cast('uint8_t *', p)
end

-- A verdict kept beyond the scan that filled scratch.
local function keep_scratch(req)
    local v = request_verdict(req)
    ffi.copy(v, scratch, vsize)
    return v
end

-- The query name of the client's packet: a pointer into it, and its length.
local function qname_of(pkt)
    return pkt.wire + 12, pkt.qname_size
end

-- ---- answers made here ----

-- Does an EDE with text fit in the answer beside what it already holds?
local function ede_fits(answer, text)
    local opt = answer.opt_rr
    if opt == nil then
        return false
    end
    return answer:remaining_bytes() >= opt:wire_size() + 4 + 2 + #text
end

-- The EDE of a rejection: Blocked, with idnguard's text when the settings
-- want one and it fits (else Blocked alone; with EDNS only).  A DNSSEC
-- error kresd set before ranks above Blocked in kresd and is cleared.
local function set_ede(req, answer, v)
    local text = g:ede(v)
    if text == nil or answer.opt_rr == nil then
        return
    end
    if not ede_fits(answer, text) then
        text = ''
    end
    req:set_extended_error(kres.extended_error.NONE, nil)
    req:set_extended_error(kres.extended_error.BLOCKED, text)
end

-- Nothing that resolution picked goes to the client.
local function clear_selected(req)
    req.answ_selected.len = 0
    req.auth_selected.len = 0
    req.add_selected.len = 0
end

-- Answers the request with the action of verdict v (refuse, nxdomain or
-- drop); returns the layer's state.
local function reject(req, vars, v)
    local action = g:action(v)
    vars.v, vars.decided = v, true
    clear_selected(req)
    if action == idnguard.DROP then
        req.options.NO_ANSWER = true
        return kres.FAIL
    end
    local answer = req:ensure_answer()
    if answer == nil then
        return kres.FAIL
    end
    answer:clear_payload()
    req:ensure_edns()
    answer:rcode(action == idnguard.NXDOMAIN and kres.rcode.NXDOMAIN or kres.rcode.REFUSED)
    answer:aa(false)
    answer:ad(false)
    set_ede(req, answer, v)
    return kres.DONE
end

-- ---- normalize: a raw UTF-8 name resolved as its A-label name ----

-- The initial query asks for the A-label name from now on; the client's
-- question stays as it was sent, and answer_finalize puts the CNAME from
-- it to the A-label name in front of the answer.
local function normalize(req, vars, qname, v)
    local target = g:normalize(qname, v)
    if target == nil then
        if idnguard.REJECTS[g:action(v)] then
            return reject(req, vars, v)
        end
        return nil
    end
    local tv = request_verdict(req)
    if idnguard.REJECTS[g:judge(target, tv)] then
        return reject(req, vars, tv)
    end
    local qry = req:initial()
    local sname = C.mm_realloc(req.pool, nil, #target, 0)
    if qry == nil or sname == nil then
        return kres.FAIL
    end
    ffi.copy(sname, target, #target)
    qry.sname = sname
    vars.target = target
    g:count(idnguard.COUNT_NORMALIZED)
    return nil
end

-- The CNAME from the name the client sent to the A-label name, first in
-- the answer section.  The RRset is kept alive in vars until the answer
-- is written (kresd copies only the pointer to its data).
local function put_normalize_cname(req, vars)
    local arr = req.answ_selected
    local ttl = NORMALIZE_TTL
    for i = 0, tonumber(arr.len) - 1 do
        local e = arr.at[i]
        if e.to_wire and e.rr:ttl() < ttl then
            ttl = e.rr:ttl()
        end
    end
    local rr = kres.rrset(ffi.string(qname_of(req.qsource.packet)), T_CNAME, kres.class.IN, ttl)
    if not rr:add_rdata(vars.target, #vars.target) then
        return
    end
    vars.cname = rr
    local uid = req.rplan.next_uid
    req.rplan.next_uid = uid + 1
    if C.kr_ranked_rrarray_add(arr, rr, kres.rank.OMIT, true, uid, req.pool) < 0 then
        return
    end
    local e = arr.at[arr.len - 1]
    e.in_progress = false
    for i = tonumber(arr.len) - 1, 1, -1 do
        arr.at[i] = arr.at[i - 1]
    end
    arr.at[0] = e
end

-- ---- the response scan before the client ----

-- The records the client is about to get, flattened for the scan
-- (lib/libidnguard.h, idnguard_scan) into one buffer, grown as needed.
local rec = { buf = ffi.new('uint8_t[?]', 16384), cap = 16384, n = 0 }

local function rec_put(kind, rrtype, name, len)
    local n = rec.n
    if n + 4 + len > rec.cap then
        local cap = rec.cap * 2
        while n + 4 + len > cap do
            cap = cap * 2
        end
        local buf = ffi.new('uint8_t[?]', cap)
        ffi.copy(buf, rec.buf, n)
        rec.buf, rec.cap = buf, cap
    end
    local b = rec.buf
    b[n], b[n + 1], b[n + 2], b[n + 3] = kind, bit.rshift(rrtype, 8), bit.band(rrtype, 255), len
    ffi.copy(b + n + 4, name, len)
    rec.n = n + 4 + len
end

local function rec_owner(kind, rrtype, rr)
    rec_put(kind, rrtype, rr._owner, tonumber(C.knot_dname_size(rr._owner)))
end

-- The type an owner is judged by: an RRSIG's is the type it covers (a
-- signature of an NSEC record goes with it).
local function owner_type(rr)
    if rr.type == T_RRSIG and rr:rdcount() > 0 then
        return rr:type_covered(0)
    end
    return tonumber(rr.type)
end

-- Flattens what the client is about to get: the name the answer is for,
-- every owner and answer CNAME/DNAME target.  An authority or additional
-- RRset owned by a rejected name is left out of the answer, and of the
-- scan.
local function flatten_answer(req, vars)
    rec.n = 0
    if vars.target then
        rec_put(0, 0, vars.target, #vars.target)
    else
        local qname, qlen = qname_of(req.qsource.packet)
        rec_put(0, 0, qname, qlen)
    end
    local arr = req.answ_selected
    for i = 0, tonumber(arr.len) - 1 do
        local e = arr.at[i]
        if e.to_wire then
            local rr = e.rr
            local t = tonumber(rr.type)
            rec_owner(1, owner_type(rr), rr)
            if t == T_CNAME or t == T_DNAME then
                for j = 0, rr:rdcount() - 1 do
                    local rd = rr:rdata_pt(j)
                    rec_put(4, t, rd.data, rd.len)
                end
            end
        end
    end
    for kind = 2, 3 do
        local sec = kind == 2 and req.auth_selected or req.add_selected
        for i = 0, tonumber(sec.len) - 1 do
            local e = sec.at[i]
            if e.to_wire then
                local rr = e.rr
                local t = owner_type(rr)
                if t ~= T_NSEC and t ~= T_NSEC3 then
                    local len = tonumber(C.knot_dname_size(rr._owner))
                    if idnguard.REJECTS[g:judge_ptr(rr._owner, len, scratch, true)] then
                        e.to_wire = false
                    else
                        rec_owner(kind, t, rr)
                    end
                end
            end
        end
    end
    return rec.buf, rec.n
end

-- ---- the layer ----

local layer = {}

function layer.begin(state, req)
    if done_or_failed(state) then
        return state
    end
    if not from_client(req) then
        g:count(idnguard.COUNT_INTERNAL)
        return state
    end
    local qname, qlen = qname_of(req.qsource.packet)
    if qlen == 0 then
        return state
    end
    local vars = vars_of(req)
    vars.t0 = now_us()
    local v = request_verdict(req)
    vars.v = v
    local action = g:judge_ptr(qname, qlen, v)
    if action == idnguard.NORMALIZE then
        return normalize(req, vars, ffi.string(qname, qlen), v) or state
    end
    if idnguard.REJECTS[action] then
        return reject(req, vars, v)
    end
    return state
end

-- Before the cache layer stores what the iterator and the validator picked
-- from an upstream response: a response that names a rejected name, or is
-- for one, stores nothing (any query: the client's chain, the validator's
-- DS/DNSKEY, name server addresses).  Answers made from the cache are not
-- stored again.
function layer.consume(state, req, pkt)
    local qry = req:current()
    if qry == nil or pkt == nil or qry.flags.CACHED then
        return state
    end
    if from_client(req) then
        vars_of(req).upstream = true
    end
    if g:scan_message(pkt.wire, scratch, tonumber(pkt.size)) ~= idnguard.SCAN_REJECT then
        return state
    end
    local uid = qry.uid
    for _, arr in ipairs({ req.answ_selected, req.auth_selected, req.add_selected }) do
        for i = 0, tonumber(arr.len) - 1 do
            local e = arr.at[i]
            if e.qry_uid == uid then
                e.dont_cache = true
            end
        end
    end
    if qry.flags.STUB then
        -- Stub mode stores the whole response as a packet.
        qry.flags.CACHED = true
    end
    g:count(idnguard.COUNT_UNCACHED)
    return state
end

function layer.answer_finalize(state, req)
    if not from_client(req) then
        return state
    end
    local vars = vars_of(req)
    local answer = req.answer
    if vars.decided or answer == nil or vars.v == nil then
        return state
    end
    if answer.rrset_count ~= 0 then
        -- Written before resolution (policy rules, special names): the
        -- operator's own data.
        vars.local_data = true
        return state
    end
    local buf, n = flatten_answer(req, vars)
    local found = g.lib.idnguard_scan(g.h, buf, n, scratch)
    if found == idnguard.SCAN_REJECT then
        local sv = keep_scratch(req)
        g:count(idnguard.COUNT_ANSWERS_REJECTED)
        g:for_client(sv, vars.v)
        return reject(req, vars, sv)
    end
    if found == idnguard.SCAN_LOG and not g:interesting(vars.v) then
        local sv = keep_scratch(req)
        g:for_client(sv, vars.v)
        vars.v = sv
    end
    if vars.target and bit.band(state, kres.FAIL) == 0 then
        put_normalize_cname(req, vars)
    end
    return state
end

-- Did the answer's OPT record carry an EDE of info-code Blocked?
local function sent_blocked(answer)
    local opt = answer.opt_rr
    if opt == nil or opt:rdcount() == 0 then
        return false
    end
    local rd, i = opt:rdata(0), 1
    while i + 3 <= #rd do
        local code = rd:byte(i) * 256 + rd:byte(i + 1)
        local len = rd:byte(i + 2) * 256 + rd:byte(i + 3)
        if code == EDNS_EDE and len >= 2 then
            return rd:byte(i + 4) * 256 + rd:byte(i + 5) == idnguard.EDE_BLOCKED
        end
        i = i + 4 + len
    end
    return false
end

local function transport(req)
    local f = req.qsource.flags
    if f.http then
        return 'https'
    elseif f.tls then
        return 'tls'
    elseif f.tcp then
        return 'tcp'
    end
    return 'udp'
end

-- How the answer was made, for the log line.
local function answer_path(req, vars, rcode)
    if vars.decided then
        return idnguard.PATH_POLICY
    elseif rcode == kres.rcode.SERVFAIL then
        return idnguard.PATH_SERVFAIL
    elseif vars.local_data then
        return idnguard.PATH_LOCAL
    elseif vars.upstream then
        return idnguard.PATH_RESOLVED
    end
    local resolved = req.rplan.resolved
    for i = 0, tonumber(resolved.len) - 1 do
        if resolved.at[i].flags.CACHED then
            return idnguard.PATH_CACHE
        end
    end
    return idnguard.PATH_LOCAL
end

-- Where query-log lines go when the settings name no log-file.
local log_fn = function(line)
    io.stderr:write(line .. '\n')
end

function layer.finish(state, req)
    if not from_client(req) then
        return state
    end
    -- The answer is written by now (a normalize CNAME's RRset included).
    local vars = vars_of(req)
    states[request_key(req)] = nil
    local pkt = req.qsource.packet
    local qname, qlen = qname_of(pkt)
    if qlen == 0 then
        return state
    end
    local answer = req.answer
    local rcode, ede = -1, -1
    if answer ~= nil and not req.options.NO_ANSWER then
        if vars.decided then
            answer:ad(false)
        end
        rcode = answer:rcode()
        if vars.decided and sent_blocked(answer) then
            ede = idnguard.EDE_BLOCKED
        end
    end
    local sa = req.qsource.addr
    local client = C.inet_ntop(C.kr_inaddr_family(sa), C.kr_inaddr(sa), client_buf, 64)
    local target = vars.target
    local n = g.lib.idnguard_log(g.h, vars.v, client, C.kr_inaddr_port(sa), qname, qlen,
        C.kr_pkt_qtype(pkt), C.kr_pkt_qclass(pkt), rcode, ede, answer_path(req, vars, rcode),
        target, target and #target or 0, transport(req),
        vars.t0 and now_us() - vars.t0 or -1, line_buf, 8192)
    if n > 0 then
        log_fn(ffi.string(line_buf, n))
    end
    return state
end

-- ---- the module ----

local module = { layer = layer }

-- (The counters' line at kresd's stop is the library's: it writes it on
-- stderr when the process exits.)

--- Opens the guard and loads the module into kresd, right before its
--- cache layer.  opts: lib (libidnguard.so.0's path), conf (the settings
--- file; default $IDNGUARD_CONF, else the library's default path), log
--- (function(line) for query-log lines when the settings name no
--- log-file; default: kresd's stderr).  A settings file that does not
--- load stops kresd's start with the reason.
function M.load(opts)
    opts = opts or {}
    if g then
        return g
    end
    local guard, err = idnguard.open { lib = opts.lib, conf = opts.conf, host = 'kresd' }
    if not guard then
        error(err, 0)
    end
    g = guard
    vsize = tonumber(g.lib.idnguard_verdict_size())
    scratch = g:verdict()
    if opts.log then
        log_fn = opts.log
    end
    package.loaded['kres_modules.idnguard'] = module
    modules.load('idnguard < cache')
    io.stderr:write(g:loaded_line(opts.conf or os.getenv('IDNGUARD_CONF') or 'the default settings',
        ' in Knot Resolver ' .. package_version()), '\n')
    -- The counters' summary line every stats-interval seconds (the
    -- library writes the stats file on its own timer); the interval of
    -- the settings in force, looked at once a second.
    local next_line = 0
    event.recurrent(1 * sec, function()
        local every, now = g:stats_interval(), os.time()
        if every == 0 then
            next_line = 0
        elseif next_line == 0 then
            next_line = now + every
        elseif now >= next_line then
            next_line = now + every
            local line = g:stats('interval')
            if line ~= '' then
                io.stderr:write(line, '\n')
            end
        end
    end)
    return g
end

return M
