# idnguard -- one GNU Makefile.
#
#   make            the codec, conf and core libraries and the CLI: no root, no network
#   make module     Unbound from Debian's source package (fetched and built when
#                   missing) and the module build/idnguard.so
#   make deps       installs (as root, with apt-get) every package `make check`
#                   needs; deps-GROUP one group of scripts/deps.sh.  No other rule
#                   installs anything: the entry points below that need packages
#                   list a deps target, and rules that build only check for them.
#   make test       the fast inner loop, offline from a fresh clone (test data in
#                   tests/codec/data, mk/testdata.mk): the unit suites and check-diff
#   make check      deps, then everything: all suites, the integration tests against
#                   real daemons, sanitizers, fuzzing smoke, tables, dist, install
#   make check-integration  the integration suites only
#   make run        deps, then the module in Unbound in front of NSD (scripts/run.sh)
#   make deb        Debian's unbound package rebuilt with dynlib, and an idnguard
#                   package built against it, in build/deb/ (mk/deb.mk)
#   make install    everything, under PREFIX (/usr/local; DESTDIR= stages):
#                   both modules, the CLI, the tap's systemd unit and
#                   tmpfiles.d file, the settings and logrotate's file under
#                   SYSCONFDIR (/etc) when missing, man pages and docs
#   make install-python  the same for Debian's stock unbound: the python
#                   module instead of both, and unbound.service's drop-ins
#   make uninstall  takes away what both installed, but configuration files
#                   the operator changed
#   make clean      every product under build/, the Unbound build included; not the
#                   source packages fetched into build/src (`make distclean` removes
#                   those too, and the next build fetches them again)

CC ?= cc
CFLAGS ?= -O2 -g
STD_CFLAGS := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -fvisibility=hidden -fPIC
CPPFLAGS += -D_POSIX_C_SOURCE=200809L -MMD -MP
# The layers (docs/development.md, Layout): a directory's sources see its
# own headers and those of the layers it uses, no other, so an include of a
# higher layer's header fails to compile (`make check-layers` shows it).
# codec/ <- core/ <- conf/ <- module/, lib/, cli/; tap/ uses the codec
# alone, and only cli/ uses it.  Every rule that compiles a source of ours
# takes its flags from $(call layer_inc,SOURCE), by the source's directory
# (under tests/ and bench/, by its subdirectory).
LAYER_INC_codec := -Icodec
LAYER_INC_core := $(LAYER_INC_codec) -Icore
LAYER_INC_conf := $(LAYER_INC_core) -Iconf
LAYER_INC_tap := $(LAYER_INC_codec) -Itap
LAYER_INC_module := $(LAYER_INC_conf)
LAYER_INC_lib := $(LAYER_INC_conf) -Ilib
LAYER_INC_cli := $(LAYER_INC_conf) -Itap -Icli
LAYER_INC_bench := $(LAYER_INC_conf)
# The suites above a layer use its headers and those below; the CLI's,
# libidnguard's and the integration suites talk to the binaries through
# their public headers (the codec's for tests/common.c).
LAYER_INC_tests/codec := $(LAYER_INC_codec)
LAYER_INC_tests/core := $(LAYER_INC_conf)
LAYER_INC_tests/conf := $(LAYER_INC_conf)
LAYER_INC_tests/diff := $(LAYER_INC_conf)
LAYER_INC_tests/tap := $(LAYER_INC_tap)
LAYER_INC_tests/cli := $(LAYER_INC_core)
LAYER_INC_tests/lib := $(LAYER_INC_codec) -Ilib
LAYER_INC_tests/integration := $(LAYER_INC_codec)
LAYER_INC_tests/fuzz := $(LAYER_INC_cli) -Itests/fuzz -Itests
layer_inc = $(or $(LAYER_INC_$(patsubst %/,%,$(dir $(1)))),$(LAYER_INC_$(firstword $(subst /, ,$(1)))))
PYTHON ?= python3

BUILD := build
# The tables' inputs are pinned by version and SHA-256 in
# tools/tables.manifest; at Unicode 16.0 they come from Debian 13's icu
# source and unicode-idna packages under $(SRC) (below).  UCD names Debian's
# unicode-data directory, for a manifest that pins UCD files (15.0 did).
UCD ?= /usr/share/unicode
SRC := $(BUILD)/src
# The tables' Unicode 16.0 inputs from Debian packages: Debian 13's ICU 76
# source (the UCD as ICU carries it, confusables.txt, and IdnaTestV2.txt
# and NormalizationTest.txt, all 16.0) and unicode-idna (IdnaMappingTable.txt
# 16.0, unpacked, not installed); Debian 12's libidn2 source (IANA's derived
# properties).  Only `make tables`, `check-tables` and `make test-data` fetch
# them; the tests read the copies in the repository (TEST_DATA).
SRC_STAMP := $(SRC)/.sources-stamp-16
# Looked up with $(shell), not $(wildcard): make caches directory listings,
# and these trees appear during the very run that needs them.
find_src = $(firstword $(shell ls -d $(1) 2>/dev/null))
ICU_DIR = $(call find_src,$(SRC)/icu-*/source)
IDNA_DIR = $(SRC)/unicode-idna/usr/share/unicode/idna
# The test data from those packages and the web platform tests, kept in the
# repository and pinned by SHA-256 in tests/codec/data/data.manifest
# (mk/testdata.mk: `make check-test-data`, and `make test-data`, which
# copies them again from the packages): ICU 76's IdnaTestV2.txt and
# NormalizationTest.txt, libidn2's idna-tables-properties.csv, and the
# WHATWG URL Standard's urltestdata.json (as Debian's librust-url-dev ships
# it with the url crate), whose host cases tests/codec/test_whatwg.c runs.
TEST_DATA := tests/codec/data
IDNA_TEST = $(CURDIR)/$(TEST_DATA)/IdnaTestV2.txt
IDNA_CSV = $(CURDIR)/$(TEST_DATA)/idna-tables-properties.csv
NORM_TEST = $(CURDIR)/$(TEST_DATA)/NormalizationTest.txt
URLTESTDATA ?= $(CURDIR)/$(TEST_DATA)/urltestdata.json

CODEC_SRC := $(wildcard codec/*.c)
CODEC_OBJ := $(CODEC_SRC:%.c=$(BUILD)/%.o)
LIB := $(BUILD)/libidngcodec.a
# conf/: the configuration parser (libc and the codec).
CONF_SRC := $(wildcard conf/*.c)
CONF_LIB := $(BUILD)/libidngconf.a
# core/: the module's logic without Unbound headers (policy, response scan,
# log lines, counters), so unit tests, the CLI and fuzzers can link it;
# module/unbound.c is the Unbound glue, built only into the .so.
CORE_SRC := $(wildcard core/*.c)
CORE_LIB := $(BUILD)/libidngcore.a
# tap/: the pure decoders under `idnguard tap` (Frame Streams, the Dnstap
# protobuf message, DNS messages): libc and the codec's header only.
TAP_SRC := $(wildcard tap/*.c)
TAP_LIB := $(BUILD)/libidngtap.a
CLI := $(BUILD)/idnguard
MODULE := $(BUILD)/idnguard.so
# libidnguard (lib/): codec, core and conf behind the flat C interface of
# lib/libidnguard.h, for the hosts that are not the dynlib module: the python
# module for Debian's stock unbound package (python/idnguard.py, through
# ctypes) and the Lua engines (lua/idnguard.lua, through LuaJIT's FFI).
# Only the header's functions are exported (lib/libidnguard.map);
# build/libidnguard.so names it for a linker.  (The codec alone is
# build/libidngcodec.a, installed as lib/libidngcodec.a with
# include/idnguard.h.)
LIBIDNGUARD := $(BUILD)/libidnguard.so.0
PYSCRIPT := python/idnguard.py

# Unbound, the module's host.  Its module API is not installed anywhere, and
# struct layouts change between versions and configure options, so the module
# is compiled against a configured source tree and must be loaded by a
# daemon built from that same tree.  Default: Debian's source package of the
# unbound version apt offers, configured --with-dynlibmodule and installed
# into build/unbound/.  `make UNBOUND_SRC=/path/to/configured/unbound` builds
# against your own tree instead (then load the module into that daemon).
UNBOUND_SRC ?=
# A tree configured out of its sources (Debian's rules configure the daemon
# in b/unbound): UNBOUND_SRC names the build directory (config.h), and
# UNBOUND_INC=-I/path/to/sources adds the headers (`make deb` does this).
UNBOUND_INC ?=
UB_PREFIX := $(CURDIR)/$(BUILD)/unbound
ifeq ($(UNBOUND_SRC),)
UB_TREE = $(call find_src,$(SRC)/unbound-*/)
UB_STAMP := $(UB_PREFIX)/.built
else
UB_TREE = $(UNBOUND_SRC)/
UB_STAMP :=
endif
# --enable-dnstap: the resolver logs its client messages over dnstap, for
# `idnguard tap` and its tests (tests/integration/test_tap.c, tests/tap).
UB_CONFIGURE := --with-dynlibmodule --with-libevent --enable-dnstap --disable-flto --disable-rpath \
	--prefix=$(UB_PREFIX) --with-username= --with-chroot-dir= \
	--with-pidfile=$(UB_PREFIX)/unbound.pid --with-rootkey-file=$(UB_PREFIX)/root.key
# The options Unbound was configured with, rewritten only when they change
# (GNU make looks at its time again after the recipe): a change configures
# and builds both Unbound trees again.
UB_OPTIONS := $(BUILD)/unbound.options
# The daemon that loads the module in `make run` and the tests: the one
# built here, or with UNBOUND_SRC= the one built in that tree (the module
# refuses to load into any other); UNBOUND= names another explicitly.
ifeq ($(UNBOUND_SRC),)
UNBOUND ?= $(UB_PREFIX)/sbin/unbound
else
UNBOUND ?= $(UNBOUND_SRC)/unbound
endif

CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null)
TEST_SRC := $(wildcard tests/codec/test_*.c tests/conf/test_*.c tests/core/test_*.c tests/cli/test_*.c \
	tests/tap/test_*.c tests/lib/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
# Integration tests: the real daemon with the module, NSD, an ldns client.
ITEST_SRC := $(wildcard tests/integration/test_*.c)
ITEST_BIN := $(ITEST_SRC:tests/%.c=$(BUILD)/tests/%)
ITEST_COMMON := $(wildcard tests/integration/harness.c tests/integration/harness_query.c \
	tests/integration/dnsq.c tests/integration/tap_proc.c)
TEST_COMMON := tests/common.c
# The zones NSD serves: tests/integration/zones copied, and sig., deny.sig.
# and bad.sig. signed with keys made by tests/integration/prepare-zones.sh,
# with the trust anchor sig.anchor.  `make zones` always runs the script;
# it does nothing while the output is up to date and the signatures are
# valid for a week more.
ZONES_DIR := $(BUILD)/zones

.PHONY: lib stock
.PHONY: all module deps run demo check check-all check-integration check-install test tables \
	check-tables clang-build clean distclean unbound install uninstall zones
all: $(LIB) $(CONF_LIB) $(CORE_LIB) $(TAP_LIB) $(CLI)

# The module, against Unbound's tree; then the CLI again, which names that
# Unbound once its tree is configured (see UB_VERSION).  The rules that need
# both name $(MODULE) before `all` for the same reason.
module: $(MODULE)
	@$(MAKE) --no-print-directory $(CLI)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(call layer_inc,$<) $(STD_CFLAGS) $(CFLAGS) -c -o $@ $<

$(LIB): $(CODEC_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(CONF_LIB): $(CONF_SRC:%.c=$(BUILD)/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

$(CORE_LIB): $(CORE_SRC:%.c=$(BUILD)/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

$(TAP_LIB): $(TAP_SRC:%.c=$(BUILD)/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

# The version: one place, codec/idnguard.h.  The CLI also says which Unbound
# the module is built against, when that tree is configured by then; its
# object is built again once the tree's config.h appears or changes.
VERSION := $(shell sed -n 's/^\#define IDNG_VERSION "\(.*\)"/\1/p' codec/idnguard.h)
UB_VERSION = $(shell sed -n 's/^\#define PACKAGE_VERSION "\(.*\)"/\1/p' $(UB_TREE)config.h 2>/dev/null)
$(BUILD)/cli/idnguard.o: CPPFLAGS += -DIDNG_UNBOUND_VERSION='"$(UB_VERSION)"'
$(BUILD)/cli/idnguard.o: $(wildcard $(UB_TREE)config.h)

# lint-zone (cli/lint.c) reads master files with ldns (libldns-dev, in the
# build and check groups of scripts/deps.sh): a missing header says so.
$(BUILD)/cli/lint.o: cli/lint.c
	@[ -f /usr/include/ldns/ldns.h ] || sh scripts/deps.sh --check build
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(call layer_inc,$<) $(STD_CFLAGS) $(CFLAGS) -c -o $@ $<
# Every cli/*.c is a part of the CLI: a new file needs no edit here.
CLI_SRC := $(wildcard cli/*.c)
$(CLI): $(CLI_SRC:%.c=$(BUILD)/%.o) $(CONF_LIB) $(CORE_LIB) $(TAP_LIB) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lldns -lpthread

TEST_LIBS = $(CONF_LIB) $(CORE_LIB) $(TAP_LIB) $(LIB)

# Building Unbound only checks that its packages are there (make deps-module
# installs them).
$(SRC)/.unbound-stamp:
	@sh scripts/deps.sh --check module
	sh scripts/apt-source.sh $(SRC) unbound
	@touch $@

$(UB_OPTIONS): FORCE
	@mkdir -p $(@D)
	@echo '$(UB_CONFIGURE)' | cmp -s - $@ 2>/dev/null || echo '$(UB_CONFIGURE)' >$@
FORCE:
.PHONY: FORCE

# A tree built before with other options is cleaned first.
$(UB_PREFIX)/.built: $(SRC)/.unbound-stamp $(UB_OPTIONS)
	@sh scripts/deps.sh --check module
	[ ! -f $(UB_TREE)Makefile ] || $(MAKE) -s -C $(UB_TREE) clean >/dev/null 2>&1 || true
	cd $(UB_TREE) && ./configure $(UB_CONFIGURE) >configure.out 2>&1 \
	    || { tail -20 configure.out; exit 1; }
	$(MAKE) -C $(UB_TREE) -j2 >$(BUILD)/unbound-build.log 2>&1 \
	    || { tail -20 $(BUILD)/unbound-build.log; exit 1; }
	$(MAKE) -C $(UB_TREE) install >>$(BUILD)/unbound-build.log 2>&1
	@touch $@

# Unbound's headers trip some of our warnings; they are not ours to fix.
MODULE_CFLAGS = -std=c11 -Wall -Wextra -Werror -Wno-unused-parameter -Wno-sign-compare \
	-fvisibility=hidden -fPIC -D_GNU_SOURCE -I$(UB_TREE) $(UNBOUND_INC) $(LAYER_INC_module)
# The module's files (module/*.c, module/idng_mod.h) in one compile line.
MODULE_SRC := $(wildcard module/*.c)
$(MODULE): $(MODULE_SRC) $(wildcard module/*.h) $(CONF_LIB) $(CORE_LIB) $(LIB) $(UB_STAMP)
	$(CC) $(MODULE_CFLAGS) $(CFLAGS) $(LDFLAGS) -shared -o $@ $(MODULE_SRC) \
	    $(CONF_LIB) $(CORE_LIB) $(LIB) -lpthread

unbound: $(UB_STAMP)

# libidnguard: no Unbound headers, so it needs no Unbound tree.  -z nodelete:
# it is never unloaded, not even by a host's last dlclose (LuaJIT's, when a
# Lua state goes), since the threads of its watch and its log file run in
# its code until the process exits.
$(LIBIDNGUARD): lib/host.c lib/libidnguard.h lib/libidnguard.map $(CONF_LIB) $(CORE_LIB) $(LIB)
	$(CC) $(CPPFLAGS) $(LAYER_INC_lib) $(STD_CFLAGS) $(CFLAGS) $(LDFLAGS) -shared \
	    -Wl,-soname,libidnguard.so.0 -Wl,--version-script=lib/libidnguard.map -Wl,-z,nodelete \
	    -o $@ lib/host.c $(CONF_LIB) $(CORE_LIB) $(LIB) -lpthread
$(BUILD)/libidnguard.so: $(LIBIDNGUARD)
	ln -sf libidnguard.so.0 $@
# The script beside the library it loads, as `make install` puts them.
$(BUILD)/idnguard.py: $(PYSCRIPT)
	@mkdir -p $(@D)
	cp $< $@
lib: $(LIBIDNGUARD) $(BUILD)/libidnguard.so $(BUILD)/idnguard.py

# The library exports the functions lib/libidnguard.h declares, no other
# (part of `make test` and `make check`).
.PHONY: check-lib
check-lib: $(LIBIDNGUARD)
	@CC='$(CC)' sh scripts/lib-exports.sh $(LIBIDNGUARD) lib/libidnguard.h

# Debian's stock daemon and python3-unbound, unpacked (never installed: no
# maintainer script, no service) into build/stock for the python flavour
# of the integration tests and the benchmark.
STOCK_DIR := $(BUILD)/stock
STOCK_UNBOUND := $(STOCK_DIR)/usr/sbin/unbound
$(STOCK_UNBOUND):
	@sh scripts/deps.sh --check stock
	sh scripts/stock-unbound.sh $(STOCK_DIR)
stock: $(STOCK_UNBOUND)

# Debian's dnsdist, unpacked the same way into build/dnsdist
# (scripts/dnsdist.sh): the second dnstap producer of the tap's integration
# test (tests/integration/test_tap_dnsdist.c, mk/tap.mk).
DNSDIST_DIR := $(BUILD)/dnsdist
DNSDIST := $(DNSDIST_DIR)/usr/bin/dnsdist
$(DNSDIST):
	@sh scripts/deps.sh --check tap
	sh scripts/dnsdist.sh $(DNSDIST_DIR)
.PHONY: dnsdist
dnsdist: $(DNSDIST)

# A second Unbound of the same version, configured differently
# (--enable-subnet), from the same Debian source package: the test that the
# module refuses to load into a daemon it was not built for runs it.  Only
# the daemon binary is built, in its own tree.
UB_ALT_TREE := $(BUILD)/src-alt/unbound
UB_ALT := $(UB_ALT_TREE)/unbound
$(UB_ALT): $(SRC)/.unbound-stamp $(UB_OPTIONS)
	@sh scripts/deps.sh --check module
	rm -rf $(BUILD)/src-alt && mkdir -p $(BUILD)/src-alt
	cd $(BUILD)/src-alt && dpkg-source --no-check -x $(firstword $(wildcard $(CURDIR)/$(SRC)/unbound_*.dsc)) unbound >/dev/null
	cd $(UB_ALT_TREE) && ./configure $(UB_CONFIGURE) --enable-subnet >configure.out 2>&1 \
	    || { tail -20 configure.out; exit 1; }
	$(MAKE) -C $(UB_ALT_TREE) -j2 unbound >$(BUILD)/unbound-alt-build.log 2>&1 \
	    || { tail -20 $(BUILD)/unbound-alt-build.log; exit 1; }

zones:
	@sh tests/integration/prepare-zones.sh $(ZONES_DIR)

# The zones are order-only: an integration binary needs them to run, not to
# be rebuilt when they are.
$(BUILD)/tests/integration/%: tests/integration/%.c $(ITEST_COMMON) $(TEST_COMMON) $(TEST_LIBS) | zones
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(call layer_inc,$<) -Itests -Itests/integration $(STD_CFLAGS) $(CFLAGS) $(CHECK_CFLAGS) \
	    -o $@ $< $(ITEST_COMMON) $(TEST_COMMON) $(TEST_LIBS) -lldns $(CHECK_LIBS)

# libidnguard's suites call the shared library as its hosts do (by its
# soname, found through the rpath); the codec beside it is for the helpers
# of tests/common.c only (the library exports none of its own).
$(BUILD)/tests/lib/%: tests/lib/%.c $(TEST_COMMON) $(LIBIDNGUARD) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(call layer_inc,$<) -Itests $(STD_CFLAGS) $(CFLAGS) $(CHECK_CFLAGS) -o $@ $< $(TEST_COMMON) \
	    $(LIBIDNGUARD) $(LIB) -Wl,-rpath,$(CURDIR)/$(BUILD) $(CHECK_LIBS) -lpthread

# TEST_EXTRA_LIBS: what one suite links besides (the tap's ldns oracle, the
# UTS #39 suite's ICU spoof checker).
$(BUILD)/tests/tap/test_dnsmsg_ldns: TEST_EXTRA_LIBS = -lldns
# TEST_EXTRA_SRC: helpers a family of suites shares (the CLI suites' runner
# of the binary, the tap suites' dnstap builders and runner).
CLI_RUN_BIN = $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/cli/test_cli_*.c))
$(CLI_RUN_BIN): TEST_EXTRA_SRC = tests/cli/cli_run.c
$(CLI_RUN_BIN): tests/cli/cli_run.c tests/cli/cli_run.h
TAP_RUN_BIN = $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/cli/test_tap_*.c))
$(TAP_RUN_BIN): TEST_EXTRA_SRC = tests/cli/tap_run.c
$(TAP_RUN_BIN): tests/cli/tap_run.c tests/cli/tap_run.h
$(BUILD)/tests/%: tests/%.c $(TEST_COMMON) $(TEST_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(call layer_inc,$<) -Itests $(STD_CFLAGS) $(CFLAGS) $(CHECK_CFLAGS) -o $@ $< \
	    $(TEST_EXTRA_SRC) $(TEST_COMMON) $(TEST_LIBS) $(TEST_EXTRA_LIBS) $(CHECK_LIBS)

$(SRC_STAMP):
	rm -rf $(SRC)/icu-* $(SRC)/unicode-idna
	sh scripts/apt-source.sh --suite trixie $(SRC) icu
	sh scripts/apt-source.sh --suite trixie --binary $(SRC)/debs unicode-idna
	dpkg-deb -x $(SRC)/debs/unicode-idna_*_all.deb $(SRC)/unicode-idna
	sh scripts/apt-source.sh $(SRC) libidn2
	@touch $@

# The only rules that install packages (scripts/deps.sh: apt-get as root;
# as another user it prints the apt-get line to run, and fails).  `make
# deps` installs what `make check` needs; deps-GROUP one group.
DEPS_GROUPS := build check module integration hardening bench deb stock tap tapbench
.PHONY: $(DEPS_GROUPS:%=deps-%)
deps:
	@sh scripts/deps.sh check module integration hardening deb stock tap
$(DEPS_GROUPS:%=deps-%):
	@sh scripts/deps.sh $(@:deps-%=%)

# The main job: Unbound with the module on 127.0.0.1:$(PORT) in front of NSD
# serving the demo zones (NSD on NSD_PORT, default the first free port from
# PORT + 1000), query log in the terminal.  The packages first, then the build.
PORT ?= 5300
NSD_PORT ?=
run: deps-build deps-module deps-integration
	@$(MAKE) --no-print-directory module all zones
	@IDNGUARD_ZONES=$(abspath $(ZONES_DIR)) sh scripts/run.sh $(UNBOUND) $(CURDIR)/$(MODULE) $(PORT) \
	    $(NSD_PORT)

# What `make run` showed before the module existed: the codec on its own.
demo: $(CLI)
	@sh scripts/demo.sh $(CLI)

# The generator checks every input against tools/tables.manifest first.
GEN_TABLES = $(PYTHON) tools/gen_tables.py --ucd $(UCD) --idna $(IDNA_DIR) --icu $(ICU_DIR)
# The Public Suffix List from Debian's publicsuffix package, pinned in
# tools/psl.manifest, as core/psl.c's tree.
PSL_DIR ?= /usr/share/publicsuffix
GEN_PSL = $(PYTHON) tools/gen_psl.py --psl $(PSL_DIR)
TABLES := codec/unicode_tables.c codec/unicode_tables.h core/psl_table.c core/idng_psl_table.h

# Regenerate the checked-in tables and their headers.
tables: $(SRC_STAMP)
	@sh scripts/deps.sh tables
	$(GEN_TABLES) -o codec/unicode_tables.c --header codec/unicode_tables.h
	$(GEN_PSL) -o core/psl_table.c --header core/idng_psl_table.h

# Fails when the checked-in tables or header differ from a fresh run of the
# generator (or when an input is not the one the manifest pins).
check-tables: $(SRC_STAMP)
	@sh scripts/deps.sh tables
	@mkdir -p $(BUILD)/tables
	@$(GEN_TABLES) -o $(BUILD)/tables/unicode_tables.c --header $(BUILD)/tables/unicode_tables.h
	@$(GEN_PSL) -o $(BUILD)/tables/psl_table.c --header $(BUILD)/tables/idng_psl_table.h
	@for f in $(TABLES); do \
	    cmp -s $(BUILD)/tables/$${f##*/} $$f && continue; \
	    echo "tables: $$f differs from a fresh run; run 'make tables'" >&2; \
	    diff $(BUILD)/tables/$${f##*/} $$f | head -20 >&2; exit 1; \
	done
	@echo "tables: $(TABLES) match a fresh run of tools/gen_tables.py and tools/gen_psl.py"

# The codec and CLI must also build warning-free with clang.
clang-build:
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/clang CC=clang $(BUILD)/clang/libidngcodec.a \
	    $(BUILD)/clang/libidngconf.a $(BUILD)/clang/libidngcore.a $(BUILD)/clang/libidngtap.a \
	    $(BUILD)/clang/idnguard >/dev/null
	@echo "clang: codec and CLI build with -Werror"

# Everything, on a fresh machine too: the packages first, then check-all.
check: deps
	@$(MAKE) --no-print-directory check-all

TEST_ENV = IDNA_TEST_FILE=$(IDNA_TEST) IDNA_PROPERTIES_CSV=$(IDNA_CSV) \
	WHATWG_URLTESTDATA=$(URLTESTDATA) WHATWG_TOASCII=$(CURDIR)/$(TEST_DATA)/toascii.json \
	NORMALIZATION_TEST=$(NORM_TEST) IDNGUARD_BIN=$(CLI) \
	IDNGUARD_UNBOUND=$(UNBOUND) IDNGUARD_MODULE=$(CURDIR)/$(MODULE) \
	IDNGUARD_UNBOUND_ALT=$(CURDIR)/$(UB_ALT) \
	IDNGUARD_ZONES=$(abspath $(ZONES_DIR)) IDNGUARD_TEMPLATES=$(CURDIR)/tests/integration \
	IDNGUARD_LAB=$(CURDIR)/scripts/lab.sh \
	IDNGUARD_DNSTAP_PROTO=$(wildcard $(UB_TREE)dnstap/dnstap.proto) \
	IDNGUARD_STOCK_UNBOUND=$(CURDIR)/$(STOCK_UNBOUND) IDNGUARD_DNSDIST=$(CURDIR)/$(DNSDIST) \
	IDNGUARD_PROMTOOL=$(call find_src,$(CURDIR)/$(PROMTOOL))

# `make install` and `make install-python` into a staging directory put
# every file where it belongs, and `make uninstall` takes every one away
# again but a settings file the operator changed (scripts/install-test.sh).
# The stock daemon's unbound-checkconf runs the staged python module with
# the staged example, drop-ins and settings.
check-install: $(MODULE) $(LIBIDNGUARD) all $(STOCK_UNBOUND)
	@MAKE='$(MAKE)' sh scripts/install-test.sh $(BUILD)/stage $(STOCK_DIR)

# Fragments in mk/ (fuzzing, sanitizers, soak, benchmarks) add the steps
# that `make check` must also run to CHECK_EXTRA; they run before the suites
# so that the summary line stays last.
CHECK_EXTRA ?=
include $(sort $(wildcard mk/*.mk))

# The body of `make check` (without the packages): every step in
# CHECK_EXTRA, one after another, each saying how long it took (CI has a
# time limit: the line shows where the time goes), then every suite, the
# summary line last.
CHECK_STEPS = check-tables clang-build check-lib check-install $(CHECK_EXTRA)
check-all: $(MODULE) all zones $(UB_ALT) $(STOCK_UNBOUND) $(DNSDIST) $(TEST_BIN) $(ITEST_BIN)
	@for t in $(CHECK_STEPS); do s=$$(date +%s); \
	    $(MAKE) --no-print-directory $$t || exit 1; \
	    echo "check: $$t took $$(( $$(date +%s) - s )) s"; done
	@$(TEST_ENV) sh tests/run.sh $(TEST_BIN) $(ITEST_BIN)

# The inner loop, offline from a fresh clone (no build/, no network; the
# packages of `make deps` installed; `make check-offline` shows it): the
# unit suites (codec, conf, core, CLI, tap, lib, Lua), the test data's
# check, the differential test, check-lib and the layers' check
# (mk/layers.mk); no Unbound, no daemons, no
# sanitizers, no fuzzing.  The ICU oracle suites (mk/uts39-icu76.mk) link
# ICU 76 from the Debian 13 root, whose making takes the network: they run
# when that root is there, and are named as left out when not.  Without
# Check's fork per test (CK_FORK=no, as in asan-check), which takes a third
# off: a failing check still fails its suite, and a crash ends the binary
# without its summary, which fails too.
TEST_ICU_READY := $(wildcard $(TRIXIE_ROOT)/usr/include/unicode/uvernum.h)
TEST_RUN_BIN := $(if $(TEST_ICU_READY),$(TEST_BIN),$(filter-out $(ICU76_TESTS),$(TEST_BIN)))
test: $(CLI) $(TEST_RUN_BIN) check-test-data check-diff check-lib check-layers
	@$(if $(TEST_ICU_READY),,echo "test: left out $(notdir $(ICU76_TESTS)): no ICU 76 from the Debian 13 root $(TRIXIE_ROOT) (make check makes it)")
	@$(TEST_ENV) CK_FORK=no sh tests/run.sh $(TEST_RUN_BIN)

# Only the integration tests (quicker while working on the module).
check-integration: $(MODULE) all zones $(UB_ALT) $(STOCK_UNBOUND) $(DNSDIST) $(ITEST_BIN)
	@$(TEST_ENV) sh tests/run.sh $(ITEST_BIN)

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
DOCDIR = $(PREFIX)/share/doc/idnguard
# Configuration files: the settings, logrotate's file, unbound.service's
# drop-ins.
SYSCONFDIR ?= /etc
DROPINDIR = $(SYSCONFDIR)/systemd/system/unbound.service.d
# systemd reads units and tmpfiles.d files under /usr/local/lib too.
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
TMPFILESDIR ?= $(PREFIX)/lib/tmpfiles.d
# The files installed from packaging/systemd and conf/ name the installed
# paths: the sources name the Debian package's (/usr/bin/idnguard, the
# examples' /usr/local/lib/idnguard/), and $(BUILD)/install holds the copies
# made for PREFIX and SYSCONFDIR, which install and uninstall compare.
INST_GEN := $(BUILD)/install
# The Lua binding, the engines' adapters, and their example configurations.
LUA_FILES := $(wildcard lua/*.lua)
ENGINE_EXAMPLES := $(wildcard conf/dnsdist.conf.example conf/pdns-recursor.yml.example \
	conf/kresd.conf.example)
INST_SED = sed -e 's,/usr/bin/idnguard,$(BINDIR)/idnguard,g' -e 's,/usr/local/lib/idnguard/,$(PREFIX)/lib/idnguard/,g' \
	-e 's,/usr/local/share/idnguard/,$(PREFIX)/share/idnguard/,g'
INST_SED_CONF = $(INST_SED) -e 's,/etc/unbound/idnguard.conf,$(SYSCONFDIR)/unbound/idnguard.conf,g'
.PHONY: install-gen
install-gen:
	@mkdir -p $(INST_GEN)
	@$(INST_SED) conf/unbound.conf.example >$(INST_GEN)/unbound.conf.example
	@$(INST_SED) conf/unbound-python.conf.example >$(INST_GEN)/unbound-python.conf.example
	@for f in $(ENGINE_EXAMPLES); do $(INST_SED) $$f >$(INST_GEN)/$${f#conf/} || exit 1; done
	@for f in idnguard-tap.service unbound-idnguard.conf unbound-python.conf; do \
	    $(INST_SED_CONF) packaging/systemd/$$f >$(INST_GEN)/$$f || exit 1; done

# A configuration file under SYSCONFDIR is the operator's once it is there:
# install puts one only where none is, and says that it kept one;
# uninstall removes one only while it is what this tree installs, and says
# that it kept one that was changed.  $(call install_conf,SOURCE,PATH)
install_conf = if [ -e '$(DESTDIR)$(2)' ]; then \
	    echo "install: kept $(DESTDIR)$(2) as it is$$(cmp -s $(1) '$(DESTDIR)$(2)' || echo ', changed from the shipped one')"; \
	else echo "install: $(DESTDIR)$(2)"; install -D -m 644 $(1) '$(DESTDIR)$(2)'; fi
uninstall_conf = if [ ! -e '$(DESTDIR)$(2)' ]; then :; \
	elif cmp -s $(1) '$(DESTDIR)$(2)'; then rm -f '$(DESTDIR)$(2)'; \
	else echo "uninstall: kept $(DESTDIR)$(2): it was changed from the shipped one"; fi

# Everything: the dynlib module, the python module, libidnguard's header,
# the codec's library (libidngcodec.a) and header, and what install-common
# installs.
install: $(MODULE) all install-common install-lib
	install -d $(DESTDIR)$(PREFIX)/lib/idnguard $(DESTDIR)$(PREFIX)/include
	install -m 755 $(MODULE) $(DESTDIR)$(PREFIX)/lib/idnguard/idnguard.so
	install -m 644 $(PYSCRIPT) $(DESTDIR)$(PREFIX)/lib/idnguard/idnguard.py
	install -m 644 lib/libidnguard.h $(DESTDIR)$(PREFIX)/include/libidnguard.h
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libidngcodec.a
	install -m 644 codec/idnguard.h $(DESTDIR)$(PREFIX)/include/idnguard.h

# The stock-package path alone (docs/unbound.md, "The stock package"): the
# python module's script and libidnguard beside it, unbound.service's
# drop-ins (the settings' path and the reload check; PYTHONPATH), and what
# install-common installs; no Unbound tree needed.
.PHONY: install-python
install-python: all install-common install-lib
	install -m 644 $(PYSCRIPT) $(DESTDIR)$(PREFIX)/lib/idnguard/idnguard.py
	@$(call install_conf,$(INST_GEN)/unbound-idnguard.conf,$(DROPINDIR)/idnguard.conf)
	@$(call install_conf,$(INST_GEN)/unbound-python.conf,$(DROPINDIR)/idnguard-python.conf)

# libidnguard, for the python module beside it and the Lua engines
# (lua/idnguard.lua loads it by this path).  lib/idnguard is a directory of
# idnguard's own, out of the linker's path: ldconfig is not involved.  The
# Lua binding and the engines' adapters go to share/idnguard/lua, their
# example configurations to share/idnguard/examples (docs/engines.md).
.PHONY: install-lib
install-lib: $(LIBIDNGUARD) install-gen
	install -d $(DESTDIR)$(PREFIX)/lib/idnguard $(DESTDIR)$(PREFIX)/share/idnguard/lua \
	    $(DESTDIR)$(PREFIX)/share/idnguard/examples
	install -m 755 $(LIBIDNGUARD) $(DESTDIR)$(PREFIX)/lib/idnguard/libidnguard.so.0
	install -m 644 $(LUA_FILES) $(DESTDIR)$(PREFIX)/share/idnguard/lua/
	install -m 644 $(ENGINE_EXAMPLES:conf/%=$(INST_GEN)/%) $(DESTDIR)$(PREFIX)/share/idnguard/examples/

# What both install: the CLI, the tap's unit and tmpfiles.d file, the
# settings and logrotate's file (when missing), the directory of local
# settings files the shipped settings include, and the docs.
.PHONY: install-common
install-common: all install-gen install-docs
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(TMPFILESDIR)
	install -m 755 $(CLI) $(DESTDIR)$(BINDIR)/idnguard
	install -m 644 $(INST_GEN)/idnguard-tap.service $(DESTDIR)$(SYSTEMDUNITDIR)/idnguard-tap.service
	install -m 644 packaging/systemd/idnguard.tmpfiles $(DESTDIR)$(TMPFILESDIR)/idnguard.conf
	@$(call install_conf,conf/idnguard.conf.example,$(SYSCONFDIR)/unbound/idnguard.conf)
	@$(call install_conf,conf/logrotate.example,$(SYSCONFDIR)/logrotate.d/idnguard)
	install -d $(DESTDIR)$(SYSCONFDIR)/unbound/idnguard.conf.d

# What both install under share/: the man pages, the examples (naming the
# installed paths), README.md and the guides in docs/, the Prometheus alert
# rules.
.PHONY: install-docs
install-docs: install-gen
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5 \
	    $(DESTDIR)$(DOCDIR)/docs
	install -m 644 man/idnguard.1 $(DESTDIR)$(PREFIX)/share/man/man1/idnguard.1
	install -m 644 man/idnguard.conf.5 $(DESTDIR)$(PREFIX)/share/man/man5/idnguard.conf.5
	install -m 644 conf/idnguard.conf.example $(INST_GEN)/unbound.conf.example \
	    $(INST_GEN)/unbound-python.conf.example conf/logrotate.example LICENSE README.md \
	    $(DESTDIR)$(DOCDIR)/
	install -m 644 docs/*.md $(DESTDIR)$(DOCDIR)/docs/
	install -d $(DESTDIR)$(PREFIX)/share/idnguard/prometheus
	install -m 644 conf/idnguard.rules.yml $(DESTDIR)$(PREFIX)/share/idnguard/prometheus/

# Takes away what install and install-python put there, with the same
# PREFIX, SYSCONFDIR and DESTDIR: lib/idnguard, share/idnguard and the doc
# directory whole (idnguard's own), every other file by name, and the configuration files
# that are still as shipped.  Logs and the tap's socket directory stay.
.PHONY: uninstall
# lib/libidnguard.a: the codec archive's name in installs made before it
# became libidngcodec.a (libidnguard is the shared library's name now).
uninstall: install-gen
	rm -f $(DESTDIR)$(BINDIR)/idnguard $(DESTDIR)$(PREFIX)/lib/libidngcodec.a \
	    $(DESTDIR)$(PREFIX)/lib/libidnguard.a \
	    $(DESTDIR)$(PREFIX)/include/idnguard.h $(DESTDIR)$(PREFIX)/include/libidnguard.h \
	    $(DESTDIR)$(PREFIX)/share/man/man1/idnguard.1 \
	    $(DESTDIR)$(PREFIX)/share/man/man5/idnguard.conf.5 \
	    $(DESTDIR)$(SYSTEMDUNITDIR)/idnguard-tap.service $(DESTDIR)$(TMPFILESDIR)/idnguard.conf
	rm -rf $(DESTDIR)$(PREFIX)/lib/idnguard $(DESTDIR)$(DOCDIR) $(DESTDIR)$(PREFIX)/share/idnguard
	@$(call uninstall_conf,conf/idnguard.conf.example,$(SYSCONFDIR)/unbound/idnguard.conf)
	@$(call uninstall_conf,conf/logrotate.example,$(SYSCONFDIR)/logrotate.d/idnguard)
	@$(call uninstall_conf,$(INST_GEN)/unbound-idnguard.conf,$(DROPINDIR)/idnguard.conf)
	@$(call uninstall_conf,$(INST_GEN)/unbound-python.conf,$(DROPINDIR)/idnguard-python.conf)
	@rmdir $(DESTDIR)$(DROPINDIR) 2>/dev/null || true
	@[ ! -d $(DESTDIR)$(SYSCONFDIR)/unbound/idnguard.conf.d ] \
	    || rmdir $(DESTDIR)$(SYSCONFDIR)/unbound/idnguard.conf.d 2>/dev/null \
	    || echo "uninstall: kept $(DESTDIR)$(SYSCONFDIR)/unbound/idnguard.conf.d: it holds local settings"
	@[ ! -L $(DESTDIR)$(SYSCONFDIR)/systemd/system/multi-user.target.wants/idnguard-tap.service ] \
	    || echo "uninstall: idnguard-tap.service is still enabled: systemctl disable --now idnguard-tap"

# Every product: all of $(BUILD) but the fetched sources in $(SRC), and in
# Unbound's tree there what its own build made (so the next `make module`
# builds Unbound again).  distclean: $(SRC) too (fetched again when needed).
clean:
	@for d in $(SRC)/unbound-*/; do \
	    [ ! -f "$$d/Makefile" ] || $(MAKE) -s -C "$$d" distclean >/dev/null 2>&1 || true; \
	    rm -f "$$d/configure.out"; done
	[ ! -d $(BUILD) ] || find $(BUILD) -mindepth 1 -maxdepth 1 ! -name $(notdir $(SRC)) -exec rm -rf {} +

distclean:
	rm -rf $(BUILD)

# Only our own: the unpacked packages and Debian roots under $(BUILD) hold
# files named *.d too (invoke-rc.d), which are no makefiles; deb-install
# holds check-deb-install's copies of a root, readme check-readme's.
DEP_FOREIGN := $(SRC) $(BUILD)/roots $(BUILD)/stock $(BUILD)/dnsdist $(BUILD)/deb-root $(BUILD)/deb-work \
	$(BUILD)/deb-install $(BUILD)/readme
-include $(shell find $(BUILD) $(foreach d,$(DEP_FOREIGN),-path $(d) -prune -o) -type f -name '*.d' -print 2>/dev/null)
