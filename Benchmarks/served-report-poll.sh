#!/usr/bin/env bash
# Times the served report (`snapshot-testing report --serve`, release build) with 5,000 pending
# failures: the first page (and its size), another page, the page's one-second poll of
# `/api/state` while nothing changes, and the first poll after a record is written. Prints a
# Markdown table of medians.
#
#   Benchmarks/served-report-poll.sh [FAILURES [POLLS]]     (defaults: 5000 and 21)
#
# The tool is built from this package's release build of the main package (the benchmarks'
# scratch folder), so it shares the build with `run.sh`; TOOL=<path of a built snapshot-testing>
# uses that one instead. FIRST_PAGE_AFTER=<seconds> asks for the first page that long after the
# server printed its address (default 0: at once, while it still reads the records). Needs curl.
set -euo pipefail
cd "$(dirname "$0")"
failures=${1:-5000}
polls=${2:-21}
scratch=${SCRATCH:-.build}

first_page_after=${FIRST_PAGE_AFTER:-0}
label="release build"
if [ -n "${TOOL:-}" ]; then
  tool=$TOOL
  label="$(basename "$(dirname "$tool")") build"
else
  echo "Building (release)…" >&2
  swift build -c release --scratch-path "$scratch" --product snapshot-testing >&2
  tool="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/snapshot-testing"
fi

work=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# A package and its artifacts folder with FAILURES records of missing text references, written as
# the tests write them (`FailureRecord` version 3).
mkdir -p "$work/App/Tests/AppTests/__Snapshots__/AppTests"
mkdir -p "$work/artifacts/.snapshot-testing/failures"
{
  echo '// swift-tools-version:6.0'
  echo 'import PackageDescription'
  echo 'let package = Package(name: "App")'
} > "$work/App/Package.swift"
python3 - "$work" "$failures" <<'PY'
import json, os, sys
work, count = sys.argv[1], int(sys.argv[2])
folder = os.path.join(work, "artifacts/.snapshot-testing/failures")
test_file = os.path.join(work, "App/Tests/AppTests/AppTests.swift")
for index in range(count):
    reference = os.path.join(
        work, f"App/Tests/AppTests/__Snapshots__/AppTests/test{index}.1.txt")
    snapshot = os.path.join(work, f"artifacts/test{index}.1.txt")
    with open(snapshot, "w") as f:
        f.write(f"snapshot {index}\n")
    record = {
        "version": 3, "reason": "missing", "kind": "text", "pathExtension": "txt",
        "testName": f"test{index}()", "testFilePath": test_file, "line": 10 + index,
        "snapshotName": None, "referencePath": reference,
        "headline": "No reference was found on disk.", "difference": None,
        "diffToolCommand": None, "files": [{"role": "newSnapshot", "path": snapshot}],
        "message": f"No reference was found on disk for test{index}.", "recordedAt": 0,
        "inline": None,
    }
    with open(os.path.join(folder, f"{index:016x}.json"), "w") as f:
        json.dump(record, f)
PY
# As if the run were long past: a folder changed within the last second is always rescanned.
touch -d '1 hour ago' "$work/artifacts/.snapshot-testing/failures" "$work/artifacts"
# `touch` makes the folders' status-change time now: let it become more than a second old too.
sleep 1.2

cd "$work/App"
"$tool" report --serve --artifacts "$work/artifacts" > "$work/server.log" 2>&1 &
server=$!
port=""
for _ in $(seq 1 600); do
  port=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/.*#\1#p' "$work/server.log" | head -n 1)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { cat "$work/server.log" >&2; echo "the server did not start" >&2; exit 1; }

# Milliseconds of one request, as curl measures it (connect to last byte).
timed() {
  curl -s -o /dev/null -H "Host: 127.0.0.1:$port" -w '%{time_total}\n' "http://127.0.0.1:$port$1" \
    | awk '{ printf "%.2f\n", $1 * 1000 }'
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

sleep "$first_page_after"
page=$(timed /)
page_bytes=$(curl -s -H "Host: 127.0.0.1:$port" "http://127.0.0.1:$port/" | wc -c)
other_page=$(for _ in $(seq 1 5); do timed "/?page=2"; done | median)
unchanged=$(for _ in $(seq 1 "$polls"); do timed /api/state; done | median)
cp "$work/artifacts/.snapshot-testing/failures/0000000000000000.json" \
  "$work/artifacts/.snapshot-testing/failures/new.json.tmp"
mv "$work/artifacts/.snapshot-testing/failures/new.json.tmp" \
  "$work/artifacts/.snapshot-testing/failures/ffffffffffffffff.json"
changed=$(timed /api/state)
pending=$(curl -s -H "Host: 127.0.0.1:$port" "http://127.0.0.1:$port/api/state" \
  | sed -n 's/.*"pending":\([0-9]*\).*/\1/p')

echo "### The served report with $failures pending failures ($label)"
echo
echo "| request | time |"
echo "|---|---:|"
echo "| the first page (\`GET /\` $first_page_after s after the start, shows 100; $page_bytes bytes) | $page ms |"
echo "| another page (\`GET /?page=2\`, nothing changed, median of 5) | $other_page ms |"
echo "| a poll while nothing changed (median of $polls) | **$unchanged ms** |"
echo "| the first poll after a record was written | $changed ms (pending: $pending) |"
