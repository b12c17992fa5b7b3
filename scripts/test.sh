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
step "lint (n8n-node lint: n8n's default eslint config, strict mode; warnings count as findings)"
lint_output="$(npm run --silent lint 2>&1)" || { printf '%s\n' "$lint_output"; exit 1; }
printf '%s\n' "$lint_output"
# n8n-node lint fails on errors only; eslint's summary line ("✖ N problems") appears for a warning too.
if grep -q '✖' <<<"$lint_output"; then echo "lint: warnings are findings too: fix them" >&2; exit 1; fi
step "format (Prettier with n8n-node's config, every TypeScript file): npm run format fixes it"
prettier --check --log-level warn "**/*.ts"
step "the tarball (its files and size) and n8n's community-package verification scan (sources and packed tarball)"
bash scripts/verify-package.sh
results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT
step "unit + engine tests"
# Each jest run writes its result file even when tests fail; the verdict comes from scripts/lib/testSummary.js.
status=0
jest --ci --json --outputFile="$results/unit.json" || status=$?
e2e_result=(--e2e-not-run="SKIP_E2E=1")
if [ ! -f test/e2e/jest.config.js ]; then
  e2e_result=(--e2e-not-run="test/e2e/jest.config.js is missing")
elif [ "${SKIP_E2E:-}" != "1" ]; then
  step "end-to-end tests in real n8n"
  jest --ci -c test/e2e/jest.config.js --testPathIgnorePatterns='/queue\.test\.js$' --json --outputFile="$results/e2e.json" || status=$?
  # Queue mode (a main, two workers, Postgres, Redis, bursts of 1,000 calls) loads both cores: run beside the
  # other files, it starved their real n8n processes (a scheduled poll missed its wait); alone, its figures are
  # the deployment's own.
  step "end-to-end: n8n queue mode, alone"
  jest --ci -c test/e2e/jest.config.js test/e2e/queue.test.js --json --outputFile="$results/e2e-queue.json" || status=$?
  e2e_result=("$results/e2e.json" "$results/e2e-queue.json")
fi
# One closing line over both jest runs (jest prints one summary per run): tests: N passed, N failed, N skipped.
# It fails the run when a test failed, or when an e2e suite was skipped, ran nothing or did not run at all.
node scripts/lib/testSummary.js "$results/unit.json" "${e2e_result[@]}" || status=$?
exit "$status"
