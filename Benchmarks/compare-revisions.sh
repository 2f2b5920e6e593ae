#!/usr/bin/env bash
# Compares two revisions of the package: builds the benchmarks of each (release), runs both in one
# go, alternating the two programs run by run so that changes in load hit both alike, and prints
# Markdown tables of medians and ratios (base ÷ head: above 1× means head is faster).
#
#   Benchmarks/compare-revisions.sh [BASE [HEAD]]     # default: HEAD~1 HEAD
#   Benchmarks/compare-revisions.sh 3ef19be 1b891c9
#
# Each revision is checked out with `git worktree add --detach` into a temporary folder (removed
# on exit, then `git worktree prune`), and its own `Benchmarks/` sources are built against its own
# library. Measured:
#   - every matching assertion the `assert` command of LineDiffBenchmark offers in either revision
#     (its usage line lists them; run.sh's table has the same rows): median wall time of one call,
#     and, with valgrind installed, instructions of one call counted as run.sh counts them
#     (callgrind's total with 2k calls minus that with k calls, over k);
#   - every time the ImageBenchmark program prints (ms cells of its tables, but its derived
#     "per megapixel" columns and ratios), as the median over its runs.
# A case one revision does not have shows "—" on that side.
#
# Environment:
#   SCRATCH       build folder, one subfolder per commit and package (default:
#                 ${TMPDIR:-/tmp}/snapshot-testing-compare-revisions). Kept between runs: a commit
#                 built there once with the same toolchain is not built again (REBUILD=1 forces it)
#   ROUNDS        runs of each assertion program per revision (default 7); each run prints the
#                 median of many calls, and the median of the runs is shown with their range
#   IMAGE_ROUNDS  runs of the image program per revision (default 5), likewise
#   INSTRUCTIONS  0 to skip counting instructions with valgrind (run with
#                 SWIFT_DETERMINISTIC_HASHING=1, so that hashing costs the same in every run)
#   ONLY          `assertions` or `images` to run one part only
#   REBUILD       1 to build even when SCRATCH holds a build of the commit
set -euo pipefail
started=$SECONDS
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
base_rev=${1:-HEAD~1}
head_rev=${2:-HEAD}
base_sha=$(git -C "$repo" rev-parse --verify "$base_rev^{commit}")
head_sha=$(git -C "$repo" rev-parse --verify "$head_rev^{commit}")
scratch=${SCRATCH:-${TMPDIR:-/tmp}/snapshot-testing-compare-revisions}
rounds=${ROUNDS:-7}
image_rounds=${IMAGE_ROUNDS:-5}
only=${ONLY:-}
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/compare-revisions.XXXXXX")
worktrees=()
cleanup() {
  local tree
  for tree in ${worktrees[@]+"${worktrees[@]}"}; do
    git -C "$repo" worktree remove --force "$tree" >/dev/null 2>&1 || true
  done
  rm -rf "$work"
  git -C "$repo" worktree prune
}
trap cleanup EXIT
trap 'exit 130' INT TERM

toolchain=$(swift --version 2>/dev/null | head -1)

# The program PRODUCT built from commit SHA, if SCRATCH holds it (built there by this toolchain).
built_binary() {
  local stamp="$scratch/$1/$2/built-from" bin
  [ "${REBUILD:-0}" != 1 ] && [ -f "$stamp" ] || return 1
  [ "$(head -2 "$stamp")" = "$(printf '%s\n%s' "$1" "$toolchain")" ] || return 1
  bin=$(sed -n 3p "$stamp")
  [ -x "$bin" ] && echo "$bin"
}
# Sets VARIABLE to the path of PRODUCT, the package in FOLDER of commit SHA, built in release mode
# from a worktree NAME (checked out on first need); to "" when that commit has no such package.
# Builds run one at a time, in this shell, so that the worktrees are known to `cleanup`.
program() {
  local variable=$1 name=$2 sha=$3 folder=$4 product=$5 tree="$work/$2" bin out
  if ! bin=$(built_binary "$sha" "$product"); then
    if [ ! -d "$tree" ]; then
      worktrees+=("$tree")
      git -C "$repo" worktree add --detach "$tree" "$sha" >&2
    fi
    if [ ! -f "$tree/$folder/Package.swift" ]; then
      echo "${sha:0:7} has no $folder/Package.swift: its $product cases are left out" >&2
      printf -v "$variable" '%s' ""
      return
    fi
    out="$scratch/$sha/$product"
    echo "Building $product of ${sha:0:7} (release) in $out…" >&2
    (cd "$tree/$folder" && swift build -c release --scratch-path "$out" --product "$product" >&2)
    bin="$(cd "$tree/$folder" && swift build -c release --scratch-path "$out" --show-bin-path)/$product"
    printf '%s\n%s\n%s\n' "$sha" "$toolchain" "$bin" >"$out/built-from"
  fi
  printf -v "$variable" '%s' "$bin"
}
lines_base="" lines_head="" images_base="" images_head=""
if [ "$only" != images ]; then
  program lines_base base "$base_sha" Benchmarks LineDiffBenchmark
  program lines_head head "$head_sha" Benchmarks LineDiffBenchmark
fi
if [ "$only" != assertions ]; then
  program images_base base "$base_sha" Benchmarks/Images ImageBenchmark
  program images_head head "$head_sha" Benchmarks/Images ImageBenchmark
fi
built=$((SECONDS - started))

# The programs run in a folder of their own. They keep the inherited temporary folder, as under
# run.sh: the assertions' files go there, and the length of its path is part of what a call costs.
runs_dir="$work/run"
mkdir -p "$runs_dir"
cd "$runs_dir"
unset SNAPSHOT_TESTING_RECORD SNAPSHOT_ARTIFACTS SNAPSHOT_TESTING_REFERENCE_DIR \
  SNAPSHOT_TESTING_USED_REFERENCES CI

load() { cut -d' ' -f1-3 /proc/loadavg; }
median() {
  printf '%s\n' "$@" | awk '
    $1 == "nan" || $1 == "" { bad = 1; next }
    { a[++n] = $1 }
    END {
      if (bad || n == 0) { print "nan"; exit }
      # insertion sort: a few values
      for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
      print a[int((n + 1) / 2)]
    }'
}
# "lowest–highest" of the values given.
range() {
  printf '%s\n' "$@" | awk '
    $1 == "nan" || $1 == "" { bad = 1; next }
    { if (n++ == 0 || $1 < lo) lo = $1; if ($1 > hi || n == 1) hi = $1; l[$1] = $0 }
    END { if (bad || n == 0) print "nan"; else print l[lo] "–" l[hi] }'
}
ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN {
    if (a == "—" || b == "—" || a != a + 0 || b != b + 0 || !(a > 0) || !(b > 0)) { print "—"; exit }
    printf "%.2f×", a / b
  }'
}
# Head's count minus base's, and in percent ("+36,013 (+15.9%)": head needs that many more).
change() {
  awk -v a="$1" -v b="$2" 'BEGIN {
    if (a == "—" || b == "—" || a != a + 0 || b != b + 0 || !(a > 0)) { print "—"; exit }
    d = sprintf("%+.0f", b - a); sign = substr(d, 1, 1); s = substr(d, 2); out = ""
    while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
    printf "%s%s%s (%+.1f%%)\n", sign, s, out, (b - a) * 100 / a
  }'
}
thousands() {
  awk -v n="$1" 'BEGIN {
    if (n != n + 0) { print n; exit }
    s = sprintf("%.0f", n); out = ""
    while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
    print s out
  }'
}

echo "Revisions: base \`${base_sha:0:7}\` ($base_rev), head \`${head_sha:0:7}\` ($head_rev)."
echo "Run on $(date -u +%Y-%m-%d): $(nproc) cores, load average $(load) at the start of the measurements."

# --- Matching assertions ------------------------------------------------------------------------

# The cases a LineDiffBenchmark offers, from its usage line: "assert (a|b|c) RUNS …".
assertion_cases() {
  [ -n "$1" ] || return 0
  { "$1" 2>&1 >/dev/null || true; } | sed -n 's/.*assert (\([^)]*\)).*/\1/p' | tr '|' '\n'
}
# shellcheck source=assertion-cases.sh
. "$repo/Benchmarks/assertion-cases.sh"
# Callgrind's instruction count of a whole run of CALLS calls. Hashing is made deterministic so
# that Dictionary and Set cost the same in every run.
instructions_of() {
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$1" assert "$2" "$3" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
instructions_per_call() {
  local one two
  one=$(instructions_of "$1" "$2" "$3")
  two=$(instructions_of "$1" "$2" $((2 * $3)))
  if [ -z "$one" ] || [ -z "$two" ]; then echo "nan"; return; fi
  awk -v a="$one" -v b="$two" -v k="$3" 'BEGIN { printf "%.0f", (b - a) / k }'
}

if [ "$only" != images ]; then
  count_instructions=${INSTRUCTIONS:-1}
  command -v valgrind >/dev/null || count_instructions=0
  base_cases=$(assertion_cases "$lines_base")
  head_cases=$(assertion_cases "$lines_head")
  cases=$(printf '%s\n%s\n' "$base_cases" "$head_cases" | awk 'NF && !seen[$0]++')
  has() { grep -qx -- "$2" <<<"$1"; }

  echo
  echo "### One matching assertion"
  echo
  echo "Each program times many calls and prints their median; it is run $rounds times per revision,"
  echo "alternating base and head (and which goes first), and the median of the runs is shown."
  echo
  echo "| assertion (reference on disk, \`record: .never\`) | base (ms) | head (ms) | base ÷ head | range of the runs (ms): base; head | instructions a call: base / head | base ÷ head (instructions) | head − base (instructions) | same reference bytes |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
  for name in $cases; do
    echo "Timing $name…" >&2
    runs=$(assert_runs_for "$name")
    base_samples=() head_samples=()
    in_base=0 in_head=0
    has "$base_cases" "$name" && in_base=1
    has "$head_cases" "$name" && in_head=1
    for round in $(seq "$rounds"); do
      for side in $( ((round % 2)) && echo base head || echo head base); do
        if [ "$side" = base ] && [ $in_base = 1 ]; then
          base_samples+=("$("$lines_base" assert "$name" "$runs" "$work/base-$name" || echo nan)")
        elif [ "$side" = head ] && [ $in_head = 1 ]; then
          head_samples+=("$("$lines_head" assert "$name" "$runs" "$work/head-$name" || echo nan)")
        fi
      done
    done
    base_ms="—" head_ms="—" same="—" base_range="—" head_range="—"
    if [ $in_base = 1 ]; then
      base_ms=$(median "${base_samples[@]}")
      base_range=$(range "${base_samples[@]}")
    fi
    if [ $in_head = 1 ]; then
      head_ms=$(median "${head_samples[@]}")
      head_range=$(range "${head_samples[@]}")
    fi
    if [ $in_base = 1 ] && [ $in_head = 1 ]; then
      same=no
      cmp -s "$work/base-$name" "$work/head-$name" && same=yes
    fi
    instructions="—" instruction_ratio="—" instruction_change="—"
    if [ "$count_instructions" = 1 ]; then
      echo "Counting instructions of $name…" >&2
      k=$(assert_calls_for "$name")
      base_i="—" head_i="—"
      [ $in_base = 1 ] && base_i=$(instructions_per_call "$lines_base" "$name" "$k")
      [ $in_head = 1 ] && head_i=$(instructions_per_call "$lines_head" "$name" "$k")
      instructions="$(thousands "$base_i") / $(thousands "$head_i")"
      instruction_ratio=$(ratio "$base_i" "$head_i")
      instruction_change=$(change "$base_i" "$head_i")
    fi
    echo "| $(describe_assertion "$name") | $base_ms | $head_ms | $(ratio "$base_ms" "$head_ms") | $base_range; $head_range | $instructions | $instruction_ratio | $instruction_change | $same |"
  done
  echo
  echo "Load average after the assertions: $(load)."
fi

# --- Images -------------------------------------------------------------------------------------

# The ms cells of one ImageBenchmark output as "case<TAB>milliseconds", in the order printed. A
# case is "section: row, column"; the derived "per megapixel" columns and ratios are left out.
image_cells() {
  awk -F'|' '
    function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
    /^## / { section = substr($0, 4); sub(/ \(.*$/, "", section); header = 0; next }
    /^\|/ {
      if (!header) { for (i = 2; i < NF; i++) column[i] = trim($i); header = 1; next }
      if (trim($2) ~ /^-+$/) next
      row = trim($2); sub(/ \(.*$/, "", row)
      for (i = 3; i < NF; i++) {
        cell = trim($i)
        if (cell !~ /^[0-9.]+ ms$/ || column[i] ~ /per megapixel/) continue
        sub(/ ms$/, "", cell)
        printf "%s: %s, %s\t%s\n", section, row, column[i], cell
      }
      next
    }
    { header = 0 }
  ' "$1"
}

if [ "$only" != assertions ]; then
  for round in $(seq "$image_rounds"); do
    for side in $( ((round % 2)) && echo base head || echo head base); do
      bin=$images_base
      [ "$side" = head ] && bin=$images_head
      [ -n "$bin" ] || continue
      echo "Image benchmark, $side, run $round of $image_rounds…" >&2
      "$bin" >"$work/images-$side-$round.md"
      image_cells "$work/images-$side-$round.md" >"$work/images-$side-$round.tsv"
    done
  done
  # The cases in the order printed, base's first.
  { cat "$work"/images-base-1.tsv "$work"/images-head-1.tsv 2>/dev/null || true; } | cut -f1 |
    awk '!seen[$0]++' >"$work/image-cases"
  # The values of case NAME in the runs of SIDE, one a line.
  image_values() {
    local file
    for file in "$work"/images-"$1"-*.tsv; do
      [ -f "$file" ] || continue
      awk -F'\t' -v k="$2" '$1 == k { print $2 }' "$file"
    done
  }
  echo
  echo "### Images"
  echo
  echo "The image program prints medians of its own (5 to 44 calls per cell); it is run $image_rounds times"
  echo "per revision, alternating base and head, and the median of the runs is shown. Rows marked"
  echo "*baseline* time code outside the library (\`memcmp\`, libpng called from C), the same in both"
  echo "revisions: their ratio shows how much the load alone moves a figure."
  echo
  echo "| image benchmark case | base (ms) | head (ms) | base ÷ head | range of the runs (ms): base; head |"
  echo "|---|---:|---:|---:|---:|"
  while IFS= read -r name; do
    base_values=$(image_values base "$name") head_values=$(image_values head "$name")
    base_ms="—" head_ms="—" base_range="—" head_range="—"
    # shellcheck disable=SC2086
    if [ -n "$base_values" ]; then
      base_ms=$(median $base_values)
      base_range=$(range $base_values)
    fi
    # shellcheck disable=SC2086
    if [ -n "$head_values" ]; then
      head_ms=$(median $head_values)
      head_range=$(range $head_values)
    fi
    label=$name
    case $name in *memcmp* | *"libpng from C"*) label="$name (*baseline*)" ;; esac
    echo "| $label | $base_ms | $head_ms | $(ratio "$base_ms" "$head_ms") | $base_range; $head_range |"
  done <"$work/image-cases"
fi

echo
echo "Load average at the end: $(load). Built in ${built} s, measured in $((SECONDS - started - built)) s."
