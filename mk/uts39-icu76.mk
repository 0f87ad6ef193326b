# Draft: mk/icu76.mk -- the UTS #39 suite against ICU 76 (Unicode 16.0)
# from the Debian 13 root (mk/trixie.mk), built with the host's gcc and run
# on the root's loader.  Needs TRIXIE_ROOT from mk/trixie.mk.
#
#   make check-icu76    build/icu76/test_uts39 on trixie's ICU 76

ICU76_OUT ?= $(BUILD)/icu76
ICU76_LIBDIR = $(TRIXIE_ROOT)/usr/lib/$(shell $(CC) -print-multiarch)
# Linked by path: -L on the root's libdir would also take the root's
# libm.so/libc.so linker scripts and stubs for -lm -lrt -lc.
ICU76_LIBS = $(ICU76_LIBDIR)/libicui18n.so $(ICU76_LIBDIR)/libicuuc.so \
	$(ICU76_LIBDIR)/libicudata.so
# -rpath-link: ICU's libstdc++/libgcc_s/libm needs are checked against the
# root's.  --allow-shlib-undefined: libc.so.6 is already the host's (2.36)
# when ICU's DT_NEEDED comes up, so ICU's GLIBC_2.38 symbols
# (__isoc23_strtol, fmod) stay unresolved at link time; the root's
# glibc 2.41 has them at run time.  Our own objects are still checked.
ICU76_LDFLAGS = -Wl,-rpath-link,$(ICU76_LIBDIR) -Wl,--allow-shlib-undefined
# The host has libcheck only as .a; libsubunit.so.0 is not in the root.
ICU76_CHECK_LIBS = $(patsubst -lsubunit,-l:libsubunit.a,$(CHECK_LIBS))

$(TRIXIE_ROOT)/usr/include/unicode/uvernum.h:
	sh scripts/debroot.sh trixie $(TRIXIE_ROOT) libicu-dev

# Only ICU's headers: -I on the root's usr/include would put trixie's
# glibc headers (libc6-dev comes with libicu-dev) before the host's.
$(ICU76_OUT)/include/unicode: $(TRIXIE_ROOT)/usr/include/unicode/uvernum.h
	@mkdir -p $(@D)
	ln -sfn $(abspath $(TRIXIE_ROOT))/usr/include/unicode $@

# The loader command; machine paths, so made here, never kept in the repo.
$(ICU76_OUT)/run: $(TRIXIE_ROOT)/usr/include/unicode/uvernum.h
	@mkdir -p $(@D)
	@ld=$$(ls $(abspath $(ICU76_LIBDIR))/ld-linux*.so.* | head -n 1); \
	printf '#!/bin/sh\nexec %s --inhibit-cache --library-path %s "$$@"\n' \
	    "$$ld" "$(abspath $(ICU76_LIBDIR))" >$@
	@chmod 755 $@

$(ICU76_OUT)/test_uts39: tests/codec/test_uts39.c $(TEST_COMMON) $(TEST_LIBS) \
		$(ICU76_OUT)/include/unicode
	$(CC) $(CPPFLAGS) -Itests -I$(ICU76_OUT)/include $(STD_CFLAGS) $(CFLAGS) $(CHECK_CFLAGS) \
	    -o $@ $< $(TEST_COMMON) $(TEST_LIBS) $(ICU76_LIBS) $(ICU76_LDFLAGS) $(ICU76_CHECK_LIBS)
	@readelf -d $@ | grep -q 'libicuuc\.so\.76' || { echo "$@: not linked to ICU 76" >&2; exit 1; }

.PHONY: check-icu76
check-icu76: $(ICU76_OUT)/test_uts39 $(ICU76_OUT)/run
	@echo "== UTS #39 against ICU 76 ($(TRIXIE_ROOT))"
	@$(ICU76_OUT)/run $(ICU76_OUT)/test_uts39
