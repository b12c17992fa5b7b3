#!/usr/bin/env bash
# `npm start`: the demo's setup (see demo.sh), then the n8n editor on http://127.0.0.1:5678 with an owner, the
# demo credential and the example workflows, and the emulator, until Ctrl-C (which stops both).
# Options: --n8n 1 | 2, --port <editor port>, --sandbox-port <emulator port>, --echo (n8n's log).
source "$(dirname "$0")/env.sh"
ensure_deps
cd "$PROJECT_ROOT"
exec node scripts/start.js "$@"
