# mk/help.mk -- `make help`: the targets, one line each, grouped by what
# they are for (docs/development.md says more about each).
#
#   make help          print them
#   make check-help    fails when help names a target make does not know
#                      (part of `make test`)

define HELP_TEXT
Start here (a fresh Debian 12 machine; as root they install what they need):
  make run                 Unbound with the module, in front of demo zones, on loopback
  make check               every test (installs packages first: make deps)

Build:
  make                     the codec, core, conf and tap libraries and build/idnguard
  make module              Unbound from Debian's source, then the module build/idnguard.so
  make lib                 libidnguard (build/libidnguard.so.0) and the python module beside it
  make deb                 Debian packages: unbound with dynlib, and idnguard against it
  make dist                the release tarball build/idnguard-VERSION.tar.gz
  make tables              the Unicode and PSL tables again, from the inputs tools/*.manifest pins
  make engines-root        the Debian 13 root with Knot Resolver, PowerDNS Recursor, dnsdist, BIND
  make deps                every package make check needs (as root; deps-GROUP: one group)

Test:
  make test                the inner loop: unit suites, Lua suites, check-diff, check-lib
  make check-integration   the integration suites: NSD and Unbound with the dynlib module
  make check-python        the same suites with Debian's stock unbound and the python module
  make check-kresd         the same suites with Knot Resolver (also check-pdns, check-dnsdist)
  make check-tap-producers idnguard tap fed by every dnstap producer of Debian 13
  make check-install       install, install-python and uninstall into a staging directory
  make check-deb           the Debian packages' suites (check-deb-install: apt installs them)
  make check-diff          behaviour byte for byte against tests/diff/baseline.txt
  make check-tables        the checked-in tables against a fresh run of the generators
  make check-format        changed C lines as .clang-format says (make format: makes them so)
  make asan                the unit and integration suites under AddressSanitizer
  make fuzz                the fuzz harnesses (fuzz-smoke: a short run, fuzz-replay: the corpora)
  make soak                the resolver under load with the module, memory watched

Measure (not part of make check; figures go to bench/results/):
  make bench               the codec, resolver, CLI, lookalike, tap and lists benchmarks
  make bench-engines       Knot Resolver, PowerDNS Recursor and dnsdist with and without idnguard
  make bench-tap           idnguard tap against dnstap-ldns and fstrm_capture
  make bench-lists         a million names in deny-, allow- and protect-files: load, memory, QPS

Install (PREFIX=/usr/local, SYSCONFDIR=/etc, DESTDIR=):
  make install             the module, the python module, libidnguard, the CLI, docs
  make install-python      the stock-package path only (no Unbound build needed)
  make uninstall           all of it, but configuration files the operator changed

Clean:
  make clean               everything built, Unbound's build included (distclean: fetched sources too)
endef
export HELP_TEXT

.PHONY: help check-help
help:
	@printf '%s\n' "$$HELP_TEXT"

# Every `make TARGET` of the help text is a target of this Makefile.
check-help:
	@known=$$($(MAKE) --no-print-directory -pRrq -f $(firstword $(MAKEFILE_LIST)) : 2>/dev/null \
	    | sed -n 's/^\([a-z][a-z0-9-]*\):.*/\1/p' | sort -u); \
	bad=; for t in $$(printf '%s\n' "$$HELP_TEXT" | sed -n 's/^  make \([a-z][a-z0-9-]*\).*/\1/p'); do \
	    printf '%s\n' "$$known" | grep -qx "$$t" || bad="$$bad $$t"; done; \
	[ -z "$$bad" ] || { echo "help: no such target:$$bad" >&2; exit 1; }; \
	echo "help: every target it names exists"

test: check-help
CHECK_EXTRA += check-help
