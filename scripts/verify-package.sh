#!/usr/bin/env bash
# Packs the package, checks that the tarball holds exactly what it should (scripts/lib/tarballContents.js: the
# compiled nodes, credential and transport, icons, codex files, README.md, LICENSE, package.json) and prints its
# size, then runs n8n's community-package verification scan on the sources and on the unpacked tarball. The scanner
# is installed once into the cache (it is a tool, not a dependency of the package); `npm run build` must have run.
source "$(dirname "$0")/env.sh"
SCANNER_VERSION=0.32.0
SCANNER_DIR="$CM_CACHE_DIR/scan-community-package-$SCANNER_VERSION"
if [ ! -f "$SCANNER_DIR/.cm-installed" ]; then
  echo "[verify] installing @n8n/scan-community-package@$SCANNER_VERSION into $SCANNER_DIR" >&2
  rm -rf "$SCANNER_DIR" && mkdir -p "$SCANNER_DIR"
  (cd "$SCANNER_DIR" && echo '{"private":true}' > package.json &&
    npm install --ignore-scripts --no-audit --no-fund --loglevel=error "@n8n/scan-community-package@$SCANNER_VERSION" >&2)
  touch "$SCANNER_DIR/.cm-installed"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$PROJECT_ROOT" && npm pack --ignore-scripts --json --loglevel=error --pack-destination "$work" >"$work/pack.json")
node "$PROJECT_ROOT/scripts/lib/tarballContents.js" "$work/pack.json"
tar -xzf "$work"/*.tgz -C "$work"
node "$PROJECT_ROOT/scripts/verify-package.mjs" "$SCANNER_DIR" "$PROJECT_ROOT" "$work/package"
