# The ICU oracle tests (tests/codec/test_uts39.c, test_uts46_icu.c) against ICU 76, the
# ICU of the tables' Unicode version (16.0): Debian 13's libicu-dev in the
# Debian 13 root of mk/trixie.mk, linked by the host's gcc, run on the
# root's own loader and libraries.  (Named to sort after mk/trixie.mk,
# whose TRIXIE_ROOT it needs.)
#
# How it links.  Only ICU's headers are taken from the root (a directory
# under the build holding a link to the root's usr/include/unicode): the
# root's other headers are Debian 13's glibc's.  ICU's libraries are named
# by path, not with -L, which would also redirect -lm and -lc.
# -rpath-link resolves ICU's own needs (libstdc++, libm) in the root;
# --allow-shlib-undefined accepts the glibc 2.38 symbols ICU uses, which
# the host's glibc 2.36 lacks and the root's 2.41 has at run time.  The
# binary's interpreter is the root's dynamic loader and its DT_RPATH the
# root's library directory, so that it runs directly (tests/run.sh) on the
# root's glibc, ICU and libstdc++; Check's libsubunit, not in the root, is
# linked statically.  These paths are this machine's: they live in the
# binary under build/, never in the repository.  The ASan build leaves
# this suite out (the host's sanitizer runtime on the root's glibc).

ICU76_LIBDIR = $(abspath $(TRIXIE_ROOT))/usr/lib/$(shell $(CC) -print-multiarch)
ICU76_LIBS = $(ICU76_LIBDIR)/libicui18n.so $(ICU76_LIBDIR)/libicuuc.so \
	$(ICU76_LIBDIR)/libicudata.so
ICU76_INCLUDE = $(BUILD)/icu76/include
ICU76_CHECK_LIBS = $(patsubst -lsubunit,-l:libsubunit.a,$(CHECK_LIBS))

$(TRIXIE_ROOT)/usr/include/unicode/uvernum.h:
	sh scripts/debroot.sh trixie $(TRIXIE_ROOT) libicu-dev

$(ICU76_INCLUDE)/unicode: $(TRIXIE_ROOT)/usr/include/unicode/uvernum.h
	@mkdir -p $(@D)
	ln -sfn $(abspath $(TRIXIE_ROOT))/usr/include/unicode $@

# The suites with ICU in them: test_uts39 (UTS #39) and test_uts46_icu.
ICU76_TESTS := $(BUILD)/tests/codec/test_uts39 $(BUILD)/tests/codec/test_uts46_icu

$(ICU76_TESTS): $(BUILD)/tests/codec/%: tests/codec/%.c $(TEST_COMMON) $(TEST_LIBS) \
		$(ICU76_INCLUDE)/unicode
	@mkdir -p $(@D)
	@ld=$$(ls $(ICU76_LIBDIR)/ld-linux*.so.* | head -n 1); \
	$(CC) $(CPPFLAGS) $(call layer_inc,$<) -Itests -I$(ICU76_INCLUDE) $(STD_CFLAGS) $(CFLAGS) $(CHECK_CFLAGS) \
	    -o $@ $< $(TEST_COMMON) $(TEST_LIBS) $(ICU76_LIBS) \
	    -Wl,-rpath-link,$(ICU76_LIBDIR) -Wl,--allow-shlib-undefined \
	    -Wl,--disable-new-dtags -Wl,-rpath,$(ICU76_LIBDIR) -Wl,--dynamic-linker=$$ld \
	    $(ICU76_CHECK_LIBS)
	@readelf -d $@ | grep -q 'libicuuc\.so\.76' || { echo "$@: not linked to ICU 76" >&2; exit 1; }

ASAN_TEST_BIN := $(filter-out %/test_uts39 %/test_uts46_icu,$(ASAN_TEST_BIN))
