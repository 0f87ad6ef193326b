# mk/layers.mk -- the layers of docs/development.md (Layout), as the build
# enforces them.
#
#   make check-layers   for each layer, with that layer's flags ($(call
#                       layer_inc), the ones its sources are built with):
#                       a generated file that includes a header of a layer
#                       above or beside it must fail to compile, one such
#                       file for every directory it must not use; a file
#                       that includes every header of the layer and of the
#                       layers it uses must compile, and must find none of
#                       the forbidden directories' headers (__has_include,
#                       every one of them); and no source of a layer reaches
#                       another directory with "../".  Part of `make test`
#                       and `make check`; a second or two.
#
# The lists below are the rule as the docs state it, written apart from the
# Makefile's LAYER_INC_* on purpose: widening a layer's include path there
# fails here.  Every layer names every directory in one of its two lists
# module/'s own header (idng_mod.h) needs Unbound's configured tree, so
# it is left out of the headers module/ must compile alone; the module's
# build compiles it with every file.
LAYER_DOWN_SKIP := idng_mod.h

LAYERS_BUILD := $(BUILD)/layers
LAYER_DIRS := codec core conf tap module lib cli
LAYER_USE_codec := codec
LAYER_DENY_codec := core conf tap module lib cli
LAYER_USE_core := codec core
LAYER_DENY_core := conf tap module lib cli
LAYER_USE_conf := codec core conf
LAYER_DENY_conf := tap module lib cli
LAYER_USE_tap := codec tap
LAYER_DENY_tap := core conf module lib cli
LAYER_USE_module := codec core conf module
LAYER_DENY_module := tap lib cli
LAYER_USE_lib := codec core conf lib
LAYER_DENY_lib := tap module cli
LAYER_USE_cli := codec core conf tap cli
LAYER_DENY_cli := module lib
# The compiler's dependency files are not wanted here.
LAYER_CHECK_CC = $(CC) $(filter-out -MMD -MP,$(CPPFLAGS)) $(call layer_inc,$(1)/layer.c) $(STD_CFLAGS)
layer_headers = $(notdir $(foreach d,$(1),$(wildcard $(d)/*.h)))
layer_unlisted = $(filter-out $(LAYER_USE_$(1)) $(LAYER_DENY_$(1)),$(LAYER_DIRS))

.PHONY: check-layers
check-layers:
	@rm -rf $(LAYERS_BUILD) && mkdir -p $(LAYERS_BUILD)
	@fail=0; up=0; \
	$(foreach l,$(LAYER_DIRS), \
	    $(if $(call layer_unlisted,$(l)), \
	        echo "layers: $(l)/ names neither uses nor denies $(call layer_unlisted,$(l))" >&2; fail=1;) \
	    for h in $(foreach d,$(LAYER_DENY_$(l)),$(firstword $(call layer_headers,$(d)))); do \
	        f=$(LAYERS_BUILD)/$(l)-up-$${h%.h}.c; printf '#include "%s"\n' "$$h" >$$f; up=$$((up + 1)); \
	        if $(call LAYER_CHECK_CC,$(l)) -fsyntax-only $$f 2>/dev/null; then \
	            echo "layers: $(l)/ compiles an include of $$h, a header of a layer it must not use" >&2; \
	            fail=1; fi; \
	    done; \
	    f=$(LAYERS_BUILD)/$(l)-down.c; \
	    { printf '#include "%s"\n' $(filter-out $(LAYER_DOWN_SKIP),$(call layer_headers,$(LAYER_USE_$(l)))); \
	      for h in $(call layer_headers,$(LAYER_DENY_$(l))); do \
	          printf '#if __has_include("%s")\n#error "$(l)/ sees %s"\n#endif\n' "$$h" "$$h"; done; \
	      echo 'int idng_layer_check(void);'; } >$$f; \
	    $(call LAYER_CHECK_CC,$(l)) -fsyntax-only $$f \
	        || { echo "layers: $(l)/ cannot include the headers of $(LAYER_USE_$(l)) alone" >&2; fail=1; }; \
	) \
	if grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*\.\./' \
	    $(foreach d,$(LAYER_DIRS),$(wildcard $(d)/*.c $(d)/*.h)) >&2; then \
	    echo "layers: an include above reaches another directory with ../" >&2; fail=1; fi; \
	[ $$fail = 0 ] || exit 1; \
	echo "layers: $$up includes of a higher or side layer's header fail to compile in it;" \
	    "each of the $(words $(LAYER_DIRS)) layers compiles its own and its lower layers' headers and sees no other"

CHECK_EXTRA += check-layers
