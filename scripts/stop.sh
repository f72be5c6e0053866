#!/usr/bin/env bash
# `npm stop`, first part: stops the `npm start` running from this folder (its pid in <state dir>/start.pid; the state
# dir is START_STATE_DIR or .cache) as Ctrl-C would, workers finishing their active jobs, and waits until it has
# exited. `npm stop` then stops what `scripts/services.sh up` started.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pidfile="${START_STATE_DIR:-$root/.cache}/start.pid"
wait_s="${STOP_TIMEOUT_S:-120}"

[ -f "$pidfile" ] || { echo "stop: no npm start to stop (no $pidfile)" >&2; exit 0; }
pid="$(tr -dc 0-9 <"$pidfile")"
# The pid file may outlive its process (kill -9, a reboot): only a running npm start of it is signalled.
if [ -z "$pid" ] || ! tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'scripts/start.ts'; then
  echo "stop: the npm start of $pidfile (pid ${pid:-?}) is not running" >&2
  rm -f "$pidfile"; exit 0
fi
echo "stop: stopping npm start (pid $pid); workers finish their active jobs" >&2
kill -TERM "$pid"
for _ in $(seq "$((wait_s * 10))"); do
  kill -0 "$pid" 2>/dev/null || { echo "stop: npm start (pid $pid) stopped" >&2; exit 0; }
  sleep 0.1
done
echo "stop: npm start (pid $pid) still running after ${wait_s} s; see its logs in ${START_STATE_DIR:-$root/.cache}/logs/" >&2
exit 1
