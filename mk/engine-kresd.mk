# idnguard in Knot Resolver 5 (kresd, Debian 13's 5.7.5 from the engines'
# root, mk/engines.mk) through lua/kresd.lua, lua/idnguard.lua and
# build/libidnguard.so.0: the integration suites again under
# IDNGUARD_FLAVOUR=kresd (tests/integration/engines/kresd.sh starts kresd in
# Unbound's place, forwarding to the lab's NSD), from the same
# expectations; where kresd answers otherwise, ENGINE(...) and
# engine_does() say so on the spot, and a tcase that needs Unbound itself
# is left out (docs/engines.md, "Knot Resolver").
#
#   make check-kresd      these suites only (part of `make check`)
#
# Timing on this machine: 85 to 120 s (eleven suites, 262 checks), with other work beside.

KRESD_ITEST := $(addprefix $(BUILD)/tests/integration/,test_guard test_guard_logs test_paths \
	test_normalize test_policy test_policy_lists test_lookalike test_dnssec test_ops test_ops_settings test_ops_log \
	test_swap)

.PHONY: check-kresd
check-kresd: engines-root $(LIBIDNGUARD) zones $(KRESD_ITEST)
	@echo "== idnguard in Knot Resolver (kresd from $(BUILD)/roots/engines)"
	@$(TEST_ENV) IDNGUARD_FLAVOUR=kresd IDNGUARD_LIB=$(CURDIR)/$(LIBIDNGUARD) \
	    IDNGUARD_LUA=$(CURDIR)/lua sh tests/run.sh $(KRESD_ITEST)

CHECK_EXTRA += check-kresd
