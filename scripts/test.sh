#!/usr/bin/env bash
# The test command (`npm test`): typecheck, make sure Redis and a MongoDB wire-protocol server are there (FerretDB
# unless MONGODB_URL names one), run every test against the real processes, and close with "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
tsc --noEmit -p .
bash scripts/services.sh up
mkdir -p .cache
set +e
vitest run --reporter=default --reporter=json --outputFile.json=.cache/vitest-results.json "$@"
status=$?
set -e
if [ -f .cache/vitest-results.json ]; then
  node -e '
    const r = JSON.parse(require("fs").readFileSync(".cache/vitest-results.json", "utf8"));
    const skipped = r.numPendingTests + r.numTodoTests;
    console.log(`\n${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
    if (r.numTotalTests === 0) { console.error("no test ran"); process.exit(1); }'
fi
exit $status
