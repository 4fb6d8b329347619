#!/usr/bin/env bash
# Makes sure the local PostgreSQL answers on 127.0.0.1:5432, starting the Debian cluster if needed.
# Does nothing when DATABASE_URL points elsewhere and that server answers.
set -euo pipefail
host=127.0.0.1 port=5432
if pg_isready -q -h "$host" -p "$port" 2>/dev/null; then exit 0; fi
if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
  echo "postgres: starting the local cluster" >&2
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start
  for _ in $(seq 1 30); do pg_isready -q -h "$host" -p "$port" && exit 0; sleep 1; done
fi
echo "postgres: nothing answers on $host:$port; start PostgreSQL or set DATABASE_URL (see README)" >&2
exit 1
