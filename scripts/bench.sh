#!/usr/bin/env bash
# The benchmark command (npm run bench): make sure Redis and a MongoDB wire-protocol server are there, then run
# bench/run.ts (issue 24's scenarios, each interleaved with its same-run baseline; see bench/README.md). Arguments go
# to bench/run.ts: --quick, --only=<scenario,...>, --rounds=R.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/services.sh up
exec node bench/run.ts "$@"
