#!/usr/bin/env bash
# Browser tests use Debian's Chromium (Playwright's own browser download cannot work offline).
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests…"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
else
  echo "Chromium not found at $CHROMIUM. Install it (sudo apt-get install chromium) or set CHROMIUM_PATH." >&2
  exit 1
fi
