#!/usr/bin/env bash
# Proves that scripts/check-architecture.py can fail: it passes on the package as it is, then must
# fail, naming the fault, on a map that names a missing file, a missing symbol, or a stale allowed
# place, and on a tree where an environment read, a whole-file write, a task-local, a spawn and a
# raw socket appear outside the places the map allows (in any of their spellings), where a module
# imports what its row in the map does not list, where the map leaves out, invents or misstates a
# module, or where a web module file names a higher layer or lies in none.
set -euo pipefail
cd "$(dirname "$0")/../.."
check=scripts/check-architecture.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

expect_failure() {  # description, text the output must hold, command…
  local what=$1 needle=$2
  shift 2
  if "$@" >"$work/out" 2>&1; then
    echo "FAIL: $what: the check passed"; failures=$((failures + 1)); return
  fi
  if ! grep -qF -- "$needle" "$work/out"; then
    echo "FAIL: $what: the output does not name \"$needle\":"; cat "$work/out"
    failures=$((failures + 1)); return
  fi
  echo "ok: $what"
}

python3 "$check" >/dev/null && echo "ok: the package's own map holds" ||
  { echo "FAIL: the package's own map does not hold:"; python3 "$check" || true; failures=$((failures + 1)); }

sed 's#`Pipeline/SnapshotDecision.swift`#`Pipeline/SnapshotVerdict.swift`#' ARCHITECTURE.md >"$work/path.md"
expect_failure "a renamed file" "no file or folder \`Pipeline/SnapshotVerdict.swift\`" \
  python3 "$check" --map "$work/path.md"

sed 's#`decideSnapshot`#`decideSnapshotNow`#' ARCHITECTURE.md >"$work/symbol.md"
expect_failure "a renamed function" "decideSnapshotNow, which no code of the package holds" \
  python3 "$check" --map "$work/symbol.md"

sed 's#Allowed in: `Sources/SnapshotReview/Serve/ReportServer.swift`#Allowed in: `Sources/SnapshotReview/Serve/ReportServer.swift`, `Sources/SnapshotTesting/Diff/LineDiff.swift`#' \
  ARCHITECTURE.md >"$work/stale.md"
grep -q "Diff/LineDiff.swift\`" "$work/stale.md" ||
  { echo "FAIL: the test's edit of the map no longer applies (raw sockets' list moved)"; exit 1; }
expect_failure "a stale allowed place" "allows \`Sources/SnapshotTesting/Diff/LineDiff.swift\`, which holds none" \
  python3 "$check" --map "$work/stale.md"

# The module graph: a module the map leaves out, one it invents, and a row that lacks a dependency.
grep -v "^CPrefetch  " ARCHITECTURE.md >"$work/unmapped.md"
expect_failure "a module missing from the map" "module CPrefetch (Package.swift) is missing" \
  python3 "$check" --map "$work/unmapped.md"
sed 's#^RunRecord                  → Foundation only#&\nImaginaryModule            → RunRecord#' ARCHITECTURE.md \
  >"$work/invented.md"
expect_failure "a module the map invents" "the map names module ImaginaryModule" \
  python3 "$check" --map "$work/invented.md"
sed 's#^\(SnapshotReview  *→ .*\), ChildProcesses$#\1#' ARCHITECTURE.md >"$work/lacking.md"
expect_failure "a row that lacks a dependency" "SnapshotReview's row differs from Package.swift; the map lacks ChildProcesses" \
  python3 "$check" --map "$work/lacking.md"

# A copy of the tree with one offending file per rule (not a Git checkout: the walk lists it).
mkdir -p "$work/tree"
cp -R Sources ARCHITECTURE.md Package.swift "$work/tree/"
for folder in Tests scripts Fuzz Benchmarks Examples Documentation; do
  [ -e "$folder" ] && cp -R "$folder" "$work/tree/"
done
cat >"$work/tree/Sources/SnapshotTesting/Offender.swift" <<'SWIFT'
import Foundation
@TaskLocal var hidden = 0
let home = ProcessInfo.processInfo.environment["HOME"]
func save() throws { try Data().write(to: URL(fileURLWithPath: "/tmp/x")) }
func run() { let process = Process() ; _ = process }
let descriptor = socket(AF_INET, 1, 0)
SWIFT
# Imports its row does not allow: RunRecord reaching up into the core, and a test framework in a
# module the review tool links.
printf 'import Foundation\nimport SnapshotTesting\n' >"$work/tree/Sources/RunRecord/Reach.swift"
printf '#if canImport(XCTest)\nimport XCTest\n#endif\n' >"$work/tree/Sources/PNGCodec/Framework.swift"
# The other spellings of the same calls, one a line.
cat >"$work/tree/Sources/SnapshotTesting/Spellings.swift" <<'SWIFT'
import Foundation
let started = try? Process.run(URL(fileURLWithPath: "/bin/true"), arguments: [])
let status = system("true")
let stream = popen("true", "r")
let file = fopen("/tmp/x", "w")
let descriptor = socket(Int32(AF_INET6), 1, 0)
SWIFT
# A transport file of the web module that names the session layer's browser, and a file in no
# layer at all.
echo 'func upward() { _ = SharedBrowser.shared }  // "PageSession" in text is no use' \
  >"$work/tree/Sources/WebSnapshotTesting/Transport/Upward.swift"
echo 'struct Loose {}' >"$work/tree/Sources/WebSnapshotTesting/Loose.swift"
python3 "$check" --root "$work/tree" >"$work/out" 2>&1 && status=0 || status=$?
# Each fault planted in the tree must be named in the one run's output.
expect_in_tree_output() {  # what, fault text
  if [ "$status" -ne 0 ] && grep -qF -- "$2" "$work/out"; then
    echo "ok: $1: $2"
  else
    echo "FAIL: $1: \"$2\" was not reported:"; cat "$work/out"
    failures=$((failures + 1))
  fi
}
expect_in_tree_output "web layers" "Transport/Upward.swift:1: names \`SharedBrowser\` of a higher layer"
expect_in_tree_output "web layers" "Loose.swift: declares Loose but is in no layer"
expect_in_tree_output imports "RunRecord/Reach.swift:2: imports SnapshotTesting, which RunRecord's row"
expect_in_tree_output imports \
  "PNGCodec/Framework.swift:2: imports XCTest, but PNGCodec is linked by the review tool"
for fault in "2: process spawn" "3: process spawn" "4: process spawn" "5: whole-file write" \
  "6: raw socket"; do
  expect_in_tree_output "another spelling" "Spellings.swift:$fault outside"
done
if grep -q "names \`PageSession\`" "$work/out"; then
  echo "FAIL: web layers: a name in a comment or a string counted"; failures=$((failures + 1))
fi
for kind in "environment read" "whole-file write" "task-local" "process spawn" "raw socket"; do
  if [ "$status" -ne 0 ] && grep -q "Offender.swift:.*: $kind outside" "$work/out"; then
    echo "ok: $kind outside its places"
  else
    echo "FAIL: $kind outside its places was not reported:"; cat "$work/out"
    failures=$((failures + 1))
  fi
done

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) of check-architecture.py failed" >&2
  exit 1
fi
echo "check-architecture.py: every fault was caught"
