-- Unit tests of lua/dnsdist.lua's message surgery, with the host's LuaJIT
-- (no dnsdist, no library): the answers it makes in place of a rejected
-- response, the response without its authority and additional sections,
-- normalize's CNAME.  The integration suites (IDNGUARD_FLAVOUR=dnsdist)
-- check what clients get; this checks the octets, one case at a time.
--   luajit tests/lua/test_dnsdist.lua LUA_DIR
-- Prints a Check-style summary line, which tests/run.sh counts.
local lua_dir = arg[1]
assert(lua_dir, "usage: test_dnsdist.lua LUA_DIR")
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = lua_dir .. "/?.lua;" .. here .. "/?.lua;" .. package.path

local ffi = require("ffi")
local dd = require("dnsdist")
local t = require("check").new("test_dnsdist.lua")
local test, eq = function(name, fn) t:test(name, fn) end, t.eq

local function be16(v)
    return string.char(math.floor(v / 256), v % 256)
end
local function ptr(s)
    return ffi.cast("const uint8_t *", s), #s
end

-- alias.example. A: CNAME to xn--ab-m1t.example. and its A; an NS in the
-- authority section, its glue in the additional section, then the OPT
-- record (payload 1232, DO set); every later name compressed.
local QNAME = "\5alias\7example\0"
local Q = QNAME .. be16(1) .. be16(1)
local AN = "\192\12" .. be16(5) .. be16(1) .. "\0\0\1\44" .. be16(13) .. "\10xn--ab-m1t\192\18"
    .. "\192\43" .. be16(1) .. be16(1) .. "\0\0\1\44" .. be16(4) .. "\192\0\2\1"
local NS = "\192\18" .. be16(2) .. be16(1) .. "\0\0\1\44" .. be16(5) .. "\2ns\192\18"
local AR = "\192\84" .. be16(1) .. be16(1) .. "\0\0\1\44" .. be16(4) .. "\127\0\0\1"
local OPT = "\0" .. be16(41) .. be16(1232) .. "\0\0\128\0" .. be16(0)
local HDR = "\18\52\129\160" -- ID 0x1234; QR RD; RA AD, NOERROR
local RESPONSE = HDR .. be16(1) .. be16(2) .. be16(1) .. be16(2) .. Q .. AN .. NS .. AR .. OPT
local PLAIN = HDR .. be16(1) .. be16(2) .. be16(0) .. be16(0) .. Q .. AN

test("fixture_offsets", function()
    -- the compression pointers above point where they mean to
    eq(RESPONSE:sub(19, 19), "\7", "example. at 18")
    eq(RESPONSE:sub(44, 54), "\10xn--ab-m1t", "the target at 43")
    eq(RESPONSE:sub(85, 87), "\2ns", "ns.example. at 84")
end)

test("layout", function()
    local lay = dd.layout(ptr(RESPONSE))
    assert(lay, "no layout")
    eq(lay.qend, 12 + #Q, "question end")
    eq(lay.anend, 12 + #Q + #AN, "answer end")
    eq(lay.opt, #RESPONSE - #OPT + 3, "OPT class offset")
    eq(lay.optend, #RESPONSE, "OPT end")
    local plain = dd.layout(ptr(PLAIN))
    eq(plain.opt, nil, "no OPT")
    eq(plain.anend, #PLAIN, "answer end without more sections")
end)

-- Messages cut anywhere, or with a count past their records, have no
-- layout (and nothing is read past their end).
test("layout_refuses_short_messages", function()
    for n = 0, #RESPONSE - 1 do
        local s = RESPONSE:sub(1, n)
        if dd.layout(ptr(s)) then
            error("a message cut at " .. n .. " octets has a layout")
        end
    end
    eq(dd.layout(ptr(HDR .. be16(2) .. be16(0) .. be16(0) .. be16(0) .. Q .. Q)), nil,
        "two questions")
    eq(dd.layout(ptr(HDR .. be16(1) .. be16(0) .. be16(0) .. be16(0) .. "\64" .. Q)), nil,
        "a label of 64")
end)

test("refusal", function()
    local p = ptr(RESPONSE)
    local r = dd.refusal(p, dd.layout(ptr(RESPONSE)), 5)
    eq(r:sub(1, 2), "\18\52", "ID")
    eq(r:byte(3), 0x81, "QR, opcode 0, RD; no AA, no TC")
    eq(r:byte(4), 0x85, "RA, no AD, REFUSED")
    eq(r:sub(5, 12), be16(1) .. be16(0) .. be16(0) .. be16(1), "counts")
    eq(r:sub(13, 12 + #Q), Q, "the question")
    eq(r:sub(13 + #Q), OPT, "the OPT record: payload and DO kept, no options")
    local n = dd.refusal(p, dd.layout(ptr(RESPONSE)), 3)
    eq(n:byte(4), 0x83, "NXDOMAIN")
    local plain = dd.refusal(ptr(PLAIN), dd.layout(ptr(PLAIN)), 5)
    eq(plain, "\18\52\129\133" .. be16(1) .. be16(0) .. be16(0) .. be16(0) .. Q, "without OPT")
end)

test("refusal_keeps_cd", function()
    local cd = "\18\52\129\176" .. RESPONSE:sub(5)
    local r = dd.refusal(ptr(cd), dd.layout(ptr(cd)), 5)
    eq(r:byte(4), 0x95, "RA, CD, REFUSED")
end)

test("answer_only", function()
    local r = dd.answer_only(ptr(RESPONSE), dd.layout(ptr(RESPONSE)))
    eq(r:sub(1, 4), HDR, "the header's first half as it was")
    eq(r:sub(5, 12), be16(1) .. be16(2) .. be16(0) .. be16(1), "counts")
    eq(r:sub(13, 12 + #Q + #AN), Q .. AN, "question and answer at the same offsets")
    eq(r:sub(13 + #Q + #AN), OPT, "the OPT record")
    local lay = dd.layout(ptr(r))
    assert(lay and lay.opt, "the result reads")
end)

test("cname_answer", function()
    local target = "\16xn--bcher-kva\7example\0"
    local raw = "\7b\195\188cher\7example\0"
    local q = HDR:sub(1, 2) .. "\1\0" .. be16(1) .. be16(0) .. be16(0) .. be16(1) .. raw .. be16(28)
        .. be16(1) .. OPT
    local r = dd.cname_answer(ptr(q), dd.layout(ptr(q)), target)
    eq(r:byte(3), 0x81, "QR RD")
    eq(r:byte(4), 0x80, "RA, NOERROR")
    eq(r:sub(5, 12), be16(1) .. be16(1) .. be16(0) .. be16(1), "counts")
    local rr = 12 + #raw + 4
    eq(r:sub(13, rr), raw .. be16(28) .. be16(1), "the question")
    eq(r:sub(rr + 1, rr + 12), "\192\12" .. be16(5) .. be16(1) .. "\0\0\0\0" .. be16(#target),
        "CNAME, class of the question, TTL 0")
    eq(r:sub(rr + 13, rr + 12 + #target), target, "the target")
    eq(r:sub(rr + 13 + #target), OPT, "the OPT record")
end)

t:done()
