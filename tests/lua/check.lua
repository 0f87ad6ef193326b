-- check.lua: the smallest test runner for the Lua unit tests (tests/lua/):
-- named cases run in order, each failure reported on its own line as
-- FILE:CASE: message, and a Check-style summary line last, which
-- tests/run.sh counts.
--   local check = require("check")
--   local t = check.new("test_x.lua")
--   t:test("name", function() t.eq(got, want, "what") end)
--   t:done()   -- prints the summary, exits 1 on any failure
local M = {}
local Suite = {}
Suite.__index = Suite

function M.new(file)
    return setmetatable({ file = file, checks = 0, failures = 0 }, Suite)
end

function Suite:test(name, fn)
    self.checks = self.checks + 1
    local ok, err = pcall(fn)
    if not ok then
        self.failures = self.failures + 1
        print(string.format("%s:%s: %s", self.file, name, tostring(err)))
    end
end

--- Fails the calling case unless got == want.
function Suite.eq(got, want, what)
    if got ~= want then
        error(string.format("%s: got %q, want %q", what, tostring(got), tostring(want)), 2)
    end
end

function Suite:done()
    local pct = self.checks > 0 and math.floor(100 * (self.checks - self.failures) / self.checks) or 0
    print(string.format("%d%%: Checks: %d, Failures: %d, Errors: 0", pct, self.checks, self.failures))
    os.exit(self.failures == 0 and 0 or 1)
end

return M
