# The other resolver engines, from Debian 13 (trixie): Knot Resolver
# (kresd), PowerDNS Recursor, dnsdist and BIND, installed together in one
# Debian root, build/roots/engines, made by scripts/debroot.sh
# (debootstrap --variant=minbase, then apt inside, no service started)
# and made again only when it is missing.  Their tests run each daemon
# inside the root with scripts/inroot.sh: a private mount namespace, the
# test's own directories bind-mounted at the same paths, chroot.
#
# Timing on this machine: the root, cold, about 65 s (466 MB).

ENGINES_ROOT := $(BUILD)/roots/engines
ENGINES_PKGS := knot-resolver pdns-recursor dnsdist bind9

$(ENGINES_ROOT)/usr/sbin/kresd:
	sh scripts/debroot.sh trixie $(ENGINES_ROOT) $(ENGINES_PKGS)

.PHONY: engines-root
engines-root: $(ENGINES_ROOT)/usr/sbin/kresd
