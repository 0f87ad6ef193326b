-- dnsdist.lua: idnguard at the edge, in dnsdist 1.9 (LuaJIT builds), in
-- front of any resolver.  dnsdist's rules call it through its Lua FFI;
-- every decision is lua/idnguard.lua's, that is libidnguard's C, the same
-- as Unbound's dynlib module's.  docs/engines.md ("dnsdist") says what each
-- path gets; conf/dnsdist.conf.example is a configuration to start from.
--
--   package.path = "/usr/local/share/idnguard/lua/?.lua;" .. package.path
--   require("dnsdist").setup{ lib = "/usr/local/lib/idnguard/libidnguard.so.0",
--                             conf = "/etc/idnguard/idnguard.conf" }
--
-- setup, called from dnsdist's configuration before the operator's own
-- rules, loads the settings (a file that does not load stops dnsdist at
-- start, with the reason) and adds four per-thread FFI rules:
--   query      judges the client's name before the packet cache is asked;
--              a rejected name is answered at once (REFUSED with EDE 15,
--              NXDOMAIN or nothing, per the settings), a raw UTF-8 name
--              gets a CNAME to its A-label form (normalize)
--   response   scans every backend response whole, before dnsdist inserts
--              it into the packet cache: a response naming a rejected name
--              (question, any owner, any CNAME/DNAME target) is rewritten
--              to the action's answer and kept out of the cache; when the
--              rejected names are only in the authority and additional
--              sections, those sections are dropped and the answer stands
--   cache hit  scans each answer from the packet cache again, so answers
--              cached before a settings change are judged by the new ones
--   local      logs answers dnsdist made itself (other rules, dynamic blocks)
-- Each rule runs in a Lua state of its own thread (LuaFFIPerThreadAction),
-- which requires this file again and opens the same process-wide handle.
-- A query's log line is written where its answer is decided: by the query
-- rule for the guard's own answers, else by the response rules.
local ffi = require("ffi")
local bit = require("bit")
local idnguard = require("idnguard")

local M = {}

local band, bor, rshift, lshift = bit.band, bit.bor, bit.rshift, bit.lshift

-- DNS numbers (RFC 1035 4.1.1, RFC 6891 6.1.2).
local RCODE_NOERROR, RCODE_SERVFAIL, RCODE_NXDOMAIN, RCODE_REFUSED = 0, 2, 3, 5
local TYPE_CNAME, TYPE_OPT = 5, 41
local HEADER = 12
-- The EDNS payload a response may assume when the client's is not known
-- to be smaller (the query rule tags smaller ones).
local PAYLOAD_DEFAULT = 1232
-- The tags a query carries from the query rule to the response rules.
local TAG_ANSWERED = "idnguard"
local TAG_PAYLOAD = "idnguard-payload"

-- ---- DNS messages as octets (p: const uint8_t *, n: its length) ----

local function u16(p, o)
    return p[o] * 256 + p[o + 1]
end

local function be16(v)
    return string.char(band(rshift(v, 8), 255), band(v, 255))
end

-- The offset after the name at o (a compression pointer ends it), or nil
-- when it runs past n.
local function skip_name(p, n, o)
    while o < n do
        local l = p[o]
        if l == 0 then
            return o + 1
        elseif l >= 0xc0 then
            return o + 2 <= n and o + 2 or nil
        elseif l > 63 then
            return nil
        end
        o = o + 1 + l
    end
    return nil
end

-- Where the parts of a message are: the end of its question (one entry),
-- the end of its answer section, and its OPT record (the offset of its
-- class, that is its payload size, and the record's end), or nil when the
-- message cannot be read.
local function layout(p, n)
    if n < HEADER or u16(p, 4) ~= 1 then
        return nil
    end
    local o = skip_name(p, n, HEADER)
    if not o or o + 4 > n then
        return nil
    end
    local qend = o + 4
    local an, ns, ar = u16(p, 6), u16(p, 8), u16(p, 10)
    local anend
    o = qend
    for i = 1, an + ns + ar do
        if i == an + 1 then
            anend = o
        end
        local rr = o
        o = skip_name(p, n, o)
        if not o or o + 10 > n then
            return nil
        end
        local rtype, rdlen = u16(p, o), u16(p, o + 8)
        o = o + 10 + rdlen
        if o > n then
            return nil
        end
        if i > an + ns and rtype == TYPE_OPT and p[rr] == 0 then
            return { qend = qend, anend = anend or qend, opt = rr + 3, optend = o }
        end
    end
    return { qend = qend, anend = anend or o }
end

-- A fresh OPT record (no options): payload, DO copied from the OPT record
-- of the message when it has one.
local function opt_record(p, lay)
    if not lay.opt then
        return ""
    end
    local payload = u16(p, lay.opt)
    local flags = band(p[lay.opt + 4], 0x80) -- DO (RFC 3225)
    return "\0" .. be16(TYPE_OPT) .. be16(payload) .. "\0\0" .. string.char(flags, 0) .. "\0\0"
end

-- A header for a message made here: p's ID, opcode, RD and CD; QR and RA
-- set; AA, TC and AD clear.
local function header(p, rcode, an, ar)
    local f1 = bor(0x80, band(p[2], 0x79)) -- QR, opcode, RD
    local f2 = bor(0x80, band(p[3], 0x10), rcode) -- RA, CD
    return string.char(p[0], p[1], f1, f2) .. "\0\1" .. be16(an) .. "\0\0" .. be16(ar)
end

-- The answer that stands for a rejected name: the question, no records,
-- the OPT record when the message had one.
local function refusal(p, lay, rcode)
    local opt = opt_record(p, lay)
    return header(p, rcode, 0, opt ~= "" and 1 or 0) .. ffi.string(p + HEADER, lay.qend - HEADER) .. opt
end

-- The message without its authority and additional sections (the answer
-- section's octets stay where they were, so its compression pointers
-- still point at the same names).
local function answer_only(p, lay)
    local opt = opt_record(p, lay)
    local f = ffi.string(p, 4) .. "\0\1" .. be16(u16(p, 6)) .. "\0\0" .. be16(opt ~= "" and 1 or 0)
    return f .. ffi.string(p + HEADER, lay.anend - HEADER) .. opt
end

-- normalize's answer: the question and one CNAME (TTL 0) to target.
local function cname_answer(p, lay, target)
    local opt = opt_record(p, lay)
    local class = ffi.string(p + lay.qend - 2, 2)
    local rr = "\192\12" .. be16(TYPE_CNAME) .. class .. "\0\0\0\0" .. be16(#target) .. target
    return header(p, RCODE_NOERROR, 1, opt ~= "" and 1 or 0) .. ffi.string(p + HEADER, lay.qend - HEADER)
        .. rr .. opt
end

-- The room an EDE option with text takes (RFC 8914 2: option code and
-- length, info-code, text).
local function ede_room(text)
    return 6 + #text
end

M.layout, M.refusal, M.answer_only, M.cname_answer = layout, refusal, answer_only, cname_answer

-- ---- dnsdist ----

local C = ffi.C
local AF_INET, AF_INET6 = 2, 10
pcall(ffi.cdef, [[
const char *inet_ntop(int af, const void *src, char *dst, unsigned int size);
long write(int fd, const void *buf, unsigned long count);
]])

local TRANSPORTS = { [0] = "udp", "tcp", "udp", "tcp", "tls", "https" }
-- A query-log line's room (the library's bound, lua/idnguard.lua's too).
local LINE_MAX = 8192

-- One line on standard error in one write(2): the query-log lines of all
-- of dnsdist's threads never interleave.
local function stderr_line(line)
    local s = line .. "\n"
    C.write(2, s, #s)
end

-- The state of one Lua state (one thread): the guard and its buffers.
local function state(lib, conf)
    local g, err = idnguard.open { lib = lib, conf = conf, log = stderr_line, host = "dnsdist" }
    if not g then
        error(err, 0)
    end
    local s = {
        g = g,
        vq = g:verdict(), -- the client's name
        vs = g:verdict(), -- the response scan
        vt = g:verdict(), -- normalize's target
        qname = ffi.new("const char *[1]"),
        qlen = ffi.new("size_t[1]"),
        addr = ffi.new("const void *[1]"),
        alen = ffi.new("size_t[1]"),
        abuf = ffi.new("char[64]"),
        line = ffi.new("char[?]", LINE_MAX + 1),
    }
    return s
end

local function qname_of(s, dq)
    C.dnsdist_ffi_dnsquestion_get_qname_raw(dq, s.qname, s.qlen)
    return ffi.cast("const uint8_t *", s.qname[0]), tonumber(s.qlen[0])
end

local function packet_of(dq)
    return ffi.cast("const uint8_t *", C.dnsdist_ffi_dnsquestion_get_header(dq)),
        tonumber(C.dnsdist_ffi_dnsquestion_get_len(dq))
end

local function client_of(s, dq)
    C.dnsdist_ffi_dnsquestion_get_remoteaddr(dq, s.addr, s.alen)
    local n = tonumber(s.alen[0])
    if n ~= 4 and n ~= 16 then
        return nil
    end
    if C.inet_ntop(n == 4 and AF_INET or AF_INET6, s.addr[0], s.abuf, 64) == nil then
        return nil
    end
    return s.abuf
end

-- The query-log line of the client of dq (v nil: judged by the library).
-- Every query comes this way, so it calls the library's idnguard_log
-- itself, with this state's buffers (Guard:log takes Lua strings, made
-- anew for each query), and writes a line in one write(2).
local function log(s, dq, v, rcode, ede, path, target)
    local qp, ql = qname_of(s, dq)
    local n = s.g.lib.idnguard_log(s.g.h, v, client_of(s, dq),
        C.dnsdist_ffi_dnsquestion_get_remote_port(dq), qp, ql,
        C.dnsdist_ffi_dnsquestion_get_qtype(dq), C.dnsdist_ffi_dnsquestion_get_qclass(dq), rcode,
        ede, path, target, target and #target or 0,
        TRANSPORTS[tonumber(C.dnsdist_ffi_dnsquestion_get_protocol(dq))],
        C.dnsdist_ffi_dnsquestion_get_elapsed_us(dq), s.line, LINE_MAX)
    if n > 0 then
        s.line[n] = 10
        C.write(2, s.line, n + 1)
    end
end

-- The client's UDP payload: its OPT record's, 512 without one, nil over TCP.
local function client_payload(dq, p, lay)
    local proto = tonumber(C.dnsdist_ffi_dnsquestion_get_protocol(dq))
    if proto ~= 0 and proto ~= 2 then
        return nil
    end
    if not lay.opt then
        return 512
    end
    return math.max(512, u16(p, lay.opt))
end

-- Sets v's EDE on dq when the answer (size octets before it) will carry an
-- OPT record; the text is left out when it would not fit the client's
-- payload.  Returns the EDE logged (15, or -1: none).
local function set_ede(s, dq, v, has_opt, size, payload)
    local text = s.g:ede(v)
    if not text or not has_opt then
        return -1
    end
    if payload and size + ede_room(text) > payload then
        text = ""
    end
    C.dnsdist_ffi_dnsquestion_set_extended_dns_error(dq, idnguard.EDE_BLOCKED, text, #text)
    return idnguard.EDE_BLOCKED
end

local RCODES = { [idnguard.REFUSE] = RCODE_REFUSED, [idnguard.NXDOMAIN] = RCODE_NXDOMAIN }

-- The query rule: the client's name, before the packet cache and the
-- backend.
local function query_rule(s)
    local g, vq, vt = s.g, s.vq, s.vt
    return function(dq)
        local qp, ql = qname_of(s, dq)
        local act = g:judge_ptr(qp, ql, vq)
        local p, n = packet_of(dq)
        if act == idnguard.PASS or act == idnguard.LOG then
            -- A client whose payload is small: the response rules may need
            -- to know it (a rejection's EDE text must fit).
            local proto = tonumber(C.dnsdist_ffi_dnsquestion_get_protocol(dq))
            if (proto == 0 or proto == 2) and n > HEADER + ql + 4 + 11 and p[HEADER + ql + 4] == 0
                and u16(p, HEADER + ql + 5) == TYPE_OPT and u16(p, HEADER + ql + 7) < PAYLOAD_DEFAULT then
                C.dnsdist_ffi_dnsquestion_set_tag(dq, TAG_PAYLOAD, tostring(u16(p, HEADER + ql + 7)))
            end
            return DNSAction.None
        end
        local lay = layout(p, n)
        if not lay then
            -- A query dnsdist took whose records this cannot read: no
            -- CNAME made from it (its answer is scanned), no EDE.
            if act == idnguard.NORMALIZE then
                return DNSAction.None
            end
            lay = { qend = HEADER + ql + 4 }
        end
        local v = vq
        if act == idnguard.NORMALIZE then
            local target = g:normalize(ffi.string(qp, ql), vq)
            if target then
                if idnguard.REJECTS[g:judge(target, vt)] then
                    v = vt
                else
                    local answer = cname_answer(p, lay, target)
                    C.dnsdist_ffi_dnsquestion_spoof_packet(dq, answer, #answer)
                    C.dnsdist_ffi_dnsquestion_set_tag(dq, TAG_ANSWERED, "normalize")
                    g:count(idnguard.COUNT_NORMALIZED)
                    log(s, dq, vq, RCODE_NOERROR, -1, idnguard.PATH_POLICY, target)
                    return DNSAction.HeaderModify
                end
            end
        end
        act = g:action(v)
        if act == idnguard.DROP then
            log(s, dq, v, -1, -1, idnguard.PATH_POLICY)
            return DNSAction.Drop
        end
        local rcode = RCODES[act] or RCODE_REFUSED
        -- dnsdist answers with the question and, when the query had EDNS,
        -- an OPT record of its own (setAddEDNSToSelfGeneratedResponses).
        local ede = set_ede(s, dq, v, lay.opt ~= nil, lay.qend + 11, client_payload(dq, p, lay))
        C.dnsdist_ffi_dnsquestion_set_tag(dq, TAG_ANSWERED, "policy")
        log(s, dq, v, rcode, ede, idnguard.PATH_POLICY)
        return rcode == RCODE_NXDOMAIN and DNSAction.Nxdomain or DNSAction.Refused
    end
end

-- Replaces dr's message by msg (a Lua string).
local function replace(dr, msg)
    C.dnsdist_ffi_dnsquestion_set_size(dr, #msg)
    ffi.copy(C.dnsdist_ffi_dnsquestion_get_header(dr), msg, #msg)
end

-- The response rules: a response from the backend (path resolved: it is
-- not in the packet cache yet) or from the packet cache (path cache).
local function response_rule(s, path)
    local g, vq, vs = s.g, s.vq, s.vs
    local from_backend = path == idnguard.PATH_RESOLVED
    return function(dr)
        local qp, ql = qname_of(s, dr)
        g:judge_ptr(qp, ql, vq)
        local p, n = packet_of(dr)
        local found = g:scan_message(p, vs, n)
        local v = vq
        if found == idnguard.SCAN_REJECT then
            local lay = layout(p, n)
            -- Rejected names only outside the answer section: the answer
            -- stands without the authority and additional sections.
            local cut = lay and lay.anend < n and answer_only(p, lay)
            local again = cut and g:scan_message(cut, vs)
            if again and again ~= idnguard.SCAN_REJECT then
                replace(dr, cut)
                found = again
                p, n = packet_of(dr)
            else
                if cut then
                    g:scan_message(p, vs, n) -- the verdict of the whole response
                end
                if from_backend then
                    C.dnsdist_ffi_dnsquestion_set_skip_cache(dr, true)
                    g:count(idnguard.COUNT_UNCACHED)
                end
                g:count(idnguard.COUNT_ANSWERS_REJECTED)
                g:for_client(vs, vq)
                local act = g:action(vs)
                if act == idnguard.DROP then
                    log(s, dr, vs, -1, -1, idnguard.PATH_POLICY)
                    return DNSResponseAction.Drop
                end
                local rcode = RCODES[act] or RCODE_REFUSED
                local ede = -1
                if lay then
                    local msg = refusal(p, lay, rcode)
                    replace(dr, msg)
                    local tag = C.dnsdist_ffi_dnsquestion_get_tag(dr, TAG_PAYLOAD)
                    local payload = tag ~= nil and tonumber(ffi.string(tag)) or nil
                    if not payload and C.dnsdist_ffi_dnsquestion_get_tcp(dr) == false then
                        payload = PAYLOAD_DEFAULT
                    end
                    ede = set_ede(s, dr, vs, lay.opt ~= nil, #msg, payload)
                else
                    -- A message that cannot be read is not handed on: a
                    -- header alone says the rcode.
                    replace(dr, string.sub(header(p, rcode, 0, 0), 1, 4) .. string.rep("\0", 8))
                end
                log(s, dr, vs, rcode, ede, idnguard.PATH_POLICY)
                return DNSResponseAction.HeaderModify
            end
        end
        if found == idnguard.SCAN_LOG and not g:interesting(vq) then
            g:for_client(vs, vq)
            v = vs
        end
        local rcode = band(p[3], 15)
        log(s, dr, v, rcode, -1, rcode == RCODE_SERVFAIL and idnguard.PATH_SERVFAIL or path)
        return DNSResponseAction.None
    end
end

-- Answers dnsdist made without the backend and without the guard (other
-- rules, dynamic blocks): logged, not judged again.
local function local_rule(s)
    return function(dr)
        if C.dnsdist_ffi_dnsquestion_get_tag(dr, TAG_ANSWERED) ~= nil then
            return DNSResponseAction.None -- the guard's own, logged by the query rule
        end
        local p = packet_of(dr)
        log(s, dr, nil, band(p[3], 15), -1, idnguard.PATH_LOCAL)
        return DNSResponseAction.None
    end
end

local RULES = {
    query = query_rule,
    response = function(s) return response_rule(s, idnguard.PATH_RESOLVED) end,
    cache = function(s) return response_rule(s, idnguard.PATH_CACHE) end,
    ["local"] = local_rule,
}

--- The function of one rule, for a per-thread Lua state: kind is "query",
--- "response", "cache" or "local".
---
--- dnsdist hands the rule its question (or response) as a light userdata,
--- which LuaJIT's compiler cannot convert to a C pointer on 64-bit hosts
--- ("NYI: unsupported C type conversion"): every trace through a C call
--- with it aborts, and the whole rule would run in the interpreter, each
--- FFI call at many times its compiled cost.  So the function dnsdist
--- calls only converts it, once per query, and stays interpreted; the
--- rule's work is a function of its own, which compiles.
function M.rule(kind, lib, conf)
    local work = RULES[kind](state(lib, conf))
    local question = ffi.typeof("dnsdist_ffi_dnsquestion_t *")
    return function(dq)
        return work(ffi.cast(question, dq))
    end
end

-- The directory this file was loaded from, for the per-thread states.
local function own_dir()
    local src = debug.getinfo(1, "S").source
    return src:sub(1, 1) == "@" and src:match("^@(.*)/[^/]*$") or "."
end

-- The summary line of the counters every stats-interval seconds (read at
-- each tick: a settings change may set it), from dnsdist's maintenance
-- hook, which runs about once a second.  (The stats file is the library's
-- own timer's.)
local function stats_ticker(g)
    local due
    return function()
        local every = g:stats_interval()
        local now = os.time()
        if every == 0 then
            due = nil
        elseif not due or due > now + every then
            due = now + every
        elseif now >= due then
            due = now + every
            local line, err = g:stats("interval")
            stderr_line(line)
            if err then
                stderr_line("idnguard: " .. err)
            end
        end
    end
end

--- Called from dnsdist's configuration: loads the settings and adds the
--- rules.  opts (all optional): lib (libidnguard.so.0's path), conf (the
--- settings file; default $IDNGUARD_CONF, else the library's default
--- path), lua (the directory of idnguard.lua and this file; default this
--- file's).  Raises an error, which stops dnsdist, when the library or the
--- settings do not load.
function M.setup(opts)
    opts = opts or {}
    local g, err = idnguard.open { lib = opts.lib, conf = opts.conf, log = stderr_line, host = "dnsdist" }
    if not g then
        error(err, 0)
    end
    local dir = opts.lua or own_dir()
    local function code(kind)
        return string.format("package.path = %q .. package.path\nreturn require(\"dnsdist\").rule(%q, %s, %s)",
            dir .. "/?.lua;", kind, string.format("%q", opts.lib or "libidnguard.so.0"),
            opts.conf and string.format("%q", opts.conf) or "nil")
    end
    addAction(AllRule(), LuaFFIPerThreadAction(code("query")), { name = "idnguard" })
    addResponseAction(AllRule(), LuaFFIPerThreadResponseAction(code("response")), { name = "idnguard" })
    addCacheHitResponseAction(AllRule(), LuaFFIPerThreadResponseAction(code("cache")), { name = "idnguard" })
    addSelfAnsweredResponseAction(AllRule(), LuaFFIPerThreadResponseAction(code("local")),
        { name = "idnguard" })
    addMaintenanceCallback(stats_ticker(g))
    stderr_line(g:loaded_line(opts.conf or os.getenv("IDNGUARD_CONF") or "the default settings",
        ", dnsdist"))
    return g
end

return M
