#!/usr/bin/env bash
# Makes sure the system packages the image module links against (libpng, zlib) are present:
# installs them with apt-get when running as root, otherwise prints the exact command to run and
# fails.
#
#   --with-chromium  also Debian's `chromium`, which the HTML report's headless-browser tests
#                    (Tests/SnapshotReviewTests/Report/HeadlessBrowserTests.swift) need; without
#                    it those tests are skipped. The tests never install anything themselves.
set -euo pipefail

packages=(libpng-dev zlib1g-dev)
needed_by="ImageSnapshotTesting"
needs="ImageSnapshotTesting needs"
for argument in "$@"; do
  case "$argument" in
    --with-chromium)
      packages+=(chromium)
      needed_by="ImageSnapshotTesting and the HTML report's browser tests"
      needs="ImageSnapshotTesting and the HTML report's browser tests need"
      ;;
    *)
      echo "usage: $0 [--with-chromium]" >&2
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
[ ${#missing[@]} -eq 0 ] && exit 0

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
