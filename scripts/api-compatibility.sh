#!/usr/bin/env bash
# Compares the public API of every module that has a twin in upstream swift-snapshot-testing
# 1.19.7 (SnapshotTesting, InlineSnapshotTesting, SnapshotTestingCustomDump) with upstream's, using
# the toolchain's swift-api-digester, and lists each upstream declaration that this package lacks
# or declares differently. Additions (APIs only this package has) are not differences.
#
# Exits 0 when nothing differs beyond the documented exceptions below, 1 otherwise, so CI can run
# it. Needs the upstream repository and its dependencies (swift-syntax, swift-custom-dump), from
# the network or a local mirror.
#
# Upstream's side is a baseline: upstream 1.19.7 never changes, so its API dumps are kept in
# scripts/api-baseline/ (gzipped digester dumps, with the toolchain that made them), as Swift's own
# ABI checker keeps its baselines. They are used when this toolchain is the one that made them;
# otherwise, or with --from-source, upstream is cloned and built again (with swift-syntax, minutes)
# and compared from source; --record-baseline does that and rewrites the baseline. This package is
# built in API_CHECK_SCRATCH, by default the `.build` folder `swift build` uses, so a run after the
# tests only reads the modules.
#
#   API_CHECK_WORK     upstream's clone, its build and the API dumps
#                      (default: ${TMPDIR:-/tmp}/snapshot-testing-api-check)
#   API_CHECK_SCRATCH  this package's scratch path (default: <repository>/.build)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${API_CHECK_WORK:-${TMPDIR:-/tmp}/snapshot-testing-api-check}"
ours_scratch="${API_CHECK_SCRATCH:-$root/.build}"
upstream_version=1.19.7
modules=(SnapshotTesting InlineSnapshotTesting SnapshotTestingCustomDump)
target="$(swift -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -n 1)"
mkdir -p "$work"

# Documented exceptions (Sources/SnapshotTesting/Documentation.docc/MigratingFromUpstream.md), as the digester words them:
# - upstream declares its own PropertyListDecoder on Linux because old Linux Foundations lacked
#   one; Foundation has had it for years, and code using it gets Foundation's.
# - NSObject.snapshotDescription is `public` where upstream writes `open` on Linux: without the
#   Objective-C runtime no subclass can override a member declared in an extension (the compiler
#   refuses it), so `open` only earned a warning that it means `public`. No code can break.
expected_differences=(
  "SnapshotTesting: Class PropertyListDecoder has been removed"
  "SnapshotTesting: Accessor NSObject.snapshotDescription.Get() is no longer open for subclassing"
  "SnapshotTesting: Var NSObject.snapshotDescription is no longer open for subclassing"
)
# - upstream's @_spi(Internals) declarations are plumbing outside its public API. The ones that
#   libraries built on it use exist here too (SnapshotTestingConfiguration.current, _record,
#   _diffTool, recordIssue, InlineSnapshotSyntaxDescriptor) and the tests exercise them; the rest
#   (such as the inline module's bookkeeping types) are upstream's implementation, so the digester
#   ignores that SPI group.
ignored_spi_groups=(Internals)

# Builds `modules` of the package in $1 into the scratch path $2, quietly unless it fails.
build() {
  local package="$1" scratch="$2" log="$work/build.log"
  for module in "${modules[@]}"; do
    if ! (cd "$package" && swift build --target "$module" --scratch-path "$scratch") >"$log" 2>&1
    then
      cat "$log" >&2
      echo "api-compatibility: building $module in $package failed." >&2
      exit 2
    fi
  done
}

# Writes the public API of module $1, built in scratch path $2, to the JSON file $3. The C modules
# of dependencies (swift-syntax's shims) are found through their module maps, as the build does.
dump() {
  local search=(-I "$2/debug/Modules") log="$work/dump.log"
  while IFS= read -r map; do
    search+=(-I "$(dirname "$map")")
  done < <(find "$2/checkouts" -name module.modulemap 2>/dev/null)
  swift-api-digester -dump-sdk -module "$1" -target "$target" "${search[@]}" -avoid-location \
    -o "$3" >"$log" 2>&1 || true
  # The digester reports a module it cannot load and still writes an empty dump.
  if grep -q "error:\|Failed to load module" "$log" || [ ! -s "$3" ]; then
    cat "$log" >&2
    echo "api-compatibility: could not read the API of $1 built in $2." >&2
    exit 2
  fi
}

mode="${1:-}"
case "$mode" in
  "" | --from-source | --record-baseline) ;;
  *) echo "usage: $0 [--from-source | --record-baseline]" >&2; exit 2 ;;
esac
baseline="$root/scripts/api-baseline"
toolchain="$(swift --version 2>/dev/null | head -n 1)"

# Upstream's dumps: from the baseline when this toolchain made it, else from upstream's source.
if [ -z "$mode" ] && [ -f "$baseline/toolchain.txt" ] &&
  [ "$(cat "$baseline/toolchain.txt")" = "$toolchain" ]; then
  for module in "${modules[@]}"; do
    gzip -dc "$baseline/upstream-$upstream_version-$module.json.gz" >"$work/upstream-$module.json"
  done
  echo "Upstream $upstream_version's API: the baseline in scripts/api-baseline/ ($toolchain)."
else
  if [ ! -d "$work/upstream" ]; then
    git -c advice.detachedHead=false clone -q --branch "$upstream_version" \
      https://github.com/pointfreeco/swift-snapshot-testing "$work/upstream"
  fi
  build "$work/upstream" "$work/upstream-build"
  for module in "${modules[@]}"; do
    dump "$module" "$work/upstream-build" "$work/upstream-$module.json"
  done
  echo "Upstream $upstream_version's API: built from its source."
  if [ "$mode" = --record-baseline ]; then
    mkdir -p "$baseline"
    for module in "${modules[@]}"; do
      gzip -9nc "$work/upstream-$module.json" >"$baseline/upstream-$upstream_version-$module.json.gz"
    done
    echo "$toolchain" >"$baseline/toolchain.txt"
    echo "Recorded the baseline in ${baseline#"$root/"}/."
  fi
fi
build "$root" "$ours_scratch"

spi_flags=()
for group in "${ignored_spi_groups[@]}"; do spi_flags+=(-ignore-spi-group "$group"); done

# The comparison must be able to fail: upstream's SnapshotTesting against itself without its first
# top-level declaration has to show a difference (a truncated or empty dump would show none).
python3 - "$work/upstream-SnapshotTesting.json" "$work/upstream-less.json" <<'PY'
import json, sys
dump = json.load(open(sys.argv[1]))
children = dump["ABIRoot"]["children"]
declarations = [c for c in children if c.get("kind") != "Import"]
if len(declarations) < 20:
    sys.exit(f"api-compatibility: {sys.argv[1]} holds only {len(declarations)} declarations")
children.remove(declarations[0])
json.dump(dump, open(sys.argv[2], "w"))
PY
if [ -z "$(swift-api-digester -diagnose-sdk --input-paths "$work/upstream-SnapshotTesting.json" \
  --input-paths "$work/upstream-less.json" 2>&1 | grep -v '^/\*' | grep -v '^$')" ]; then
  echo "api-compatibility: the digester saw no difference where one was planted." >&2
  exit 2
fi

differences=()
for module in "${modules[@]}"; do
  dump "$module" "$ours_scratch" "$work/ours-$module.json"
  # The digester prints section headers as /* … */ comments; the other lines are findings.
  while IFS= read -r line; do
    differences+=("$module: $line")
  done < <(
    swift-api-digester -diagnose-sdk "${spi_flags[@]}" \
      --input-paths "$work/upstream-$module.json" --input-paths "$work/ours-$module.json" 2>&1 \
      | grep -v '^/\*' | grep -v '^$' || true
  )
done

unexpected=0
for difference in "${differences[@]}"; do
  expected=false
  for allowed in "${expected_differences[@]}"; do
    [ "$difference" = "$allowed" ] && expected=true
  done
  if $expected; then
    echo "expected: $difference"
  else
    echo "DIFFERS:  $difference"
    unexpected=$((unexpected + 1))
  fi
done

if [ "$unexpected" -eq 0 ]; then
  echo "No differences from upstream $upstream_version in ${modules[*]} beyond the expected ones."
else
  echo "$unexpected difference(s) from upstream $upstream_version." >&2
  exit 1
fi
