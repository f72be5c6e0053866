#!/usr/bin/env bash
# Starts what the service needs locally when it is not already there: Redis, and FerretDB (a MongoDB
# wire-protocol server built from the Go module proxy, backed by the local PostgreSQL) where no MongoDB is given.
#   bash scripts/services.sh up     start what is missing; prints the MONGODB_URL to use
#   bash scripts/services.sh down   stop what this script started (`npm stop`)
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
  command -v go >/dev/null || { echo "services: Go is needed to build FerretDB (the local MongoDB stand-in); install Go, or set MONGODB_URL to a MongoDB" >&2; exit 1; }
  echo "services: building FerretDB 1.24, the local MongoDB stand-in, from the Go module proxy (the first time about 2-3 minutes; log: $cache/ferretdb-build.log)" >&2
  # `go: downloading` lines go to the log: they say nothing a newcomer must act on.
  if ! (cd "$src" && go build -o "$cache/ferretdb.tmp.$$" . && mv "$cache/ferretdb.tmp.$$" "$cache/ferretdb") >"$cache/ferretdb-build.log" 2>&1; then
    tail -n 20 "$cache/ferretdb-build.log" >&2
    echo "services: building FerretDB failed; see $cache/ferretdb-build.log" >&2; exit 1
  fi
}

# The PostgreSQL database behind FerretDB: created when missing, with our GIN indexes and custom plans (see
# test/ferretdb/gin-indexes.sql). Every step holds one advisory lock, so concurrent runs (two clones, parallel CI)
# take turns instead of racing on CREATE DATABASE or the event trigger; each step is a no-op when already done.
prepare_database() {
  local db="${pg_url##*/}"; db="${db%%\?*}"
  local lock="select pg_advisory_lock(hashtext('bnpl ferretdb provisioning'))"
  # No RETURN trap: it would outlive this function and, under `set -u`, fire where $err is out of scope.
  local err; err="$(mktemp)"
  export PGOPTIONS="-c client_min_messages=warning"
  if ! psql "${pg_url%/*}/postgres" -qAt -v ON_ERROR_STOP=1 -v db="$db" >/dev/null 2>"$err" <<SQL
$lock;
select format('create database %I', :'db') where not exists (select from pg_database where datname = :'db') \gexec
SQL
  then
    cat "$err" >&2
    echo "services: could not create the PostgreSQL database \"$db\" for FerretDB at ${pg_url%/*} (is PostgreSQL running? set FERRETDB_POSTGRESQL_URL)" >&2; exit 1
  fi
  if ! psql "$pg_url" -qAt -v ON_ERROR_STOP=1 -c "$lock" -f "$root/test/ferretdb/gin-indexes.sql" \
      -c "alter database \"$db\" set plan_cache_mode = force_custom_plan" >/dev/null 2>"$err"; then
    cat "$err" >&2
    echo "services: could not prepare the PostgreSQL database \"$db\" for FerretDB ($pg_url)" >&2; exit 1
  fi
  rm -f "$err"
}

ensure_ferretdb() {
  if [ -n "${MONGODB_URL:-}" ]; then return; fi
  if listening "$ferret_port"; then return; fi
  build_ferretdb
  prepare_database
  echo "services: starting FerretDB on 127.0.0.1:$ferret_port (PostgreSQL $pg_url)" >&2
  # FerretDB 1.24 runs an update or findAndModify as a query whose iterator keeps its PostgreSQL connection while the
  # write takes a second one (internal/handler/msg_update.go): with as many such commands in flight as the pool has
  # connections, each holds one and waits for another, and the server stops answering, even pings. The pool stays at
  # FerretDB's 50 by default (90 made create+confirm about 15 % slower here: more PostgreSQL backends on 2 CPUs); set
  # FERRETDB_POOL_MAX_CONNS (PostgreSQL allows 100 here) when several stacks run at once against this server.
  local sep='?'; case "$pg_url" in *\?*) sep='&' ;; esac
  local ferret_pg_url="$pg_url"
  case "$pg_url" in *pool_max_conns=*) ;; *) ferret_pg_url="$pg_url${sep}pool_max_conns=${FERRETDB_POOL_MAX_CONNS:-50}" ;; esac
  nohup "$cache/ferretdb" -listen "127.0.0.1:$ferret_port" -postgresql-url "$ferret_pg_url" >"$cache/ferretdb.log" 2>&1 &
  echo $! >"$cache/ferretdb.pid"
  for _ in $(seq 100); do listening "$ferret_port" && return; sleep 0.1; done
  echo "services: FerretDB did not start; see $cache/ferretdb.log" >&2; exit 1
}

case "${1:-up}" in
  up) ensure_redis; ensure_ferretdb ;;
  build-ferretdb) build_ferretdb ;;
  prepare-ferretdb) build_ferretdb; prepare_database ;;
  prepare-database) prepare_database ;;   # what `npm start` runs before it starts FerretDB itself
  down)
    if [ -f "$cache/ferretdb.pid" ]; then kill "$(cat "$cache/ferretdb.pid")" 2>/dev/null || true; rm -f "$cache/ferretdb.pid"; fi
    if [ -f "$cache/redis.started-by-us" ]; then
      kill "$(cat "$cache/redis.pid" 2>/dev/null)" 2>/dev/null || true; rm -f "$cache/redis.started-by-us"
    fi ;;
  *) echo "usage: services.sh up|down|build-ferretdb|prepare-ferretdb|prepare-database" >&2; exit 2 ;;
esac
