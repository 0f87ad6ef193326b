# The python module's ctypes table (python/idnguard.py, _load_lib) against
# lib/libidnguard.h, with the host's python3: each function's return and
# argument types must be the header's (tests/python/test_bindings.py).  A
# wrapper under build/tests/python/ lets `make test` run and count it with
# the Check suites.  (The module itself runs in Unbound: check-python.)

PY_TEST_BIN := $(BUILD)/tests/python/test_bindings

$(PY_TEST_BIN): tests/python/test_bindings.py python/idnguard.py lib/libidnguard.h mk/python-test.mk
	@mkdir -p $(@D)
	@printf "#!/bin/sh\n# made by mk/python-test.mk\nexec python3 '%s' '%s' '%s'\n" \
	    $(CURDIR)/$< $(CURDIR)/python/idnguard.py $(CURDIR)/lib/libidnguard.h >$@
	@chmod 755 $@

TEST_BIN += $(PY_TEST_BIN)
