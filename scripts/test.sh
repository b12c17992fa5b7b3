#!/usr/bin/env bash
# The whole test suite, from a fresh clone: Node 24 + dependencies (first run only), type check and build,
# n8n's lint rules, unit + engine tests (n8n-core's WorkflowExecute against the emulator), then the end-to-end
# tests in real n8n processes (installed into a cache on first use).
source "$(dirname "$0")/env.sh"
ensure_deps
cd "$PROJECT_ROOT"
export PATH="$PROJECT_ROOT/node_modules/.bin:$PATH"

step() { printf '\n=== %s\n' "$*"; }

step "type check"
tsc -p tsconfig.json --noEmit
step "build"
npm run --silent build
step "lint (eslint-plugin-n8n-nodes-base, zero warnings)"
npm run --silent lint
step "n8n's community-package verification scan (sources and packed tarball)"
bash scripts/verify-package.sh
results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT
step "unit + engine tests"
jest --ci --json --outputFile="$results/unit.json"
if [ -f test/e2e/jest.config.js ] && [ "${SKIP_E2E:-}" != "1" ]; then
  step "end-to-end tests in real n8n"
  jest --ci -c test/e2e/jest.config.js --json --outputFile="$results/e2e.json"
fi
# One closing line over both jest runs (jest prints one summary per run).
node -e '
  const fs = require("fs");
  let passed = 0, failed = 0;
  for (const f of fs.readdirSync(process.argv[1])) {
    const r = JSON.parse(fs.readFileSync(`${process.argv[1]}/${f}`, "utf8"));
    passed += r.numPassedTests; failed += r.numFailedTests;
  }
  console.log(`\ntests: ${passed} passed, ${failed} failed`);
' "$results"
