#!/usr/bin/env bash
# Rewriting a 5,000-line test file with 200 inline snapshots: this package's scanner against the
# swift-syntax rewriter it replaced (Oracle/Sources/RewriteBenchmark), alternated run by run on
# the same text and changes; fails if the two write different texts. Prints a Markdown table.
#
#   Benchmarks/rewrite-time.sh            # debug, as a test process that rewrites its file is built
#   RELEASE=1 Benchmarks/rewrite-time.sh  # release (the scanner's; swift-syntax is the toolchain's
#                                         # release build either way)
#
# The program lives in the Oracle package because swift-syntax may be linked nowhere else.
# ROUNDS sets the runs of each (default 9).
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
if [[ ${RELEASE:-0} == 1 ]]; then
  # The benchmark reaches the scanner's internal entry point (`@testable import`).
  flags=(-c release -Xswiftc -enable-testing --scratch-path "$root/Oracle/.build-release")
else
  flags=(--scratch-path "$root/Oracle/.build")
fi
swift build --package-path "$root/Oracle" "${flags[@]}" --product RewriteBenchmark >&2
"$(swift build --package-path "$root/Oracle" "${flags[@]}" --show-bin-path)/RewriteBenchmark"
