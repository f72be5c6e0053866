#!/usr/bin/env bash
# `npm start` on a fresh clone: install dependencies when missing, then run the supervised stack.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
# The supervisor too runs with the service's node settings (deploy/node.env; its children get them from start.ts).
set -a
. deploy/node.env
set +a
exec node scripts/start.ts "$@"
