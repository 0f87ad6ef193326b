# `make deb`: Debian packages of Unbound with dynlib and of idnguard, in
# $(DEB_OUT).
#
#   make deb         deps-deb, then: Debian's unbound source package (the one
#                    in $(SRC), as `make module` fetches it) rebuilt with
#                    --with-dynlibmodule added and version suffix DEB_SUFFIX
#                    (scripts/deb-unbound.sh); idnguard's package from
#                    packaging/debian, its module compiled against that
#                    rebuild's configured daemon tree and depending on exactly
#                    that unbound version; lintian over all of them (errors
#                    fail; its report is $(DEB_OUT)/lintian.txt)
#   make check-deb   (part of `make check`) the packages unpacked with
#                    dpkg-deb -x, never installed, into $(DEB_ROOT);
#                    libidnguard.so.0 exports its header's functions; the
#                    packaged daemon with the packaged module and CLI runs
#                    five integration suites through scripts/lab.sh, the
#                    suites' "other build" being the daemon built here; and
#                    unbound's AppArmor profile with idnguard's rules is
#                    compiled by apparmor_parser (deb-apparmor)
#   make check-deb-install  (part of `make check`) the packages installed
#                    with apt-get in copies of a Debian 12 root, maintainer
#                    scripts running: over Debian's unbound and into a root
#                    without it, the daemon answering with the module and
#                    feeding the tap, run as its unit says, over dnstap;
#                    purge, reinstall, downgrade and upgrade, no prompt
#                    (scripts/deb-install-test.sh, scripts/debroot.sh)
#
# $(DEB_OUT) holds what to install: unbound and idnguard; Unbound's other
# binary packages (libunbound8, unbound-anchor, ...) and the debug symbols
# go to $(DEB_OUT)/other.  Nothing is rebuilt while its inputs are
# unchanged: the rebuilt unbound depends on the .dsc, the suffix and
# scripts/deb-unbound.sh; idnguard's package on the sources it is built from.

DEB_SUFFIX ?= +idnguard1
DEB_OUT := $(BUILD)/deb
DEB_WORK := $(BUILD)/deb-work
DEB_ROOT := $(BUILD)/deb-root
DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null)
# Read when the sub-make below starts, after the source package is fetched
# (before that, in the first make of a fresh tree, there is no .dsc yet).
UB_DSC := $(call find_src,$(SRC)/unbound_*.dsc)
UB_DEB_VERSION := $(if $(UB_DSC),$(shell sed -n 's/^Version: //p' $(UB_DSC)))$(DEB_SUFFIX)
# idnguard's own version, then the unbound it is built for (a native
# version has no '-'): a rebuild for a new unbound sorts after the old one.
IDNG_DEB_VERSION = $(VERSION)+unbound$(subst -,.,$(UB_DEB_VERSION))
UB_DEB = $(DEB_OUT)/unbound_$(UB_DEB_VERSION)_$(DEB_ARCH).deb
IDNG_DEB = $(DEB_OUT)/idnguard_$(IDNG_DEB_VERSION)_$(DEB_ARCH).deb
# What the idnguard package is built from, copied into its build tree.
IDNG_DEB_FILES := Makefile LICENSE README.md docs codec core conf tap module lib lua cli man packaging/systemd
IDNG_DEB_INPUTS = Makefile LICENSE README.md $(wildcard docs/*.md) $(CODEC_SRC) $(wildcard codec/*.h) $(CONF_SRC) \
	$(wildcard conf/*.h conf/*.example) $(CORE_SRC) $(wildcard core/*.h) $(TAP_SRC) \
	$(wildcard tap/*.h) $(wildcard module/*) $(wildcard lib/*) $(wildcard cli/*.c cli/*.h man/*) \
	$(shell find packaging/debian packaging/systemd -type f) mk/deb.mk
# The package builds run as on Debian's build daemons: a clean environment,
# the system's tools only (see scripts/deb-unbound.sh).
DEB_ENV := env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=$(HOME) LC_ALL=C.UTF-8
# Who signs the changelog entries of both builds (DEB_MAINT_NAME=, DEB_MAINT_MAIL=).
DEB_MAINT_NAME ?= idnguard authors
DEB_MAINT_MAIL ?= idnguard@example.org
DEB_MAINT = $(DEB_MAINT_NAME) <$(DEB_MAINT_MAIL)>

.PHONY: deb deb-packages check-deb deb-force
deb: deps-deb deps-module
	@$(MAKE) --no-print-directory $(SRC)/.unbound-stamp
	@$(MAKE) --no-print-directory deb-packages

deb-packages: $(DEB_OUT)/lintian.txt
	@echo "deb: $(UB_DEB) and $(IDNG_DEB) (lintian: $(DEB_OUT)/lintian.txt)"

# The unpacked, configured tree must be there too: idnguard is built against it.
$(UB_DEB): $(UB_DSC) scripts/deb-unbound.sh \
    $(if $(wildcard $(DEB_WORK)/unbound/b/unbound/config.h),,deb-force)
	@sh scripts/deps.sh --check deb
	@echo "deb: rebuilding Debian's unbound $(UB_DEB_VERSION) (log: $(DEB_WORK)/unbound-build.log)"
	@rm -rf $(DEB_OUT)/other && mkdir -p $(DEB_OUT)/other && rm -f $(DEB_OUT)/unbound_*.deb
	DEBFULLNAME='$(DEB_MAINT_NAME)' DEBEMAIL='$(DEB_MAINT_MAIL)' sh scripts/deb-unbound.sh $(UB_DSC) $(DEB_WORK) $(DEB_OUT)/other $(DEB_SUFFIX)
	mv $(DEB_OUT)/other/unbound_$(UB_DEB_VERSION)_$(DEB_ARCH).deb $(DEB_OUT)/
	@touch $@

# The build tree: the sources, packaging/debian as debian/, and a changelog
# entry naming the unbound build (dpkg-buildpackage takes the version from it).
$(IDNG_DEB): $(UB_DEB) $(IDNG_DEB_INPUTS)
	@rm -rf $(DEB_WORK)/idnguard $(DEB_WORK)/idnguard_* $(DEB_OUT)/idnguard_*.deb \
	    $(DEB_OUT)/other/idnguard-dbgsym_*
	@mkdir -p $(DEB_WORK)/idnguard
	@tar -cf - $(IDNG_DEB_FILES) | tar -xf - -C $(DEB_WORK)/idnguard
	@rm -rf $(DEB_WORK)/idnguard/build
	@cp -r packaging/debian $(DEB_WORK)/idnguard/debian
	@printf 'idnguard (%s) %s; urgency=medium\n\n  * Built against unbound %s\n    (%s).\n\n -- %s  %s\n' \
	    '$(IDNG_DEB_VERSION)' "$$(sed -n 's/^unbound ([^)]*) \([^;]*\);.*/\1/p;q' \
	    $(DEB_WORK)/unbound/debian/changelog)" '$(UB_DEB_VERSION)' \
	    "Debian's package rebuilt with --with-dynlibmodule" '$(DEB_MAINT)' "$$(date -R)" \
	    >$(DEB_WORK)/idnguard/debian/changelog
	@echo "deb: building idnguard $(IDNG_DEB_VERSION) (log: $(DEB_WORK)/idnguard-build.log)"
	@cd $(DEB_WORK)/idnguard && $(DEB_ENV) dpkg-checkbuilddeps && \
	    $(DEB_ENV) IDNGUARD_UNBOUND_TREE=$(CURDIR)/$(DEB_WORK)/unbound \
	    IDNGUARD_UNBOUND_VERSION=$(UB_DEB_VERSION) \
	    dpkg-buildpackage -b -us -uc >../idnguard-build.log 2>&1 \
	    || { tail -30 ../idnguard-build.log; exit 1; }
	@mv $(DEB_WORK)/idnguard_$(IDNG_DEB_VERSION)_$(DEB_ARCH).deb $(DEB_OUT)/ && touch $@
	@mv $(DEB_WORK)/idnguard_$(IDNG_DEB_VERSION)_* $(DEB_WORK)/idnguard-dbgsym_* $(DEB_OUT)/other/ \
	    2>/dev/null || true

# Errors fail the build, but one: Debian's own unbound package, as the
# archive ships it, already has it (its Depends names lsb-base, obsolete in
# bookworm), and the rebuild must not change Debian's packaging.  The
# report keeps every line; docs/unbound.md lists what remains.
DEB_LINTIAN_KNOWN := ^E: unbound: depends-on-obsolete-package Depends: lsb-base
$(DEB_OUT)/lintian.txt: $(UB_DEB) $(IDNG_DEB)
	@echo "deb: lintian"
	@lintian --allow-root $(DEB_OUT)/*.deb $(DEB_OUT)/other/*.deb >$@.new 2>&1; \
	    if grep '^E:' $@.new | grep -v '$(DEB_LINTIAN_KNOWN)' >&2; then \
	        echo "lintian: errors above (report: $@.new)" >&2; exit 1; fi
	@mv $@.new $@
	@echo "lintian: $$(grep -c '^E:' $@ || true) error (Debian's own), $$(grep -c '^W:' $@ || true) warnings"

# The packaged files, unpacked, never installed: installing would run the
# maintainer scripts, and unbound's starts the system's service.  The
# module refuses the daemon built here ($(UNBOUND): same version, other
# configure options), which is test_refuses_other_build's "other build".
DEB_SUITES := $(addprefix $(BUILD)/tests/integration/,test_policy test_policy_lists test_normalize test_ops \
	test_ops_settings test_ops_log)
check-deb: deb $(UB_STAMP) zones $(DEB_SUITES)
	@$(MAKE) --no-print-directory deb-unpack
	@test -s $(DEB_ROOT)/usr/share/idnguard/prometheus/idnguard.rules.yml \
	    || { echo "deb: the alert rules are not in the package" >&2; exit 1; }
	@CC='$(CC)' sh scripts/lib-exports.sh $(DEB_ROOT)/usr/lib/idnguard/libidnguard.so.0 \
	    lib/libidnguard.h
	@$(MAKE) --no-print-directory deb-apparmor deb-systemd
	@$(MAKE) --no-print-directory deb-suites

# The drop-in, read with Debian's unbound.service, and the tap's unit, by
# systemd-analyze verify (no manager involved): their only complaints may
# be the units' commands, which are not installed here.  A misspelt key in
# a copy must be reported, which shows that the drop-in directory is read.
SD_TREE := $(BUILD)/deb-systemd
SD_VERIFY = SYSTEMD_UNIT_PATH=$(CURDIR)/$(SD_TREE): systemd-analyze verify --man=no \
	$(SD_TREE)/unbound.service $(SD_TREE)/idnguard-tap.service 2>&1 \
	| grep -v 'Command /[^ ]* is not executable'
.PHONY: deb-systemd
deb-systemd:
	@rm -rf $(SD_TREE) && mkdir -p $(SD_TREE)
	@cp -r $(DEB_ROOT)/lib/systemd/system/unbound.service \
	    $(DEB_ROOT)/lib/systemd/system/unbound.service.d \
	    $(DEB_ROOT)/lib/systemd/system/idnguard-tap.service $(SD_TREE)/
	@if $(SD_VERIFY); then echo "deb: systemd-analyze verify complains (above)" >&2; exit 1; fi
	@printf '[Service]\nExecReloadd=/bin/true\n' >$(SD_TREE)/unbound.service.d/zz-bad.conf
	@$(SD_VERIFY) | grep -q "Unknown key 'ExecReloadd'" \
	    || { echo "deb: systemd-analyze does not read the drop-in directory" >&2; exit 1; }
	@echo "deb: systemd-analyze verify reads unbound.service with idnguard's drop-in, and idnguard-tap.service, no complaint"

# The AppArmor rules, compiled (not loaded: -Q) as part of Debian's unbound
# profile, both from the unpacked packages, by apparmor_parser from Debian's
# apparmor package, which is downloaded and unpacked into $(SRC)/apparmor,
# not installed (installing it would start its service).  The profile's
# local file holds the block idnguard's postinst adds (taken from the
# postinst), which includes the packaged abstractions/idnguard.  A rule
# the parser rejects fails; so must a deliberately broken copy of the
# rules, which also shows that the block's include is read.
# check-deb-install compiles the files the maintainer scripts really left.
AA_ROOT := $(SRC)/apparmor/root
AA_TREE := $(BUILD)/deb-apparmor
AA_PARSE = $(AA_ROOT)/sbin/apparmor_parser --config-file=/dev/null -Q -K \
	--base=$(CURDIR)/$(AA_TREE) -I $(CURDIR)/$(AA_TREE) $(AA_TREE)/usr.sbin.unbound
$(SRC)/apparmor/.stamp:
	@rm -rf $(@D) && mkdir -p $(@D)
	@sh scripts/apt-source.sh --binary $(@D) apparmor
	@dpkg-deb -x $(@D)/apparmor_*.deb $(AA_ROOT)
	@touch $@

.PHONY: deb-apparmor
deb-apparmor: $(SRC)/apparmor/.stamp
	@rm -rf $(AA_TREE) && mkdir -p $(AA_TREE)/local
	@cp -r $(AA_ROOT)/etc/apparmor.d/abi $(AA_ROOT)/etc/apparmor.d/abstractions \
	    $(AA_ROOT)/etc/apparmor.d/tunables $(AA_TREE)/
	@cp $(DEB_ROOT)/etc/apparmor.d/usr.sbin.unbound $(AA_TREE)/
	@cp $(DEB_ROOT)/etc/apparmor.d/abstractions/idnguard $(AA_TREE)/abstractions/
	@sed -n '/^# BEGIN idnguard/,/^# END idnguard/p' packaging/debian/postinst \
	    >$(AA_TREE)/local/usr.sbin.unbound
	@grep -q '^include if exists <abstractions/idnguard>' $(AA_TREE)/local/usr.sbin.unbound \
	    || { echo "deb: no include of abstractions/idnguard in the postinst's block" >&2; exit 1; }
	@$(AA_PARSE) >$(AA_TREE)/parser.log 2>&1 || { cat $(AA_TREE)/parser.log; exit 1; }
	@echo '/usr/lib/idnguard/idnguard.so bogus,' >>$(AA_TREE)/abstractions/idnguard
	@if $(AA_PARSE) >/dev/null 2>&1; then echo "deb: apparmor_parser accepts anything" >&2; exit 1; fi
	@echo "deb: unbound's AppArmor profile compiles with idnguard's rules"

# The suites alone, on what deb-unpack left in $(DEB_ROOT).
.PHONY: deb-suites
deb-suites:
	@$(TEST_ENV) IDNGUARD_UNBOUND=$(CURDIR)/$(DEB_ROOT)/usr/sbin/unbound \
	    IDNGUARD_MODULE=$(CURDIR)/$(DEB_ROOT)/usr/lib/idnguard/idnguard.so \
	    IDNGUARD_BIN=$(CURDIR)/$(DEB_ROOT)/usr/bin/idnguard IDNGUARD_UNBOUND_ALT=$(UNBOUND) \
	    sh tests/run.sh $(DEB_SUITES)

.PHONY: deb-unpack
deb-unpack:
	@rm -rf $(DEB_ROOT) && mkdir -p $(DEB_ROOT)
	@dpkg-deb -x $(UB_DEB) $(DEB_ROOT) && dpkg-deb -x $(IDNG_DEB) $(DEB_ROOT)
	@dep=$$(dpkg-deb -f $(IDNG_DEB) Depends); case "$$dep" in \
	    *"unbound (= $(UB_DEB_VERSION))"*) ;; \
	    *) echo "deb: idnguard depends on '$$dep', not unbound (= $(UB_DEB_VERSION))" >&2; exit 1;; esac
	@$(DEB_ROOT)/usr/sbin/unbound -V | grep -q -- '--with-dynlibmodule' \
	    || { echo "deb: the packaged unbound is not built --with-dynlibmodule" >&2; exit 1; }
	@$(DEB_ROOT)/usr/bin/idnguard --version | grep -q 'Unbound $(word 1,$(subst -, ,$(UB_DEB_VERSION)))' \
	    || { echo "deb: idnguard --version does not name unbound $(UB_DEB_VERSION)" >&2; exit 1; }
	@# The drop-in's reload check, as systemd would run it (the paths of
	@# the unpacked tree in place of /usr and /etc).
	@conf=$$(sed -n 's/^Environment=IDNGUARD_CONF=//p' \
	    $(DEB_ROOT)/lib/systemd/system/unbound.service.d/idnguard.conf); \
	    cmd=$$(sed -n 's/^ExecReload=+\(.*check-conf.*\)/\1/p' \
	    $(DEB_ROOT)/lib/systemd/system/unbound.service.d/idnguard.conf); \
	    [ "$$conf" = /etc/unbound/idnguard.conf ] && [ -n "$$cmd" ] \
	    || { echo "deb: the drop-in has no IDNGUARD_CONF or no check-conf ExecReload" >&2; exit 1; }; \
	    cmd=$$(echo "$$cmd" | sed 's,^/usr/,$(DEB_ROOT)/usr/,; s,$${IDNGUARD_CONF},$(DEB_ROOT)'"$$conf,"); \
	    $$cmd >/dev/null || { echo "deb: '$$cmd' failed" >&2; exit 1; }; \
	    printf 'bad-key: 1\n' >$(DEB_ROOT)/bad.conf; \
	    if $(DEB_ROOT)/usr/bin/idnguard check-conf $(DEB_ROOT)/bad.conf >/dev/null 2>&1; then \
	        echo "deb: check-conf accepted a bad file" >&2; exit 1; fi
	@echo "deb: unpacked into $(DEB_ROOT); dependency, dynlib, version and check-conf checked"

CHECK_EXTRA += check-deb

# The packages installed for real: apt-get inside copies of a
# Debian 12 minbase root, cached in $(DEB_ROOTS)/bookworm (made by
# scripts/debroot.sh from the machine's own mirror when missing), every
# maintainer script running, no service started; the tap's files and
# directories are there; the installed daemon with the module answers on
# the loopback, its dnstap reaching the tap started by hand as its unit
# says; purge, reinstall, downgrade to Debian's unbound and upgrade
# again, each without a prompt.  See
# scripts/deb-install-test.sh (about 30 s once the root is cached).
# The AppArmor check uses the parser that deb-apparmor unpacks.
DEB_ROOTS := $(BUILD)/roots
.PHONY: check-deb-install deb-install-run
check-deb-install: deb zones $(SRC)/apparmor/.stamp
	@sh scripts/deps.sh --check deb integration
	@$(MAKE) --no-print-directory deb-install-run

# Run after the sub-make has read the fetched .dsc (the packages' names).
deb-install-run:
	@IDNG_AA_ROOT=$(CURDIR)/$(AA_ROOT) sh scripts/deb-install-test.sh $(DEB_ROOTS)/bookworm \
	    $(BUILD)/deb-install $(UB_DEB) $(IDNG_DEB)

CHECK_EXTRA += check-deb-install
