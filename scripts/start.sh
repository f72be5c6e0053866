#!/usr/bin/env bash
# `npm start` on a fresh clone: install dependencies when missing, then run the supervised stack.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
# The supervisor too runs with the service's node settings (deploy/node.env; its children get them from start.ts):
# each where the environment does not set it already; NODE_OPTIONS after the caller's own.
while IFS= read -r line || [ -n "$line" ]; do
  [[ $line =~ ^([A-Z_][A-Z0-9_]*)=\"?([^\"]*)\"?$ ]] || continue
  k=${BASH_REMATCH[1]} v=${BASH_REMATCH[2]}
  if [ "$k" = NODE_OPTIONS ]; then
    case " ${NODE_OPTIONS:-} " in *" $v "*) ;; *) export NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }$v" ;; esac
  elif [ -z "${!k+x}" ]; then export "$k=$v"; fi
done < deploy/node.env
exec node scripts/start.ts "$@"
