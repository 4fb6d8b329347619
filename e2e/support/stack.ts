/**
 * The whole service for the portal's e2e specs, on free ports and a database of its own: the tax
 * authority simulator, the mail catcher, the API, the reception process (the public /fe routes; the
 * API forwards its /fe there, as in the development stack), the worker and the portal's PRODUCTION build
 * (apps/web/server.ts). Started once per run by the global setup (support/global-setup.ts), which hands
 * the addresses to every spec process in `E2E_STACK`; each spec seeds its own tenant (support/seed.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TTestDatabase, NODE_TYPESCRIPT_FLAGS } from '@ecf/db/testing';
import { startMailCatcher, type TMailCatcher } from '@ecf/mail-catcher';
import { freePort, startServer } from './processes.ts';
import { ensurePortalBuild, REPOSITORY, WEB_DIRECTORY } from './portal-build.ts';

/** What a spec needs to reach the stack (JSON in `E2E_STACK`). */
export type TStack = {
  portalUrl: string;
  apiUrl: string;
  mailCatcherUrl: string;
  simulatorUrl: string;
  databaseUrl: string;
  /**
   * File holding the worker's current process id. The stack supervises its worker as a process
   * manager would: killed (SIGKILL included), it is started again; a spec may kill it to prove
   * crash safety.
   */
  workerPidFile: string;
  /** Secrets the running services were given: none may appear in a client bundle. */
  secrets: Record<string, string>;
};

type TRunning = { stack: TStack; stop: () => Promise<void> };

const app = (name: string) => path.join(REPOSITORY, 'apps', name);

export async function startStack(): Promise<TRunning> {
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => undefined);
  };
  try {
    const build = ensurePortalBuild();
    const database: TTestDatabase = await createTestDatabase();
    stops.push(() => database.drop());
    const catcher: TMailCatcher = await startMailCatcher({ smtpPort: 0, httpPort: 0 });
    stops.push(() => catcher.close());
    const [simPort, apiPort, workerPort, portalPort, receptionPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const secrets = {
      NEXTAUTH_SECRET: randomBytes(32).toString('base64url'),
      CERTIFICATE_MASTER_KEY: randomBytes(32).toString('base64'),
      RI_LINK_SECRET: randomBytes(32).toString('base64url'),
      API_CURSOR_SECRET: randomBytes(32).toString('base64url'),
      CERTIFICATION_EMBED_SECRET: randomBytes(32).toString('base64url'),
      RECEPTION_PROXY_SECRET: randomBytes(32).toString('base64url'),
    };
    const common = {
      DATABASE_URL: database.url,
      LOG_LEVEL: 'warn',
      CERTIFICATE_MASTER_KEY: secrets.CERTIFICATE_MASTER_KEY,
      RI_LINK_SECRET: secrets.RI_LINK_SECRET,
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(catcher.smtpPort),
      SMTP_TIMEOUT_MS: '5000',
    };
    const simulatorUrl = `http://127.0.0.1:${simPort}`;
    const simulator = await startServer({
      command: process.execPath,
      args: [...NODE_TYPESCRIPT_FLAGS, 'src/main.ts'],
      cwd: app('taxauth-sim'),
      env: { ...common, SIM_PORT: String(simPort) },
      url: `${simulatorUrl}/_sim/health`,
    });
    stops.push(simulator.stop);
    // The worker sends e-CF; the API and the portal send ANECF (annulments) themselves.
    const taxauth = {
      TAXAUTH_ECF_BASE_URL: simulatorUrl,
      TAXAUTH_FC_BASE_URL: simulatorUrl,
      TAXAUTH_STATUS_BASE_URL: simulatorUrl,
    };
    // The reception process: suppliers' deliveries reach it through the API's /fe (receiving-loop spec).
    const receptionUrl = `http://127.0.0.1:${receptionPort}`;
    const reception = await startServer({
      command: process.execPath,
      args: [...NODE_TYPESCRIPT_FLAGS, 'src/reception-main.ts'],
      cwd: app('api'),
      env: {
        ...common,
        RECEPTION_PORT: String(receptionPort),
        RECEPTION_PROXY_SECRET: secrets.RECEPTION_PROXY_SECRET,
      },
      url: `${receptionUrl}/healthz`,
    });
    stops.push(reception.stop);
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const api = await startServer({
      command: process.execPath,
      args: [...NODE_TYPESCRIPT_FLAGS, 'src/main.ts'],
      cwd: app('api'),
      env: {
        ...common,
        ...taxauth,
        API_PORT: String(apiPort),
        API_CURSOR_SECRET: secrets.API_CURSOR_SECRET,
        RECEPTION_URL: receptionUrl,
        RECEPTION_PROXY_SECRET: secrets.RECEPTION_PROXY_SECRET,
        // The Partner API, and the portal its embedded certification links point to.
        PSFE_PARTNER_API_ENABLED: 'true',
        PORTAL_BASE_URL: `http://127.0.0.1:${portalPort}`,
        CERTIFICATION_EMBED_SECRET: secrets.CERTIFICATION_EMBED_SECRET,
        // The SDK spec and the examples point Partner webhook endpoints at local receivers.
        WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
      },
      url: `${apiUrl}/healthz`,
    });
    stops.push(api.stop);
    const workerPidFile = path.join(mkdtempSync(path.join(tmpdir(), 'ecf-e2e-')), 'worker.pid');
    const startWorker = () =>
      startServer({
        command: process.execPath,
        args: [...NODE_TYPESCRIPT_FLAGS, 'src/main.ts'],
        cwd: app('worker'),
        env: {
          ...common,
          ...taxauth,
          WORKER_HEALTH_PORT: String(workerPort),
          // The webhooks spec's receiver listens on 127.0.0.1 over plain http (development setting).
          WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
          PUBLIC_BASE_URL: apiUrl,
          SMTP_MESSAGE_LOOKUP_URL: `http://127.0.0.1:${catcher.httpPort}/api/messages/by-message-id/{messageId}`,
        },
        url: `http://127.0.0.1:${workerPort}/healthz`,
      });
    // Supervised: a worker that dies (a spec's SIGKILL) is started again, as a process manager would.
    let stopping = false;
    let worker = await startWorker();
    const supervise = (current: typeof worker) => {
      writeFileSync(workerPidFile, String(current.process.pid));
      current.process.once('exit', () => {
        if (stopping) return;
        void startWorker().then((next) => {
          worker = next;
          supervise(next);
        });
      });
    };
    supervise(worker);
    stops.push(async () => {
      stopping = true;
      await worker.stop();
    });
    await build;
    const portalUrl = `http://127.0.0.1:${portalPort}`;
    const portal = await startServer({
      command: process.execPath,
      // As `npm start -w @ecf/web` runs it: our server (server.ts: the wire timeouts) over the
      // production build; tsx loads the server packages from source (NODE_OPTIONS).
      args: [path.join(WEB_DIRECTORY, 'server.ts')],
      cwd: WEB_DIRECTORY,
      env: {
        ...common,
        ...taxauth,
        NODE_ENV: 'production',
        WEB_HOST: '127.0.0.1',
        WEB_PORT: String(portalPort),
        NEXT_TELEMETRY_DISABLED: '1',
        NODE_OPTIONS: '--import tsx',
        PORTAL_PUBLIC_URL: portalUrl,
        NEXTAUTH_SECRET: secrets.NEXTAUTH_SECRET,
        // The documents page pages with the API's own cursors.
        API_CURSOR_SECRET: secrets.API_CURSOR_SECRET,
        NEXT_PUBLIC_API_URL: apiUrl,
        // The URLs the certification page tells a taxpayer to register (the API's public address).
        PUBLIC_BASE_URL: apiUrl,
        CERTIFICATION_EMBED_SECRET: secrets.CERTIFICATION_EMBED_SECRET,
        // Every spec signs in from 127.0.0.1: the per-address limit is tested in @ecf/services.
        PORTAL_SIGN_IN_IP_MAX_ATTEMPTS: '100000',
        WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
        // Live pages refresh every second in the specs (5 s in production): portal-live-status.spec.ts.
        WEB_LIVE_POLL_MS: '1000',
      },
      url: `${portalUrl}/sign-in`,
    });
    stops.push(async () => {
      await portal.stop();
      // The portal's own log of the run (a page that failed on the server says why here).
      const logs = path.join(import.meta.dirname, '..', 'artifacts');
      mkdirSync(logs, { recursive: true });
      writeFileSync(path.join(logs, 'portal-server.log'), portal.output());
      // Its errors in the run's own output too: a CI run keeps no artifacts.
      const errors = portal
        .output()
        .split('\n')
        .filter((line) => /error|⨯/i.test(line));
      if (errors.length > 0) console.log(`e2e: the portal logged:\n${errors.slice(-40).join('\n')}`);
    });
    return {
      stack: {
        portalUrl,
        apiUrl,
        mailCatcherUrl: `http://127.0.0.1:${catcher.httpPort}`,
        simulatorUrl,
        databaseUrl: database.url,
        workerPidFile,
        secrets,
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The stack the global setup started (in a spec process). */
export function stack(): TStack {
  const text = process.env.E2E_STACK;
  if (text === undefined || text === '')
    throw new Error(
      'E2E_STACK is not set: run the specs with npm test -w @ecf/e2e (support/global-setup.ts starts the stack)',
    );
  return JSON.parse(text) as TStack;
}
