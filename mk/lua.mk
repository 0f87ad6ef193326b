# The Lua unit tests (tests/lua/*.lua), with the host's LuaJIT (Debian 12's
# luajit2, the build whose library Debian 12's dnsdist links): the binding
# lua/idnguard.lua over the library built here, and the adapters' own
# logic that needs no daemon.  Each runs through a small wrapper under
# build/tests/lua/, so that `make test` runs and counts them with the Check
# suites (tests/lua/check.lua prints the same summary line):
#   luajit tests/lua/NAME.lua LUA_DIR LIBRARY TMPDIR

LUA_TEST_SRC := $(wildcard tests/lua/test_*.lua)
LUA_TEST_BIN := $(LUA_TEST_SRC:tests/lua/%.lua=$(BUILD)/tests/lua/%)

$(BUILD)/tests/lua/%: tests/lua/%.lua tests/lua/check.lua $(wildcard lua/*.lua) $(LIBIDNGUARD) mk/lua.mk
	@mkdir -p $(@D)
	@{ printf '#!/bin/sh\n# made by mk/lua.mk\nd=$$(mktemp -d) || exit 1\n'; \
	  printf "luajit '%s' '%s' '%s' \"\$$d\"\nrc=\$$?\nrm -rf \"\$$d\"\nexit \$$rc\n" \
	      $(CURDIR)/$< $(CURDIR)/lua $(CURDIR)/$(LIBIDNGUARD); } >$@
	@chmod 755 $@

TEST_BIN += $(LUA_TEST_BIN)
