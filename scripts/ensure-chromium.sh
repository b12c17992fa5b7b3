#!/usr/bin/env bash
# Makes sure the Chromium the browser test drives (test/e2e/browser.test.js, playwright-core with
# executablePath) is installed: Debian's `chromium` package at /usr/bin/chromium (or $CHROMIUM_PATH).
# When it is missing: `apt-get update` once, then `apt-get install -y chromium` (needs root, or sudo without a
# password). Nothing is downloaded from anywhere else. Idempotent; concurrent callers wait for each other.
# Prints the browser's path as its last line. Called by the e2e globalSetup (test/e2e/lib/globalSetup.js).
set -euo pipefail

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"

if [ -x "$CHROMIUM" ]; then
  echo "$CHROMIUM"
  exit 0
fi
if [ "$CHROMIUM" != /usr/bin/chromium ]; then
  echo "[chromium] CHROMIUM_PATH=$CHROMIUM does not exist or is not executable" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "[chromium] /usr/bin/chromium is missing and there is no apt-get: install Chromium and set CHROMIUM_PATH" >&2
  exit 1
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
  else
    echo "[chromium] /usr/bin/chromium is missing; installing it needs root: sudo apt-get update && sudo apt-get install -y chromium" >&2
    exit 1
  fi
fi

install_chromium() {
  if [ -x "$CHROMIUM" ]; then return 0; fi # installed by another caller while this one waited for the lock
  local started=$SECONDS
  echo "[chromium] /usr/bin/chromium is missing: apt-get update, then apt-get install -y chromium" >&2
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update >&2
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >&2
  echo "[chromium] installed in $((SECONDS - started)) s: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")" >&2
}

LOCK="${TMPDIR:-/tmp}/cm-ensure-chromium.lock"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$LOCK"
  flock 9
fi
install_chromium
if [ ! -x "$CHROMIUM" ]; then
  echo "[chromium] apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi
echo "$CHROMIUM"
