# idnguard -- one GNU Makefile.  `make` builds the codec library and the CLI;
# `make check` installs what the tests need (as root) and runs every test.

CC ?= cc
CFLAGS ?= -O2 -g
STD_CFLAGS := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -fvisibility=hidden
CPPFLAGS += -Icodec -Iconf -D_POSIX_C_SOURCE=200809L -MMD -MP
PYTHON ?= python3

BUILD := build
UCD ?= /usr/share/unicode
SRC := $(BUILD)/src
# Test and table data from Debian source packages: ICU (UTS #46 mapping and
# IdnaTestV2.txt, Unicode 15.0) and libidn2 (IANA's derived properties).
SRC_STAMP := $(SRC)/.sources-stamp
ICU_DIR = $(firstword $(wildcard $(SRC)/icu-*/source))
UTS46 = $(ICU_DIR)/data/unidata/norm2/uts46.txt
IDNA_TEST = $(ICU_DIR)/test/testdata/IdnaTestV2.txt
IDNA_CSV = $(firstword $(wildcard $(SRC)/libidn2-*/lib/idna-tables-properties.csv))
NORM_TEST := $(BUILD)/NormalizationTest.txt

CODEC_SRC := $(wildcard codec/*.c)
CODEC_OBJ := $(CODEC_SRC:%.c=$(BUILD)/%.o)
LIB := $(BUILD)/libidnguard.a
# conf/: the configuration parser (libc and the codec).
CONF_SRC := $(wildcard conf/*.c)
CONF_LIB := $(BUILD)/libidngconf.a
# module/: files named core_*.c hold the module's logic without Unbound
# headers (policy, log lines), so unit tests can link them; the rest is the
# Unbound glue, built only into the .so.
CORE_SRC := $(wildcard module/core_*.c)
CORE_LIB := $(BUILD)/libidngcore.a
CLI := $(BUILD)/idnguard

CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null)
TEST_SRC := $(wildcard tests/codec/test_*.c tests/conf/test_*.c tests/module/test_*.c tests/cli/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_COMMON := tests/common.c

.PHONY: all deps run check test tables check-tables clang-build clean
all: $(LIB) $(CONF_LIB) $(CORE_LIB) $(CLI)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(STD_CFLAGS) $(CFLAGS) -c -o $@ $<

$(LIB): $(CODEC_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(CONF_LIB): $(CONF_SRC:%.c=$(BUILD)/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

$(CORE_LIB): $(CORE_SRC:%.c=$(BUILD)/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

$(CLI): $(BUILD)/tools/idnguard.o $(CONF_LIB) $(LIB)
	$(CC) $(CFLAGS) -o $@ $^

TEST_LIBS = $(CORE_LIB) $(CONF_LIB) $(LIB)
$(BUILD)/tests/%: tests/%.c $(TEST_COMMON) $(TEST_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests -Imodule $(STD_CFLAGS) $(CFLAGS) $(CHECK_CFLAGS) -o $@ $< $(TEST_COMMON) $(TEST_LIBS) $(CHECK_LIBS)

$(SRC_STAMP):
	sh scripts/apt-source.sh $(SRC) icu libidn2
	@touch $@

$(NORM_TEST): $(UCD)/NormalizationTest.txt.bz2
	@mkdir -p $(@D)
	bzcat $< > $@

deps:
	@sh scripts/deps.sh check

# The main job.  Until the resolver module lands this demonstrates the codec
# judging and converting names the way the module will.
run:
	@sh scripts/deps.sh build
	@$(MAKE) --no-print-directory all >/dev/null
	@sh scripts/demo.sh $(CLI)

# Regenerate the checked-in tables.
tables: deps $(SRC_STAMP)
	$(PYTHON) tools/gen_tables.py --ucd $(UCD) --uts46 $(UTS46) -o codec/unicode_tables.c

# Fails when the checked-in tables differ from a fresh run of the generator.
check-tables: $(SRC_STAMP)
	@$(PYTHON) tools/gen_tables.py --ucd $(UCD) --uts46 $(UTS46) -o $(BUILD)/unicode_tables.c
	@if cmp -s $(BUILD)/unicode_tables.c codec/unicode_tables.c; then \
	    echo "tables: codec/unicode_tables.c matches a fresh run of tools/gen_tables.py"; \
	else \
	    echo "tables: codec/unicode_tables.c differs from a fresh run; run 'make tables'" >&2; \
	    diff $(BUILD)/unicode_tables.c codec/unicode_tables.c | head -20 >&2; exit 1; \
	fi

# The codec and CLI must also build warning-free with clang.
clang-build:
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/clang CC=clang $(BUILD)/clang/libidnguard.a \
	    $(BUILD)/clang/libidngconf.a $(BUILD)/clang/libidngcore.a $(BUILD)/clang/idnguard >/dev/null
	@echo "clang: codec and CLI build with -Werror"

check: deps
	@$(MAKE) --no-print-directory test

test: all $(SRC_STAMP) $(NORM_TEST) $(TEST_BIN) check-tables clang-build
	@IDNA_TEST_FILE=$(IDNA_TEST) IDNA_PROPERTIES_CSV=$(IDNA_CSV) NORMALIZATION_TEST=$(NORM_TEST) \
	    IDNGUARD_BIN=$(CLI) sh tests/run.sh $(TEST_BIN)

clean:
	rm -rf $(BUILD)/codec $(BUILD)/conf $(BUILD)/module $(BUILD)/tools $(BUILD)/tests \
	    $(BUILD)/clang $(LIB) $(CONF_LIB) $(CORE_LIB) $(CLI)

-include $(shell find $(BUILD) -path $(SRC) -prune -o -type f -name '*.d' -print 2>/dev/null)
