#!/usr/bin/env bash
# Fuzzes the inline rewriter against the swift-syntax rewriter it replaced (the Oracle package's
# FuzzInlineDifferential harness) on mutated valid Swift, seeded with this package's test files.
#
#   scripts/fuzz-differential.sh SECONDS     runs the harness for SECONDS
#
# Built in debug with libFuzzer's coverage of this package's scanner (Oracle/.build-fuzz); the
# oracle's swift-syntax is the toolchain's own release build, linked and not instrumented. A difference stops the run with a non-zero status and leaves the
# input in Oracle/.build-fuzz/findings/ as crash-<sha1>; rerun it with `<binary> <file>`. CI runs
# the same check on 150 seeded mutants instead (DifferentialInlineTests, beside the tests), so
# that it needs no second build of the Oracle. Extra libFuzzer options go in FUZZ_OPTIONS.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds="${1:?usage: $0 SECONDS}"

export SNAPSHOT_TESTING_FUZZ=1
export SWIFT_BACKTRACE=enable=no
cd Oracle
flags=(--scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld)
swift build "${flags[@]}" --product FuzzInlineDifferential
binary="$(swift build "${flags[@]}" --show-bin-path)/FuzzInlineDifferential"

corpus=.build-fuzz/corpus
findings=.build-fuzz/findings
mkdir -p "$corpus" "$findings"
# Seeds: the package's own test files up to 8 KiB (a unit parses its input a few dozen times), copied once (the run adds its own inputs).
find "$root/Tests" -name '*.swift' -size -8k -exec cp -n {} "$corpus/" \;

# shellcheck disable=SC2086
"$binary" -max_total_time="$seconds" -max_len=16384 -timeout=60 -rss_limit_mb=4096 \
  -artifact_prefix="$findings/" ${FUZZ_OPTIONS:-} "$corpus"
