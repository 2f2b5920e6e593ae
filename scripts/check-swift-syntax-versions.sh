#!/usr/bin/env bash
# Builds the differential test's oracle (Oracle/, the swift-syntax rewriter the inline module used
# before its own scanner; no product of the main package depends on swift-syntax) against each
# swift-syntax version Oracle/Package.swift allows and this machine can fetch, each in a scratch
# folder of its own under .build-syntax/, so that the differential test runs whichever version
# resolves.
#
#   scripts/check-swift-syntax-versions.sh [VERSION…]   (default: 600.0.1 602.0.0 603.0.1)
#
# About 1.5-2.5 minutes per version on two cores (swift-syntax is built each time); not part of
# .ci/run for that reason.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(600.0.1 602.0.0 603.0.1)

scripts/require-system-packages.sh
failed=()
for version in "${versions[@]}"; do
  work="$root/.build-syntax/$version"
  mkdir -p "$work"
  # A copy of the manifest and sources, so that pinning a version never touches the checkout's
  # own Package.resolved.
  rm -rf "$work/package" && mkdir -p "$work/package"
  tar -C "$root" --exclude './.build*' --exclude './Oracle/.build*' --exclude './.git' \
    --exclude './Benchmarks' \
    --exclude './.docs-build' -cf - . | tar -C "$work/package" -xf -
  echo "swift-syntax $version:"
  if (cd "$work/package/Oracle" &&
    swift package --scratch-path "$work/scratch" resolve >"$work/resolve.log" 2>&1 &&
    swift package --scratch-path "$work/scratch" resolve swift-syntax --version "$version" \
      >>"$work/resolve.log" 2>&1 &&
    swift build --scratch-path "$work/scratch" --target InlineSnapshotOracle \
      >"$work/build.log" 2>&1); then
    echo "  builds"
  else
    echo "  FAILS (see $work/resolve.log and $work/build.log)" >&2
    tail -20 "$work/resolve.log" "$work/build.log" >&2 2>/dev/null || true
    failed+=("$version")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "error: the oracle does not build with swift-syntax ${failed[*]}" >&2
  exit 1
fi
echo "The oracle builds with swift-syntax ${versions[*]}."
