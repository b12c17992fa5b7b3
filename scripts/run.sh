#!/usr/bin/env bash
# Runs a command with the project's Node (>= 24) and installed dependencies: `bash scripts/run.sh jest`.
source "$(dirname "$0")/env.sh"
ensure_deps
export PATH="$PROJECT_ROOT/node_modules/.bin:$PATH"
exec "$@"
