// Production processes run compiled JavaScript (issue 29, item 2): `npm run build` writes each
// workspace's dist/ (scripts/compile.mjs), and the simulator, the API, its reception process and the
// worker start from it and answer, with Node's TypeScript support switched off, so that not one
// `.ts` file can be loaded; a stack trace names the TypeScript source line (source maps).
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { createTestDatabase, freePort, NODE_COMPILED_FLAGS, type TTestDatabase } from '@ecf/db/testing';

const ROOT = path.join(import.meta.dirname, '..', '..');
const APPS = ['apps/api', 'apps/worker', 'apps/taxauth-sim'];

function compile(): string {
  return execFileSync(process.execPath, ['scripts/compile.mjs', '--with-deps', ...APPS], {
    cwd: ROOT,
    encoding: 'utf8',
  });
}

type TStarted = { child: ChildProcess; output: () => string };
const started: TStarted[] = [];

function start(entry: string, env: Record<string, string>): TStarted {
  const child = spawn(process.execPath, [...NODE_COMPILED_FLAGS, path.join(ROOT, entry)], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const process_ = { child, output: () => output };
  started.push(process_);
  return process_;
}

async function answers(process_: TStarted, url: string): Promise<Response> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    assert.equal(process_.child.exitCode, null, `exited:\n${process_.output()}`);
    try {
      return await fetch(url);
    } catch {
      assert.ok(Date.now() < deadline, `${url} did not answer:\n${process_.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

let appDatabase: TTestDatabase;
let simDatabase: TTestDatabase;
before(async () => {
  [appDatabase, simDatabase] = await Promise.all([
    createTestDatabase(),
    createTestDatabase({ migrated: false }),
  ]);
});
after(async () => {
  for (const { child } of started) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all([appDatabase?.drop(), simDatabase?.drop()]);
});

test('npm run build compiles the processes and the workspaces they use to dist/, again only when a source changed', () => {
  compile();
  for (const workspace of [...APPS, 'packages/services', 'packages/fiscal-core', 'packages/db'])
    assert.ok(existsSync(path.join(ROOT, workspace, 'dist', '.compiled')), `${workspace}/dist`);
  assert.ok(!existsSync(path.join(ROOT, 'packages/services/dist/index.test.js')), 'tests are not compiled');
  const map = JSON.parse(readFileSync(path.join(ROOT, 'apps/api/dist/main.js.map'), 'utf8')) as {
    sources: string[];
  };
  assert.deepEqual(map.sources, ['../src/main.ts'], 'the source map names the TypeScript file');
  assert.match(compile(), /0 modules written/, 'nothing changed: nothing compiled');
  // A source newer than its dist/: that workspace is compiled again, the others are left as they are.
  const source = path.join(ROOT, 'packages/config/src/index.ts');
  const { atime, mtime } = statSync(source);
  utimesSync(source, atime, new Date(Date.now() + 1_000));
  try {
    const again = compile();
    assert.match(again, /compile: packages\/config → dist\//);
    assert.doesNotMatch(again, /compile: packages\/services → dist\//);
  } finally {
    utimesSync(source, atime, mtime);
  }
});

test('the simulator, the API, the reception process and the worker start from dist/ alone and answer', async () => {
  compile();
  const [simPort, apiPort, receptionPort, workerPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const simUrl = `http://127.0.0.1:${simPort}`;
  const shared = {
    DATABASE_URL: appDatabase.url,
    XSD_DIRECTORY: OFFICIAL_XSD_DIRECTORY,
    CERTIFICATE_MASTER_KEY: randomBytes(32).toString('base64'),
  };
  const sim = start('apps/taxauth-sim/dist/main.js', {
    SIM_PORT: String(simPort),
    SIM_DATABASE_URL: simDatabase.url,
    XSD_DIRECTORY: OFFICIAL_XSD_DIRECTORY,
  });
  const api = start('apps/api/dist/main.js', {
    ...shared,
    API_PORT: String(apiPort),
    RECEPTION_URL: `http://127.0.0.1:${receptionPort}`,
  });
  const reception = start('apps/api/dist/reception-main.js', {
    ...shared,
    RECEPTION_PORT: String(receptionPort),
  });
  const worker = start('apps/worker/dist/main.js', {
    ...shared,
    WORKER_HEALTH_PORT: String(workerPort),
    TAXAUTH_ECF_BASE_URL: simUrl,
    TAXAUTH_FC_BASE_URL: simUrl,
    TAXAUTH_STATUS_BASE_URL: simUrl,
  });
  const [simAnswer, apiAnswer, receptionAnswer, workerAnswer] = await Promise.all([
    answers(sim, `${simUrl}/`),
    answers(api, `http://127.0.0.1:${apiPort}/healthz`),
    answers(reception, `http://127.0.0.1:${receptionPort}/healthz`),
    answers(worker, `http://127.0.0.1:${workerPort}/healthz`),
  ]);
  assert.ok(simAnswer.status < 500, `simulator ${simAnswer.status}`);
  assert.equal(apiAnswer.status, 200, api.output());
  assert.equal(receptionAnswer.status, 200, reception.output());
  assert.equal(workerAnswer.status, 200, worker.output());
  // The contract is served by the compiled API: the OpenAPI document and an error from the one edge.
  const openapi = await fetch(`http://127.0.0.1:${apiPort}/openapi.json`);
  assert.equal(openapi.status, 200);
  const refused = await fetch(`http://127.0.0.1:${apiPort}/TesteCF/documentos-ecf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(refused.status, 401);
  assert.equal(((await refused.json()) as { error?: { code?: string } }).error?.code, 'API_KEY_MISSING');
  for (const { output } of [sim, api, reception, worker])
    assert.doesNotMatch(output(), /ERR_UNKNOWN_FILE_EXTENSION|\.ts['"]/, 'no TypeScript file was loaded');
});
