#!/usr/bin/env bash
# The fault campaign (npm run faults): make sure Redis and a MongoDB wire-protocol server are there, then run
# scripts/faults.ts. Arguments go to it (--help lists them).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/services.sh up
exec node scripts/faults.ts "$@"
