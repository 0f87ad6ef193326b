-- idnguard.lua: idnguard's guard for resolvers that embed LuaJIT (Knot
-- Resolver, PowerDNS Recursor, dnsdist), through LuaJIT's FFI over
-- libidnguard.so.0 (lib/libidnguard.h).  Every decision (the settings
-- file, judging a name, the scan of a response, the EDE text, the log
-- line, the counters) is made by the same C as Unbound's dynlib module's;
-- this file only carries octets across, and each engine's adapter
-- (kresd.lua, pdns-recursor.lua, dnsdist.lua) calls it from that engine's
-- hooks.  docs/engines.md says what each engine's hooks can protect.
--
--   local idnguard = require("idnguard")
--   local g = assert(idnguard.open{ conf = "/etc/idnguard/idnguard.conf" })
--   local v = g:verdict()
--   if idnguard.REJECTS[g:judge(wire_qname, v)] then ... end
--
-- One guard per process: the library's shared handle (idnguard_open_shared)
-- is opened by the first idnguard.open and handed to every later one, so
-- an engine with a Lua state per thread, or one that builds its Lua state
-- again on a reload of its script, reads the settings file once and runs
-- one watch, which applies a changed file by itself (watch-settings) and
-- writes what it has to say on the daemon's stderr.
local ffi = require("ffi")

local M = {}

ffi.cdef [[
const char *idnguard_version(void);
const char *idnguard_conf_path(void);
void idnguard_set_host(const char *name);
void *idnguard_open_shared(const char *path, char *err, size_t errlen);
const char *idnguard_mode(void *h);
int idnguard_ede_enabled(void *h);
unsigned idnguard_stats_interval(void *h);
unsigned long long idnguard_settings_gen(void *h);
size_t idnguard_loaded_line(void *h, const char *path, int state, const char *changes,
                            const char *host, char *out, size_t cap);
size_t idnguard_verdict_size(void);
int idnguard_judge(void *h, const uint8_t *wire, size_t len, int data, void *v);
int idnguard_action(const void *v);
void idnguard_set_action(void *v, int action);
void idnguard_for_client(void *v, const void *q);
int idnguard_interesting(const void *v);
size_t idnguard_normalize(void *h, const uint8_t *wire, size_t len, uint8_t *out, void *v);
int idnguard_scan(void *h, const uint8_t *buf, size_t len, void *v);
int idnguard_scan_message(void *h, const uint8_t *msg, size_t len, void *v);
size_t idnguard_ede_text(const void *v, char *out, size_t cap);
void idnguard_count(int which);
size_t idnguard_log(void *h, const void *v, const char *client, unsigned port,
                    const uint8_t *qname, size_t qname_len, unsigned qtype, unsigned qclass,
                    int rcode, int ede, int path, const uint8_t *target, size_t target_len,
                    const char *transport, long long elapsed_us, char *out, size_t cap);
size_t idnguard_stats(void *h, const char *when, char *out, size_t cap, char *err, size_t errlen);
]]

-- The numbers of lib/libidnguard.h's enums.
M.PASS, M.LOG, M.REFUSE, M.NXDOMAIN, M.DROP, M.NORMALIZE = 0, 1, 2, 3, 4, 5
M.PATH_RESOLVED, M.PATH_CACHE, M.PATH_LOCAL, M.PATH_SERVFAIL, M.PATH_POLICY = 0, 1, 2, 3, 4
M.COUNT_NORMALIZED, M.COUNT_ANSWERS_REJECTED, M.COUNT_UNCACHED, M.COUNT_INTERNAL = 0, 1, 2, 3
M.SCAN_PASS, M.SCAN_LOG, M.SCAN_REJECT = 0, 1, 2
-- The actions that answer for the name (the client never gets the data).
M.REJECTS = { [2] = true, [3] = true, [4] = true }
M.ACTION_NAMES = { [0] = "pass", "log", "refuse", "nxdomain", "drop", "normalize" }
-- The EDNS option code of Extended DNS Errors and its info-code "Blocked"
-- (RFC 8914 4.16): what a rejection carries.
M.EDE_BLOCKED = 15

local NAME_MAX = 255
local LINE_MAX = 8192
local ERR_MAX = 4096

local lib -- the library, once loaded
local handle -- its shared handle
local vsize

local buf_line = ffi.new("char[?]", LINE_MAX)
local buf_name = ffi.new("uint8_t[?]", NAME_MAX)
local buf_ede = ffi.new("char[?]", 512)

local Guard = {}
Guard.__index = Guard

--- Loads the library and the settings.  opts (all optional):
--   lib  the library's path (default: "libidnguard.so.0" from the loader's
--        path; installed as PREFIX/lib/idnguard/libidnguard.so.0)
--   conf the settings file (default: $IDNGUARD_CONF, else the library's
--        default path); only the first open of the process reads it
--   log  function(line) for query-log lines when the settings name no
--        log-file (default: one line on stderr)
--   host the engine's name for the stats file's idnguard_info ("dnsdist")
-- Returns a guard, or nil and the reason (the library's file:line
-- messages when the settings do not load).
function M.open(opts)
    opts = opts or {}
    if not lib then
        local ok, l = pcall(ffi.load, opts.lib or "libidnguard.so.0")
        if not ok then
            return nil, "idnguard: cannot load " .. (opts.lib or "libidnguard.so.0") .. ": " .. tostring(l)
        end
        lib = l
        vsize = tonumber(lib.idnguard_verdict_size())
    end
    if not handle then
        if opts.host then
            lib.idnguard_set_host(opts.host)
        end
        local err = ffi.new("char[?]", ERR_MAX)
        local h = lib.idnguard_open_shared(opts.conf, err, ERR_MAX)
        if h == nil then
            return nil, "idnguard: the settings do not load:\n" .. ffi.string(err)
        end
        handle = h
        local warnings = ffi.string(err)
        if warnings ~= "" then
            io.stderr:write("idnguard: " .. warnings:gsub("\n$", ""):gsub("\n", "\nidnguard: ") .. "\n")
        end
    end
    local g = setmetatable({ h = handle, lib = lib, logfn = opts.log }, Guard)
    return g
end

--- "0.2.0 15.0.0": idnguard's version and its Unicode tables'.
function M.version()
    return lib and ffi.string(lib.idnguard_version()) or nil
end

--- The wire form of a presentation name ("bücher.example.", raw UTF-8
--- octets kept as they are; \DDD and \X escapes read).  nil when a label
--- is empty or over 63 octets, or the name over 255.
function M.wire(text)
    local out, label, n, i = {}, {}, 0, 1
    local function flush()
        local l = table.concat(label)
        if #l == 0 or #l > 63 then
            return false
        end
        out[#out + 1] = string.char(#l) .. l
        n = n + 1 + #l
        label = {}
        return true
    end
    if text == "." then
        return "\0"
    end
    while i <= #text do
        local c = text:sub(i, i)
        if c == "\\" then
            local d = text:match("^%d%d%d", i + 1)
            if d then
                if tonumber(d) > 255 then
                    return nil
                end
                label[#label + 1] = string.char(tonumber(d))
                i = i + 4
            else
                label[#label + 1] = text:sub(i + 1, i + 1)
                i = i + 2
            end
        elseif c == "." then
            if not flush() then
                return nil
            end
            i = i + 1
        else
            label[#label + 1] = c
            i = i + 1
        end
    end
    if #label > 0 and not flush() then
        return nil
    end
    out[#out + 1] = "\0"
    if n + 1 > NAME_MAX then
        return nil
    end
    return table.concat(out)
end

--- The wire form of a name given as its labels (PowerDNS's
--- DNSName:getRawLabels()).  nil when a label is empty or too long.
function M.wire_from_labels(labels)
    local out, n = {}, 1
    for i = 1, #labels do
        local l = labels[i]
        if #l == 0 or #l > 63 then
            return nil
        end
        out[i] = string.char(#l) .. l
        n = n + 1 + #l
    end
    if n > NAME_MAX then
        return nil
    end
    out[#out + 1] = "\0"
    return table.concat(out)
end

--- The presentation form of a wire name, every octet outside printable
--- ASCII and the specials escaped as \DDD (for the engine's own messages;
--- idnguard's log line shows names its own way).
function M.text(wire)
    local out, i = {}, 1
    while i <= #wire do
        local n = wire:byte(i)
        if n == 0 then
            break
        end
        local l = wire:sub(i + 1, i + n)
        out[#out + 1] = l:gsub("[^%w%-_]", function(c)
            return string.format("\\%03d", c:byte())
        end)
        i = i + 1 + n
    end
    return #out == 0 and "." or table.concat(out, ".") .. "."
end

--- One field of a flattened response for scan_records: kind (0 the name
--- the response is for, 1 answer owner, 2 authority owner, 3 additional
--- owner, 4 CNAME/DNAME target), RR type, wire name.
function M.record(kind, rrtype, wire)
    return string.char(kind, math.floor(rrtype / 256) % 256, rrtype % 256, #wire) .. wire
end

--- A new verdict block, one per query (collected with it).
function Guard:verdict()
    return ffi.new("uint8_t[?]", vsize)
end

--- Judges a client's query name (data true: a name from an answer);
--- returns the action.
function Guard:judge(wire, v, data)
    return lib.idnguard_judge(self.h, wire, #wire, data and 1 or 0, v)
end

function Guard:judge_ptr(ptr, len, v, data)
    return lib.idnguard_judge(self.h, ptr, len, data and 1 or 0, v)
end

function Guard:action(v)
    return lib.idnguard_action(v)
end

function Guard:set_action(v, action)
    lib.idnguard_set_action(v, action)
end

--- The A-label form of a raw name, or nil (v's action is then the
--- fallback the settings give).
function Guard:normalize(wire, v)
    local n = lib.idnguard_normalize(self.h, wire, #wire, buf_name, v)
    if n == 0 then
        return nil
    end
    return ffi.string(buf_name, n)
end

--- The response scan over a whole wire message (a Lua string, or a cdata
--- pointer and its length).  Returns SCAN_PASS, SCAN_LOG or SCAN_REJECT;
--- v gets the most severe verdict.
function Guard:scan_message(msg, v, len)
    return lib.idnguard_scan_message(self.h, msg, len or #msg, v)
end

--- The response scan over records flattened with idnguard.record.
function Guard:scan_records(buf, v)
    return lib.idnguard_scan(self.h, buf, #buf, v)
end

function Guard:for_client(v, q)
    lib.idnguard_for_client(v, q)
end

function Guard:interesting(v)
    return lib.idnguard_interesting(v) ~= 0
end

--- The EDE extra text of a rejected verdict, or nil when the settings
--- say ede: no.
function Guard:ede(v)
    if lib.idnguard_ede_enabled(self.h) == 0 then
        return nil
    end
    local n = lib.idnguard_ede_text(v, buf_ede, 512)
    return ffi.string(buf_ede, n)
end

function Guard:count(which)
    lib.idnguard_count(which)
end

--- One client answered: counted, and its query-log line written when the
--- settings want one (to their log-file, else through opts.log).
--- r: client, port, qname (wire), qtype, qclass, rcode (-1: dropped),
--- ede (-1: none), path (PATH_*), target (wire or nil), transport,
--- elapsed_us (-1: unknown).  v nil: answered without the guard.
function Guard:log(v, r)
    local target = r.target
    local n = lib.idnguard_log(self.h, v, r.client, r.port or 0, r.qname, #r.qname, r.qtype or 1,
        r.qclass or 1, r.rcode or 0, r.ede or -1, r.path or M.PATH_RESOLVED, target,
        target and #target or 0, r.transport, r.elapsed_us or -1, buf_line, LINE_MAX)
    if n > 0 then
        local line = ffi.string(buf_line, n)
        if self.logfn then
            self.logfn(line)
        else
            -- One string, so one write(2) on the unbuffered stderr: lines
            -- of several threads never interleave.
            io.stderr:write(line .. "\n")
        end
    end
end

--- The summary line of the counters (and the stats file written when the
--- settings name one).  Returns the line, and a problem writing the file
--- or nil.
function Guard:stats(when)
    local err = ffi.new("char[?]", 512)
    local n = lib.idnguard_stats(self.h, when or "interval", buf_line, LINE_MAX, err, 512)
    local e = ffi.string(err)
    return ffi.string(buf_line, n), e ~= "" and e or nil
end

--- stats-interval in seconds (0: none).
function Guard:stats_interval()
    return tonumber(lib.idnguard_stats_interval(self.h))
end

--- A number that changes each time settings are applied (a packet
--- cache's tag, so that an answer cached under other settings is not
--- served).
function Guard:settings_gen()
    return lib.idnguard_settings_gen(self.h)
end

function Guard:mode()
    return ffi.string(lib.idnguard_mode(self.h))
end

--- The line that ends a first load, as every host writes it:
-- "idnguard: loaded PATH (mode M, Unicode U; idnguard V<host>)".
function Guard:loaded_line(path, host)
    local n = lib.idnguard_loaded_line(self.h, path, 0, nil, host, buf_line, LINE_MAX)
    return ffi.string(buf_line, n)
end

return M
