#!/usr/bin/env bash
# Shows the library at work on the small package in Examples/Demo: the first run records its
# snapshots (text, JSON, an image, and a web page rendered by headless Chromium as its
# accessibility tree and its pixels), the second matches them, the third simulates a regression
# and fails with text diffs and image diffs; then the snapshot-testing tool reviews, reports and accepts the new snapshots,
# and a last run passes. References and artifacts go to a temporary folder; the repository is
# untouched. DEMO_SCRATCH_PATH names the build folder (default Examples/Demo/.build); CI gives the
# one its other example packages share, so the library is compiled once for all of them.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scratch=(--scratch-path "$(realpath -m "${DEMO_SCRATCH_PATH:-Examples/Demo/.build}")")

command -v swift >/dev/null || { echo "The Swift toolchain is not on PATH (https://swift.org/install)." >&2; exit 1; }
scripts/require-system-packages.sh --with-chromium

work="$(mktemp -d)"
export SNAPSHOT_TESTING_REFERENCE_DIR="$work/references"
export SNAPSHOT_ARTIFACTS="$work/artifacts"
cd Examples/Demo

heading() { printf '\n\033[1m== %s\033[0m\n' "$1"; }
# Swift Testing's output without the "started" lines; returns the tests' exit status.
run_tests() {
  local status=0
  swift test "${scratch[@]}" --skip-build --disable-xctest "$@" > "$work/output.txt" 2>&1 || status=$?
  grep -v ' started\.$' "$work/output.txt" || true
  return "$status"
}
# The demo checks its own story, so that a broken library cannot look like a working demo.
expect_failures() { if run_tests "$@"; then echo "demo: expected failing snapshots" >&2; exit 1; fi; }
expect_success() { run_tests "$@" || { echo "demo: expected every snapshot to match" >&2; exit 1; }; }

heading "Building the demo package (Examples/Demo)"
# Without debug information: nothing here is stepped through in a debugger, and the build is about
# a sixth shorter.
no_debug_info=(-Xswiftc -gnone -Xcc -g0)
swift build "${scratch[@]}" --build-tests "${no_debug_info[@]}" 2>&1 | tail -n 1
swift build "${scratch[@]}" --product snapshot-testing "${no_debug_info[@]}" 2>&1 | tail -n 1

heading "1. First run: no references yet, so each assertion records one and fails"
SNAPSHOT_TESTING_RECORD=missing expect_failures
echo
echo "Recorded references:"
(cd "$SNAPSHOT_TESTING_REFERENCE_DIR" && find . -type f | sort | sed 's|^\./|  |')

heading "2. Second run: every snapshot matches its reference"
expect_success

heading "3. A regression: one invoice line and one bar changed (in the text, the JSON, the page and the chart)"
mkdir -p "$work/attachments"
DEMO_VARIANT=changed expect_failures --attachments-path "$work/attachments"
echo
echo "Failed snapshots and diff files (SNAPSHOT_ARTIFACTS):"
(cd "$SNAPSHOT_ARTIFACTS" && find . -type f | sort | sed 's|^\./|  |')
echo
echo "Attached to the failing Swift Testing tests (swift test --attachments-path):"
(cd "$work/attachments" && find . -type f | sort | sed 's|^\./|  |')
echo
# The artifacts mirror the references' folders (Tests/<target>/<test file>/…).
echo "Open $SNAPSHOT_ARTIFACTS/Tests/DemoTests/ChartTests/revenueChart.1.difference.png to see the changed bar in red,"
echo "and $SNAPSHOT_ARTIFACTS/Tests/DemoTests/InvoiceTests/invoicePage.2.difference.png for the page's changed row."

heading "4. Review the pending failures, write an HTML report, and accept the new snapshots"
swift run "${scratch[@]}" --skip-build snapshot-testing review --list || true
swift run "${scratch[@]}" --skip-build snapshot-testing report --output "$work/report.html"
swift run "${scratch[@]}" --skip-build snapshot-testing accept --all

heading "5. The changed values now match their accepted references"
DEMO_VARIANT=changed expect_success
echo
echo "The HTML report of step 3's failures: $work/report.html"
