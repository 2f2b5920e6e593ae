#!/usr/bin/env bash
# Checks scripts/check-doc-examples.sh itself: an article whose example compiles as written
# passes; one whose example lacks an import, or imports a product its install section does not
# name, fails, naming the error. Each case is the whole check plus one article
# (SNAPSHOT_TESTING_DOC_EXTRA), so after a first run only that article's target is built.
#
#   scripts/doc-examples/test.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# An article with an install section naming only SnapshotTesting and one example.
article() {
  cat <<MD
# Check of the check

<!-- not compiled: a fragment of Package.swift -->
\`\`\`swift
// Package.swift
.product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
\`\`\`

\`\`\`swift
$1
import Testing

@Test func greeting() {
  assertSnapshot(of: "Hello", as: .lines)
}
\`\`\`
MD
}

failures=0
# expect <case> <pass|fail> <text the output must contain> <example's first line>
expect() {
  local name=$1 outcome=$2 needle=$3
  article "$4" >"$work/DocCheck.md"
  local status=0
  SNAPSHOT_TESTING_DOC_EXTRA="$work/DocCheck.md" "$root/scripts/check-doc-examples.sh" \
    >"$work/$name.log" 2>&1 || status=$?
  if [ "$outcome" = pass ] && [ $status -ne 0 ]; then
    echo "FAIL $name: the check failed on an example that compiles as written" >&2
    tail -20 "$work/$name.log" >&2
    failures=$((failures + 1))
  elif [ "$outcome" = fail ] && [ $status -eq 0 ]; then
    echo "FAIL $name: the check passed" >&2
    failures=$((failures + 1))
  elif ! grep -qF -- "$needle" "$work/$name.log"; then
    echo "FAIL $name: the output does not contain: $needle" >&2
    tail -20 "$work/$name.log" >&2
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}

expect complete-example pass "Code examples:" "import SnapshotTesting"
expect missing-import fail "cannot find 'assertSnapshot' in scope" "// no import of SnapshotTesting"
expect product-not-installed fail "imports another target (HTTPSnapshotTesting)" \
  "import HTTPSnapshotTesting"
# The check leaves no target of the extra article behind for the next run.
"$root/scripts/check-doc-examples.sh" >/dev/null

[ $failures -eq 0 ] || { echo "$failures case(s) failed" >&2; exit 1; }
echo "The doc-examples check passes what compiles as written and fails what does not."
