# idnguard in PowerDNS Recursor (lua/pdns-recursor.lua over lua/idnguard.lua
# and libidnguard; docs/engines.md, "PowerDNS Recursor"): the integration
# suites again, with pdns_recursor 5.4 from the engines root (mk/engines.mk)
# in Unbound's place, configured by tests/integration/engines/pdns.sh.  The
# suites share their expectations with the dynlib run; where the Recursor
# answers otherwise the expectation says so (ENGINE(...) and engine_does in
# tests/integration), and a set-up that needs Unbound itself is not added.
# Answers from the packet cache get their query-log line only with
# IDNGUARD_LOG_CACHE_HITS=yes (then nothing enters the packet cache): the
# suites check those lines, so they turn it on.
#
#   make check-pdns        these suites only (part of `make check`)
#
# Timing on this machine: 1.4-2 minutes (7 suites, 227 checks).

PDNS_SUITES := test_guard test_guard_logs test_paths test_normalize test_policy test_policy_lists test_lookalike \
	test_dnssec
PDNS_BIN := $(PDNS_SUITES:%=$(BUILD)/tests/integration/%)

.PHONY: check-pdns
check-pdns: engines-root $(LIBIDNGUARD) all zones $(PDNS_BIN)
	@echo "== PowerDNS Recursor (pdns_recursor in $(ENGINES_ROOT))"
	@$(TEST_ENV) IDNGUARD_FLAVOUR=pdns IDNGUARD_LOG_CACHE_HITS=yes \
	    IDNGUARD_LIB=$(CURDIR)/$(LIBIDNGUARD) IDNGUARD_LUA=$(CURDIR)/lua \
	    sh tests/run.sh $(PDNS_BIN)

CHECK_EXTRA += check-pdns
