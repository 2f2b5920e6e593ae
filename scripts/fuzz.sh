#!/usr/bin/env bash
# Builds and runs the libFuzzer harnesses in Fuzz/ (see Documentation/Reliability.md).
#
#   scripts/fuzz.sh --list               the harnesses
#   scripts/fuzz.sh TARGET SECONDS [RUNS] runs TARGET for SECONDS (and at most RUNS executions,
#                                        also settable as FUZZ_RUNS) on a copy of its seed corpus
#   scripts/fuzz.sh --smoke              every harness for 20 000 executions, fewer for the slow
#                                        ones, more for FuzzXML (CI; 1.5 to 3 minutes in all)
#   scripts/fuzz.sh --build              builds every harness, runs none
#   scripts/fuzz.sh --campaign MINUTES [TARGET...]
#                                        each TARGET (default: every harness) for MINUTES, then a
#                                        table per target: executions, coverage (edges), crashes,
#                                        the slowest input; FUZZ_JOBS=2 runs two at a time
#
# The harnesses are targets of the main package only when SNAPSHOT_TESTING_FUZZ is set. They are
# built in release with AddressSanitizer and libFuzzer's coverage, in .build-fuzz (FUZZ_SCRATCH
# overrides). A crash or a broken invariant stops the run with a non-zero status and leaves the
# input in FUZZ_OUTPUT (default .build-fuzz/findings/TARGET/) as crash-<sha1>; rerun it with
# `<binary> <file>`. Extra libFuzzer options go in FUZZ_OPTIONS.
set -euo pipefail
cd "$(dirname "$0")/.."

harnesses=(
  FuzzPNGDecoder FuzzInlineRewriter FuzzFailureRecord FuzzUsageLog FuzzTemporaryFileName
  FuzzRedactionSelector FuzzAntialiasing
  FuzzHTTPRequest FuzzJSONBody FuzzEscapeSequences FuzzTranscriptText FuzzDirectoryListing
  FuzzXML FuzzHTML
)
# The smoke run's executions for the harnesses slower than about 2,000 a second (they make files,
# sockets, SVG images or transcripts for each input), so that all of them take at most 3 minutes;
# and more for FuzzXML (about 10,000 a second), whose differential against expat found the most.
declare -A smoke_runs=(
  [FuzzUsageLog]=10000 [FuzzHTTPRequest]=5000 [FuzzEscapeSequences]=2000
  [FuzzTranscriptText]=1000 [FuzzDirectoryListing]=2000 [FuzzHTML]=5000 [FuzzXML]=50000
)
scratch="${FUZZ_SCRATCH:-.build-fuzz}"

usage() {
  echo "usage: $0 --list | --smoke | --build | --campaign MINUTES [TARGET...] | TARGET SECONDS [RUNS]" >&2
  exit 2
}

export SNAPSHOT_TESTING_FUZZ=1
# Swift's crash backtracer and AddressSanitizer both handle the fatal signal and deadlock; libFuzzer
# prints the stack itself.
export SWIFT_BACKTRACE=enable=no
# Leaks that are not ours (see the file).
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
build_flags=(
  -c release --scratch-path "$scratch"
  -Xswiftc -sanitize=fuzzer,address
  # Harnesses reach internal API through @testable import.
  -Xswiftc -enable-testing
  # The C shim around libpng too.
  -Xcc -fsanitize=fuzzer-no-link,address
  # gold fails with an internal error linking the sanitizer runtimes.
  -Xswiftc -use-ld=lld
)

build() {
  scripts/require-system-packages.sh --with-fuzzing
  for harness in "$@"; do
    swift build "${build_flags[@]}" --product "$harness"
  done
}

# run TARGET SECONDS RUNS: fuzzes a copy of the seed corpus; the committed seeds stay as they are.
run() {
  local harness="$1" seconds="$2" runs="$3"
  local binary findings corpus
  binary="$(swift build "${build_flags[@]}" --show-bin-path)/$harness"
  findings="${FUZZ_OUTPUT:-$scratch/findings/$harness}"
  corpus="$scratch/corpus/$harness"
  mkdir -p "$findings" "$corpus"
  cp -R "Fuzz/Corpus/$harness/." "$corpus/"
  local options=(
    -max_total_time="$seconds" -runs="$runs" -timeout=10 -rss_limit_mb=4096
    -artifact_prefix="$findings/" -print_final_stats=1
  )
  [[ -f "Fuzz/Corpus/$harness.dict" ]] && options+=(-dict="Fuzz/Corpus/$harness.dict")
  echo "== $harness: $seconds s, at most $runs runs, corpus $corpus, findings in $findings/"
  local status=0
  # shellcheck disable=SC2086  # FUZZ_OPTIONS is a list of options.
  "$binary" "${options[@]}" ${FUZZ_OPTIONS:-} "$corpus" 2> >(grep -v -E '^#[0-9]+\s+(NEW|REDUCE|pulse)' >&2) || status=$?
  if [[ $status -ne 0 ]]; then
    echo "error: $harness failed (status $status); the input is in $findings/:" >&2
    ls -1t "$findings"/ | head -3 | sed "s|^|  $findings/|" >&2
    return "$status"
  fi
}

# campaign_run TARGET SECONDS: fuzzes for SECONDS with no bound on executions, its whole log in
# $scratch/campaign/TARGET.log, and prints one row of the campaign's table.
campaign_run() {
  local harness="$1" seconds="$2"
  local log="$scratch/campaign/$harness.log" findings="$scratch/findings/$harness"
  local before status=0 start=$SECONDS
  mkdir -p "$findings"
  before=$(find "$findings" -maxdepth 1 -type f 2>/dev/null | wc -l)
  run "$harness" "$seconds" -1 >"$log" 2>&1 || status=$?
  local elapsed=$((SECONDS - start))
  # run's filter of standard error (a process substitution) may still be writing the last lines.
  sleep 2
  local executions edges_start edges slowest crashes
  executions=$(grep -oE '^stat::number_of_executed_units: [0-9]+' "$log" | grep -oE '[0-9]+$' || echo "?")
  edges_start=$(grep -m1 -E 'INITED|INIT ' "$log" | grep -oE 'cov: [0-9]+' | grep -oE '[0-9]+' || echo "?")
  edges=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo "?")
  slowest=$(grep -oE '^slowest input: .*' "$log" | tail -1 | sed 's/^slowest input: //' || true)
  crashes=$(( $(find "$findings" -maxdepth 1 -type f 2>/dev/null | wc -l) - before ))
  [[ $status -eq 0 ]] || crashes="$crashes (stopped, status $status)"
  printf '| `%s` | %s | %s s | %s → %s | %s | %s |\n' "$harness" "$executions" "$elapsed" \
    "$edges_start" "$edges" "$crashes" "${slowest:-?}"
}

case "${1:-}" in
  --list)
    printf '%s\n' "${harnesses[@]}"
    ;;
  --build)
    build "${harnesses[@]}"
    ;;
  --smoke)
    start=$SECONDS
    build "${harnesses[@]}"
    for harness in "${harnesses[@]}"; do
      run "$harness" 600 "${smoke_runs[$harness]:-20000}"
    done
    echo "Fuzzing smoke test passed in $((SECONDS - start)) s."
    ;;
  --campaign)
    [[ "${2:-}" =~ ^[0-9]+$ ]] || usage
    minutes="$2"
    shift 2
    targets=("$@")
    [[ ${#targets[@]} -gt 0 ]] || targets=("${harnesses[@]}")
    for harness in "${targets[@]}"; do
      [[ " ${harnesses[*]} " == *" $harness "* ]] || { echo "error: no harness $harness" >&2; exit 2; }
    done
    build "${targets[@]}"
    mkdir -p "$scratch/campaign"
    echo "| harness | executions | time | coverage (edges): start → end | crashes | slowest input |"
    echo "|---|---:|---:|---|---:|---|"
    jobs_at_once="${FUZZ_JOBS:-1}"
    for harness in "${targets[@]}"; do
      campaign_run "$harness" $((minutes * 60)) >"$scratch/campaign/$harness.row" &
      while [[ $(jobs -rp | wc -l) -ge $jobs_at_once ]]; do wait -n || true; done
    done
    wait || true
    for harness in "${targets[@]}"; do cat "$scratch/campaign/$harness.row"; done
    ;;
  "" | -*)
    usage
    ;;
  *)
    [[ " ${harnesses[*]} " == *" $1 "* ]] || { echo "error: no harness $1 (--list)" >&2; exit 2; }
    [[ "${2:-}" =~ ^[0-9]+$ ]] || usage
    build "$1"
    run "$1" "$2" "${3:-${FUZZ_RUNS:--1}}"
    ;;
esac
