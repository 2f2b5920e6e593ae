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

# Builds the four product modules and every code example, emitting symbol graphs; with extension
# blocks, so that what a module adds to other modules' types (Swift Testing's `Trait`, `String`)
# is documented. The flags must be the same on every run, or the scratch folder is rebuilt from
# nothing.
build_docs_and_examples() {
  "$doc_tools" extract-examples "$root" "$out/examples"
  SNAPSHOT_TESTING_DOC_EXAMPLES=1 nice -n 5 "$swift" build \
    --scratch-path "$root/.build-docs" \
    -Xswiftc -emit-symbol-graph \
    -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public \
    -Xswiftc -emit-extension-block-symbols \
    --target DocExamples
}
