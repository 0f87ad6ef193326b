#!/bin/sh
# quickstart-blocks.sh [--marker WORD] FILE NAME [HEADINGS]
#
# Prints the commands of the fenced block that FILE marks as quickstart
# NAME: the block must follow the line `<!-- quickstart: NAME -->` (blank
# lines between them are allowed; a Markdown reader does not show the
# comment), open with a ```sh fence and be closed.  Used by
# scripts/readme-test.sh (`make check-readme`) to run README.md's
# quickstarts as written.
#
# Fails, naming FILE and NAME, when the marker is missing, is there twice,
# or is not followed by a closed ```sh block, or when another ```sh block
# follows that one before the next heading: renaming or rewriting a
# section cannot make the test skip it, nor can splitting its commands.  With HEADINGS (a number), it also
# fails unless FILE has exactly that many `### Quickstart` headings and as
# many quickstart markers: a new quickstart without a marker is no
# quickstart left untested.
#
# With --marker WORD, the same for the blocks marked `<!-- WORD: NAME -->`
# (docs/tap.md's `tap-producer` blocks, the resolvers' dnstap settings
# that scripts/tap-producer.sh runs as written): the block may be of any
# language (```conf, ```lua, ```yaml ...); HEADINGS and the rule about a
# second block are the quickstarts' only.
set -eu

word=quickstart
if [ $# -ge 2 ] && [ "$1" = --marker ]; then
    word=$2
    shift 2
fi
if [ $# -lt 2 ] || [ $# -gt 3 ] || { [ $# -eq 3 ] && [ "$word" != quickstart ]; }; then
    echo "usage: $0 [--marker WORD] FILE NAME [HEADINGS]" >&2
    exit 2
fi
file=$1 name=$2 headings=${3:-}
[ -r "$file" ] || { echo "$0: cannot read $file" >&2; exit 1; }

awk -v word="$word" -v name="$name" -v file="$file" -v headings="$headings" '
    function die(msg) { printf "quickstart-blocks: %s: %s\n", file, msg > "/dev/stderr"; bad = 1; exit 1 }
    BEGIN { qs = word == "quickstart"; fence = qs ? "```sh" : "a fenced" }
    /^### Quickstart/ { nhead++ }
    index($0, "<!-- " word ": ") == 1 && $0 ~ /^<!-- [a-z0-9-]+: [a-z0-9-]+ -->$/ {
        nmark++
        m = $0; sub(/^<!-- [a-z0-9-]+: /, "", m); sub(/ -->$/, "", m)
        if (m == name) {
            if (found) die(word " marker \"" name "\" is there twice (line " NR ")")
            found = NR; state = "marker"
        }
        next
    }
    state == "marker" {
        if ($0 ~ /^[ \t]*$/) next
        if (qs ? $0 != "```sh" : $0 !~ /^```[a-z0-9]*$/) die("the " word " marker \"" name "\" (line " found ") is not followed by " fence " block")
        state = "block"; next
    }
    state == "block" {
        if ($0 == "```") { state = "done"; next }
        print; lines++
    }
    # A second sh block before the next heading would go untested.
    state == "done" && /^#/ { state = "after" }
    qs && state == "done" && $0 == "```sh" { die("a second ```sh block (line " NR ") follows the quickstart block \"" name "\" (line " found ") before the next heading: the test runs only the marked one") }
    END {
        if (bad) exit 1
        if (!found) die("no " word " marker \"<!-- " word ": " name " -->\"")
        if (state == "marker") die("the " word " marker \"" name "\" (line " found ") is not followed by " fence " block")
        if (state == "block") die("the " word " block \"" name "\" (line " found ") is not closed")
        if (!lines) die("the " word " block \"" name "\" (line " found ") is empty")
        if (headings != "" && (nhead != headings || nmark != headings))
            die(nhead " \"### Quickstart\" headings and " nmark " quickstart markers, where " headings " of each were expected")
    }' "$file"
