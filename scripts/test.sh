#!/usr/bin/env bash
# Runs the package's whole test suite (XCTest and Swift Testing), after making sure what it needs
# is installed: libpng, zlib and libdeflate (images), Debian's Chromium and its headless shell (the
# web snapshots, which prefer the shell, and the HTML report's browser tests), SQLite's library
# and PostgreSQL 15 (the database tests) and PyPI's pixelmatch (the anti-aliasing cross-check). Extra
# arguments go to `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v swift >/dev/null || { echo "The Swift toolchain is not on PATH (https://swift.org/install)." >&2; exit 1; }
scripts/require-system-packages.sh --with-chromium --with-databases --with-pixelmatch

swift test "$@"
