#!/usr/bin/env bash
# `npm run dev`: a real n8n (the runtime scripts/n8n/install-runtime.sh installs, 2.40.7 by default) with this
# package live: built once, then recompiled on every save (`tsc --watch` on tsconfig.build.json), and n8n reloads
# the nodes (N8N_DEV_RELOAD) from dist/, linked into n8n's custom folder the way `n8n-node dev` links a package;
# there they are called CUSTOM.commerceMessaging. The editor's data (owner, credentials, workflows) stays in
# $CM_CACHE_DIR/dev-home between sessions.
# Options (environment): N8N_DEV_VERSION=1 (or an exact version), N8N_PORT (default 5678), CM_DEV_HOME.
# Why not plain `n8n-node dev`: it starts `npx n8n@latest` (2.41.x does not install from this registry) and
# links the whole project (not dist/) into n8n's custom folder, where n8n's loader also loads every `*.node.js` of
# the project's node_modules and stops at apache-arrow's Arrow.node.js (measured with n8n 2.40.7).
source "$(dirname "$0")/env.sh"
ensure_deps
cd "$PROJECT_ROOT"
export PATH="$PROJECT_ROOT/node_modules/.bin:$PATH"

runtime="$(bash scripts/n8n/install-runtime.sh "${N8N_DEV_VERSION:-2}")"
n8n_node="$(sed -n 's/^NODE_BIN=//p' <<<"$runtime")"
n8n_bin="$(tail -n 1 <<<"$runtime")"
dev_home="${CM_DEV_HOME:-$CM_CACHE_DIR/dev-home}"
port="${N8N_PORT:-5678}"
log="$dev_home/n8n.log"
mkdir -p "$dev_home"

echo "[dev] build" >&2
npm run --silent build
custom="$dev_home/.n8n/custom/node_modules"
mkdir -p "$custom"
ln -sfn "$PROJECT_ROOT/dist" "$custom/n8n-nodes-commerce-messaging"

echo "[dev] n8n on http://127.0.0.1:$port (user folder $dev_home, log $log)" >&2
(
  cd "$dev_home"
  export N8N_USER_FOLDER="$dev_home" N8N_DEV_RELOAD=true \
    N8N_PORT="$port" N8N_HOST=127.0.0.1 N8N_LISTEN_ADDRESS=127.0.0.1 N8N_EDITOR_BASE_URL="http://127.0.0.1:$port/" \
    N8N_SECURE_COOKIE=false N8N_RUNNERS_BROKER_LISTEN_ADDRESS=127.0.0.1 N8N_DIAGNOSTICS_ENABLED=false \
    N8N_VERSION_NOTIFICATIONS_ENABLED=false N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE=true \
    PATH="$(dirname "$n8n_node"):$PATH"
  exec "$n8n_node" "$n8n_bin" start
) >"$log" 2>&1 &
n8n_pid=$!
trap 'kill "$n8n_pid" 2>/dev/null || true; wait "$n8n_pid" 2>/dev/null || true' EXIT

for _ in $(seq 1 180); do
  if grep -q "Editor is now accessible" "$log"; then break; fi
  if ! kill -0 "$n8n_pid" 2>/dev/null; then
    echo "[dev] n8n exited; the end of $log:" >&2
    tail -n 30 "$log" >&2
    exit 1
  fi
  sleep 1
done
echo "[dev] n8n is up: open http://127.0.0.1:$port and add the node \"Commerce Messaging\". Ctrl-C stops both." >&2
tsc -p tsconfig.build.json --watch --preserveWatchOutput
