# `idnguard tap`'s tests beyond its unit suites (tests/tap/test_*.c, in
# TEST_SRC): the integration suite tests/integration/test_tap.c runs with
# the others (check-integration, check-python) and needs Debian's stock
# unbound and dnsdist, both unpacked, never installed; and the golden
# captures of tests/tap/golden, decoded by the CLI and checked against
# their expected lines, dnstap-ldns's reading and the module's own lines.
#
#   make check-tap-golden   the golden captures (part of `make check`)
#   make tap-golden         makes the captures again (tests/tap/make-golden.sh);
#                           then `python3 tests/tap/golden.py --write` and a
#                           review line by line before committing

.PHONY: check-tap-golden tap-golden

check-tap-golden: $(CLI)
	@sh scripts/deps.sh --check tap
	@$(PYTHON) tests/tap/golden.py --tap $(CLI)

tap-golden: $(MODULE) all zones $(STOCK_UNBOUND)
	@sh scripts/deps.sh --check tap integration
	sh tests/tap/make-golden.sh

CHECK_EXTRA += check-tap-golden
