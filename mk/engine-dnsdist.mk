# idnguard at the edge in dnsdist 1.9 (lua/dnsdist.lua, docs/engines.md
# "dnsdist"): the integration suites again, with dnsdist from the engines
# root (Debian 13's 1.9.16, mk/engines.mk) in the resolver's place, in
# front of the Unbound built here without the module as its backend
# (tests/integration/engines/dnsdist.sh), its packet cache configured.
# The suites share their expectations with the dynlib run; where dnsdist
# answers otherwise the expectation says so (ENGINE(...) and engine_does()
# in tests/integration), and the tcases that need Unbound's own module are
# left out under it.  test_guard's "two-backends" tcase runs under this
# flavour only: BIND 9.20 beside Unbound behind the same dnsdist.  Before
# them, tests/lua/test_dnsdist.lua (`make test`, mk/lua.mk) checks the adapter's message surgery
# with the host's LuaJIT.
#
#   make check-dnsdist     these suites only (part of `make check`)
#
# Timing on this machine: about 2 minutes (1m56s, the suites built).

ENGINES_ROOT ?= $(BUILD)/roots/engines
DD_SUITES := $(addprefix $(BUILD)/tests/integration/,test_guard test_guard_logs test_paths \
	test_normalize test_policy test_policy_lists test_lookalike test_dnssec)

.PHONY: check-dnsdist
check-dnsdist: engines-root $(LIBIDNGUARD) $(UB_STAMP) all zones $(DD_SUITES)
	@echo "== dnsdist 1.9 (the engines root) in front of Unbound without the module"
	@$(TEST_ENV) IDNGUARD_FLAVOUR=dnsdist IDNGUARD_ENGINES_ROOT=$(CURDIR)/$(ENGINES_ROOT) \
	    IDNGUARD_LIB=$(CURDIR)/$(LIBIDNGUARD) IDNGUARD_LUA=$(CURDIR)/lua \
	    sh tests/run.sh $(DD_SUITES)

CHECK_EXTRA += check-dnsdist
