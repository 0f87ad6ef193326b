# mk/nosimd.mk -- the codec without its SIMD fast paths.
#
# Every SSE2 scan of codec/scan.c has a portable twin, used where SSE2 is
# missing and whenever IDNG_NO_SIMD is defined.  The machines that build
# idnguard have SSE2, so nothing else would run the twins.
#
#   make check-nosimd    build the libraries with -DIDNG_NO_SIMD into
#                        $(BUILD)/nosimd, run the codec's unit tests
#                        (tests/codec/test_*) and the differential test
#                        (mk/diff.mk) against them; part of `make check`

NOSIMD_BUILD := $(BUILD)/nosimd
NOSIMD_TESTS := $(patsubst tests/%.c,$(NOSIMD_BUILD)/tests/%,$(wildcard tests/codec/test_*.c))
NOSIMD_DIFF := $(NOSIMD_BUILD)/tests/diff/dump

.PHONY: check-nosimd nosimd-build
# A sub-make with its own BUILD builds everything there; CFLAGS reaches
# every compile and link line, CPPFLAGS on its command line would not add
# to the Makefile's own.  The ICU suites link the one Debian 13 root
# (mk/uts39-icu76.mk), not a second one under $(NOSIMD_BUILD).
nosimd-build:
	@$(MAKE) --no-print-directory BUILD=$(NOSIMD_BUILD) CFLAGS='$(CFLAGS) -DIDNG_NO_SIMD' \
	    TRIXIE_ROOT=$(TRIXIE_ROOT) \
	    $(NOSIMD_TESTS) $(NOSIMD_DIFF) >/dev/null

check-nosimd: nosimd-build
	@$(TEST_ENV) sh tests/run.sh $(NOSIMD_TESTS)
	@printf 'nosimd: '; $(NOSIMD_DIFF) --check tests/diff/baseline.txt $(DIFF_CORPORA)

CHECK_EXTRA += check-nosimd
