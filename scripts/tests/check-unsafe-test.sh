#!/usr/bin/env bash
# Proves that scripts/check-unsafe.py can fail, on a small package it builds for real with the
# compiler's strict memory safety checking: it passes while the unsafe code stays in the owner the
# map lists, then must fail, naming file and line, when unsafe code appears in another file (as
# the compiler reports it, and as spelled in a branch this platform does not compile), on
# `@exclusivity(unchecked)`, on a stale owner, and on a build log that skipped a module.
set -euo pipefail
cd "$(dirname "$0")/../.."
check=$PWD/scripts/check-unsafe.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

expect() {  # pass|fail, description, text the output must hold, command…
  local outcome=$1 what=$2 needle=$3 status=0
  shift 3
  "$@" >"$work/out" 2>&1 || status=$?
  if [[ $outcome == pass && $status != 0 ]] || [[ $outcome == fail && $status == 0 ]]; then
    echo "FAIL: $what: the check exited $status"; cat "$work/out"
    failures=$((failures + 1)); return
  fi
  if ! grep -qF -- "$needle" "$work/out"; then
    echo "FAIL: $what: the output does not name \"$needle\":"; cat "$work/out"
    failures=$((failures + 1)); return
  fi
  echo "ok: $what"
}

package=$work/package
mkdir -p "$package/Sources/Owner" "$package/Sources/Clean"
cat >"$package/Package.swift" <<'SWIFT'
// swift-tools-version:6.0
import PackageDescription
let package = Package(name: "unsafe-check", targets: [
  .target(name: "Owner"), .target(name: "Clean", dependencies: ["Owner"]),
])
SWIFT
cat >"$package/Sources/Owner/Scratch.swift" <<'SWIFT'
/// Owns raw memory for the test: allocated once, freed in deinit.
public struct Scratch: ~Copyable {
  let base = UnsafeMutablePointer<UInt8>.allocate(capacity: 8)
  public init() { base.initialize(repeating: 0, count: 8) }
  public func byte(_ index: Int) -> UInt8 { index < 8 ? base[index] : 0 }
  deinit { base.deallocate() }
}
SWIFT
cat >"$package/Sources/Clean/Sum.swift" <<'SWIFT'
import Owner
public func sum(_ values: [UInt8]) -> Int {
  var total = 0
  for value in values { total += Int(value) }
  return total + Int(Scratch().byte(0))
}
SWIFT
map() {  # the owners' list
  cat >"$package/ARCHITECTURE.md" <<MD
# Map
## Checked rules
- **unsafe code** (a test map). Allowed in: $1.
- **unsafe code still to move**: none. Allowed in: $2.
MD
}
map '`Sources/Owner/Scratch.swift`' ''
expect pass "unsafe code only in its owner" "1 owners" python3 "$check" --root "$package"

cat >>"$package/Sources/Clean/Sum.swift" <<'SWIFT'
public func first(_ values: [UInt8]) -> UInt8 {
  values.withUnsafeBufferPointer { $0.baseAddress?.pointee ?? 0 }
}
SWIFT
expect fail "a raw pointer outside the owners" "Sources/Clean/Sum.swift:8: unsafe code outside" \
  python3 "$check" --root "$package"
map '`Sources/Owner/Scratch.swift`' '`Sources/Clean/Sum.swift`'
expect pass "the same file on the list still to move" "in 1 files still to move" \
  python3 "$check" --root "$package"

# The compiler's own diagnostic, without a spelling the text scan knows: a C call through an
# inout-to-pointer conversion.
map '`Sources/Owner/Scratch.swift`' ''
cat >"$package/Sources/Clean/Sum.swift" <<'SWIFT'
import Foundation
import Owner
public func isFolder(_ path: String) -> Bool {
  var folder: ObjCBool = false
  return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
}
SWIFT
expect fail "what only the compiler reports" "Sources/Clean/Sum.swift:5: unsafe code outside" \
  python3 "$check" --root "$package"

cat >"$package/Sources/Clean/Sum.swift" <<'SWIFT'
#if os(Windows)
let zero = unsafe UnsafeMutablePointer<Int>.allocate(capacity: 1)
#endif
public func one() -> Int { 1 }
SWIFT
expect fail "a spelling in a branch Linux does not compile" "Sources/Clean/Sum.swift:2: unsafe code" \
  python3 "$check" --root "$package"

cat >"$package/Sources/Clean/Sum.swift" <<'SWIFT'
final class Counter { @exclusivity(unchecked) var count = 0 }
SWIFT
map '`Sources/Owner/Scratch.swift`' '`Sources/Clean/Sum.swift`'
expect fail "@exclusivity(unchecked), even in a listed file" "Sum.swift:1: @exclusivity(unchecked) is refused" \
  python3 "$check" --root "$package"

map '`Sources/Owner/Scratch.swift`, `Sources/Clean/Sum.swift`' ''
printf 'public func one() -> Int { 1 }\n' >"$package/Sources/Clean/Sum.swift"
expect fail "a stale owner" "lists \`Sources/Clean/Sum.swift\`, which holds none" \
  python3 "$check" --root "$package"

map '`Sources/Owner/Scratch.swift`' ''
printf '[1/2] Compiling Owner Scratch.swift\n' >"$work/partial.log"
expect fail "a build log that skipped a module" "compiled none of Clean" \
  python3 "$check" --root "$package" --log "$work/partial.log"

if ((failures > 0)); then
  echo "$failures case(s) of scripts/check-unsafe.py failed" >&2
  exit 1
fi
echo "scripts/check-unsafe.py fails on every planted fault."
