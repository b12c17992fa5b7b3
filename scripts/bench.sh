#!/usr/bin/env bash
# `npm run bench`: the contenders in a real n8n 2.x process with the package packed from this
# checkout, against the emulator on loopback and behind a delay proxy with TLS; prints one Markdown report and writes
# bench/results/latest.json. `npm run bench:profile` profiles the node's job in that n8n; `npm run bench:harness` is
# the engine-harness bench (n8n-core in-process). Node 24 and the dependencies come from env.sh like for the tests; the n8n 2.x
# runtime is installed into the cache on first use (once per machine). Knobs: bench/README.md.
# Usage: bench.sh <script> [args]   (default script: bench/run.js)
source "$(dirname "$0")/env.sh"
ensure_deps
cd "$PROJECT_ROOT"
export PATH="$PROJECT_ROOT/node_modules/.bin:$PATH"
script="${1:-bench/run.js}"
shift || true
exec node "$script" "$@"
