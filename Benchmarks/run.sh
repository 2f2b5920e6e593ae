#!/usr/bin/env bash
# Builds the benchmarks and upstream's twin in release mode, runs both and GNU `diff -u` on the
# same input files in one go, and prints Markdown tables of medians and ratios.
#
#   Benchmarks/run.sh
#
# Environment:
#   SCRATCH             scratch folder for both builds (default: .build, inside each package)
#   UPSTREAM_MAX_LINES  largest input given to upstream (default 20000; it needs minutes there
#                       and far longer at 50000, so larger inputs are skipped and marked so)
#   UPSTREAM_CAP        seconds one upstream run may take before it is stopped (default 300)
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)
scratch=${SCRATCH:-.build}
upstream_max_lines=${UPSTREAM_MAX_LINES:-20000}
upstream_cap=${UPSTREAM_CAP:-300}

echo "Building (release)…" >&2
swift build -c release --scratch-path "$scratch" --product LineDiffBenchmark >&2
ours="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/LineDiffBenchmark"
(cd Upstream && swift build -c release --scratch-path "$scratch" --product UpstreamLineDiffBenchmark >&2)
upstream="$(cd Upstream && swift build -c release --scratch-path "$scratch" --show-bin-path)/UpstreamLineDiffBenchmark"

inputs=$(mktemp -d)
trap 'rm -rf "$inputs"' EXIT
"$ours" generate "$inputs"

# Runs per measurement (the median is reported).
runs_for() {
  case $1 in 1000) echo 51 ;; 5000) echo 21 ;; 20000) echo 11 ;; *) echo 7 ;; esac
}
upstream_runs_for() {
  case $1 in 1000) echo 5 ;; *) echo 1 ;; esac
}

# Median wall time of `diff -u` in milliseconds, process start included.
gnu_ms() {
  local samples=() start end
  for _ in $(seq "$3"); do
    start=${EPOCHREALTIME/./}
    diff -u "$1" "$2" >/dev/null || true
    end=${EPOCHREALTIME/./}
    samples+=($((end - start)))
  done
  printf '%s\n' "${samples[@]}" | sort -n |
    awk '{ a[NR] = $1 } END { printf "%.3f", a[int((NR + 1) / 2)] / 1000 }'
}

# Median wall time of starting /bin/true, to read GNU diff's figures against.
spawn_ms() {
  local samples=() start end
  for _ in $(seq 21); do
    start=${EPOCHREALTIME/./}
    /bin/true
    end=${EPOCHREALTIME/./}
    samples+=($((end - start)))
  done
  printf '%s\n' "${samples[@]}" | sort -n |
    awk '{ a[NR] = $1 } END { printf "%.3f", a[int((NR + 1) / 2)] / 1000 }'
}

ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN {
    if (!(b > 0) || a != a + 0) { print "—"; exit }
    r = a / b
    if (r >= 10) printf "%.0f×", r; else printf "%.2f×", r
  }'
}

# Runs one measurement; prints "milliseconds printed-lines".
measure() {
  local binary=$1 old=$2 new=$3 runs=$4 log
  log=$(mktemp)
  local ms
  ms=$("$binary" diff "$old" "$new" "$runs" 2>"$log")
  echo "$ms $(sed -n 's/^diff printed \([0-9]*\) lines$/\1/p' "$log")"
  rm -f "$log"
}

table() {
  local series=$1 title=$2
  echo
  echo "### $title"
  echo
  echo "| lines | changed | ours (ms) | upstream 1.19.7 (ms) | GNU diff -u (ms) | upstream ÷ ours | ours ÷ GNU | lines printed: ours / upstream |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
  for size in 1000 5000 20000 50000; do
    local old="$inputs/$series-$size.old.txt" new="$inputs/$series-$size.new.txt"
    local changed
    changed=$(diff "$old" "$new" | grep -c '^<' || true)
    read -r ours_ms ours_lines <<<"$(measure "$ours" "$old" "$new" "$(runs_for "$size")")"
    local gnu
    gnu=$(gnu_ms "$old" "$new" "$(runs_for "$size")")
    local up_ms="skipped (> $upstream_max_lines lines)" up_lines="—" up_ratio="—"
    if [ "$size" -le "$upstream_max_lines" ]; then
      local result
      if result=$(timeout "$upstream_cap" bash -c "$(declare -f measure); measure '$upstream' '$old' '$new' $(upstream_runs_for "$size")"); then
        read -r up_ms up_lines <<<"$result"
        up_ratio=$(ratio "$up_ms" "$ours_ms")
        [ "$(upstream_runs_for "$size")" = 1 ] && up_ms="$up_ms (1 run)"
      else
        up_ms="> ${upstream_cap} s (stopped)"
      fi
    fi
    echo "| $size | $changed | $ours_ms | $up_ms | $gnu | $up_ratio | $(ratio "$ours_ms" "$gnu") | $ours_lines / $up_lines |"
  done
}

echo "Run on $(date -u +%Y-%m-%d): $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start."
table percent "1% of lines changed"
table fixed "10 lines changed, whatever the size"
echo
echo "Starting \`/bin/true\` the way GNU diff is started above: $(spawn_ms) ms."
echo
echo "### One matching assertion"
echo
echo "| assertion | ours (ms) | upstream 1.19.7 (ms) | upstream ÷ ours |"
echo "|---|---:|---:|---:|"
ours_assert=$("$ours" assert 51)
upstream_assert=$("$upstream" assert 51)
echo "| \`verifySnapshot(of: text, as: .lines)\`, 5,000 lines, reference on disk, \`record: .never\` | $ours_assert | $upstream_assert | $(ratio "$upstream_assert" "$ours_assert") |"
# TODO: add the matching `.dump` assertion row once `Snapshotting.dump` exists in this package
# (see `assertion(runs:)` in Sources/LineDiffBenchmark/main.swift).
