# Sourced by scripts/docs.sh and scripts/check-doc-examples.sh: the one build both share.
# Expects `root` (the package folder).

swift=${SWIFT:-swift}
out="$root/.docs-build"
graphs="$out/symbol-graphs"
mkdir -p "$graphs"

# The helpers (scripts/doc-tools), compiled again only when their source changed.
doc_tools="$out/doc-tools"
if [ ! -x "$doc_tools" ] || [ "$root/scripts/doc-tools/main.swift" -nt "$doc_tools" ]; then
  echo "Compiling scripts/doc-tools…"
  swiftc_path=$(dirname "$(readlink -f "$(command -v "$swift")")")/swiftc
  [ -x "$swiftc_path" ] || swiftc_path=swiftc
  nice -n 5 "$swiftc_path" "$root/scripts/doc-tools/main.swift" -o "$doc_tools"
fi

# Every library product's modules, as Package.swift declares them: the archives docs.sh builds
# and the symbol graphs read here, so that a new product's catalog is never left out.
mapfile -t product_modules < <("$swift" package --package-path "$root" dump-package | python3 -c '
import json, sys
seen = []
for product in json.load(sys.stdin)["products"]:
    if "library" in product["type"]:
        seen += [target for target in product["targets"] if target not in seen]
print("\n".join(seen))')
if [ "${#product_modules[@]}" -eq 0 ]; then
  echo "error: Package.swift declares no library product (swift package dump-package)" >&2
  exit 1
fi

# Builds the product modules and every code example in the package's own build folder, with
# the flags of `swift test`: after the tests (as on CI) only the examples are compiled. Then the
# symbol graphs are read from the built modules (swift-symbolgraph-extract), with extension blocks,
# so that what a module adds to other modules' types (Swift Testing's `Trait`, `String`) is
# documented.
build_docs_and_examples() {
  # Each step returns on failure: called in an `if`, the function runs without `set -e`.
  "$doc_tools" extract-examples "$root" "$out/examples" || return 1
  # The import check fails an example that imports a module its article does not install. The
  # manifest reads targets.txt, which neither SwiftPM's manifest cache nor its cached build plan
  # knows of: neither is used.
  SNAPSHOT_TESTING_DOC_EXAMPLES=1 nice -n 5 "$swift" build --target DocExamples \
    --explicit-target-dependency-import-check error --manifest-cache none \
    --disable-build-manifest-caching || return 1
  extract_symbol_graphs
}

extract_symbol_graphs() {
  local bin triple extract
  bin=$("$swift" build --show-bin-path)
  triple=$(basename "$(dirname "$bin")")
  extract=$(dirname "$(readlink -f "$(command -v "$swift")")")/swift-symbolgraph-extract
  [ -x "$extract" ] || extract=swift-symbolgraph-extract
  # The C modules the Swift ones import: those SwiftPM generates a module map for, and those
  # that ship one (swift-syntax's shims).
  local maps=()
  for map in "$bin"/*.build/module.modulemap "$root"/.build/checkouts/*/Sources/*/include/module.modulemap; do
    [ -f "$map" ] && maps+=(-Xcc "-fmodule-map-file=$map")
  done
  rm -rf "$graphs"
  mkdir -p "$graphs"
  for module in "${product_modules[@]}"; do
    "$extract" -module-name "$module" -target "$triple" -I "$bin/Modules" "${maps[@]}" \
      -minimum-access-level public -emit-extension-block-symbols -output-dir "$graphs"
  done
}
