#!/usr/bin/env bash
# Installs everything the repo needs: Node 24 (into .tools/node when the system one is older),
# the npm packages exactly as locked, and the generated Prisma client. Safe to run again.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source <(bash scripts/node24.sh bash -c 'echo "export PATH=\"$(dirname "$(command -v node)"):\$PATH\""')
echo "setup: node $(node --version), npm $(npm --version)"

# Install scripts of dependencies are not needed (Prisma engines are never downloaded; the
# client is generated below) and are skipped so the install never reaches beyond the registry.
# A stamp of the lock file's digest marks an install that completed, so reruns skip it.
stamp=node_modules/.ecf-install-stamp
digest="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$digest" ]; then
  npm ci --ignore-scripts --no-audit --no-fund
  echo "$digest" > "$stamp"
else
  echo "setup: npm packages up to date"
fi
npm run --silent generate -w @ecf/db >/dev/null
echo "setup: Prisma client generated"
