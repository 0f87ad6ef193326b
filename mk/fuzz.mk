# mk/fuzz.mk -- libFuzzer harnesses (tests/fuzz/fuzz_*.c), one per entry point.
#
#   make fuzz            each harness with libFuzzer for FUZZ_SECONDS (default 60),
#                        FUZZ_JOBS harnesses at a time (default 1), on a scratch
#                        corpus in $(BUILD)/fuzz/corpus/NAME seeded from
#                        tests/fuzz/corpus/NAME; crash files go straight to
#                        tests/fuzz/regress/NAME/.  FUZZ_TARGETS=to_ascii picks some.
#   make fuzz-replay     every harness built WITHOUT libFuzzer (tests/fuzz/replay_main.c,
#                        $(REPLAY_CC) with ASan+UBSan) replays corpus + regress files.
#   make fuzz-smoke      a short libFuzzer run of every harness (FUZZ_SMOKE_SECONDS,
#                        default 10 each, FUZZ_SMOKE_JOBS at a time, default 2: one a
#                        core of a 2-core machine); fails on any crash.
#
# fuzz-replay and fuzz-smoke are part of `make check` (CHECK_EXTRA).  The
# harnesses are built from the library SOURCES with clang, not from the
# gcc-built archives, so that libFuzzer's coverage and the sanitizers see
# the library code.

FUZZ_NAMES := punycode_decode punycode_encode label_check to_ascii to_unicode \
	conf_parse classify log_escape fstrm dnstap dnsmsg scan_message lint_zone uts39
FUZZ_TARGETS ?= $(FUZZ_NAMES)
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 10
FUZZ_JOBS ?= 1
FUZZ_SMOKE_JOBS ?= 2
FUZZ_RSS_MB ?= 2048

FUZZ_BUILD := $(BUILD)/fuzz
FUZZ_CC ?= clang
REPLAY_CC ?= $(CC)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# Library and harness objects: coverage instrumentation without libFuzzer's main.
FUZZ_OBJ_CFLAGS := $(STD_CFLAGS) -g -O1 $(FUZZ_SAN) -fsanitize=fuzzer-no-link
# The library's warnings are the main build's business (-Werror there and in
# clang-build); here they must not stop a fuzz run.  Harnesses keep -Werror.
FUZZ_LIB_WFLAGS := -Wno-error
# The replay flavour: the C compiler of the main build (gcc by default), with
# ASan and UBSan when it has them.
# (Probed once, when first needed.)
REPLAY_SAN = $(eval REPLAY_SAN := $(shell printf 'int main(void){return 0;}' | \
	$(REPLAY_CC) $(FUZZ_SAN) -x c - -o /dev/null 2>/dev/null && echo '$(FUZZ_SAN)'))$(REPLAY_SAN)
REPLAY_CFLAGS = $(STD_CFLAGS) -g -O1 $(REPLAY_SAN)

FUZZ_LIB_SRC := $(CODEC_SRC) $(CONF_SRC) $(CORE_SRC) $(TAP_SRC)
FUZZ_LIB_OBJ := $(FUZZ_LIB_SRC:%.c=$(FUZZ_BUILD)/obj/%.o)
REPLAY_LIB_OBJ := $(FUZZ_LIB_SRC:%.c=$(FUZZ_BUILD)/replay-obj/%.o)
FUZZ_BINS := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz_%)
REPLAY_BINS := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/replay_%)

.PHONY: fuzz fuzz-build fuzz-replay fuzz-replay-build fuzz-smoke fuzz-findings
CHECK_EXTRA += fuzz-replay fuzz-smoke

$(FUZZ_BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(call layer_inc,$<) $(FUZZ_OBJ_CFLAGS) $(if $(filter tests/%,$<),,$(FUZZ_LIB_WFLAGS)) -c -o $@ $<

$(FUZZ_BUILD)/replay-obj/%.o: %.c
	@mkdir -p $(@D)
	$(REPLAY_CC) $(CPPFLAGS) $(call layer_inc,$<) $(REPLAY_CFLAGS) $(if $(filter tests/%,$<),,$(FUZZ_LIB_WFLAGS)) -c -o $@ $<

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/obj/tests/fuzz/fuzz_%.o $(FUZZ_LIB_OBJ)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(FUZZ_LDLIBS)

$(FUZZ_BUILD)/replay_%: $(FUZZ_BUILD)/replay-obj/tests/fuzz/fuzz_%.o \
    $(FUZZ_BUILD)/replay-obj/tests/fuzz/replay_main.o $(REPLAY_LIB_OBJ)
	$(REPLAY_CC) $(REPLAY_SAN) -o $@ $^ $(FUZZ_LDLIBS)

# lint_zone: the zone reader of the CLI (cli/lint.c) and ldns, which is the
# system's, not instrumented.
FUZZ_LDLIBS :=
$(FUZZ_BUILD)/fuzz_lint_zone: $(FUZZ_BUILD)/obj/cli/lint.o
$(FUZZ_BUILD)/replay_lint_zone: $(FUZZ_BUILD)/replay-obj/cli/lint.o
$(FUZZ_BUILD)/fuzz_lint_zone $(FUZZ_BUILD)/replay_lint_zone: FUZZ_LDLIBS = -lldns

# Objects are intermediate files to make; keep them between runs.
.SECONDARY: $(FUZZ_NAMES:%=$(FUZZ_BUILD)/obj/tests/fuzz/fuzz_%.o) \
	$(FUZZ_NAMES:%=$(FUZZ_BUILD)/replay-obj/tests/fuzz/fuzz_%.o) \
	$(FUZZ_BUILD)/replay-obj/tests/fuzz/replay_main.o $(FUZZ_LIB_OBJ) $(REPLAY_LIB_OBJ) \
	$(FUZZ_BUILD)/obj/cli/lint.o $(FUZZ_BUILD)/replay-obj/cli/lint.o

# libFuzzer comes with clang's runtime libraries (make deps-hardening).
fuzz-build: deps-hardening
	@$(MAKE) --no-print-directory $(FUZZ_BINS) >/dev/null

fuzz-replay-build:
	@$(MAKE) --no-print-directory $(REPLAY_BINS) >/dev/null

# Leak checking stays on (LeakSanitizer); a finding aborts with its report.
fuzz-replay: fuzz-replay-build
	@for n in $(FUZZ_NAMES); do \
	    mkdir -p tests/fuzz/regress/$$n; \
	    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	        $(FUZZ_BUILD)/replay_$$n tests/fuzz/corpus/$$n tests/fuzz/regress/$$n || exit 1; \
	done

fuzz-smoke: fuzz-build
	@FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_JOBS=$(FUZZ_SMOKE_JOBS) FUZZ_RSS_MB=$(FUZZ_RSS_MB) \
	    sh tests/fuzz/run.sh smoke $(FUZZ_SMOKE_SECONDS) $(FUZZ_NAMES)

fuzz: fuzz-build
	@FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_JOBS=$(FUZZ_JOBS) FUZZ_RSS_MB=$(FUZZ_RSS_MB) \
	    sh tests/fuzz/run.sh fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Open findings (tests/fuzz/findings/NAME/): reproducers of bugs reported but
# not fixed yet.  They stay out of fuzz-replay so that `make check` keeps
# passing meanwhile, and the harnesses check those invariants only with
# IDNG_FUZZ_FINDINGS set.  Each file is expected to fail until its bug is
# fixed; then move it to tests/fuzz/regress/NAME/.
fuzz-findings: fuzz-replay-build
	@for f in tests/fuzz/findings/*/*; do \
	    [ -f "$$f" ] || continue; n=$$(basename $$(dirname $$f)); \
	    if IDNG_FUZZ_FINDINGS=1 $(FUZZ_BUILD)/replay_$$n $$f >/dev/null 2>$(FUZZ_BUILD)/finding.log; \
	    then echo "fuzz-findings $$n: $$f passes now: move it to tests/fuzz/regress/$$n/"; \
	    else echo "fuzz-findings $$n: $$f still fails: $$(grep -m1 -E 'invariant failed|ERROR|runtime error' $(FUZZ_BUILD)/finding.log)"; fi; \
	done
