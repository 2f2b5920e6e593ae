#!/usr/bin/env bash
# Follows the README and the product guides as a stranger would, with nothing the pages do not
# show, and fails where the stranger would:
#
# 1. clones this repository (HEAD, plus the working tree's uncommitted changes) into the folder
#    the README's `git clone` line names, which is not named like the package, so an install line
#    that works only for a folder named `swift-snapshot-testing` fails to resolve;
# 2. beside it, writes one package from the install sections of the README and of each product's
#    article (`doc-tools stranger-package`): their `.package` and target lines as written, the
#    README's examples and each article's first example as test files, as written (no fixture, no
#    added import; a block whose first line is a path comment goes to that path), and an empty
#    target for each of the reader's own targets a section names (`"MyApp"`). It fails when a
#    library product has no install section;
# 3. builds it (without debug information: the question is whether it builds), runs its tests
#    once to record (they fail, having recorded), again to match (they pass), and once more after
#    a line is added to one reference, which must fail with that reference's diff.
#
# One package, so one build and one test bundle for all nine products. The clone and the build
# folder are kept in the scratch folder and reused: a run after the first rebuilds only what
# changed. STRANGER_EDIT, a shell command run in the clone before the package is written, is how
# scripts/tests/check-as-stranger-test.sh puts a fault back.
#
#   scripts/check-as-stranger.sh [scratch folder]
#
# The default scratch folder is outside the repository, as a stranger's package would be, and
# one per checkout: /tmp/snapshot-testing-stranger-<hash of this checkout's path>.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scratch=${1:-/tmp/snapshot-testing-stranger-$(echo "$root" | md5sum | cut -c1-8)}
swift=${SWIFT:-swift}

"$root/scripts/require-system-packages.sh"
source "$root/scripts/doc-build-common.sh"
mkdir -p "$scratch"

# 1. The clone, in the folder the README's clone line names.
folder=$(awk '/^```sh/ { block = 1; next } /^```/ { block = 0 }
  block && $1 == "git" && $2 == "clone" { print $NF; exit }' "$root/README.md")
if [ -z "$folder" ]; then
  echo "error: README.md has no \`git clone <url> <folder>\` line in a sh block" >&2
  exit 1
fi
if [ "$folder" = swift-snapshot-testing ]; then
  echo "error: the README clones into a folder named like the package; name it otherwise, so that" \
    "this check sees an install line that works only for that name" >&2
  exit 1
fi
clone="$scratch/$folder"
echo "Cloning into $folder (another name than the package's)…"
if [ -d "$clone/.git" ]; then
  # Only the files that differ are rewritten, so the build folder stays valid.
  git -C "$clone" fetch --quiet "$root" HEAD
  git -C "$clone" reset --quiet --hard FETCH_HEAD
  git -C "$clone" clean --quiet -fdx
else
  rm -rf "$clone"
  git clone --quiet "$root" "$clone"
  git -C "$clone" reset --quiet --hard "$(git -C "$root" rev-parse HEAD)"
fi
# What is not committed yet: changes to tracked files, and new files.
git -C "$root" diff HEAD --binary | git -C "$clone" apply --allow-empty
untracked=$(git -C "$root" ls-files --others --exclude-standard | wc -l)
if [ "$untracked" -gt 0 ]; then
  git -C "$root" ls-files --others --exclude-standard -z \
    | (cd "$root" && xargs -0 tar -cf - --) | tar -xf - -C "$clone"
fi
if [ -n "${STRANGER_EDIT:-}" ]; then
  echo "Editing the clone: $STRANGER_EDIT"
  (cd "$clone" && bash -c "$STRANGER_EDIT")
fi

# 2. The stranger's package, beside the clone.
package="$scratch/MyApp"
"$doc_tools" stranger-package "$clone" "$package"

# 3. Build, record, match, break one.
build=(--package-path "$package" --scratch-path "$scratch/build" -Xswiftc -gnone -Xcc -g0)
# Recording is the point: not a CI run, no record mode, no reference folder from outside. The
# failures go to an artifacts folder of the check's own.
run_tests() {
  env -u CI -u SNAPSHOT_TESTING_RECORD -u SNAPSHOT_TESTING_REFERENCE_DIR \
    -u SNAPSHOT_TESTING_VARIANT SNAPSHOT_ARTIFACTS="$scratch/artifacts" \
    nice -n 5 "$swift" test "${build[@]}" >"$scratch/$1.log" 2>&1
}
echo "Building the stranger's package…"
if ! nice -n 5 "$swift" build --build-tests "${build[@]}" >"$scratch/build.log" 2>&1; then
  grep -E "error:" "$scratch/build.log" >&2 || tail -30 "$scratch/build.log" >&2
  echo "error: the package made from the install sections and examples does not build" \
    "(package: $package)" >&2
  exit 1
fi
rm -rf "$scratch/artifacts"
echo "Recording…"
if run_tests record; then
  echo "error: the first run passed; it should have recorded every reference and failed" >&2
  exit 1
fi
if ! grep -q "Recorded the snapshot" "$scratch/record.log"; then
  grep -E "error:|✘" "$scratch/record.log" | head -30 >&2
  echo "error: the first run recorded nothing (log: $scratch/record.log)" >&2
  exit 1
fi
echo "Matching…"
if ! run_tests match; then
  grep -E "error:|✘|failed" "$scratch/match.log" | head -40 >&2
  echo "error: the run after recording failed (log: $scratch/match.log)" >&2
  exit 1
fi
reference=$(find "$package/Tests" -path "*/__Snapshots__/*" -name "*.json" | sort | head -1)
if [ -z "$reference" ]; then
  echo "error: no JSON reference was recorded to break" >&2
  exit 1
fi
marker="a line the stranger check added"
{ echo "$marker"; cat "$reference"; } >"$reference.new" && mv "$reference.new" "$reference"
echo "Breaking ${reference#"$package"/}…"
if run_tests mismatch; then
  echo "error: the run passed after its reference changed" >&2
  exit 1
fi
if ! grep -q "does not match reference" "$scratch/mismatch.log" \
  || ! grep -qF "−$marker" "$scratch/mismatch.log"; then
  grep -E "error:|✘" "$scratch/mismatch.log" | head -30 >&2
  echo "error: the failure does not show the changed reference's diff (log: $scratch/mismatch.log)" >&2
  exit 1
fi
tests=$(find "$package/Tests" -name "*.swift" | wc -l)
echo "As a stranger: $tests test files from the README and the product guides build, record," \
  "match, and fail on a changed reference."
