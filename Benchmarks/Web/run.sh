#!/usr/bin/env bash
# Web snapshots against Playwright on the same twelve pages and the same Chromium, viewport
# 800×600: warm (median of 50 snapshots in a running browser), cold (a fresh process: start the
# browser, take the first snapshot; median of 5), and 50 snapshots at once.
#
# Warm is measured three ways in one process, taking turns: as every snapshot does (a finished
# page's context reset by the browser and reused), with the reset skipped (unsafe: measurement
# only, through `ContextReuseMeasurement`, `@_spi(Benchmarks)`), and with a new context for
# every snapshot; then how long the reset itself took.
#
#   Benchmarks/Web/run.sh         needs /usr/bin/chromium and `pip install playwright` (its own
#                                 browser download is not used); measures
#                                 /usr/bin/chromium-headless-shell too when it is installed
set -euo pipefail
cd "$(dirname "$0")"

swift build -c release --product WebBenchmark
bin="$(swift build -c release --show-bin-path)/WebBenchmark"
pages=$(mktemp -d)
trap 'rm -rf "$pages"' EXIT
"$bin" pages "$pages"

median_of() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Each executable in turn, both sides driving the same one: Debian's Chromium, and its old
# headless shell when `chromium-headless-shell` is installed.
executables=(/usr/bin/chromium)
[ -x /usr/bin/chromium-headless-shell ] && executables+=(/usr/bin/chromium-headless-shell)
for executable in "${executables[@]}"; do
  export SNAPSHOT_TESTING_CHROMIUM="$executable"
  echo "=== $executable"
  echo "== warm ($(uptime | sed 's/.*load/load/'))"
  "$bin" warm 50
  echo -n "Playwright "
  python3 playwright_benchmark.py warm 50 "$pages"
  echo -n "Playwright "
  python3 playwright_benchmark.py parts 50 "$pages"

  echo "== cold (median of 5 fresh processes)"
  swift_cold=$(for _ in 1 2 3 4 5; do "$bin" cold | awk '{ print $2 }'; done | median_of)
  playwright_cold=$(for _ in 1 2 3 4 5; do python3 playwright_benchmark.py cold 1 "$pages" | awk '{ print $2 }'; done | median_of)
  echo "WebSnapshotTesting cold $swift_cold ms"
  echo "Playwright cold $playwright_cold ms"

  echo "== parallel"
  "$bin" parallel 50
  echo "== ($(uptime | sed 's/.*load/load/'))"
done
