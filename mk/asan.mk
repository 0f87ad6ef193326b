# `make asan`: the codec, conf, core, CLI, the module and every unit and
# integration test, rebuilt from source with clang's AddressSanitizer and
# UndefinedBehaviorSanitizer into $(BUILD)/asan/, then run.  `make
# asan-check` (part of `make check`) does the same and fails on any test
# failure and on any sanitizer report, from a test binary, the CLI or the
# module inside the Unbound daemon.
#
# The daemon itself is the normal, uninstrumented build in $(BUILD)/unbound:
# it loads the instrumented module, so the ASan runtime is preloaded into it
# (and only into it, through the harness's IDNGUARD_DAEMON_* variables) and
# the module links the shared runtime (-shared-libasan).  The daemon runs
# with detect_leaks=0: leak checking of the module under load is the soak
# test's job (mk/soak.mk), where the module's allocations are told apart
# from Unbound's.  Every report goes to a file under $(ASAN_LOGS); one file
# there fails the run, whatever the tests said.

# Guard: the recursive builds below read this file again.
ifndef IDNG_ASAN_SUBMAKE

ASAN_BUILD := $(BUILD)/asan
ASAN_CC := clang
ASAN_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
ASAN_LOGS = $(CURDIR)/$(ASAN_BUILD)/logs
ASAN_RT = $(shell $(ASAN_CC) -print-file-name=libclang_rt.asan-x86_64.so)
ASAN_TEST_BIN := $(TEST_SRC:tests/%.c=$(ASAN_BUILD)/tests/%)
ASAN_ITEST_BIN := $(ITEST_SRC:tests/%.c=$(ASAN_BUILD)/tests/%)
# The Unbound tree the module is compiled against, for the sub-make (its
# own $(SRC) would be under $(ASAN_BUILD)).
ASAN_UB_TREE = $(patsubst %/,%,$(abspath $(UB_TREE)))
ASAN_SUBMAKE = $(MAKE) --no-print-directory IDNG_ASAN_SUBMAKE=1 BUILD=$(ASAN_BUILD) \
	CC=$(ASAN_CC) UNBOUND_SRC=$(ASAN_UB_TREE) ZONES_DIR=$(abspath $(ZONES_DIR))

# Options shared by the test binaries, the CLI and the daemon.  Each process
# writes its reports to $(ASAN_LOGS)/<kind>.<pid>.
ASAN_COMMON_OPTS = halt_on_error=1:abort_on_error=0:exitcode=86:detect_odr_violation=2:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1
ASAN_TEST_ENV = ASAN_OPTIONS=$(ASAN_COMMON_OPTS):detect_leaks=1:log_path=$(ASAN_LOGS)/test \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$(ASAN_LOGS)/test \
	IDNGUARD_DAEMON_PRELOAD=$(ASAN_RT) \
	IDNGUARD_DAEMON_ASAN_OPTIONS=$(ASAN_COMMON_OPTS):detect_leaks=0:log_path=$(ASAN_LOGS)/daemon \
	IDNGUARD_DAEMON_UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$(ASAN_LOGS)/daemon \
	IDNGUARD_BIN=$(CURDIR)/$(ASAN_BUILD)/idnguard \
	IDNGUARD_MODULE=$(CURDIR)/$(ASAN_BUILD)/idnguard.so

.PHONY: asan asan-build asan-check

# Everything instrumented.  The module is linked in a second pass, with the
# shared ASan runtime that the daemon gets preloaded; the test binaries and
# the CLI keep the static one.  Object files are shared by both passes.
asan-build: deps-hardening deps-check deps-integration
	@$(MAKE) --no-print-directory -s unbound
	@$(ASAN_SUBMAKE) CFLAGS="$(ASAN_CFLAGS)" $(ASAN_BUILD)/libidngcodec.a \
	    $(ASAN_BUILD)/libidngconf.a $(ASAN_BUILD)/libidngcore.a $(ASAN_BUILD)/idnguard \
	    $(ASAN_TEST_BIN) $(ASAN_ITEST_BIN) >$(ASAN_BUILD).build.log 2>&1 \
	    || { tail -30 $(ASAN_BUILD).build.log; exit 1; }
	@$(ASAN_SUBMAKE) CFLAGS="$(ASAN_CFLAGS) -shared-libasan" $(ASAN_BUILD)/idnguard.so \
	    >>$(ASAN_BUILD).build.log 2>&1 || { tail -30 $(ASAN_BUILD).build.log; exit 1; }

# Runs every suite under the sanitizers and prints one summary line.  The
# unit suites run without Check's fork per test (CK_FORK=no): a fork of an
# ASan process costs some 25 ms, which made the 6235 conformance tests take
# minutes; a failure still fails the suite, and any report fails the run.
# The integration suites keep the fork: the harness relies on it.
#
# What fails: `make asan` fails on anything.  `asan-check`, run by `make
# check` before the plain suites, fails on any sanitizer report and on any
# test binary that died without its Check summary (a crash); checks that
# merely fail are listed and left to the plain suites that follow, which
# fail on them with their full output (a known failing test must not keep
# `make check` from running everything else).
ASAN_STRICT ?= 0
asan: ASAN_STRICT = 1
asan-check asan: asan-build all zones $(STOCK_UNBOUND) $(DNSDIST)
	@test -r $(ASAN_RT) || { echo "asan: no ASan runtime at $(ASAN_RT)" >&2; exit 1; }
	@rm -rf $(ASAN_LOGS) && mkdir -p $(ASAN_LOGS)
	@start=$$(date +%s); \
	$(TEST_ENV) $(ASAN_TEST_ENV) CK_FORK=no sh tests/run.sh $(ASAN_TEST_BIN) \
	    >$(ASAN_BUILD)/check.log 2>&1; \
	$(TEST_ENV) $(ASAN_TEST_ENV) sh tests/run.sh $(ASAN_ITEST_BIN) \
	    >>$(ASAN_BUILD)/check.log 2>&1; \
	secs=$$(( $$(date +%s) - start )); \
	bins=$$(grep -c "^== " $(ASAN_BUILD)/check.log); \
	passed=$$(sed -nE 's/^([0-9]+) passed, [0-9]+ failed$$/\1/p' $(ASAN_BUILD)/check.log \
	    | awk '{ s += $$1 } END { print s + 0 }'); \
	failed=$$(sed -nE 's/^[0-9]+ passed, ([0-9]+) failed$$/\1/p' $(ASAN_BUILD)/check.log \
	    | awk '{ s += $$1 } END { print s + 0 }'); \
	crashed=$$(grep -c "without a Check summary" $(ASAN_BUILD)/check.log); \
	reports=$$(ls $(ASAN_LOGS) | wc -l); \
	if [ $$failed -ne 0 ]; then \
	    grep -E "(Failures|Errors): [1-9]|:[EF]:" $(ASAN_BUILD)/check.log | cut -c1-300 | head -20; \
	fi; \
	for f in $(ASAN_LOGS)/*; do [ -f "$$f" ] || continue; \
	    echo "--- $$f" >&2; head -60 "$$f" >&2; done; \
	what="$$bins test binaries (unit, CLI, and integration with the instrumented module inside Unbound): $$passed checks passed, $$failed failed, $$crashed crashed, $$reports sanitizer reports, $${secs}s"; \
	if [ $$reports -ne 0 ] || [ $$crashed -ne 0 ] || { [ $(ASAN_STRICT) = 1 ] && [ $$failed -ne 0 ]; }; then \
	    echo "asan: FAILED: $$what; reports in $(ASAN_LOGS), log $(ASAN_BUILD)/check.log" >&2; \
	    exit 1; \
	fi; \
	echo "asan: ASan+UBSan: $$what$$( [ $$failed -ne 0 ] && echo ' (failing checks: see the plain suites)')"

CHECK_EXTRA += asan-check

endif
