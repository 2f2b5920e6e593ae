#!/usr/bin/env bash
# Makes a fresh package from each product article's install section, as a reader would from that
# article alone (its Package.swift lines as written, its first example as the test file, an empty
# target for each of the reader's own targets it names), and builds it with its tests. The
# packages sit side by side in one scratch folder, beside a link named swift-snapshot-testing to
# this package (the README's `.package(path: "../swift-snapshot-testing")`), and share one build
# folder, so the package's modules are compiled once for all of them (without debug information:
# the question is only whether they build).
#
#   scripts/check-install-sections.sh [scratch folder]    (default: .docs-build/install-check)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scratch=${1:-$root/.docs-build/install-check}

"$root/scripts/require-system-packages.sh"
source "$root/scripts/doc-build-common.sh"

mkdir -p "$scratch"
"$doc_tools" install-packages "$root" "$scratch/packages" >"$scratch/packages.txt"
failed=0
while read -r name location; do
  echo "Building $name (from $location)…"
  if ! nice -n 5 "$swift" build --build-tests --package-path "$scratch/packages/$name" \
    --scratch-path "$scratch/build" -Xswiftc -gnone -Xcc -g0 >"$scratch/$name.log" 2>&1; then
    grep -E "error:" "$scratch/$name.log" >&2 || tail -20 "$scratch/$name.log" >&2
    echo "error: the package made from $location's install section does not build" >&2
    failed=$((failed + 1))
  fi
done <"$scratch/packages.txt"
[ $failed -eq 0 ] || exit 1
echo "Every install section builds: $(wc -l <"$scratch/packages.txt") packages."
