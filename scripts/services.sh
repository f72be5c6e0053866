#!/usr/bin/env bash
# Starts what the service needs locally when it is not already there: Redis, and FerretDB (a MongoDB
# wire-protocol server built from the Go module proxy, backed by the local PostgreSQL) where no MongoDB is given.
#   bash scripts/services.sh up     start what is missing; prints the MONGODB_URL to use
#   bash scripts/services.sh down   stop what this script started
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="$root/.cache"; mkdir -p "$cache"
ferret_port="${FERRETDB_PORT:-27017}"
pg_url="${FERRETDB_POSTGRESQL_URL:-postgres://postgres@127.0.0.1:5432/ferretdb}"

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

ensure_redis() {
  if [ -n "${REDIS_URL:-}" ]; then return; fi
  if listening 6379; then return; fi
  echo "services: starting redis-server on 127.0.0.1:6379" >&2
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
    --pidfile "$cache/redis.pid" --logfile "$cache/redis.log"
  touch "$cache/redis.started-by-us"
  for _ in $(seq 50); do listening 6379 && return; sleep 0.1; done
  echo "services: redis did not start" >&2; exit 1
}

build_ferretdb() {
  local src="$root/test/ferretdb"
  if [ -x "$cache/ferretdb" ] && [ "$cache/ferretdb" -nt "$src/main.go" ] && [ "$cache/ferretdb" -nt "$src/go.sum" ]; then return; fi
  echo "services: building FerretDB 1.24 from the Go module proxy (first time only)" >&2
  (cd "$src" && go build -o "$cache/ferretdb" .)
}

ensure_ferretdb() {
  if [ -n "${MONGODB_URL:-}" ]; then return; fi
  if listening "$ferret_port"; then return; fi
  build_ferretdb
  local db="${pg_url##*/}"; db="${db%%\?*}"
  psql "${pg_url%/*}/postgres" -qAtc "select 1 from pg_database where datname='$db'" | grep -q 1 \
    || psql "${pg_url%/*}/postgres" -qc "create database \"$db\"" >/dev/null
  # Let FerretDB use the indexes we declare (see the file): GIN indexes beside its btree ones, custom plans.
  psql "$pg_url" -q -v ON_ERROR_STOP=1 -f "$root/test/ferretdb/gin-indexes.sql" 2>&1 | grep -v 'does not exist, skipping' >&2 || true
  psql "$pg_url" -qc "alter database \"$db\" set plan_cache_mode = force_custom_plan" >/dev/null
  echo "services: starting FerretDB on 127.0.0.1:$ferret_port (PostgreSQL database $db)" >&2
  nohup "$cache/ferretdb" -listen "127.0.0.1:$ferret_port" -postgresql-url "$pg_url" >"$cache/ferretdb.log" 2>&1 &
  echo $! >"$cache/ferretdb.pid"
  for _ in $(seq 100); do listening "$ferret_port" && return; sleep 0.1; done
  echo "services: FerretDB did not start; see $cache/ferretdb.log" >&2; exit 1
}

case "${1:-up}" in
  up) ensure_redis; ensure_ferretdb ;;
  build-ferretdb) build_ferretdb ;;
  down)
    if [ -f "$cache/ferretdb.pid" ]; then kill "$(cat "$cache/ferretdb.pid")" 2>/dev/null || true; rm -f "$cache/ferretdb.pid"; fi
    if [ -f "$cache/redis.started-by-us" ]; then
      kill "$(cat "$cache/redis.pid" 2>/dev/null)" 2>/dev/null || true; rm -f "$cache/redis.started-by-us"
    fi ;;
  *) echo "usage: services.sh up|down|build-ferretdb" >&2; exit 2 ;;
esac
