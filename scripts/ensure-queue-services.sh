#!/usr/bin/env bash
# Makes sure what n8n's queue mode needs is installed: PostgreSQL (initdb, pg_ctl, postgres) and Redis
# (redis-server), from Debian's packages `postgresql` and `redis-server`. When one is missing: `apt-get update`
# once, then `apt-get install -y` the missing ones (needs root, or sudo without a password). Nothing is started
# here (tools/n8n/queue.js runs both as plain processes on loopback). Idempotent; concurrent callers wait for
# each other. Prints two lines: `pg_bin=<folder with initdb/pg_ctl>` and `redis_server=<path>`.
# Called by test/e2e/lib/globalSetup.js and scripts/demo-queue.js.
set -euo pipefail
source "$(dirname "$0")/lib/apt.sh"

find_pg_bin() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/postgres" ]; then echo "$dir"; fi
  done | sort -V | tail -n 1
}
find_redis() { command -v redis-server 2>/dev/null || { [ -x /usr/bin/redis-server ] && echo /usr/bin/redis-server; } || true; }

missing() {
  local m=()
  [ -n "$(find_pg_bin)" ] || m+=(postgresql)
  [ -n "$(find_redis)" ] || m+=(redis-server)
  echo "${m[@]:-}"
}

if [ -n "$(missing)" ]; then
  apt_lock queue-services
  todo="$(missing)" # another caller may have installed them while this one waited for the lock
  # shellcheck disable=SC2086
  [ -z "$todo" ] || apt_install queue-services $todo
  if [ -n "$(missing)" ]; then
    echo "[queue-services] apt-get finished but $(missing) is still missing" >&2
    exit 1
  fi
fi
echo "pg_bin=$(find_pg_bin)"
echo "redis_server=$(find_redis)"
