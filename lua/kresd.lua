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
--   package.path = '/usr/local/lib/idnguard/lua/?.lua;' .. package.path
--   require('kresd').load { lib = '/usr/local/lib/idnguard/libidnguard.so.0',
--                           conf = '/etc/idnguard/idnguard.conf' }
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

local now_tv = ffi.new('struct timeval')
local function now_us()
    ffi.C.gettimeofday(now_tv, nil)
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

-- The request's state of ours (kresd frees it with the request).
local function vars_of(req)
    return req:vars()
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
    vars.v, vars.decided, vars.ede = v, true, nil
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
    local tv = g:verdict()
    if idnguard.REJECTS[g:judge(target, tv)] then
        return reject(req, vars, tv)
    end
    local qry = req:initial()
    local sname = ffi.C.mm_realloc(req.pool, nil, #target, 0)
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
local function put_normalize_cname(req, vars, qname)
    local arr = req.answ_selected
    local ttl = NORMALIZE_TTL
    for i = 0, tonumber(arr.len) - 1 do
        local e = arr.at[i]
        if e.to_wire and e.rr:ttl() < ttl then
            ttl = e.rr:ttl()
        end
    end
    local rr = kres.rrset(qname, T_CNAME, kres.class.IN, ttl)
    if not rr:add_rdata(vars.target, #vars.target) then
        return
    end
    vars.cname = rr
    local uid = req.rplan.next_uid
    req.rplan.next_uid = uid + 1
    if ffi.C.kr_ranked_rrarray_add(arr, rr, kres.rank.OMIT, true, uid, req.pool) < 0 then
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

-- The type an owner is judged by: an RRSIG's is the type it covers (a
-- signature of an NSEC record goes with it).
local function owner_type(rr)
    if rr.type == T_RRSIG and rr:rdcount() > 0 then
        return rr:type_covered(0)
    end
    return tonumber(rr.type)
end

-- The records the client is about to get, flattened for the scan (the
-- name the answer is for, every owner and answer CNAME/DNAME target);
-- authority and additional RRsets owned by a rejected name are left out
-- of the answer, and of the scan.
local function flatten_answer(req, name)
    local parts = { idnguard.record(0, 0, name) }
    local arr = req.answ_selected
    for i = 0, tonumber(arr.len) - 1 do
        local e = arr.at[i]
        if e.to_wire then
            local rr = e.rr
            local owner = rr:owner()
            parts[#parts + 1] = idnguard.record(1, owner_type(rr), owner)
            if rr.type == T_CNAME or rr.type == T_DNAME then
                for j = 0, rr:rdcount() - 1 do
                    parts[#parts + 1] = idnguard.record(4, rr.type, rr:rdata(j))
                end
            end
        end
    end
    local tv
    for _, ks in ipairs({ { 2, req.auth_selected }, { 3, req.add_selected } }) do
        local kind, sec = ks[1], ks[2]
        for i = 0, tonumber(sec.len) - 1 do
            local e = sec.at[i]
            if e.to_wire then
                local rr = e.rr
                local t, owner = owner_type(rr), rr:owner()
                if t ~= T_NSEC and t ~= T_NSEC3 then
                    tv = tv or g:verdict()
                    if idnguard.REJECTS[g:judge(owner, tv, true)] then
                        e.to_wire = false
                    else
                        parts[#parts + 1] = idnguard.record(kind, t, owner)
                    end
                end
            end
        end
    end
    return table.concat(parts)
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
    local qname = req.qsource.packet:qname()
    if qname == nil then
        return state
    end
    local vars = vars_of(req)
    vars.t0 = now_us()
    local v = g:verdict()
    vars.v = v
    local action = g:judge(qname, v)
    if action == idnguard.NORMALIZE then
        return normalize(req, vars, qname, v) or state
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
    local v = g:verdict()
    if g:scan_message(pkt.wire, v, tonumber(pkt.size)) ~= idnguard.SCAN_REJECT then
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
    local qname = req.qsource.packet:qname()
    local sv = g:verdict()
    local found = g:scan_records(flatten_answer(req, vars.target or qname), sv)
    if found == idnguard.SCAN_REJECT then
        g:count(idnguard.COUNT_ANSWERS_REJECTED)
        g:for_client(sv, vars.v)
        return reject(req, vars, sv)
    end
    if found == idnguard.SCAN_LOG and not g:interesting(vars.v) then
        g:for_client(sv, vars.v)
        vars.v = sv
    end
    if vars.target and bit.band(state, kres.FAIL) == 0 then
        put_normalize_cname(req, vars, qname)
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

function layer.finish(state, req)
    if not from_client(req) then
        return state
    end
    local pkt = req.qsource.packet
    local qname = pkt:qname()
    if qname == nil then
        return state
    end
    local vars = vars_of(req)
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
    local client = tostring(req.qsource.addr)
    local addr = client:match('^(.*)#%d+$') or client
    g:log(vars.v, {
        client = addr,
        port = req.qsource.addr:port(),
        qname = qname,
        qtype = pkt:qtype(),
        qclass = pkt:qclass(),
        rcode = rcode,
        ede = ede,
        path = answer_path(req, vars, rcode),
        target = vars.target,
        transport = transport(req),
        elapsed_us = vars.t0 and now_us() - vars.t0 or -1,
    })
    return state
end

-- ---- the module ----

local module = { layer = layer }

-- (The counters' line at kresd's stop is the library's: it writes it on
-- stderr when the process exits.)

-- stats-interval of the settings in force (lib/libidnguard.h; the binding
-- has no method for it, and another adapter may have declared it).
pcall(ffi.cdef, 'unsigned idnguard_stats_interval(void *h);')
local function stats_interval()
    return tonumber(g.lib.idnguard_stats_interval(g.h))
end

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
    local guard, err = idnguard.open { lib = opts.lib, conf = opts.conf, log = opts.log }
    if not guard then
        error(err, 0)
    end
    g = guard
    package.loaded['kres_modules.idnguard'] = module
    modules.load('idnguard < cache')
    local version, unicode = idnguard.version():match('^(%S+) (%S+)$')
    io.stderr:write(string.format('idnguard: loaded %s (mode %s, Unicode %s; idnguard %s in Knot '
        .. 'Resolver %s)\n', opts.conf or os.getenv('IDNGUARD_CONF') or 'the default settings',
        g:mode(), unicode, version, package_version()))
    -- The counters' summary line every stats-interval seconds (the
    -- library writes the stats file on its own timer); the interval of
    -- the settings in force, looked at once a second.
    local next_line = 0
    event.recurrent(1 * sec, function()
        local every, now = stats_interval(), os.time()
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
