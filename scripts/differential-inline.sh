#!/usr/bin/env bash
# The differential test of the inline rewriter: the package's own Swift scanner against the
# swift-syntax rewriter it replaced (the Oracle package), edit for edit, on every .swift file of a
# corpus. Fails on any difference, or on a text the scanner writes where swift-syntax refused.
#
#   scripts/differential-inline.sh [--full] [FOLDER…]
#
# Without folders the corpus is the test suites of swift-snapshot-testing 1.19.7,
# swift-macro-testing, swift-dependencies and swift-case-paths, cloned into
# .build-differential/corpus (once), Oracle/Corpus (shapes of the suites issue 47 tried) and this
# package's Tests: what CI runs. --full adds swift-syntax's own test suite (78,000 lines) and
# swift-structured-queries (when the mirror has it). The Oracle package links the toolchain's own
# swift-syntax (built in release, in usr/lib/swift/host), so nothing of swift-syntax is built
# here; the Oracle and this package's modules are, in a debug build (Oracle/.build).
# DIFFERENTIAL_CALLS_PER_FILE (default 16) sets how many call sites of each file are tried.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

full=0
if [ "${1:-}" = "--full" ]; then
  full=1
  shift
fi
folders=("$@")
if [ ${#folders[@]} -eq 0 ]; then
  corpus="$root/.build-differential/corpus"
  mkdir -p "$corpus"
  clone() {  # clone OWNER/NAME [TAG]: a shallow copy of the mirror's repository, once.
    local name="${1#*/}"
    if [ ! -d "$corpus/$name" ]; then
      git clone -q ${2:+--branch "$2"} "https://github.com/$1" "$corpus/$name" 2>/dev/null ||
        { echo "note: $1 is not in the mirror; left out of the corpus" >&2; return 0; }
    fi
  }
  names=(swift-snapshot-testing swift-macro-testing swift-dependencies swift-case-paths)
  clone pointfreeco/swift-snapshot-testing 1.19.7
  clone pointfreeco/swift-macro-testing
  clone pointfreeco/swift-dependencies
  clone pointfreeco/swift-case-paths
  if [ "$full" = 1 ]; then
    clone swiftlang/swift-syntax
    clone pointfreeco/swift-structured-queries
    names+=(swift-syntax swift-structured-queries)
  fi
  for name in "${names[@]}"; do
    [ -d "$corpus/$name/Tests" ] && folders+=("$corpus/$name/Tests")
  done
  # Shapes of the suites issue 47 tried (Oracle/Corpus/README.md), and this package's tests.
  folders+=("$root/Oracle/Corpus" "$root/Tests")
fi

corpus_list=$(IFS=:; echo "${folders[*]}")
cd Oracle
# Without debug information (a sixth of a debug build's time): a difference is reported as text.
flags=(-Xswiftc -gnone -Xcc -g0)
swift build ${flags[@]+"${flags[@]}"} --build-tests
DIFFERENTIAL_CORPUS="$corpus_list" swift test ${flags[@]+"${flags[@]}"} --skip-build \
  --filter DifferentialInlineTests 2>&1 | grep -v -E '^(◇|↳|Test Suite|Test Case)'
