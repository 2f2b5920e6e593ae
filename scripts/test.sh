#!/usr/bin/env bash
# Runs the package's whole test suite (XCTest and Swift Testing), after making sure libpng and
# zlib are installed. Extra arguments go to `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v swift >/dev/null || { echo "The Swift toolchain is not on PATH (https://swift.org/install)." >&2; exit 1; }
scripts/require-system-packages.sh

swift test "$@"
