# mk/format.mk -- the C style of .clang-format, held by `make check`.
#
# The tree is not reformatted wholesale (hand-aligned tables read better as
# they are); every line of C written or changed since FORMAT_BASE must be as
# clang-format writes it.  `git clang-format FORMAT_BASE` formats exactly
# those lines in the work tree.
#
#   make check-format   fails with the diff clang-format wants (part of
#                       `make check`); skipped, saying so, outside a git
#                       clone that holds FORMAT_BASE (a release tarball)
#   make format         makes those lines so, the generated files left alone

# The commit the rule began at: the tree as the split of the large files
# left it, with the core/ and conf/ sources renamed (moved code keeps its
# layout; new lines are held to the style).
FORMAT_BASE := b210dc694fde411094e392a68ed189636bba456b
# Generated files, written by tools/ and never by hand.
FORMAT_SKIP := codec/unicode_tables.c codec/unicode_tables.h core/psl_table.c \
	core/idng_psl_table.h

.PHONY: check-format
check-format:
	@command -v git-clang-format >/dev/null || sh scripts/deps.sh --check check
	@if ! git rev-parse -q --verify '$(FORMAT_BASE)^{commit}' >/dev/null 2>&1; then \
	    echo "format: skipped: this tree is no git clone holding $(FORMAT_BASE)"; exit 0; fi; \
	out=$$(git clang-format --diff --extensions c,h $(FORMAT_BASE) -- . \
	    $(foreach f,$(FORMAT_SKIP),':!$(f)') 2>&1); \
	case "$$out" in \
	"clang-format did not modify any files"|"no modified files to format") \
	    echo "format: every C line changed since $(shell echo $(FORMAT_BASE) | cut -c1-12) is as .clang-format says";; \
	*) printf '%s\n' "$$out" | head -60 >&2; \
	   echo "format: run 'make format' (lines above: what it would change)" >&2; \
	   exit 1;; esac

# Formats those lines in the work tree (a new file once git add has
# named it), never the generated files: git clang-format alone would
# reformat a regenerated table, which check-tables then refuses.
.PHONY: format
format:
	@command -v git-clang-format >/dev/null || sh scripts/deps.sh --check check
	@git clang-format --extensions c,h $(FORMAT_BASE) -- . $(foreach f,$(FORMAT_SKIP),':!$(f)')

test: check-format
CHECK_EXTRA += check-format
