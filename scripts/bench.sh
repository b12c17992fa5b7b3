#!/usr/bin/env bash
# `npm run bench` (issue #6): this node vs n8n's HTTP Request node vs a raw undici client, five jobs against the
# emulator on loopback; prints one table and writes bench/results/latest.json. Node 24 and the dependencies come
# from env.sh like for the tests; the real n8n 2.x runtime (for n8n-nodes-base's HTTP Request node) is installed
# into the cache on first use (~6 min, once per machine). Knobs: BENCH_SCALE, BENCH_REPS, BENCH_JOBS (bench/README.md).
source "$(dirname "$0")/env.sh"
ensure_deps
cd "$PROJECT_ROOT"
export PATH="$PROJECT_ROOT/node_modules/.bin:$PATH"
exec node bench/run.js "$@"
