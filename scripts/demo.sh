#!/usr/bin/env bash
# `npm run demo`: from a fresh clone, Node 24 and the dependencies (first run only), the n8n runtime (cached,
# ~5 min on first use), `npm pack` (builds), the emulator on loopback, an n8n home with the package installed from
# the tarball, the demo credential and the example workflows (workflows/), every workflow executed headlessly,
# and a summary. Exits non-zero if any workflow failed. Options: --n8n 1 | 2, --keep, --only <file part>.
source "$(dirname "$0")/env.sh"
ensure_deps
cd "$PROJECT_ROOT"
exec node scripts/demo.js "$@"
