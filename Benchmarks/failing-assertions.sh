#!/usr/bin/env bash
# What a failure costs: one test target with 100 failing `.lines` assertions against references
# on disk and 100 failing inline assertions, run by `swift test` (debug, built once), depending
# on this package or on upstream 1.19.7, the two runs alternated round by round. Prints the median
# CPU time (user + system of the test process and its children) and wall time, and the ratio.
#
#   Benchmarks/failing-assertions.sh
#
# Environment: ROUNDS (default 5); WORK, a folder to keep the two packages in (default: a new
# temporary folder, removed on exit).
set -euo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
rounds=${ROUNDS:-5}
if [[ -n ${WORK:-} ]]; then
  work=$WORK
  mkdir -p "$work"
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/failing-assertions.XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi
ln -sfn "$repo" "$work/swift-snapshot-testing"

# failing_package DIR DEPENDENCY: the package, its 100 references (each differing from what the
# test produces in one line of ten) and its 100 inline snapshots (likewise).
failing_package() {
  local dir=$1 dependency=$2
  mkdir -p "$dir/Tests/FailingTests/__Snapshots__/FailingTests"
  cat >"$dir/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Failing",
  dependencies: [$dependency],
  targets: [
    .testTarget(
      name: "FailingTests",
      dependencies: [
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
        .product(name: "InlineSnapshotTesting", package: "swift-snapshot-testing"),
      ],
      exclude: ["__Snapshots__"]
    )
  ]
)
MANIFEST
  {
    echo 'import InlineSnapshotTesting'
    echo 'import SnapshotTesting'
    echo 'import XCTest'
    echo
    echo 'func text(_ n: Int) -> String { (1...10).map { "line \($0) of text \(n)" }.joined(separator: "\n") }'
    echo
    echo 'final class FailingTests: XCTestCase {'
    for n in $(seq 1 100); do
      echo "  func testFile$n() { assertSnapshot(of: text($n), as: .lines, record: .never) }"
      printf '%s\n' "  func testInline$n() {" \
        "    assertInlineSnapshot(of: text($n), as: .lines, record: .never) {" '      """'
      for line in $(seq 1 10); do
        if ((line == 5)); then echo "      line 5 was different $n"; else echo "      line $line of text $n"; fi
      done
      printf '%s\n' '      """' '    }' '  }'
      for line in $(seq 1 10); do
        if ((line == 5)); then echo "line 5 was different $n"; else echo "line $line of text $n"; fi
      done | head -c -1 >"$dir/Tests/FailingTests/__Snapshots__/FailingTests/testFile$n.1.txt"
    done
    echo '}'
  } >"$dir/Tests/FailingTests/FailingTests.swift"
}

ours="$work/ours" upstream="$work/upstream"
[[ -d $ours ]] || failing_package "$ours" ".package(path: \"$work/swift-snapshot-testing\")"
[[ -d $upstream ]] || failing_package "$upstream" \
  '.package(url: "https://github.com/pointfreeco/swift-snapshot-testing", exact: "1.19.7")'
for dir in "$ours" "$upstream"; do
  echo "Building $dir…" >&2
  swift build --build-tests --package-path "$dir" >"$dir/build.log" 2>&1 ||
    { tail -20 "$dir/build.log" >&2; exit 1; }
done

# run DIR: the suite once; prints "wall cpu failures".
run() {
  local dir=$1 out
  out=$( { TIMEFORMAT='%R %U %S'; time (cd "$dir" && env -u CI swift test --skip-build \
    >"$dir/test.log" 2>&1 || true); } 2>&1 )
  local failures
  failures=$(grep -cE "error: -\[FailingTests|error: .*: failed - |recorded an issue" "$dir/test.log" || true)
  awk -v f="$failures" '{ printf "%.2f %.2f %s\n", $1, $2 + $3, f }' <<<"$out"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

ow=() oc=() uw=() uc=()
for ((round = 1; round <= rounds; round++)); do
  read -r w c f < <(run "$ours")
  ow+=("$w") oc+=("$c")
  read -r w2 c2 f2 < <(run "$upstream")
  uw+=("$w2") uc+=("$c2")
  echo "  round $round: ours $w s (cpu $c, $f failures), upstream $w2 s (cpu $c2, $f2 failures)" >&2
done
a=$(printf '%s\n' "${oc[@]}" | median) b=$(printf '%s\n' "${uc[@]}" | median)
echo "| 200 failing assertions (100 \`.lines\` files, 100 inline) | ours | upstream 1.19.7 | ratio |"
echo "|---|---:|---:|---:|"
echo "| CPU, median of $rounds | $a s | $b s | $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f×", a / b }') |"
a2=$(printf '%s\n' "${ow[@]}" | median) b2=$(printf '%s\n' "${uw[@]}" | median)
echo "| wall, median of $rounds | $a2 s | $b2 s | $(awk -v a="$a2" -v b="$b2" 'BEGIN { printf "%.2f×", a / b }') |"
