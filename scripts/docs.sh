#!/usr/bin/env bash
# Builds the DocC documentation of each public product module into .docs-build/<Module>.doccarchive
# (git-ignored), with the toolchain's own `docc`: no swift-docc-plugin.
#
# One `swift build` (the package's own, which `swift test` already made on CI) builds the modules
# and the examples; swift-symbolgraph-extract reads each module's symbol graphs; each module's catalog
# (Sources/<Module>/Documentation.docc) is then converted with only that module's graphs. Every
# docc warning is printed, and the script fails if there was any.
#
#   scripts/docs.sh
#
# Environment: SWIFT (default `swift`), DOCC (default: the `docc` beside `swift`, else on PATH).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

"$root/scripts/require-system-packages.sh"

if [ -z "${DOCC:-}" ]; then
  swift_bin=$(dirname "$(readlink -f "$(command -v "${SWIFT:-swift}")")")
  if [ -x "$swift_bin/docc" ]; then DOCC="$swift_bin/docc"; else DOCC=docc; fi
fi
source "$root/scripts/doc-build-common.sh"

# Every library product's module (doc-build-common.sh reads them from Package.swift).
modules=("${product_modules[@]}")

# One build: the modules, their symbol graphs and the code examples (which must compile too).
"$root/scripts/check-doc-examples.sh"

warnings=0
for module in "${modules[@]}"; do
  # Only this module's graphs, without the symbols it re-exports.
  module_graphs="$out/graphs/$module"
  undocumented=$("$doc_tools" module-graphs "$module" "$graphs" "$module_graphs")
  if [ -n "$undocumented" ]; then
    echo "$undocumented"
    warnings=$((warnings + $(echo "$undocumented" | grep -c ": warning:")))
  fi

  catalog=()
  if [ -d "Sources/$module/Documentation.docc" ]; then
    catalog=("Sources/$module/Documentation.docc")
  fi
  archive="$out/$module.doccarchive"
  rm -rf "$archive"
  echo "Converting $module…"
  log="$out/$module.docc.log"
  status=0
  "$DOCC" convert "${catalog[@]}" \
    --additional-symbol-graph-dir "$module_graphs" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "snapshot-testing.$module" \
    --ide-console-output \
    --output-path "$archive" >"$log" 2>&1 || status=$?
  # Each diagnostic starts "<file>:<line>:<column>: warning: …" (or has no location), followed by
  # lines of suggested fixes.
  count=$(grep -cE "(^|: )(warning|error):" "$log" || true)
  if [ "$count" -gt 0 ]; then cat "$log"; fi
  if [ "$status" -ne 0 ]; then
    cat "$log" >&2
    echo "error: docc failed on $module (exit $status)" >&2
    exit 1
  fi
  warnings=$((warnings + count))
  echo "  $module: $count warning(s) -> ${archive#"$root/"}"
done

if [ "$warnings" -gt 0 ]; then
  echo "error: $warnings documentation warning(s) (docc's, and public declarations without a comment); there must be none" >&2
  exit 1
fi
echo "Documentation built without warnings: ${out#"$root/"}/<Module>.doccarchive"
