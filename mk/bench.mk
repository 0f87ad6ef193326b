# Benchmarks (bench/): the codec against ICU and libidn2, and the resolver
# with and without the module under dnsperf.  Results go to bench/results/.
#
#   make bench-codec      the codec only (BENCH_RUNS=15 runs of BENCH_RUN_MS=8 ms;
#                         BENCH_FILTER=psl-idn for one set)
#   make bench-resolver   the resolver only (BENCH_SECONDS=10 per run, BENCH_REPEAT=3)
#   make bench-resolver-instructions  the same daemon under callgrind: user-space
#                         instructions per query (BENCH_QUERIES=4000), which the
#                         machine's load does not move
#   make bench-cli        the CLI streaming names against a minimal ICU loop
#                         (BENCH_CLI_LINES=3000000 per run, BENCH_REPEAT=5)
#   make bench            those three, bench-lookalike, bench-tap and bench-lists,
#                         then bench/results/results.md (every report above, and
#                         the machine) and qps.png
#   make bench-lookalike  the UTS #39 judgment per name against the validation,
#                         and 100,000 protected names loaded (bench/lookalike_bench.c)
#   make bench-lookalike-instructions  the same measurements under callgrind:
#                         instructions per name, which the machine's load does
#                         not move (bench/lookalike_profile.sh)
#   make bench-lookalike-fp  each lookalike class's false positives on real IDNs
#                         (Public Suffix List, dictionaries) and its agreement with
#                         Chromium's IDN test cases (bench/lookalike_fp.sh; not in
#                         make bench)
#   make bench-lint       `idnguard lint-zone` against ldns reading the same zone
#                         (BENCH_LINT_RECORDS=1000000, BENCH_LINT_ROUNDS=5)
#   make bench-profile    the codec's instructions per name under callgrind, on
#                         the same sets (bench/results/codec-profile.md says how
#                         to read them)
#   make bench-engines    the Lua engines (Knot Resolver, PowerDNS Recursor,
#                         dnsdist) with and without idnguard, side by side
#                         (BENCH_SECONDS=10 per run, BENCH_REPEAT=3;
#                         BENCH_ENGINES="kresd pdns dnsdist"; not in make bench)
#
# Benchmarks only report: nothing here is part of `make check`.

BENCH_OUT := bench/results
BENCH_BIN := $(BUILD)/bench/codec_bench
# Its own flags: the binary defines malloc and friends (to count the peers'
# allocations), so it must not be built with -fvisibility=hidden.
BENCH_CFLAGS = -std=c11 -Wall -Wextra -Werror -O2 -g -D_GNU_SOURCE -Icodec \
	$(if $(wildcard tests/codec/worst_case.h),-DHAVE_WORST_CASE_H -Itests/codec) \
	$(shell pkg-config --cflags icu-uc libidn2 2>/dev/null)

.PHONY: bench bench-codec bench-resolver bench-cli bench-report bench-profile
BENCH_PSL := /usr/share/publicsuffix/public_suffix_list.dat
ICU_STREAM := $(BUILD)/bench/icu_stream

$(BENCH_BIN): bench/codec_bench.c bench/codec_sets.c bench/codec_sets.h $(LIB) codec/idnguard.h $(wildcard tests/codec/worst_case.h)
	@sh scripts/deps.sh --check bench build
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -rdynamic -o $@ bench/codec_bench.c bench/codec_sets.c $(LIB) \
	    $(shell pkg-config --libs icu-uc libidn2)

bench-codec: deps-bench
	@$(MAKE) --no-print-directory $(BENCH_BIN)
	@mkdir -p $(BENCH_OUT)
	$(BENCH_BIN) -o $(BENCH_OUT)/codec.csv -m $(BENCH_OUT)/codec.md \
	    -d $(BENCH_OUT)/disagreements.tsv
	@cat $(BENCH_OUT)/codec.md

LOOKALIKE_BIN := $(BUILD)/bench/lookalike_bench

$(LOOKALIKE_BIN): bench/lookalike_bench.c $(LIB) $(CORE_LIB) $(CONF_LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(LAYER_INC_bench) -std=c11 -Wall -Wextra -Werror -O2 -g -o $@ \
	    bench/lookalike_bench.c $(CONF_LIB) $(CORE_LIB) $(LIB)

.PHONY: bench-lookalike
bench-lookalike: deps-bench
	@$(MAKE) --no-print-directory $(LOOKALIKE_BIN)
	@mkdir -p $(BENCH_OUT)
	$(LOOKALIKE_BIN) $(BENCH_PSL) $(BENCH_OUT)/lookalike.md
	@cat $(BENCH_OUT)/lookalike.md

.PHONY: bench-lookalike-instructions
bench-lookalike-instructions: deps-bench
	@$(MAKE) --no-print-directory $(LOOKALIKE_BIN)
	sh bench/lookalike_profile.sh $(LOOKALIKE_BIN) $(BENCH_PSL) $(BUILD)/bench/lookalike-profile

# What each lookalike class flags on real names (the Public Suffix List's IDNs,
# dictionary words under .com and their language's ccTLD) and on Chromium's
# IDN test cases: bench/results/lookalike-fp.md (bench/lookalike_fp.sh).  Its
# packages are a deps group of their own (scripts/deps.sh lookalike), whose
# rule is here since DEPS_GROUPS does not list it.
.PHONY: bench-lookalike-fp deps-lookalike
deps-lookalike:
	@sh scripts/deps.sh lookalike

bench-lookalike-fp: deps-lookalike
	@$(MAKE) --no-print-directory $(CLI)
	@mkdir -p $(BENCH_OUT)
	sh bench/lookalike_fp.sh $(CLI) $(BENCH_OUT)

# The callgrind driver: one entry point over a set of names, nothing else
# collected (bench/codec_profile.c).
PROFILE_BIN := $(BUILD)/bench/codec_profile

$(PROFILE_BIN): bench/codec_profile.c $(LIB) codec/idnguard.h
	@mkdir -p $(@D)
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -g -Icodec -o $@ bench/codec_profile.c $(LIB)

bench-profile: deps-bench
	@$(MAKE) --no-print-directory $(BENCH_BIN) $(PROFILE_BIN)
	sh bench/codec_profile.sh $(BENCH_BIN) $(PROFILE_BIN) $(BUILD)/bench/profile

bench-resolver: deps-bench deps-module deps-integration
	@$(MAKE) --no-print-directory $(MODULE) zones
	@mkdir -p $(BENCH_OUT)
	IDNGUARD_ZONES=$(abspath $(ZONES_DIR)) sh bench/resolver_bench.sh $(UNBOUND) $(CURDIR)/$(MODULE) \
	    $(BENCH_OUT)

.PHONY: bench-resolver-instructions
bench-resolver-instructions: deps-bench deps-module deps-integration
	@$(MAKE) --no-print-directory $(MODULE) zones
	@mkdir -p $(BENCH_OUT)
	BENCH_MODE=instructions IDNGUARD_ZONES=$(abspath $(ZONES_DIR)) sh bench/resolver_bench.sh \
	    $(UNBOUND) $(CURDIR)/$(MODULE) $(BENCH_OUT)

$(ICU_STREAM): bench/icu_stream.c
	@sh scripts/deps.sh --check bench build
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ bench/icu_stream.c $(shell pkg-config --libs icu-uc)

bench-cli: deps-bench
	@$(MAKE) --no-print-directory $(CLI) $(ICU_STREAM) $(BENCH_BIN)
	@mkdir -p $(BENCH_OUT)
	sh bench/cli_bench.sh $(CLI) $(ICU_STREAM) $(BENCH_PSL) $(BENCH_OUT) $(BENCH_BIN)

bench-report: deps-bench
	@sh bench/report.sh $(BENCH_OUT) $(UNBOUND)

bench:
	@$(MAKE) --no-print-directory bench-codec
	@$(MAKE) --no-print-directory bench-resolver
	@$(MAKE) --no-print-directory bench-resolver-instructions
	@$(MAKE) --no-print-directory bench-cli
	@$(MAKE) --no-print-directory bench-lookalike
	@$(MAKE) --no-print-directory bench-tap
	@$(MAKE) --no-print-directory bench-lists
	@$(MAKE) --no-print-directory bench-report

# The python module on Debian's stock unbound against the stock daemon alone
# and against the dynlib module, one interleaved run (bench/python_bench.sh):
# bench/results/python.md.
.PHONY: bench-python
bench-python: deps-bench deps-stock deps-module deps-integration
	@$(MAKE) --no-print-directory $(MODULE) $(LIBIDNGUARD) $(BUILD)/idnguard.py $(STOCK_UNBOUND) zones
	@mkdir -p $(BENCH_OUT)
	IDNGUARD_ZONES=$(abspath $(ZONES_DIR)) sh bench/python_bench.sh $(CURDIR)/$(STOCK_UNBOUND) \
	    $(CURDIR)/$(BUILD)/idnguard.py $(UNBOUND) $(CURDIR)/$(MODULE) $(BENCH_OUT)

# `idnguard tap`: the CLI decoding a capture of the stock
# daemon's dnstap against Go's dnstap and dnstap-ldns on one core, and the
# stock daemon's cache-hit QPS streaming dnstap to the tap, to fstrm_capture
# and to nothing, one interleaved run (bench/tap_bench.sh):
# bench/results/tap.md and tap.csv.  BENCH_REPEAT=5 rounds by default,
# BENCH_TAP_QUERIES=150000 queries in the capture.  Not part of `make bench`
# (nor is bench-python): that one is the codec and the module.
.PHONY: bench-tap
bench-tap: deps-bench deps-stock deps-integration deps-tapbench
	@$(MAKE) --no-print-directory $(CLI) $(STOCK_UNBOUND) zones
	@mkdir -p $(BENCH_OUT)
	IDNGUARD_ZONES=$(abspath $(ZONES_DIR)) sh bench/tap_bench.sh $(CURDIR)/$(STOCK_UNBOUND) \
	    $(CURDIR)/$(CLI) $(BENCH_OUT)

# `idnguard lint-zone` against ldns's own reading of the same
# generated master file (bench/lint_bench.sh): ldns-read-zone, and
# bench/ldns_stream.c, which reads record by record as lint-zone does and
# judges nothing (the baseline of the budget: judging adds at most 50%).
# BENCH_LINT_RECORDS=1000000 records, BENCH_LINT_ROUNDS=5 interleaved rounds:
# bench/results/lint.md and lint-runs.csv.  Not part of `make bench`.
LDNS_STREAM := $(BUILD)/bench/ldns_stream
BENCH_LINT_RECORDS ?= 1000000
BENCH_LINT_ROUNDS ?= 5
$(LDNS_STREAM): bench/ldns_stream.c
	@sh scripts/deps.sh --check bench build
	@mkdir -p $(@D)
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -g -o $@ $< -lldns

.PHONY: bench-lint
bench-lint: deps-bench deps-build
	@$(MAKE) --no-print-directory $(CLI) $(LDNS_STREAM)
	@mkdir -p $(BENCH_OUT)
	BENCH_TMP=$(BUILD)/bench sh bench/lint_bench.sh $(CLI) $(LDNS_STREAM) $(BENCH_OUT) \
	    $(BENCH_LINT_RECORDS) $(BENCH_LINT_ROUNDS)

# The Lua engines from the engines' root with and without idnguard
# (LAB_ENGINE_GUARD=no in scripts/lab.sh), each pair of runs side by side,
# cache hits and misses under dnsperf (bench/engines_bench.sh):
# bench/results/engines.md, engines.csv and engines-runs.csv.  Where the
# guarded cache hits miss 0.95 of the unguarded QPS and perf is installed
# (linux-perf), a profile of the guarded engine follows the table.  Not
# part of `make bench`.
.PHONY: bench-engines
bench-engines: deps-bench deps-integration engines-root
	@$(MAKE) --no-print-directory $(LIBIDNGUARD) $(UB_STAMP) zones
	@mkdir -p $(BENCH_OUT)
	IDNGUARD_ZONES=$(abspath $(ZONES_DIR)) IDNGUARD_LIB=$(CURDIR)/$(LIBIDNGUARD) \
	    IDNGUARD_LUA=$(CURDIR)/lua IDNGUARD_ENGINES_ROOT=$(CURDIR)/$(ENGINES_ROOT) \
	    IDNGUARD_UNBOUND=$(UNBOUND) sh bench/engines_bench.sh $(BENCH_OUT)

# Lists at blocklist scale: a million names in a deny-file, an allow-file and
# a protect-file, their load time against `sort -u` of the same file, memory
# per name, and what they add to a judgment (bench/lists_bench.c,
# bench/results/lists.md); then the resolver's cache-hit QPS with the three
# files over its QPS without them, same run (bench/lists_qps.sh,
# bench/results/lists-qps.md; BENCH_SECONDS=10, BENCH_REPEAT=5).  Not in
# make bench.
LISTS_BIN := $(BUILD)/bench/lists_bench
BENCH_LISTS_NAMES ?= 1000000

$(LISTS_BIN): bench/lists_bench.c $(LIB) $(CORE_LIB) $(CONF_LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(LAYER_INC_bench) -std=c11 -Wall -Wextra -Werror -O2 -g -o $@ \
	    bench/lists_bench.c $(CONF_LIB) $(CORE_LIB) $(LIB)

.PHONY: bench-lists
bench-lists: deps-bench deps-module deps-integration
	@$(MAKE) --no-print-directory $(LISTS_BIN) $(MODULE) zones
	@mkdir -p $(BENCH_OUT)
	$(LISTS_BIN) $(BENCH_LISTS_NAMES) $(BENCH_OUT)/lists.md
	@cat $(BENCH_OUT)/lists.md
	IDNGUARD_ZONES=$(abspath $(ZONES_DIR)) BENCH_LISTS_NAMES=$(BENCH_LISTS_NAMES) \
	    sh bench/lists_qps.sh $(UNBOUND) $(CURDIR)/$(MODULE) $(BENCH_OUT)/lists-qps.md
