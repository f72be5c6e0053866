#!/usr/bin/env bash
# The benchmark command (npm run bench): make sure Redis and a MongoDB wire-protocol server are there, then run
# bench/run.ts (baselines + the service's create and create+confirm). Arguments go to bench/run.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/services.sh up
exec node bench/run.ts "$@"
