#!/usr/bin/env bash
# The test command: typecheck, make sure Redis and a MongoDB wire-protocol server are there, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || npm ci --no-audit --no-fund
tsc --noEmit -p .
bash scripts/services.sh up
exec vitest run "$@"
