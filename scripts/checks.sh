# shellcheck shell=sh
# checks.sh: the check lines of the test scripts that are no test suites
# (scripts/install-test.sh, scripts/deb-install-test.sh), sourced by them.
# One line per check, "ok   NAME" or "FAIL NAME", counted; checks_done
# prints "N passed, N failed" and fails when one did.

passed=0 failed=0
pass() { passed=$((passed + 1)); echo "ok   $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
check() { # NAME CMD...
    check_name=$1
    shift
    if "$@"; then pass "$check_name"; else fail "$check_name"; fi
}
checks_done() {
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]
}
