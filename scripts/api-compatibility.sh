#!/usr/bin/env bash
# Lists every public declaration of upstream's SnapshotTesting module (1.19.7) that this package's
# SnapshotTesting module lacks or declares differently, with the toolchain's swift-api-digester.
# Additions (APIs only this package has) are not listed. Needs network access to the upstream
# repository or a local mirror of it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${TMPDIR:-/tmp}/snapshot-testing-api-check"
target="$(swift -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -n 1)"
mkdir -p "$work"

if [ ! -d "$work/upstream" ]; then
  git clone -q --branch 1.19.7 https://github.com/pointfreeco/swift-snapshot-testing "$work/upstream"
fi
(cd "$work/upstream" && swift build --target SnapshotTesting --scratch-path "$work/upstream-build" >/dev/null)
(cd "$root" && swift build --target SnapshotTesting --scratch-path "$work/ours-build" >/dev/null)

swift-api-digester -dump-sdk -module SnapshotTesting -target "$target" \
  -I "$work/upstream-build/debug/Modules" -o "$work/upstream.json"
swift-api-digester -dump-sdk -module SnapshotTesting -target "$target" \
  -I "$work/ours-build/debug/Modules" -o "$work/ours.json"
swift-api-digester -diagnose-sdk --input-paths "$work/upstream.json" --input-paths "$work/ours.json" \
  | grep -v '^/\*' | grep -v '^$' || echo "No differences."
