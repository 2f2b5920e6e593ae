#!/usr/bin/env bash
# What a user pays before the first test runs: a small user package with one test target, built
# clean in debug (`swift build --build-tests`, dependencies already fetched), depending on this
# package or on upstream 1.19.7, the two builds alternated round by round so that changes in load
# hit both alike. Also a clean debug build of the `snapshot-testing` tool, and how long this
# package's inline rewriter and the swift-syntax oracle take on a large test file.
#
#   Benchmarks/build-time.sh
#
# Prints Markdown tables: median wall time and CPU time (user + system, of the build and its
# children) over the rounds, with their range, and ours ÷ upstream.
#
# Environment:
#   ROUNDS    clean builds of each package per import set (default 3)
#   WORK      folder for the user packages (default: a new temporary folder, removed on exit;
#             a folder given here is kept, and its fetched dependencies are reused)
#   ONLY      `core`, `inline` or `tool` to measure one row only
set -euo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
rounds=${ROUNDS:-3}
only=${ONLY:-}
if [[ -n ${WORK:-} ]]; then
  work=$WORK
  mkdir -p "$work"
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/build-time.XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi

# user_package DIR TOOLS DEPENDENCY IMPORTS…: a package of swift-tools-version TOOLS (5.9: the
# Swift 5 language mode; 6.0: Swift 6, what `swift package init` makes today) with one test target
# importing IMPORTS, whose one test makes one assertion with each product imported.
user_package() {
  local dir=$1 tools=$2 dependency=$3
  shift 3
  local products="" imports="" body=""
  for module in "$@"; do
    products+="          .product(name: \"$module\", package: \"swift-snapshot-testing\"),"$'\n'
    imports+="import $module"$'\n'
  done
  body='    assertSnapshot(of: ["a": 1], as: .dump, record: .never)'
  if [[ " $* " == *" InlineSnapshotTesting "* ]]; then
    body+=$'\n''    assertInlineSnapshot(of: "text", as: .lines) {'$'\n''      """'
    body+=$'\n''      text'$'\n''      """'$'\n''    }'
  fi
  mkdir -p "$dir/Sources/App" "$dir/Tests/AppTests"
  cat >"$dir/Package.swift" <<EOF
// swift-tools-version:$tools
import PackageDescription

let package = Package(
  name: "App",
  dependencies: [
    $dependency,
  ],
  targets: [
    .target(name: "App"),
    .testTarget(
      name: "AppTests",
      dependencies: [
        "App",
$products      ]
    ),
  ]
)
EOF
  echo 'public let answer = 42' >"$dir/Sources/App/App.swift"
  cat >"$dir/Tests/AppTests/AppTests.swift" <<EOF
import XCTest
$imports@testable import App

final class AppTests: XCTestCase {
  func testAnswer() {
$body
  }
}
EOF
}

# By a link named as the package is, so that its identity is `swift-snapshot-testing` whatever the
# checkout's folder is called.
ln -sfn "$repo" "$work/swift-snapshot-testing"
ours_dependency=".package(path: \"$work/swift-snapshot-testing\")"
upstream_dependency='.package(url: "https://github.com/pointfreeco/swift-snapshot-testing", exact: "1.19.7")'

# clean_build DIR ARGS…: removes what a build made (not the fetched dependencies) and builds;
# prints "wall cpu" in seconds.
clean_build() {
  local dir=$1
  shift
  rm -rf "$dir/.build/debug" "$dir/.build/x86_64-unknown-linux-gnu" \
    "$dir/.build/aarch64-unknown-linux-gnu" "$dir/.build/plugins" "$dir/.build/build.db"
  local out status=0
  out=$( { TIMEFORMAT='%R %U %S'; time swift build --package-path "$dir" "$@" \
    >"$dir/build.log" 2>&1; } 2>&1 ) || status=$?
  if ((status != 0)); then
    echo "build of $dir failed:" >&2
    tail -20 "$dir/build.log" >&2
    exit 1
  fi
  awk '{ printf "%.1f %.1f\n", $1, $2 + $3 }' <<<"$out"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
range() { sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s–%s", lo, hi }'; }

rows=()
# measure NAME TOOLS IMPORTS…: alternated clean builds of the two user packages.
measure() {
  local name=$1 tools=$2
  shift 2
  local ours="$work/$name-$tools-ours" upstream="$work/$name-$tools-upstream"
  [[ -d $ours ]] || user_package "$ours" "$tools" "$ours_dependency" "$@"
  [[ -d $upstream ]] || user_package "$upstream" "$tools" "$upstream_dependency" "$@"
  echo "Resolving $name (tools $tools)…" >&2
  swift package --package-path "$ours" resolve >/dev/null 2>&1
  swift package --package-path "$upstream" resolve >/dev/null 2>&1
  # One build of each first, unmeasured, so that both start with the same caches warm (the
  # manifest cache, the file system's cache of the toolchain).
  clean_build "$ours" --build-tests >/dev/null
  clean_build "$upstream" --build-tests >/dev/null
  local ours_wall=() ours_cpu=() up_wall=() up_cpu=() round
  for ((round = 1; round <= rounds; round++)); do
    read -r w c < <(clean_build "$ours" --build-tests)
    ours_wall+=("$w") ours_cpu+=("$c")
    read -r w c < <(clean_build "$upstream" --build-tests)
    up_wall+=("$w") up_cpu+=("$c")
    echo "  $name $tools round $round: ours ${ours_wall[-1]} s (cpu ${ours_cpu[-1]}), upstream ${up_wall[-1]} s (cpu ${up_cpu[-1]})" >&2
  done
  local ow oc uw uc
  ow=$(printf '%s\n' "${ours_wall[@]}" | median)
  oc=$(printf '%s\n' "${ours_cpu[@]}" | median)
  uw=$(printf '%s\n' "${up_wall[@]}" | median)
  uc=$(printf '%s\n' "${up_cpu[@]}" | median)
  rows+=("| \`$*\` | $tools | $ow s ($(printf '%s\n' "${ours_wall[@]}" | range)) | $uw s ($(printf '%s\n' "${up_wall[@]}" | range)) | $(awk -v a="$ow" -v b="$uw" 'BEGIN { printf "%.2f×", a / b }') | $oc s | $uc s | $(awk -v a="$oc" -v b="$uc" 'BEGIN { printf "%.2f×", a / b }') |")
}

for tools in 6.0 5.9; do
  [[ -z $only || $only == core ]] && measure core "$tools" SnapshotTesting
  [[ -z $only || $only == inline ]] && measure inline "$tools" SnapshotTesting InlineSnapshotTesting
done

echo
echo "### A user's clean debug test build ($rounds rounds each, alternated)"
echo
echo "| imports | user's tools version | ours, wall | upstream 1.19.7, wall | ratio | ours, CPU | upstream, CPU | ratio |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for row in "${rows[@]+"${rows[@]}"}"; do echo "$row"; done

if [[ -z $only || $only == tool ]]; then
  tool_scratch="$work/tool-build"
  swift package --package-path "$repo" --scratch-path "$tool_scratch" resolve >/dev/null 2>&1
  tool_wall=() tool_cpu=()
  for ((round = 1; round <= rounds; round++)); do
    rm -rf "$tool_scratch/debug" "$tool_scratch/x86_64-unknown-linux-gnu" "$tool_scratch/build.db"
    out=$( { TIMEFORMAT='%R %U %S'; time swift build --package-path "$repo" \
      --scratch-path "$tool_scratch" --product snapshot-testing >"$work/tool.log" 2>&1; } 2>&1 )
    read -r w c < <(awk '{ printf "%.1f %.1f\n", $1, $2 + $3 }' <<<"$out")
    tool_wall+=("$w") tool_cpu+=("$c")
    echo "  tool round $round: $w s (cpu $c)" >&2
  done
  echo
  echo "### A clean debug build of the \`snapshot-testing\` tool ($rounds rounds)"
  echo
  echo "| wall, median (range) | CPU, median |"
  echo "|---:|---:|"
  echo "| $(printf '%s\n' "${tool_wall[@]}" | median) s ($(printf '%s\n' "${tool_wall[@]}" | range)) | $(printf '%s\n' "${tool_cpu[@]}" | median) s |"
fi
