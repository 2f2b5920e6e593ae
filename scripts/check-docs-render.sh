#!/usr/bin/env bash
# Renders one article of the built documentation in headless Chromium and checks what a reader
# sees: the article's title and a working link to a symbol's page. DocC pages render with
# JavaScript from JSON, so the archive is served over HTTP (python3's http.server) rather than
# opened from disk.
#
#   scripts/check-docs-render.sh     (runs scripts/docs.sh first if the archive is missing)
#
# Needs chromium (`scripts/require-system-packages.sh --with-chromium`) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
archive="$root/.docs-build/SnapshotTesting.doccarchive"
article=documentation/snapshottesting/gettingstarted/
expected_title="Getting started"
symbol_href=/documentation/snapshottesting/diffing
symbol_text=Diffing

for tool in chromium python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "error: $tool is needed; see scripts/require-system-packages.sh --with-chromium" >&2
    exit 1
  fi
done
[ -f "$archive/index.html" ] || "$root/scripts/docs.sh"

work=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# docc convert already lays the archive out for static hosting (an index.html per page).
# Port 0: the system picks a free one, which the server prints.
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$archive" >"$work/server.log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 50); do
  port=$(sed -n 's/.*port \([0-9][0-9]*\).*/\1/p' "$work/server.log" | head -1)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { cat "$work/server.log" >&2; echo "error: the HTTP server did not start" >&2; exit 1; }

timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$work/profile" \
  --virtual-time-budget=10000 --dump-dom "http://127.0.0.1:$port/$article" \
  >"$work/dom.html" 2>"$work/chromium.log" || {
  cat "$work/chromium.log" >&2
  echo "error: chromium could not render $article" >&2
  exit 1
}

failures=0
# The text of the page's <h1 class="title">, without its markup.
title=$(grep -o '<h1[^>]*class="title"[^>]*>.*' "$work/dom.html" | head -1 | sed 's|</h1>.*||; s/<[^>]*>//g')
if [ "$title" = "$expected_title" ]; then
  echo "ok: $article shows the title \"$expected_title\""
else
  echo "error: $article shows the title \"$title\", not \"$expected_title\"" >&2
  failures=$((failures + 1))
fi
# The link's text is the symbol's name, inside the <a> (after any markup).
if grep -o "href=\"$symbol_href\"[^>]*>.\{0,300\}" "$work/dom.html" | grep -q ">$symbol_text<"; then
  echo "ok: $article links to $symbol_text ($symbol_href)"
else
  echo "error: $article has no link to $symbol_text ($symbol_href)" >&2
  failures=$((failures + 1))
fi
# Kept for a look when a check fails.
cp "$work/dom.html" "$root/.docs-build/render-check.html"
[ "$failures" -eq 0 ]
