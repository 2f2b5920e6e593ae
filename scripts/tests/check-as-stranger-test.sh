#!/usr/bin/env bash
# Proves that scripts/check-as-stranger.sh can fail: after a passing run (which leaves the clone
# and the build folder warm, so each case below rebuilds only the stranger's test files), it must
# fail, naming the fault, when a page's example uses a declaration the page does not show, when an
# example lacks an import, and when the install line works only for a clone whose folder is named
# `swift-snapshot-testing`; and, before building, when a product has no install section or a
# page's install line is not the README's. Each fault is put back in the check's clone
# (STRANGER_EDIT), never in this checkout; the next run resets the clone to the checkout.
#
#   scripts/tests/check-as-stranger-test.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
check=scripts/check-as-stranger.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

expect_failure() {  # description, text the output must hold, the edit of the clone
  local what=$1 needle=$2 edit=$3
  if STRANGER_EDIT=$edit "$check" >"$work/out" 2>&1; then
    echo "FAIL: $what: the check passed"; failures=$((failures + 1)); return
  fi
  if ! grep -qF -- "$needle" "$work/out"; then
    echo "FAIL: $what: the output does not name \"$needle\":"; tail -30 "$work/out"
    failures=$((failures + 1)); return
  fi
  echo "ok: $what"
}

"$check" >"$work/out" 2>&1 && echo "ok: the pages as they are pass" ||
  { echo "FAIL: the pages as they are fail:"; tail -30 "$work/out"; failures=$((failures + 1)); }

# The README's `User`, which its example uses, no longer shown (as when a fixture supplied it).
expect_failure "a declaration the page does not show" "cannot find 'User' in scope" \
  "sed -i '/^struct User: Codable {\$/,/^}\$/d' README.md"

# The custom-dump page's example without its one import.
expect_failure "a missing import" "cannot find 'assertSnapshot' in scope" \
  "sed -i '/^import SnapshotTestingCustomDump\$/d' \
    Sources/SnapshotTestingCustomDump/Documentation.docc/SnapshotTestingCustomDump.md"

# Every install line back to `.package(path:)`, which names the package after its folder.
expect_failure "an install line that depends on the folder's name" \
  "unknown package 'swift-snapshot-testing'" \
  "sed -i 's|.package(name: \"swift-snapshot-testing\", path: |.package(path: |' \
    README.md Sources/*/Documentation.docc/*.md"

# Two faults found before anything is built: a product no page installs, and a page whose line
# for the package is not the README's.
expect_failure "a product without an install section" \
  "no install section (README.md or a product's article) adds the product SnapshotTestingCustomDump" \
  "sed -i '/.product(name: \"SnapshotTestingCustomDump\"/d' \
    Sources/SnapshotTestingCustomDump/Documentation.docc/SnapshotTestingCustomDump.md"
expect_failure "an install line unlike the README's" "its line for this package is not the README's" \
  "sed -i 's|path: \"../snapshot-testing\")|path: \"../swift-snapshot-testing\")|' \
    Sources/HTTPSnapshotTesting/Documentation.docc/HTTPSnapshots.md"

[ $failures -eq 0 ] || { echo "$failures case(s) failed" >&2; exit 1; }
echo "The stranger check passes the pages as they are and fails on each fault put back."
