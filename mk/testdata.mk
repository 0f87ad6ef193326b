# mk/testdata.mk -- the test data in the repository, and `make test` offline.
#
# `make test` reads its data from $(TEST_DATA) (the Makefile's IDNA_TEST,
# NORM_TEST, IDNA_CSV, URLTESTDATA), each file pinned by SHA-256 in
# $(TEST_DATA)/data.manifest with its package, version, path and licence
# (README.md there); it fetches nothing.
#
#   make check-test-data  the copies are the files the manifest pins (part
#                         of `make test` and `make check`)
#   make test-data        the maintainer's refresh: fetches the packages
#                         (SRC_STAMP), checks their versions and files
#                         against the manifest and copies the files again
#   make check-offline    `make test` in a fresh clone of HEAD under
#                         build/offline, with no network (scripts/offline-test.sh)

.PHONY: check-test-data test-data check-offline
check-test-data:
	@sh scripts/test-data.sh check $(TEST_DATA)

test-data: $(SRC_STAMP)
	@sh scripts/test-data.sh refresh $(TEST_DATA) icu=$(ICU_DIR)/.. \
	    libidn2=$(call find_src,$(SRC)/libidn2-*/) librust-url-dev=/

check-offline:
	@sh scripts/offline-test.sh $(BUILD)/offline

CHECK_EXTRA += check-test-data
