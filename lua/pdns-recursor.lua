-- pdns-recursor.lua: idnguard in PowerDNS Recursor (5.x), as its
-- lua-dns-script.  Every decision is made by libidnguard through
-- lua/idnguard.lua (found through LUA_PATH); this file maps the Recursor's hooks
-- onto it.  docs/engines.md ("PowerDNS Recursor") says what each answer
-- path gets and what the hooks cannot give.
--
--   recursor:
--     lua_dns_script: /usr/local/share/idnguard/lua/pdns-recursor.lua
--
-- Environment of the daemon (a systemd drop-in's Environment= lines):
--   LUA_PATH                 where require finds idnguard.lua, e.g.
--                            "/usr/local/share/idnguard/lua/?.lua;;"
--   IDNGUARD_CONF            the settings file (default: the library's,
--                            /etc/unbound/idnguard.conf)
--   IDNGUARD_LIB             libidnguard.so.0 (default: the loader's path)
--   IDNGUARD_LOG_CACHE_HITS  yes: every answer is kept out of the packet
--                            cache so that each one gets its query-log line
--                            (costly); without it an answer served from the
--                            packet cache is neither logged nor counted
--
-- The hooks, in the order the Recursor calls them for one query:
--   gettag_ffi   before the packet cache: the cache's tag is the
--                generation of the settings in force, so that a changed
--                settings file never meets an answer judged under the old one
--   preresolve   the client's name: rejected (answered here, REFUSED or
--                NXDOMAIN with EDE 15, or dropped), normalized (a CNAME to
--                the A-label name), or passed on to resolution
--   preoutquery  each query sent upstream for the client: the answer was
--                resolved, not taken from the record cache (for the log)
--   postresolve  every answer the Recursor built, positive or negative,
--                from upstream or from its record cache: the response
--                scan; a rejected answer is replaced by the refusal
-- Neither rejected answers nor answers made here enter the packet cache
-- (dq.variable), so a later query for them goes through these hooks again.
-- The record cache keeps what upstream sent, rejected names included: the
-- Recursor has no hook before it stores; every answer built from it is
-- scanned again in postresolve.

local ffi = require("ffi")
local idnguard = require("idnguard")

ffi.cdef [[
struct idng_pdns_timeval { long tv_sec; long tv_usec; };
int gettimeofday(struct idng_pdns_timeval *tv, void *tz);
]]
-- The Recursor's own accessor for gettag_ffi's argument (lua-recursor4-ffi.hh).
pcall(ffi.cdef, [[
typedef struct pdns_ffi_param pdns_ffi_param_t;
void pdns_ffi_param_set_tag(pdns_ffi_param_t *ref, unsigned int tag);
]])

local REFUSED, NXDOMAIN, SERVFAIL, NOERROR = 5, 3, 2, 0
local CNAME, DNAME, TXT, RRSIG, NSEC, NSEC3 = 5, 39, 16, 46, 47, 50
local CLASS_IN, CLASS_CH = 1, 3
local PLACE_ANSWER = 1

local function yes(name)
    local v = (os.getenv(name) or ""):lower()
    return v == "1" or v == "yes" or v == "true"
end

local log_cache_hits = yes("IDNGUARD_LOG_CACHE_HITS")

local g, err = idnguard.open {
    host = "pdns-recursor",
    lib = os.getenv("IDNGUARD_LIB"),
    conf = os.getenv("IDNGUARD_CONF"),
    -- Query-log lines: the binding's default, one write(2) a line on the
    -- daemon's stderr, which the worker threads share.
}
if not g then
    -- The Recursor refuses a script that fails to load: it does not start
    -- (tests/integration/test_guard.c, the log-file FIFO).
    error(err, 0)
end

io.stderr:write(g:loaded_line(ffi.string(g.lib.idnguard_conf_path()),
    string.format(", PowerDNS Recursor, thread %d%s", getRecursorThreadId(),
        log_cache_hits and ", cache hits logged" or "")), "\n")

local now_tv = ffi.new("struct idng_pdns_timeval")

-- Microseconds since the query arrived (dq.queryTime), or -1.
local function elapsed_us(dq)
    local t = dq.queryTime
    if not t or ffi.C.gettimeofday(now_tv, nil) ~= 0 then
        return -1
    end
    local us = (tonumber(now_tv.tv_sec) - t.tv_sec) * 1000000 + (tonumber(now_tv.tv_usec) - t.tv_usec)
    return us >= 0 and us or -1
end

-- Clients whose query sent something upstream (preoutquery): key
-- "address:port", as the Recursor names the requestor there.  Taken in
-- postresolve; a key left behind (a query that ended elsewhere) is
-- cleared by the next query from that address and port, and the table
-- never holds more than WENT_MAX keys.
local went, went_n = {}, 0
local WENT_MAX = 10000

-- The names the Recursor answers itself in class CH (SyncRes's special
-- names): dq shows no class, so such an answer made without upstream is
-- taken for the CHAOS query it must have been.
local CHAOS_NAMES = {
    ["version.bind."] = true, ["id.server."] = true, ["version.pdns."] = true,
    ["trustanchor.server."] = true, ["negativetrustanchor.server."] = true,
}

local function qname_wire(dq)
    return idnguard.wire_from_labels(dq.qname:getRawLabels())
end

-- The fields of the query-log line that every answer shares.
local function line_of(dq, wire)
    local remote = dq.remoteaddr
    return {
        client = remote:toString(),
        port = remote:getPort(),
        qname = wire,
        qtype = dq.qtype,
        qclass = CLASS_IN,
        transport = dq.isTcp and "tcp" or "udp",
        elapsed_us = elapsed_us(dq),
    }
end

-- Answers the client with v's action (REFUSED or NXDOMAIN with EDE 15,
-- or nothing), logged on path policy.  Returns what the hook returns.
local function reject(dq, v, wire)
    local action = g:action(v)
    local r = line_of(dq, wire)
    r.path = idnguard.PATH_POLICY
    dq:setRecords({})
    dq.variable = true
    if action == idnguard.DROP then
        -- Applied by the Recursor after the hook: no answer at all.
        dq.appliedPolicy.policyKind = pdns.policykinds.Drop
        r.rcode = -1
    else
        dq.rcode = action == idnguard.NXDOMAIN and NXDOMAIN or REFUSED
        r.rcode = dq.rcode
        local text = g:ede(v)
        if text then
            -- Sent when the client sent EDNS; dq does not say whether it
            -- did, so the line says ede=15 whenever it was attached.
            dq.extendedErrorCode = idnguard.EDE_BLOCKED
            dq.extendedErrorExtra = text
            r.ede = idnguard.EDE_BLOCKED
        end
    end
    g:log(v, r)
    return true
end

-- A raw UTF-8 name under on-raw-8bit: normalize: a CNAME to its A-label
-- form, which the client asks for next (judged and scanned then).  The
-- Recursor's own CNAME chase (followCNAMERecords) is not used: what it
-- resolves reaches the client without postresolve, unscanned.
local function normalize(dq, v, wire)
    local target = g:normalize(wire, v)
    if not target then
        return reject(dq, v, wire) -- v now holds the fallback action
    end
    local tv = g:verdict()
    if idnguard.REJECTS[g:judge(target, tv)] then
        return reject(dq, tv, wire)
    end
    g:count(idnguard.COUNT_NORMALIZED)
    dq.rcode = NOERROR
    dq:addAnswer(CNAME, idnguard.text(target), 0)
    dq.variable = true
    local r = line_of(dq, wire)
    r.rcode, r.path, r.target = NOERROR, idnguard.PATH_POLICY, target
    g:log(v, r)
    return true
end

-- gettag_ffi's work, for every query.  The Recursor hands gettag_ffi its
-- argument as a light userdata, which LuaJIT's compiler cannot convert to
-- a C pointer ("NYI: unsupported C type conversion"): converted once in
-- gettag_ffi, which stays interpreted, this function compiles.
local param_ptr = ffi.typeof("pdns_ffi_param_t *")
local function set_tag(param)
    ffi.C.pdns_ffi_param_set_tag(param, g:settings_gen() % 4294967296)
end

function gettag_ffi(param)
    set_tag(ffi.cast(param_ptr, param))
end

-- Takes the client's key out of went; true when it was there.  (Cheap
-- when nothing is there, as for every answer from the record cache.)
local function take_went(dq)
    if went_n == 0 then
        return false
    end
    local key = dq.remoteaddr:toStringWithPort()
    if not went[key] then
        return false
    end
    went[key], went_n = nil, went_n - 1
    return true
end

function preresolve(dq)
    take_went(dq)
    local wire = qname_wire(dq)
    local v = g:verdict()
    local action = g:judge(wire, v)
    if idnguard.REJECTS[action] then
        return reject(dq, v, wire)
    end
    if action == idnguard.NORMALIZE then
        return normalize(dq, v, wire)
    end
    if log_cache_hits then
        dq.variable = true
    end
    dq.data = { idnguard = { wire = wire, v = v } }
    return false
end

function preoutquery(dq)
    local key = dq.localaddr:toStringWithPort()
    if not went[key] then
        if went_n >= WENT_MAX then
            went, went_n = {}, 0
        end
        went[key], went_n = true, went_n + 1
    end
    return false
end

-- The type the scan is told for a record: an RRSIG (a record of its own
-- here, not part of its RRset as in Unbound) counts as the type it covers,
-- so that the signature of an NSEC or NSEC3 record is let be as they are.
local function scan_type(rec)
    if rec.type ~= RRSIG then
        return rec.type
    end
    local covered = rec:getContent():match("^(%S+)")
    return covered == "NSEC" and NSEC or covered == "NSEC3" and NSEC3 or RRSIG
end

-- Records of the authority and additional sections owned by a rejected
-- name leave the answer, which stands (Unbound's dynlib module does the
-- same); NSEC and NSEC3 records are not judged there.  Returns the records
-- kept, their scan types, and whether any left.
local function strip_sections(records)
    local kept, types, stripped = {}, {}, false
    local v = g:verdict()
    for _, rec in ipairs(records) do
        local t = scan_type(rec)
        local drop = false
        if rec.place ~= PLACE_ANSWER and t ~= NSEC and t ~= NSEC3 then
            local owner = idnguard.wire_from_labels(rec.name:getRawLabels())
            drop = owner and idnguard.REJECTS[g:judge(owner, v, true)] or false
        end
        if drop then
            stripped = true
        else
            kept[#kept + 1] = rec
            types[#kept] = t
        end
    end
    return kept, types, stripped
end

-- The response as the scan reads it: the name it is for, every owner by
-- section, the answer's CNAME and DNAME targets.  nil when a name cannot
-- be read back (the scan then rejects it as malformed).
local function flatten(wire, records, types)
    local parts = { idnguard.record(0, 0, wire) }
    for i, rec in ipairs(records) do
        local owner = idnguard.wire_from_labels(rec.name:getRawLabels())
        if not owner then
            return nil
        end
        parts[#parts + 1] = idnguard.record(rec.place, types[i], owner)
        if rec.place == PLACE_ANSWER and (rec.type == CNAME or rec.type == DNAME) then
            local target = idnguard.wire(rec:getContent())
            if not target then
                return nil
            end
            parts[#parts + 1] = idnguard.record(4, rec.type, target)
        end
    end
    return table.concat(parts)
end

-- Will the Recursor answer SERVFAIL for this answer after the hook, as it
-- does for a bogus one?  It does so when the client did not set CD and
-- validation was asked for: always under dnssec.validation: validate,
-- with AD or DO under process (a bogus state means that validation ran).
-- Under log-fail a bogus answer without AD or DO is sent as it is; dq does
-- not show the mode, so this says SERVFAIL then too.
local function bogus_servfail(dq)
    return isValidationStateBogus(dq.detailedValidationState) and not dq:getDH():getCD()
end

function postresolve(dq)
    local resolved = take_went(dq)
    local d = dq.data
    local q = type(d) == "table" and d.idnguard or nil
    local wire = q and q.wire or qname_wire(dq)
    local records = dq:getRecords()
    local kept, types, stripped = strip_sections(records)
    local v = g:verdict()
    local buf = flatten(wire, kept, types)
    local found
    if buf then
        found = g:scan_records(buf, v)
    else
        -- A name the Recursor could not show us as it is: rejected as
        -- malformed, as the scan of an unreadable message is.
        found = g:scan_message("", v, 0)
    end
    if found == idnguard.SCAN_REJECT then
        g:count(idnguard.COUNT_ANSWERS_REJECTED)
        if q then
            g:for_client(v, q.v)
        end
        return reject(dq, v, wire)
    end
    local servfail = dq.rcode == SERVFAIL or bogus_servfail(dq)
    if stripped then
        -- Records are changed only by a hook that returns true, and then the
        -- Recursor no longer validates the answer: a bogus one is failed
        -- here, as the Recursor would have.
        if servfail then
            dq.rcode = SERVFAIL
            kept = {}
        end
        dq:setRecords(kept)
    end
    if found ~= idnguard.SCAN_LOG then
        v = q and q.v or nil
    end
    local r = line_of(dq, wire)
    if servfail then
        r.rcode, r.path = SERVFAIL, idnguard.PATH_SERVFAIL
    elseif resolved then
        r.rcode, r.path = dq.rcode, idnguard.PATH_RESOLVED
    elseif dq.qtype == TXT and CHAOS_NAMES[dq.qname:toString():lower()] then
        r.rcode, r.path, r.qclass = dq.rcode, idnguard.PATH_LOCAL, CLASS_CH
    else
        r.rcode, r.path = dq.rcode, idnguard.PATH_CACHE
    end
    g:log(v, r)
    return stripped
end
