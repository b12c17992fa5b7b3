#!/usr/bin/env bash
# `npm run demo:queue`: from a fresh clone, Node 24 and the dependencies (first run only), the n8n 2.40.7 runtime
# (cached), PostgreSQL and Redis from Debian's packages when missing (scripts/ensure-queue-services.sh), then n8n
# in queue mode (one main, two workers) through the scenarios of tools/queueScenarios.js, and a summary table.
# CM_QUEUE_DEMO_SCALE=small runs about a tenth of the events.
source "$(dirname "$0")/env.sh"
ensure_deps
cd "$PROJECT_ROOT"
exec node scripts/demo-queue.js "$@"
