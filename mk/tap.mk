# `idnguard tap`'s tests beyond its unit suites (tests/tap/test_*.c, in
# TEST_SRC): the integration suites tests/integration/test_tap.c and
# test_tap_dnsdist.c run with the others (check-integration, check-python)
# and need Debian's stock unbound and dnsdist, both unpacked, never installed; and the golden
# captures of tests/tap/golden, decoded by the CLI and checked against
# their expected lines, dnstap-ldns's reading and the module's own lines.
#
#   make check-tap-golden   the golden captures (part of `make check`)
#   make tap-golden         makes the captures again (tests/tap/make-golden.sh);
#                           then `python3 tests/tap/golden.py --write` and a
#                           review line by line before committing
#   make check-tap-producers  the tap fed by every dnstap producer of
#                           Debian 13 (part of `make check`), below
#
# check-tap-producers runs test_tap again with IDNGUARD_TAP_PRODUCER set,
# which makes it run its producers' suite instead: BIND 9.20, Knot
# Resolver 5.7, PowerDNS Recursor 5.4 and dnsdist 1.9 from the engines
# root (mk/engines.mk), Unbound 1.26 from the trixie root (mk/trixie.mk),
# each made when missing, each producer started inside its root by
# scripts/tap-producer.sh with the dnstap settings docs/tap.md gives
# (its `tap-producer` blocks), in front of the lab's NSD.  The trixie
# root is made by a sub-make: mk/trixie.mk is read after this file.
#
# Timing on this machine (2 cores shared with other work), the roots
# there: about 35 s.

.PHONY: check-tap-golden tap-golden check-tap-producers

check-tap-golden: $(CLI)
	@sh scripts/deps.sh --check tap
	@$(PYTHON) tests/tap/golden.py --tap $(CLI)

tap-golden: $(MODULE) all zones $(STOCK_UNBOUND)
	@sh scripts/deps.sh --check tap integration
	sh tests/tap/make-golden.sh

CHECK_EXTRA += check-tap-golden

check-tap-producers: $(MODULE) all zones $(ENGINES_ROOT)/usr/sbin/kresd \
	$(BUILD)/tests/integration/test_tap
	@sh scripts/deps.sh --check integration
	@$(MAKE) --no-print-directory $(TRIXIE_ROOT)/usr/sbin/unbound
	@echo "== idnguard tap and the dnstap producers of Debian 13"
	@$(TEST_ENV) IDNGUARD_TAP_PRODUCER=$(CURDIR)/scripts/tap-producer.sh \
	    IDNGUARD_ENGINES_ROOT=$(CURDIR)/$(ENGINES_ROOT) IDNGUARD_TRIXIE_ROOT=$(CURDIR)/$(TRIXIE_ROOT) \
	    sh tests/run.sh $(BUILD)/tests/integration/test_tap

CHECK_EXTRA += check-tap-producers
