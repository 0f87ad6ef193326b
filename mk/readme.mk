# `make check-readme` (part of `make check`): README.md's quickstarts run
# as written, each in a fresh copy of check-deb-install's Debian 12 root
# ($(DEB_ROOTS)/bookworm, scripts/debroot.sh), everything inside the copy
# through chroot: the stock unbound with the python module (`make
# install-python` in a copy of the committed tree), the Debian packages
# of `make deb` (the ones built here, in place of a rebuild inside the
# root), and the tap as docs/tap.md runs it.  Each path's resolver must
# answer a good IDN, refuse README's fake A-label with EDE 15 and log both
# lines as README shows them; the tap must log both names.  The blocks are
# the ones marked `<!-- quickstart: NAME -->`; a missing marker fails.
# The few commands that cannot run in a chroot (systemctl, make deb,
# tail -f) and what runs instead are listed in scripts/readme-test.sh.
# README_MD= runs another copy of README.md (to see the test fail on one
# that drifted).  The .debs the quickstarts download are kept in
# $(README_WORK)/debs for the next run.
README_WORK := $(BUILD)/readme
README_MD ?= README.md
.PHONY: check-readme readme-run
check-readme: deb zones
	@sh scripts/deps.sh --check deb integration
	@$(MAKE) --no-print-directory readme-run

# Run after the sub-make has read the fetched .dsc (the packages' names).
readme-run:
	@README=$(abspath $(README_MD)) sh scripts/readme-test.sh $(DEB_ROOTS)/bookworm $(README_WORK) \
	    $(UB_DEB) $(IDNG_DEB)

CHECK_EXTRA += check-readme
