# Sourced by every project script: makes a Node >= 24 the `node` on PATH and installs the project's
# dependencies once. n8n 2.x (and the n8n-core engine the tests run) needs Node 24 because isolated-vm builds
# only against it; machines that have Node 20 get Node 24 from the npm registry into a cache outside the repo,
# so a fresh clone on the same machine reuses it.
set -euo pipefail
NODE_VERSION_WANTED=24.21.0
PROJECT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CM_CACHE_DIR="${CM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-commerce-messaging}"
mkdir -p "$CM_CACHE_DIR"

node_major() { "${1:-node}" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

# Prints the folder of that exact Node version, fetched once from the npm registry (node-linux-<arch>: bin/node
# plus the headers native modules build against) into the cache.
node_home_from_registry() {
  local version="$1" arch home
  case "$(uname -m)" in x86_64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) echo "unsupported CPU $(uname -m)" >&2; return 1 ;; esac
  home="$CM_CACHE_DIR/node-$version/node_modules/node-linux-$arch"
  if [ ! -x "$home/bin/node" ]; then
    echo "[env] fetching Node $version from the npm registry into $CM_CACHE_DIR" >&2
    npm install --no-save --no-package-lock --loglevel=error --prefix "$CM_CACHE_DIR/node-$version" \
      "node-linux-$arch@$version" >&2 || return 1
  fi
  echo "$home"
}

ensure_node24() {
  if command -v node >/dev/null && [ "$(node_major node)" -ge 24 ]; then
    NODE_HOME="$(dirname "$(dirname "$(command -v node)")")"
  else
    NODE_HOME="$(node_home_from_registry "$NODE_VERSION_WANTED")"
    export PATH="$NODE_HOME/bin:$PATH"
  fi
  # Native addons (isolated-vm, sqlite3) build against this Node's headers.
  export npm_config_nodedir="$NODE_HOME"
  export NODE_HOME
}

# Installs node_modules when missing or older than the lockfile.
ensure_deps() {
  local stamp="$PROJECT_ROOT/node_modules/.cm-installed"
  # An `npm ci` run before (CI's install step) counts: npm writes node_modules/.package-lock.json when it is done.
  local done_by_npm="$PROJECT_ROOT/node_modules/.package-lock.json"
  if [ ! -f "$stamp" ] && [ -f "$done_by_npm" ] && [ ! "$PROJECT_ROOT/package-lock.json" -nt "$done_by_npm" ]; then
    touch "$stamp"
  fi
  if [ ! -f "$stamp" ] || [ "$PROJECT_ROOT/package-lock.json" -nt "$stamp" ]; then
    echo "[env] npm ci (Node $(node --version))" >&2
    # eslint-plugin-n8n-nodes-base runs `npx only-allow pnpm` on install; npx must not prompt.
    (cd "$PROJECT_ROOT" && npm_config_yes=true npm ci --no-audit --no-fund --loglevel=error >&2)
    touch "$stamp"
  fi
}

ensure_node24
