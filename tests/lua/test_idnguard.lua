-- Unit tests of lua/idnguard.lua over the library built here
-- (build/libidnguard.so.0), with the host's LuaJIT: what every engine's
-- adapter relies on.  Run by `make test` (mk/lua.mk) as
--   luajit tests/lua/test_idnguard.lua LUA_DIR LIBRARY TMPDIR
-- Prints a Check-style summary line (tests/lua/check.lua), which
-- tests/run.sh counts.
local lua_dir, lib_path, tmp = arg[1], arg[2], arg[3]
assert(lib_path and lua_dir and tmp, "usage: test_idnguard.lua LUA_DIR LIBRARY TMPDIR")
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = lua_dir .. "/?.lua;" .. here .. "/?.lua;" .. package.path

local t = require("check").new("test_idnguard.lua")
local test, eq = function(name, fn) t:test(name, fn) end, t.eq

local function write(path, text)
    local f = assert(io.open(path, "w"))
    f:write(text)
    f:close()
end

local function hex(s)
    return (s:gsub("%x%x", function(h) return string.char(tonumber(h, 16)) end))
end

local idnguard = require("idnguard")

-- Query-log lines the guard hands back (no log-file in these settings).
local lines = {}
local conf = tmp .. "/idnguard.conf"
write(conf, "idnguard:\nlog-queries: yes\nwatch-settings: no\nstats-file: " .. tmp .. "/idnguard.prom\n")

local g, err
test("open", function()
    g, err = idnguard.open { lib = lib_path, conf = conf, host = "lua-test",
        log = function(l) lines[#lines + 1] = l end }
    assert(g, err)
    assert(idnguard.version():match("^%d+%.%d+%.%d+ %d+%.%d+%.%d+$"), idnguard.version())
    eq(g:mode(), "uts46", "mode")
end)
if not g then
    t:done()
end

-- A second open in the same process shares the first's settings: its
-- conf is not read (a Lua state per thread must not load them again).
test("open_shared", function()
    local g2 = assert(idnguard.open { conf = tmp .. "/no-such-file.conf" })
    assert(g2.h == g.h, "a second open got another handle")
end)

-- Settings that do not load: the first open of a process says where
-- (file:line) and returns nil; run in a process of its own, since this
-- one's guard is open already.
test("open_bad_settings", function()
    local bad = tmp .. "/bad.conf"
    write(bad, "idnguard:\non-invalid: maybe\n")
    local script = tmp .. "/open-bad.lua"
    write(script, string.format(
        "package.path = %q .. '/?.lua;' .. package.path\n" ..
        "local g, e = require('idnguard').open { lib = %q, conf = %q }\n" ..
        "io.write(tostring(g), '|', tostring(e))\n", lua_dir, lib_path, bad))
    local p = assert(io.popen("luajit " .. script .. " 2>&1"))
    local out = p:read("*a")
    p:close()
    assert(out:find("^nil|") and out:find(bad .. ":2:", 1, true), "the first open: " .. out)
end)

test("wire", function()
    eq(idnguard.wire("a.b."), "\1a\1b\0", "a.b.")
    eq(idnguard.wire("a.b"), "\1a\1b\0", "a.b without the final dot")
    eq(idnguard.wire("."), "\0", "the root")
    eq(idnguard.wire("a\\.b.c"), "\3a.b\1c\0", "an escaped dot")
    eq(idnguard.wire("a\\046b.c"), "\3a.b\1c\0", "\\046")
    eq(idnguard.wire("a..b"), nil, "an empty label")
    eq(idnguard.wire(string.rep("x", 64) .. ".c"), nil, "a 64-octet label")
    eq(idnguard.wire(string.rep("abcdefg.", 32)), nil, "a 257-octet name")
    eq(idnguard.wire("a\\256.b"), nil, "\\256")
    eq(idnguard.wire_from_labels { "a", "bc" }, "\1a\2bc\0", "from labels")
    eq(idnguard.wire_from_labels { "a", "" }, nil, "an empty label from labels")
    eq(idnguard.text("\3a.b\1c\0"), "a\\046b.c.", "text")
    eq(idnguard.text("\0"), ".", "the root's text")
end)

test("judge", function()
    local v = g:verdict()
    eq(g:judge(idnguard.wire("xn--bcher-kva.example."), v), idnguard.PASS, "a good IDN")
    eq(g:judge(idnguard.wire("www.example."), v), idnguard.PASS, "plain ASCII")
    local a = g:judge(idnguard.wire("xn--ab-m1t.example."), v)
    assert(idnguard.REJECTS[a], "a fake A-label was not rejected: " .. tostring(a))
    eq(g:action(v), a, "the verdict's action")
    local ede = g:ede(v)
    assert(ede and ede:find("xn--ab-m1t", 1, true), "EDE text: " .. tostring(ede))
    local w = idnguard.wire("xn--ab-m1t.example.")
    local p = require("ffi").cast("const uint8_t *", w)
    eq(g:judge_ptr(p, #w, v), a, "judge_ptr")
end)

test("normalize", function()
    local v = g:verdict()
    eq(g:normalize(idnguard.wire("bücher.example."), v), idnguard.wire("xn--bcher-kva.example."),
        "bücher.example")
    -- A label that cannot be converted (U+0080 is disallowed) stays as it
    -- is, to be judged on its own: judge() rejects the raw name.
    local raw = idnguard.wire("a\194\128.b\195\188cher.example.")
    eq(g:normalize(raw, v), idnguard.wire("a\194\128.xn--bcher-kva.example."), "a disallowed code point")
    assert(idnguard.REJECTS[g:judge(raw, v)], "judge of U+0080: " .. tostring(g:action(v)))
end)

-- A response for www.example. A: a CNAME owned by a pointer to the
-- question name, whose target is written in full, then the target's A
-- record, owned by a pointer to the CNAME's rdata.
local function response(target_labels)
    local q = idnguard.wire("www.example.")
    local hdr = hex("1234" .. "8180" .. "0001" .. "0002" .. "0000" .. "0000")
    local question = q .. hex("0001" .. "0001")
    local target = idnguard.wire_from_labels(target_labels)
    -- CNAME: owner = pointer to the question name (offset 12).
    local cname = hex("c00c" .. "0005" .. "0001" .. "0000012c") .. string.char(0, #target) .. target
    -- The target's offset in the message: header + question + the CNAME's
    -- fixed part (2 + 2 + 2 + 4 + 2).
    local toff = 12 + #question + 12
    local a = string.char(0xc0 + math.floor(toff / 256), toff % 256) ..
        hex("0001" .. "0001" .. "0000012c" .. "0004" .. "7f000001")
    return hdr .. question .. cname .. a
end

test("scan_message", function()
    local v = g:verdict()
    eq(g:scan_message(response { "lo", "xn--bcher-kva", "example" }, v), idnguard.SCAN_PASS,
        "a clean chain")
    eq(g:scan_message(response { "lo", "xn--ab-m1t", "example" }, v), idnguard.SCAN_REJECT,
        "a chain into a fake label")
    assert(idnguard.REJECTS[g:action(v)], "the scan's verdict")
    eq(g:scan_message(response { "lo", "xn--ab-m1t", "example" }:sub(1, 40), v),
        idnguard.SCAN_REJECT, "a truncated message")
    local msg = response { "lo", "xn--ab-m1t", "example" }
    local p = require("ffi").cast("const uint8_t *", msg)
    eq(g:scan_message(p, v, #msg), idnguard.SCAN_REJECT, "from a pointer")
end)

test("scan_records", function()
    local v = g:verdict()
    local q = idnguard.wire("www.example.")
    eq(g:scan_records(idnguard.record(0, 1, q) .. idnguard.record(1, 5, q) ..
        idnguard.record(4, 5, idnguard.wire("xn--bcher-kva.example.")), v), idnguard.SCAN_PASS,
        "clean records")
    eq(g:scan_records(idnguard.record(0, 1, q) .. idnguard.record(1, 5, q) ..
        idnguard.record(4, 5, idnguard.wire("xn--ab-m1t.example.")), v), idnguard.SCAN_REJECT,
        "a fake CNAME target")
end)

test("log", function()
    local v = g:verdict()
    local w = idnguard.wire("xn--ab-m1t.example.")
    g:judge(w, v)
    lines = {}
    g:log(v, { client = "127.0.0.1", port = 5300, qname = w, qtype = 1, qclass = 1, rcode = 5,
        ede = 15, path = idnguard.PATH_POLICY, transport = "udp" })
    eq(#lines, 1, "lines logged")
    local l = lines[1]
    assert(l:find("^idnguard: ") and l:find("xn--ab-m1t.example.", 1, true) and l:find("REFUSED", 1, true)
        and l:find("127.0.0.1", 1, true), "the line: " .. l)
    -- v nil: answered without the guard (the cache): judged here.
    lines = {}
    g:log(nil, { qname = idnguard.wire("xn--bcher-kva.example."), rcode = 0,
        path = idnguard.PATH_CACHE })
    eq(#lines, 1, "lines logged for a cache hit")
    assert(lines[1]:find("bücher.example.", 1, true), "the Unicode form: " .. lines[1])
    local s, e = g:stats("test")
    assert(s:find("idnguard", 1, true), "the stats line: " .. s)
    assert(not e, e)
    -- The stats file names the host idnguard.open was given.
    local f = assert(io.open(tmp .. "/idnguard.prom"))
    local prom = f:read("*a")
    f:close()
    assert(prom:find('unbound="lua-test"', 1, true), "idnguard_info: " .. prom:match("idnguard_info[^\n]*"))
end)

-- The binding repeats the header (LuaJIT's FFI cannot read C headers):
-- every declaration of its ffi.cdef must be the header's own, word for
-- word, and every number of the header's enums that the binding names
-- must be the header's.  A changed prototype would otherwise corrupt
-- memory at run time, silently.
local function slurp(path)
    local f = assert(io.open(path))
    local text = f:read("*a")
    f:close()
    return text
end
-- C text with comments gone and every run of blanks one space.
local function squeeze(c)
    c = c:gsub("/%*.-%*/", " ")
    return (c:gsub("%s+", " "):gsub(" ?([%(%),;%*]) ?", "%1"))
end
local header = slurp(here .. "/../../lib/libidnguard.h")
local binding = slurp(lua_dir .. "/idnguard.lua")
test("loaded_line", function()
    local version, unicode = idnguard.version():match("^(%S+) (%S+)$")
    eq(g:loaded_line("/etc/x.conf", ", lua test"), string.format(
        "idnguard: loaded /etc/x.conf (mode uts46, Unicode %s; idnguard %s, lua test)", unicode, version),
        "the load line")
end)
test("the binding's declarations are the header's", function()
    local cdef = assert(binding:match("ffi%.cdef %[%[(.-)%]%]"), "no ffi.cdef in the binding")
    local h = squeeze(header)
    local n = 0
    for decl in squeeze(cdef):gmatch("[^;]+;") do
        decl = decl:gsub("^ ", "")
        n = n + 1
        assert(h:find(decl, 1, true), "not in lib/libidnguard.h: " .. decl)
    end
    assert(n >= 20, "only " .. n .. " declarations read")
end)
test("the binding's numbers are the header's enums'", function()
    local n = 0
    for name, value in header:gmatch("IDNGUARD_([%u_]+) = (%d+)") do
        if not name:find("^LOAD_") then -- the hosts' load states: not the engines' business
            eq(idnguard[name], tonumber(value), "idnguard." .. name)
            n = n + 1
        end
    end
    assert(n >= 17, "only " .. n .. " enum values read")
end)

t:done()
