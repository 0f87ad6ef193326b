# The python module on Debian 13 (trixie): every integration suite of
# `make check-python` (mk/python.mk), the same binaries and environment,
# against trixie's own unbound (1.26.2) and python3-unbound with its
# Python 3.13, instead of bookworm's 1.17.1.  The glue and the test
# binaries are the ones built here on Debian 12; the script loads the glue
# with trixie's ctypes.
#
# The daemon comes from a Debian 13 root, build/roots/trixie, made by
# scripts/debroot.sh (debootstrap --variant=minbase from the machine's own
# mirror, then `unbound python3-unbound` installed in it with no service
# started), and made again only when it is missing.
#
# How it runs.  Trixie's unbound needs trixie's glibc, libpython3.13 and
# Python's standard library, so it runs on the root's libraries, but
# without chroot: a wrapper generated under build/ execs the root's own
# dynamic loader with --library-path on the root's library directory, and
# PYTHONHOME on the root's /usr.  Why not chroot with bind mounts: every
# path of the test (its directory under the system's temporary directory,
# the zones, the script, the glue, dnstap sockets made by the tests) would
# have to be mounted at the same place first and unmounted after, each
# test's new directory too, and a killed run would leave mounts behind;
# chroot also takes away the host's view that NSD and the tests share.
# With the loader nothing is mounted, every path in the test's
# configuration is the same, and exec keeps the PID that lab.sh records
# and stops.  --inhibit-cache keeps the host's ld.so.cache (bookworm's
# libraries) out of the search: the root's directory comes first for
# the daemon and for everything it loads later (Python's extension
# modules, libffi for ctypes, the glue's libc).  NSD and drill stay the
# host's.
#
# Timings on this machine (2 shared cores): the root, cold, about 90 s
# (debootstrap about 60 s, the packages about 30 s; about 400 MB); the
# suites about 6 min.
#
#   make check-python-trixie   these suites only (part of `make check`)

TRIXIE_ROOT := $(BUILD)/roots/trixie
# Outside the root, so that a root made again does not take it along.
TRIXIE_UNBOUND := $(BUILD)/roots/trixie-unbound

# (debroot.sh says so when debootstrap is missing: make deps-deb.)
$(TRIXIE_ROOT)/usr/sbin/unbound:
	sh scripts/debroot.sh trixie $(TRIXIE_ROOT) unbound python3-unbound

# The wrapper names this machine's paths, so it is made here, never kept
# in the repository.
$(TRIXIE_UNBOUND): $(TRIXIE_ROOT)/usr/sbin/unbound mk/trixie.mk
	@root=$(CURDIR)/$(TRIXIE_ROOT); \
	ld=$$(ls "$$root"/usr/lib/*/ld-linux*.so.* | head -n 1); \
	{ printf '#!/bin/sh\n# made by mk/trixie.mk: Debian 13 unbound on its own libraries\n'; \
	  printf "PYTHONHOME='%s/usr'\nexport PYTHONHOME\n" "$$root"; \
	  printf "exec '%s' --inhibit-cache --library-path '%s' '%s/usr/sbin/unbound' \"\$$@\"\n" \
	      "$$ld" "$$(dirname "$$ld")" "$$root"; } >$@.new
	@chmod 755 $@.new
	@$@.new -V | head -n 1
	@mv $@.new $@

.PHONY: check-python-trixie
check-python-trixie: $(MODULE) $(GLUE) $(BUILD)/idnguard.py $(TRIXIE_UNBOUND) $(DNSDIST) all zones \
	$(UB_ALT) $(ITEST_BIN)
	@echo "== python module on Debian 13's unbound ($(TRIXIE_ROOT))"
	@$(TEST_ENV) IDNGUARD_FLAVOUR=python IDNGUARD_LOG_CACHE_HITS=yes \
	    IDNGUARD_PYSCRIPT=$(CURDIR)/$(BUILD)/idnguard.py \
	    IDNGUARD_STOCK_UNBOUND=$(CURDIR)/$(TRIXIE_UNBOUND) \
	    IDNGUARD_PYTHONPATH=$(CURDIR)/$(TRIXIE_ROOT)/usr/lib/python3/dist-packages \
	    sh tests/run.sh $(ITEST_BIN)

CHECK_EXTRA += check-python-trixie
