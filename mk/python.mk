# The python module on Debian's stock unbound package (python/, docs/unbound.md
# "The stock package"): every integration suite again, against the stock
# daemon unpacked into build/stock (scripts/stock-unbound.sh: the unbound and
# python3-unbound .debs, never installed, so no service starts) with
# module-config "python validator iterator" and python/idnguard.py beside
# build/libidnguard.so.0.  The suites share their expectations with the
# dynlib run; where the python module answers otherwise the expectation
# says so (PY(...) in tests/integration).  Cache-hit lines are opt-in for
# the python module (IDNGUARD_LOG_CACHE_HITS=yes): the suites check them,
# so they turn it on.
#
#   make check-python      these suites only (part of `make check`)

.PHONY: check-python
check-python: $(MODULE) $(LIBIDNGUARD) $(BUILD)/idnguard.py $(STOCK_UNBOUND) $(DNSDIST) all zones $(UB_ALT) \
	$(ITEST_BIN)
	@echo "== python module on Debian's stock unbound ($(STOCK_UNBOUND))"
	@$(TEST_ENV) IDNGUARD_FLAVOUR=python IDNGUARD_LOG_CACHE_HITS=yes \
	    IDNGUARD_PYSCRIPT=$(CURDIR)/$(BUILD)/idnguard.py \
	    sh tests/run.sh $(ITEST_BIN)

CHECK_EXTRA += check-python
