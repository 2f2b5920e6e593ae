#!/usr/bin/env bash
# Makes sure the system packages the image and HTTP modules link against (libpng, zlib, libdeflate) are
# present:
# installs them with apt-get when running as root, otherwise prints the exact command to run and
# fails.
#
#   --with-chromium  also Debian's `chromium` and `chromium-headless-shell`: the web module's
#                    tests and the HTML report's headless-browser tests need a browser (the web
#                    module prefers the headless shell; CI runs the web suite with both). Without
#                    one those tests are skipped, or fail when CI is set. The tests never install
#                    anything themselves. With it `python3` and `iproute2`: the web isolation
#                    tests (NetworkIsolationTests) run a logging server in a network namespace
#                    and bring its loopback up. And `tmux`: `.terminal`'s screen is checked
#                    against a real terminal (TerminalTmuxTests; skipped without it, failing
#                    when CI is set).
#   --with-databases also the databases DatabaseSnapshotTesting's tests run against: SQLite's
#                    library and header (`libsqlite3-dev`, which the test target links) and
#                    PostgreSQL 15's server and client (`postgresql-15`, `postgresql-client-15`;
#                    the tests start a cluster of their own with its binaries and query it with
#                    `psql`).
#   --with-fuzzing   also libexpat's library and header (`libexpat1-dev`), which the XML
#                    fuzzing harness (Fuzz/FuzzXML, `scripts/fuzz.sh`) checks the reader against.
#   --with-pixelmatch also PyPI's `pixelmatch` (0.3.0, with python3 and pip from Debian), which
#                    the anti-aliasing cross-check
#                    (Tests/ImageSnapshotTestingTests/Comparison/AntialiasingTests.swift) runs
#                    against; without it that test is skipped.
set -euo pipefail

packages=(libpng-dev zlib1g-dev libdeflate-dev)
with_pixelmatch=0
needed_by="ImageSnapshotTesting"
needs="ImageSnapshotTesting needs"
for argument in "$@"; do
  case "$argument" in
    --with-chromium)
      packages+=(chromium chromium-headless-shell python3 iproute2 tmux)
      needed_by="ImageSnapshotTesting and the HTML report's browser tests"
      needs="ImageSnapshotTesting and the HTML report's browser tests need"
      ;;
    --with-databases)
      packages+=(libsqlite3-dev postgresql-15 postgresql-client-15)
      ;;
    --with-fuzzing)
      packages+=(libexpat1-dev)
      ;;
    --with-pixelmatch)
      packages+=(python3 python3-pip)
      with_pixelmatch=1
      ;;
    *)
      echo "usage: $0 [--with-chromium] [--with-databases] [--with-fuzzing] [--with-pixelmatch]" >&2
      exit 2
      ;;
  esac
done

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing ${missing[*]} (needed by $needed_by)…"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "$needs ${missing[*]}. Install them with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

if [ "$with_pixelmatch" = 1 ] && ! python3 -c "import pixelmatch" 2>/dev/null; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "Installing pixelmatch 0.3.0 from PyPI (the anti-aliasing cross-check)…"
    # Debian's Python refuses system-wide pip installs unless told to; the package is pure Python.
    pip install -q pixelmatch==0.3.0 2>/dev/null ||
      pip install -q --break-system-packages pixelmatch==0.3.0
  else
    echo "The anti-aliasing cross-check needs pixelmatch. Install it with:" >&2
    echo "  pip install --user pixelmatch==0.3.0" >&2
    exit 1
  fi
fi
