#!/bin/sh
# run.sh TEST_BINARY...
# Runs each Check test binary, shows its output, and closes with the summed
# "N passed, N failed" line.  Exits non-zero if any binary failed.
set -u
passed=0
failed=0
status=0
for t in "$@"; do
    echo "== $t"
    out=$("$t" 2>&1)
    rc=$?
    printf '%s\n' "$out"
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+%: Checks: ' | tail -n 1)
    if [ -n "$line" ]; then
        checks=$(echo "$line" | sed -E 's/.*Checks: ([0-9]+).*/\1/')
        fails=$(echo "$line" | sed -E 's/.*Failures: ([0-9]+).*/\1/')
        errs=$(echo "$line" | sed -E 's/.*Errors: ([0-9]+).*/\1/')
        passed=$((passed + checks - fails - errs))
        failed=$((failed + fails + errs))
    fi
    if [ "$rc" -ne 0 ]; then
        status=1
        [ -z "$line" ] && failed=$((failed + 1)) && echo "$t: exited $rc without a Check summary"
    fi
done
echo "$passed passed, $failed failed"
exit $status
