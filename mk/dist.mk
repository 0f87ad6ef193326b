# `make dist`: the release tarball build/idnguard-$(VERSION).tar.gz, the
# committed tree (git archive of HEAD) under idnguard-$(VERSION)/; it builds
# with the README's commands.  `check-dist` (part of `make check`) unpacks it,
# builds the codec and the CLI from it alone, and checks the version line.
DIST := $(BUILD)/idnguard-$(VERSION).tar.gz
DIST_CHECK := $(BUILD)/dist-check

.PHONY: dist check-dist
dist:
	@mkdir -p $(BUILD)
	@git archive --format=tar.gz --prefix=idnguard-$(VERSION)/ -o $(DIST) HEAD
	@echo "dist: $(DIST)"

check-dist: dist
	@rm -rf $(DIST_CHECK) && mkdir -p $(DIST_CHECK)
	@tar -xzf $(DIST) -C $(DIST_CHECK)
	@test -f $(DIST_CHECK)/idnguard-$(VERSION)/LICENSE || { echo "dist: no LICENSE" >&2; exit 1; }
	@$(MAKE) --no-print-directory -C $(DIST_CHECK)/idnguard-$(VERSION) build/idnguard >/dev/null
	@v=$$($(DIST_CHECK)/idnguard-$(VERSION)/build/idnguard --version | head -n 1); \
	    [ "$$v" = "idnguard $(VERSION)" ] || { echo "dist: --version says '$$v'" >&2; exit 1; }
	@echo "dist: $(DIST) unpacks and builds; idnguard --version says idnguard $(VERSION)"

CHECK_EXTRA += check-dist
