# The python module on Debian 13 (trixie): every integration suite of
# `make check-python` (mk/python.mk), the same binaries and environment,
# against trixie's own unbound (1.26.2) and python3-unbound with its
# Python 3.13, instead of bookworm's 1.17.1.  libidnguard and the test
# binaries are the ones built here on Debian 12; the script loads the
# library with trixie's ctypes.
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
# path the test hands the daemon (its directory under the temporary
# directory, new for each test, the zones, the script, the library, the
# dnstap sockets) would have to be mounted at the same place first and
# unmounted after, and a killed run would leave mounts behind.  With the
# loader nothing is mounted, every path in the test's configuration is
# the same, and exec keeps the PID that lab.sh records and stops.
# --library-path comes first for the daemon and for everything it loads
# later (Python's extension modules, libffi for ctypes, libidnguard's libc);
# --inhibit-cache leaves the host's ld.so.cache out, so that a library the
# root lacks is not quietly taken from Debian 12 through it.  NSD and
# drill stay the host's.
#
# PYTHONPATH is set as for check-python, though 1.26's daemon needs none:
# it adds site.getsitepackages() (under PYTHONHOME) to sys.path itself.
#
# Timings on this machine (2 cores shared with other work): the root,
# cold, 86 s (debootstrap, then the two packages with apt in the root;
# 334 MB); the suites 2 min 27 s.
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
check-python-trixie: $(MODULE) $(LIBIDNGUARD) $(BUILD)/idnguard.py $(TRIXIE_UNBOUND) $(DNSDIST) all zones \
	$(UB_ALT) $(ITEST_BIN)
	@echo "== python module on Debian 13's unbound ($(TRIXIE_ROOT))"
	@$(TEST_ENV) IDNGUARD_FLAVOUR=python IDNGUARD_LOG_CACHE_HITS=yes \
	    IDNGUARD_PYSCRIPT=$(CURDIR)/$(BUILD)/idnguard.py \
	    IDNGUARD_STOCK_UNBOUND=$(CURDIR)/$(TRIXIE_UNBOUND) \
	    IDNGUARD_PYTHONPATH=$(CURDIR)/$(TRIXIE_ROOT)/usr/lib/python3/dist-packages \
	    sh tests/run.sh $(ITEST_BIN)

CHECK_EXTRA += check-python-trixie
