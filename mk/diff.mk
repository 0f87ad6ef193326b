# mk/diff.mk -- the differential test: behaviour kept byte for byte across refactoring.
#
# tests/diff/dump.c runs every public entry point of the codec, the policy
# core and the log lines over the fuzz corpora, Unicode's IdnaTestV2.txt
# and a seeded random corpus, and compares digests of the results with
# tests/diff/baseline.txt, written by the code at the commit it names.
#
#   make check-diff      compare (part of `make check`)
#   make diff-print      every result line, to diff by hand against the
#                        same target run in a checkout of the baseline commit
#                        named in tests/diff/baseline.txt

DIFF_BIN := $(BUILD)/tests/diff/dump
# The corpora of the harnesses the baseline knew; the tap decoders' (tap/,
# newer than the baseline, and not inputs of the codec), the message scan's
# (DNS messages, newer too), lint-zone's (master files) and the UTS #39
# harness's (newer than the baseline) are left out.
DIFF_NEWER := fstrm dnstap dnsmsg scan_message lint_zone uts39
DIFF_CORPORA = $(sort $(filter-out $(foreach n,$(DIFF_NEWER),tests/fuzz/corpus/$(n) \
	tests/fuzz/regress/$(n)),$(wildcard tests/fuzz/corpus/* tests/fuzz/regress/*))) \
	idnatest:$(IDNA_TEST) random:40000

$(DIFF_BIN): tests/diff/dump.c tests/diff/dump_lines.c tests/diff/dump.h $(TEST_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(call layer_inc,$<) $(STD_CFLAGS) $(CFLAGS) -o $@ tests/diff/dump.c \
	    tests/diff/dump_lines.c $(TEST_LIBS)

.PHONY: check-diff diff-print diff-baseline
check-diff: $(DIFF_BIN)
	@$(DIFF_BIN) --check tests/diff/baseline.txt $(DIFF_CORPORA)

diff-print: $(DIFF_BIN)
	@$(DIFF_BIN) --print $(DIFF_CORPORA)

# Only at the baseline commit (or for a named fix, in the commit that says so).
diff-baseline: $(DIFF_BIN)
	@$(DIFF_BIN) --write tests/diff/baseline.txt $(DIFF_CORPORA)

CHECK_EXTRA += check-diff
