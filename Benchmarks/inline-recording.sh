#!/usr/bin/env bash
# Recording inline snapshots: 200 new snapshots in one file, and 200 in 200 files, written by a
# process that calls `assertInlineSnapshot` and rewrites its own sources at exit, built against
# this package and against upstream 1.19.7 (debug, as a test target is built). Prints a Markdown
# table of the processes' CPU time (user + system, median of ROUNDS runs, default 7) and fails
# when a rewritten file differs from upstream's by one byte.
#
#   Benchmarks/inline-recording.sh            # build both (upstream's swift-syntax: minutes), run
#   BUILD_ONLY=1 Benchmarks/inline-recording.sh
#
# The two packages are generated in Benchmarks/.build-inline-recording/{ours,upstream}: both
# libraries are called SnapshotTesting and cannot share a package graph.
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)
root=$(cd .. && pwd)
work="$here/.build-inline-recording"
rounds=${ROUNDS:-7}
count=200

# generate NAME DEPENDENCY IDENTITY: a package with the two executables, its sources kept pristine
# in `original`; IDENTITY is the dependency's package identity (a path's last component).
generate() {
  local dir="$work/$1" dependency=$2 identity=$3
  mkdir -p "$dir/original/OneFile" "$dir/original/ManyFiles"
  cat >"$dir/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "inline-recording-$1",
  dependencies: [$dependency],
  targets: [
    .executableTarget(
      name: "OneFile",
      dependencies: [.product(name: "InlineSnapshotTesting", package: "$identity")]
    ),
    .executableTarget(
      name: "ManyFiles",
      dependencies: [.product(name: "InlineSnapshotTesting", package: "$identity")]
    ),
  ]
)
EOF
  {
    echo "import InlineSnapshotTesting"
    echo
    echo "func recordAll() {"
    for ((i = 0; i < count; i++)); do
      echo "  assertInlineSnapshot(of: \"value $i\\nsecond line of $i\", as: .lines)"
    done
    echo "}"
    echo
    echo "recordAll()"
  } >"$dir/original/OneFile/main.swift"
  {
    for ((i = 0; i < count; i++)); do echo "record$i()"; done
  } >"$dir/original/ManyFiles/main.swift"
  for ((i = 0; i < count; i++)); do
    {
      echo "import InlineSnapshotTesting"
      echo
      echo "func record$i() {"
      echo "  assertInlineSnapshot(of: \"value $i\\nsecond line of $i\", as: .lines)"
      echo "}"
    } >"$dir/original/ManyFiles/Record$i.swift"
  done
  restore "$1"
}

# restore NAME: the sources as generated, before a run rewrites them.
restore() {
  rm -rf "$work/$1/Sources"
  mkdir -p "$work/$1/Sources"
  cp -R "$work/$1/original/OneFile" "$work/$1/original/ManyFiles" "$work/$1/Sources/"
}

generate ours ".package(path: \"$root\")" "$(basename "$root")"
generate upstream \
  '.package(url: "https://github.com/pointfreeco/swift-snapshot-testing", exact: "1.19.7")' \
  swift-snapshot-testing

for name in ours upstream; do
  echo "Building $name…" >&2
  (cd "$work/$name" && swift build -Xswiftc -gnone -Xcc -g0 >&2)
done
[[ ${BUILD_ONLY:-0} == 1 ]] && exit 0

# cpu NAME PRODUCT: one run's user + system seconds, its sources restored first.
cpu() {
  restore "$1"
  local bin
  bin="$(cd "$work/$1" && swift build -Xswiftc -gnone -Xcc -g0 --show-bin-path)/$2"
  (cd "$work/$1" && SNAPSHOT_ARTIFACTS="$work/$1/artifacts" /usr/bin/time -f "%U %S" -o "$work/time" \
    "$bin" >/dev/null 2>&1) || true
  # A failing exit (ours: the recordings fail an assertion outside a test) adds a line first.
  tail -n 1 "$work/time" | awk '{ printf "%.3f\n", $1 + $2 }'
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

echo "| recording 200 new inline snapshots | upstream 1.19.7 CPU (s) | this package CPU (s) | ratio |"
echo "| --- | ---: | ---: | ---: |"
for product in OneFile ManyFiles; do
  ours_times=() upstream_times=()
  for ((round = 0; round < rounds; round++)); do
    upstream_times+=("$(cpu upstream "$product")")
    ours_times+=("$(cpu ours "$product")")
  done
  # The last runs' rewritten sources, byte for byte.
  if ! diff -r "$work/upstream/Sources/$product" "$work/ours/Sources/$product" >"$work/diff"; then
    echo "error: $product: the rewritten sources differ from upstream's:" >&2
    head -40 "$work/diff" >&2
    exit 1
  fi
  if diff -rq "$work/ours/original/$product" "$work/ours/Sources/$product" >/dev/null; then
    echo "error: $product: nothing was recorded" >&2
    exit 1
  fi
  u=$(printf '%s\n' "${upstream_times[@]}" | median)
  o=$(printf '%s\n' "${ours_times[@]}" | median)
  label=$([[ $product == OneFile ]] && echo "in one file" || echo "in 200 files, one each")
  echo "| $label | $u | $o | $(awk -v o="$o" -v u="$u" 'BEGIN { printf "%.2f×", o / u }') |"
done
