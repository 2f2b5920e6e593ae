#!/usr/bin/env bash
# Compiles every ```swift block of README.md and of the DocC articles
# (Sources/*/Documentation.docc/*.md) against the package.
#
# Each block becomes a target of its own (declarations at file scope, statements in a function)
# that compiles as a reader would copy it: with its own imports and nothing else, or, when it has
# none, with every import of the article's blocks before it (a fragment of that test file). Nothing
# else is added: no fixture supplies a value or type, so what an example uses, the page shows (in
# the block, or in a block marked `<!-- example declarations -->` before it). A target depends on exactly
# the products its article's install section names (a Package.swift fragment with
# `.product(name:package:)` lines; else the products an `<!-- example products: A, B -->` line
# names; else its catalog's first install section; else the catalog's own module), and SwiftPM's
# import check fails a block that imports anything else.
# SNAPSHOT_TESTING_DOC_EXTRA=<file.md> checks one more article (scripts/doc-examples/test.sh).
# Markers in the Markdown, on the line(s) before a block:
#
#   <!-- not compiled: <reason> -->      the block is skipped and counted (or ```swift skip <reason>)
#   <!-- example setup: <statement> -->  a statement run before the block's own statements
#   <!-- example declarations -->        the block's declarations (and imports) come before each
#                                        later block of the page: what the page's examples use,
#                                        shown once
#
# Two shorthands of the guides are read as they mean: a line that starts with a dot
# (`.lines.scrubbing(…)`) is a `Snapshotting<String, String>`, and an elided body `{ … }` is
# `{}` after a type's name and `{ fatalError() }` elsewhere.
#
#   scripts/check-doc-examples.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

"$root/scripts/require-system-packages.sh"
source "$root/scripts/doc-build-common.sh"

echo "Extracting and building the code examples…"
if ! build_docs_and_examples >"$out/examples-build.log" 2>&1; then
  # The errors, each followed by the Markdown line its block starts at.
  grep -E "error:" "$out/examples-build.log" >&2 || cat "$out/examples-build.log" >&2
  echo "Blocks: (target → Markdown location)" >&2
  cat "$out/examples/locations.txt" >&2
  echo "error: the code examples do not compile" >&2
  exit 1
fi
grep -E "^skipped " "$out/examples-build.log" || true
compiled=$(wc -l <"$out/examples/targets.txt")
skipped=$(grep -c "^skipped " "$out/examples-build.log" || true)
echo "Code examples: $compiled compiled, $skipped skipped"
