# `make soak` (not part of `make check`): NSD and the Unbound daemon built
# here with the module, num-threads 2, on loopback, under valgrind, driven by
# dnsperf for SOAK_SECONDS (default 60) with a mix of good IDNs, fake
# A-labels, raw UTF-8 and ASCII names, cache hits and misses, while the
# module's settings are reloaded (SIGHUP) SOAK_RELOADS times.  Prints a
# summary table and fails on a crash, a valgrind error, a byte leaked by
# the module, or counters that do not add up.  See scripts/soak.sh.
SOAK_SECONDS ?= 60
SOAK_RELOADS ?= 4

.PHONY: soak
soak: deps-hardening deps-module deps-integration
	@$(MAKE) --no-print-directory $(MODULE) zones
	@SOAK_SECONDS=$(SOAK_SECONDS) SOAK_RELOADS=$(SOAK_RELOADS) IDNGUARD_ZONES=$(abspath $(ZONES_DIR)) \
	    sh scripts/soak.sh $(UNBOUND) $(CURDIR)/$(MODULE)
