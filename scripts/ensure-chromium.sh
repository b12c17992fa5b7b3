#!/usr/bin/env bash
# Makes sure the Chromium the browser test drives (test/e2e/browser.test.js, playwright-core with
# executablePath) is installed: Debian's `chromium` package at /usr/bin/chromium (or $CHROMIUM_PATH).
# When it is missing: `apt-get update` once, then `apt-get install -y chromium` (needs root, or sudo without a
# password). Nothing is downloaded from anywhere else. Idempotent; concurrent callers wait for each other.
# Prints the browser's path as its last line. Called by the e2e globalSetup (test/e2e/lib/globalSetup.js).
set -euo pipefail
source "$(dirname "$0")/lib/apt.sh"

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"

if [ -x "$CHROMIUM" ]; then
  echo "$CHROMIUM"
  exit 0
fi
if [ "$CHROMIUM" != /usr/bin/chromium ]; then
  echo "[chromium] CHROMIUM_PATH=$CHROMIUM does not exist or is not executable" >&2
  exit 1
fi

apt_lock chromium
# Another caller may have installed it while this one waited for the lock.
[ -x "$CHROMIUM" ] || apt_install chromium chromium
if [ ! -x "$CHROMIUM" ]; then
  echo "[chromium] apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi
echo "$CHROMIUM"
