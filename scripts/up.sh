#!/usr/bin/env bash
# One command from a fresh clone to a running service: installs what is needed, makes sure a
# PostgreSQL answers (bringing its own when the machine has none), creates and migrates the
# database, seeds the demo tenant (printing its API keys) and runs the API, the reception process
# (the public /fe routes; the API forwards its own /fe there), the worker, the portal, the tax
# authority simulator and a local mail catcher together. Ctrl-C stops them all.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

bash scripts/setup.sh
source <(bash scripts/node24.sh bash -c 'echo "export PATH=\"$(dirname "$(command -v node)"):\$PATH\""')
if [ -f .env ]; then set -a; source .env; set +a; fi
export API_PORT="${API_PORT:-3000}" WEB_PORT="${WEB_PORT:-3001}" WORKER_HEALTH_PORT="${WORKER_HEALTH_PORT:-3002}" SIM_PORT="${SIM_PORT:-4000}"
# The public reception routes run in a process of their own; the API streams its /fe requests there.
export RECEPTION_PORT="${RECEPTION_PORT:-3004}"
export RECEPTION_URL="${RECEPTION_URL:-http://127.0.0.1:$RECEPTION_PORT}"
export NEXT_PUBLIC_API_URL="${NEXT_PUBLIC_API_URL:-http://127.0.0.1:$API_PORT}" NEXT_TELEMETRY_DISABLED=1
# Buyer e-mail goes to the local mail catcher (nothing leaves the machine) unless SMTP_HOST is configured.
export MAIL_CATCHER_SMTP_PORT="${MAIL_CATCHER_SMTP_PORT:-1025}" MAIL_CATCHER_HTTP_PORT="${MAIL_CATCHER_HTTP_PORT:-3003}"
export SMTP_HOST="${SMTP_HOST:-127.0.0.1}" SMTP_PORT="${SMTP_PORT:-$MAIL_CATCHER_SMTP_PORT}" PUBLIC_BASE_URL="${PUBLIC_BASE_URL:-http://127.0.0.1:$API_PORT}"
# With the mail catcher, a buyer e-mail whose outcome a crash left unknown is looked up by its
# Message-ID before any resend (exactly once); against another SMTP server, leave it unset unless
# the provider has such a lookup (without one: at most once, recorded uncertain).
if [ "$SMTP_HOST" = "127.0.0.1" ] && [ "$SMTP_PORT" = "$MAIL_CATCHER_SMTP_PORT" ]; then
  export SMTP_MESSAGE_LOOKUP_URL="${SMTP_MESSAGE_LOOKUP_URL:-http://127.0.0.1:$MAIL_CATCHER_HTTP_PORT/api/messages/by-message-id/{messageId}}"
fi

# A server answering at DATABASE_URL is used as it is; else the Debian cluster or the embedded
# PostgreSQL (.data/postgres) is started there (scripts/ensure-postgres.sh). It outlives Ctrl-C.
bash scripts/ensure-postgres.sh
# Tenant certificates are encrypted under CERTIFICATE_MASTER_KEY: a development key is generated
# once into .data/ (gitignored) unless one is configured. Production sets its own.
if [ -z "${CERTIFICATE_MASTER_KEY:-}" ]; then
  mkdir -p .data
  [ -s .data/certificate-master-key ] || (umask 077; node -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("base64"))' > .data/certificate-master-key)
  CERTIFICATE_MASTER_KEY="$(cat .data/certificate-master-key)"
fi
export CERTIFICATE_MASTER_KEY
# The buyer links are signed with RI_LINK_SECRET (API and worker share it): generated once likewise.
if [ -z "${RI_LINK_SECRET:-}" ]; then
  mkdir -p .data
  [ -s .data/ri-link-secret ] || (umask 077; node -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("base64url"))' > .data/ri-link-secret)
  RI_LINK_SECRET="$(cat .data/ri-link-secret)"
fi
export RI_LINK_SECRET
# The portal's session key (next-auth): generated once likewise; the production portal refuses to run without one.
if [ -z "${NEXTAUTH_SECRET:-}" ]; then
  mkdir -p .data
  [ -s .data/nextauth-secret ] || (umask 077; node -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("base64url"))' > .data/nextauth-secret)
  NEXTAUTH_SECRET="$(cat .data/nextauth-secret)"
fi
export NEXTAUTH_SECRET PORTAL_PUBLIC_URL="${PORTAL_PUBLIC_URL:-http://127.0.0.1:$WEB_PORT}"
# The Partner API is on in the development stack (the demo Partner's key is printed below); its
# embedded certification links point at this portal and are signed with a key generated once.
export PSFE_PARTNER_API_ENABLED="${PSFE_PARTNER_API_ENABLED:-true}" PORTAL_BASE_URL="${PORTAL_BASE_URL:-http://127.0.0.1:$WEB_PORT}"
# A first webhook on this machine: the development stack lets the portal and the Partner API save,
# and the worker deliver to, endpoints on loopback and private addresses over http (a receiver on
# localhost). Development only, said in the banner; production keeps the default, false.
export WEBHOOKS_ALLOW_PRIVATE_TARGETS="${WEBHOOKS_ALLOW_PRIVATE_TARGETS:-true}"
if [ -z "${CERTIFICATION_EMBED_SECRET:-}" ]; then
  mkdir -p .data
  [ -s .data/certification-embed-secret ] || (umask 077; node -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("base64url"))' > .data/certification-embed-secret)
  CERTIFICATION_EMBED_SECRET="$(cat .data/certification-embed-secret)"
fi
export CERTIFICATION_EMBED_SECRET
npm run --silent migrate -w @ecf/db
demo_json="$(npm run --silent admin -w @ecf/api -- demo --json --keys-file "$root/.data/demo-keys.json" --users-file "$root/.data/demo-portal-users.json")"

# The simulator's directory of receivers publishes our own reception routes for the demo tenant
# (docs/receiving.md): suppliers' e-CF and customers' approvals sent to it in TesteCF reach this stack.
if [ -z "${SIM_DIRECTORY_FILE:-}" ]; then
  node -e '
const demo = JSON.parse(process.argv[1]);
const base = `http://127.0.0.1:${process.argv[2]}/TesteCF`;
const entry = { rnc: demo.tenant.rnc, name: demo.tenant.legalName, receptionUrl: base, commercialApprovalUrl: base };
require("node:fs").writeFileSync(process.argv[3], JSON.stringify([entry], null, 2));
' "$demo_json" "$API_PORT" "$root/.data/sim-directory.json"
  export SIM_DIRECTORY_FILE="$root/.data/sim-directory.json"
fi

# The portal runs as a production build (what users get: minified, no dev overlay, the strict CSP
# without 'unsafe-eval'); it is rebuilt only when its sources changed. WEB_DEV=1 runs `next dev`
# instead (hot reload while working on the portal).
web_script=start
if [ "${WEB_DEV:-0}" = "1" ]; then
  web_script=dev
elif [ ! -f apps/web/.next/BUILD_ID ] || [ -n "$(find apps/web packages/ui/src packages/contract/src package-lock.json -newer apps/web/.next/BUILD_ID -type f -not -path '*/node_modules/*' -not -path '*/.next/*' -not -path '*/.turbo/*' -print -quit)" ]; then
  echo "up: building the portal (next build, about a minute)..."
  npm run --silent build -w @ecf/web >/dev/null
fi

# The API, the reception process, the worker and the simulator run compiled JavaScript, as in
# production (scripts/compile.mjs: each workspace's src/ to dist/, only those whose sources changed;
# a few seconds the first time). `npm run dev -w @ecf/api` (tsx watch) is the way to hot reload.
node scripts/compile.mjs --with-deps apps/api apps/worker apps/taxauth-sim

# Every child is in this shell's process group: one signal stops them all.
trap 'trap - INT TERM EXIT; echo; echo "stopping..."; kill 0 2>/dev/null; wait 2>/dev/null' INT TERM EXIT
prefix() { sed -u "s/^/[$1] /"; }
(npm run --silent start -w @ecf/api 2>&1 | prefix api) &
(npm run --silent start:reception -w @ecf/api 2>&1 | prefix reception) &
(npm run --silent start -w @ecf/worker 2>&1 | prefix worker) &
(npm run --silent start -w @ecf/taxauth-sim 2>&1 | prefix sim) &
(npm run --silent "$web_script" -w @ecf/web 2>&1 | prefix web) &
(npm run --silent start -w @ecf/mail-catcher 2>&1 | prefix mail) &

for _ in $(seq 1 60); do
  curl -fsS "http://127.0.0.1:$API_PORT/healthz" >/dev/null 2>&1 && curl -fsS "http://127.0.0.1:$RECEPTION_PORT/healthz" >/dev/null 2>&1 && break
  sleep 1
done

# The banner says what is true: the Partner part only when the Partner API is on (scripts/up-banner.mjs).
node scripts/up-banner.mjs "$demo_json" "$API_PORT" "$WEB_PORT" "$WORKER_HEALTH_PORT" "$SIM_PORT" "$MAIL_CATCHER_HTTP_PORT" "$MAIL_CATCHER_SMTP_PORT"
wait
