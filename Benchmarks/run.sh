#!/usr/bin/env bash
# Builds the benchmarks and upstream's twin in release mode, runs both and GNU `diff -u` on the
# same input files in one go, then the scrubbing and redaction benchmark, and prints Markdown
# tables of medians and ratios.
#
#   Benchmarks/run.sh
#
# Environment:
#   SCRATCH             scratch folder for both builds (default: .build, inside each package)
#   UPSTREAM_MAX_LINES  largest input given to upstream (default 20000; it needs minutes there
#                       and far longer at 50000, so larger inputs are skipped and marked so)
#   UPSTREAM_CAP        seconds one upstream run may take before it is stopped (default 300)
#   INSTRUCTIONS        0 to skip counting the matching assertions' instructions with valgrind
#   ONLY_ASSERTIONS     1 to run only the matching assertions (no line diff tables)
#   ONLY_SCRUBBING      1 to run only the scrubbing and redaction table (upstream is not built)
#   ONLY_WORST_CASES    1 to run only the line diff's worst cases against GNU diff (upstream is
#                       not built)
#   ONLY_SERVER_OUTPUT  1 to run only the `.http`, `.output` and `.terminal` tables (likewise)
#   ONLY_TRANSCRIPT     1 to run only the transcript tables (likewise)
#   ONLY_DATABASE       1 to run only the database tables (likewise)
#   BENCHMARK_POSTGRES  HOST:PORT of a PostgreSQL server for the database tables; without it a
#                       throwaway cluster is started (scripts/postgres-cluster.sh) when
#                       PostgreSQL 15's binaries are installed, and SQLite alone is measured if not
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)
scratch=${SCRATCH:-.build}
upstream_max_lines=${UPSTREAM_MAX_LINES:-20000}
upstream_cap=${UPSTREAM_CAP:-300}

echo "Building (release)…" >&2
swift build -c release --scratch-path "$scratch" --product ScrubbingBenchmark >&2
scrubbing="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/ScrubbingBenchmark"

# `.json`, `.json.scrubbing(.uuids, .iso8601Dates)`, the scrubbers alone, `.json(redacting:)` and
# Swift `Regex` on the same texts of about 1 MB and 10 MB (the program times and prints the table).
scrubbing_table() {
  echo
  echo "### Scrubbing and redaction"
  echo
  "$scrubbing"
}

# `.http`, `.output` and `.terminal` against `.json`, `Process` with a `Pipe`, and their own size
# (the program times and prints the tables).
server_output_tables() {
  swift build -c release --scratch-path "$scratch" --product ServerOutputBenchmark >&2
  echo
  echo "### Servers and command-line tools"
  echo
  "$(swift build -c release --scratch-path "$scratch" --show-bin-path)/ServerOutputBenchmark" 15
}

# `.transcript` of a request with 1,000 log entries and 200 spans against `.lines` on its text,
# and the handler with capture against a no-op logger and tracer (the program prints the tables).
transcript_tables() {
  swift build -c release --scratch-path "$scratch" --product TranscriptBenchmark >&2
  echo
  echo "### Transcripts"
  echo
  "$(swift build -c release --scratch-path "$scratch" --show-bin-path)/TranscriptBenchmark" 31
}

# `.rows` of 10,000 rows against the driver's fetch, and `.schema` of a 50-table database, on
# SQLite and on PostgreSQL (a throwaway cluster unless BENCHMARK_POSTGRES names a server).
database_tables() {
  swift build -c release --scratch-path "$scratch" --product DatabaseBenchmark >&2
  local cluster="" server=${BENCHMARK_POSTGRES:-} status=0
  if [ -z "$server" ] && [ -x /usr/lib/postgresql/15/bin/initdb ]; then
    cluster=$(mktemp -d /tmp/snapshot-testing-benchmark-postgres.XXXXXX)
    server=$(../scripts/postgres-cluster.sh start "$cluster")
  fi
  echo
  echo "### Databases"
  echo
  BENCHMARK_POSTGRES=$server \
    "$(swift build -c release --scratch-path "$scratch" --show-bin-path)/DatabaseBenchmark" 21 ||
    status=$?
  [ -z "$cluster" ] || ../scripts/postgres-cluster.sh stop "$cluster"
  return "$status"
}

if [ "${ONLY_DATABASE:-0}" = 1 ]; then
  echo "Run on $(date -u +%Y-%m-%d): $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start."
  database_tables
  echo
  echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
  exit 0
fi

if [ "${ONLY_TRANSCRIPT:-0}" = 1 ]; then
  echo "Run on $(date -u +%Y-%m-%d): $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start."
  transcript_tables
  echo
  echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
  exit 0
fi

if [ "${ONLY_SERVER_OUTPUT:-0}" = 1 ]; then
  echo "Run on $(date -u +%Y-%m-%d): $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start."
  server_output_tables
  echo
  echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
  exit 0
fi

if [ "${ONLY_SCRUBBING:-0}" = 1 ]; then
  echo "Run on $(date -u +%Y-%m-%d): $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start."
  scrubbing_table
  echo
  echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
  exit 0
fi

swift build -c release --scratch-path "$scratch" --product LineDiffBenchmark >&2
ours="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/LineDiffBenchmark"
if [ "${ONLY_WORST_CASES:-0}" != 1 ]; then
  (cd Upstream && swift build -c release --scratch-path "$scratch" --product UpstreamLineDiffBenchmark >&2)
  upstream="$(cd Upstream && swift build -c release --scratch-path "$scratch" --show-bin-path)/UpstreamLineDiffBenchmark"
fi

inputs=$(mktemp -d)
trap 'rm -rf "$inputs"' EXIT
[ "${ONLY_ASSERTIONS:-0}" = 1 ] || "$ours" generate "$inputs"

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

# The line diff where most lines change, and on unrelated repetitive texts, against GNU diff
# only: upstream needs far more than the cap there. Ours is timed in process, GNU diff with its
# process start, as above.
worst_case_table() {
  echo
  echo "### Most lines changed, and unrelated repetitive texts"
  echo
  echo "| input | lines | changed (GNU diff) | ours (ms) | GNU diff -u (ms) | ours ÷ GNU | lines printed: ours / GNU |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  local name title size runs
  for name in every-50000 half-50000 tenth-50000 coins-200000; do
    case $name in
      every-*) title="\`dump\`, every line changed" ;;
      half-*) title="\`dump\`, every 2nd line changed" ;;
      tenth-*) title="\`dump\`, every 10th line changed" ;;
      coins-*) title="random \`x\`/\`y\` lines against others" ;;
    esac
    size=${name##*-}
    runs=7
    [ "$size" -gt 50000 ] && runs=3
    local old="$inputs/$name.old.txt" new="$inputs/$name.new.txt"
    local changed gnu_lines
    changed=$(diff "$old" "$new" | grep -c '^[<>]' || true)
    gnu_lines=$(diff -u "$old" "$new" | tail -n +3 | wc -l || true)
    read -r ours_ms ours_lines <<<"$(measure "$ours" "$old" "$new" "$runs")"
    local gnu
    gnu=$(gnu_ms "$old" "$new" "$runs")
    echo "| $title | $size | $changed | $ours_ms | $gnu | $(ratio "$ours_ms" "$gnu") | $ours_lines / $gnu_lines |"
  done
}

echo "Run on $(date -u +%Y-%m-%d): $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start."
if [ "${ONLY_WORST_CASES:-0}" = 1 ]; then
  worst_case_table
  echo
  echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
  exit 0
fi
if [ "${ONLY_ASSERTIONS:-0}" != 1 ]; then
  table percent "1% of lines changed"
  table fixed "10 lines changed, whatever the size"
  worst_case_table
  echo
  echo "Starting \`/bin/true\` the way GNU diff is started above: $(spawn_ms) ms."
fi
echo
echo "### One matching assertion"
echo
echo "Median of one call, taken 3 times alternating the two programs; the middle of the 3 medians is shown."
echo
echo "| assertion | ours (ms) | upstream 1.19.7 (ms) | upstream ÷ ours | instructions a call: ours / upstream | upstream ÷ ours (instructions) | same reference bytes |"
echo "|---|---:|---:|---:|---:|---:|---|"

# Runs of one timing, and the extra calls that the instruction count is taken over.
# shellcheck source=assertion-cases.sh
. ./assertion-cases.sh
middle_of() {
  printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}
# Instructions of one matching call: callgrind's total with 2k calls minus the total with k
# calls, over k (start-up, input building and recording cancel out).
instructions_per_call() {
  local binary=$1 name=$2 k=$3 one two
  one=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" assert "$name" "$k" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
  two=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" assert "$name" $((2 * k)) 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
  awk -v a="$one" -v b="$two" -v k="$k" 'BEGIN { printf "%.0f", (b - a) / k }'
}
count_instructions=${INSTRUCTIONS:-1}
command -v valgrind >/dev/null || count_instructions=0

references=$(mktemp -d)
for name in lines-5000 lines-20 dump-200 dump-small; do
  runs=$(assert_runs_for "$name")
  ours_samples=() upstream_samples=()
  for round in 1 2 3; do
    ours_samples+=("$("$ours" assert "$name" "$runs" "$references/ours")")
    upstream_samples+=("$("$upstream" assert "$name" "$runs" "$references/upstream")")
  done
  ours_ms=$(middle_of "${ours_samples[@]}")
  upstream_ms=$(middle_of "${upstream_samples[@]}")
  same=no
  cmp -s "$references/ours" "$references/upstream" && same=yes
  instructions="—" instruction_ratio="—"
  if [ "$count_instructions" = 1 ]; then
    k=$(assert_calls_for "$name")
    ours_i=$(instructions_per_call "$ours" "$name" "$k")
    upstream_i=$(instructions_per_call "$upstream" "$name" "$k")
    instructions="$ours_i / $upstream_i"
    instruction_ratio=$(ratio "$upstream_i" "$ours_i")
  fi
  echo "| $(describe_assertion "$name"), reference on disk, \`record: .never\` | $ours_ms | $upstream_ms | $(ratio "$upstream_ms" "$ours_ms") | $instructions | $instruction_ratio | $same |"
done
rm -rf "$references"
[ "${ONLY_ASSERTIONS:-0}" = 1 ] || scrubbing_table
[ "${ONLY_ASSERTIONS:-0}" = 1 ] || server_output_tables
# `.html` of a 1 MB one-line page against `.lines` on its canonical text.
if [ "${ONLY_ASSERTIONS:-0}" != 1 ]; then
  swift build -c release --scratch-path "$scratch" --product MarkupBenchmark >&2
  echo
  "$(swift build -c release --scratch-path "$scratch" --show-bin-path)/MarkupBenchmark"
fi
[ "${ONLY_ASSERTIONS:-0}" = 1 ] || transcript_tables
[ "${ONLY_ASSERTIONS:-0}" = 1 ] || database_tables
# `.directory` of a 2,000-file, 50 MB folder that matches, against `diff -r` on the same folders.
if [ "${ONLY_ASSERTIONS:-0}" != 1 ]; then
  swift build -c release --scratch-path "$scratch" --product DirectoryBenchmark >&2
  echo
  "$(swift build -c release --scratch-path "$scratch" --show-bin-path)/DirectoryBenchmark"
fi
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
