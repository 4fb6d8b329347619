// The package as npm publishes it: `npm pack` of the build, installed into an empty project, is
// imported by plain Node (no TypeScript support: only the compiled dist), by the system's Node 20
// when the machine has one (the oldest Node the SDK supports), and type-checked from a consumer's
// TypeScript with NodeNext resolution. The packed client retries a 503 against a real local server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { packSdk } from '../scripts/pack.ts';
import { failure, json, startLocalServer } from './local-server.ts';

/** The package's name, as a consumer imports it. */
const PACKAGE = (
  JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { name: string }
).name;

let project: string;
let tarball: string;
before(() => {
  project = mkdtempSync(path.join(tmpdir(), 'ecf-sdk-consumer-'));
  tarball = packSdk(path.join(project, 'tarball'));
  const installed = path.join(project, 'node_modules', '@ecf', 'sdk');
  mkdirSync(installed, { recursive: true });
  // What `npm install <tarball>` puts in node_modules (zero dependencies: nothing else to fetch).
  execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'erp', type: 'module', private: true }),
  );
});
after(() => {
  rmSync(project, { recursive: true, force: true });
});

test('the tarball holds the compiled package, its types, README and CHANGELOG, and no dependency', () => {
  const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
  for (const file of [
    'package/dist/index.js',
    'package/dist/index.d.ts',
    'package/README.md',
    'package/CHANGELOG.md',
  ])
    assert.ok(files.includes(file), `${file} in ${files.join(', ')}`);
  assert.ok(!files.some((file) => file.endsWith('.ts') && !file.endsWith('.d.ts')), 'no TypeScript sources');
  const manifest = JSON.parse(readFileSync(path.join(project, 'node_modules/@ecf/sdk/package.json'), 'utf8'));
  assert.equal(manifest.name, '@ecf/sdk');
  assert.match(manifest.version, /^\d+\.\d+\.\d+$/);
  assert.equal(manifest.dependencies, undefined);
  assert.equal(manifest.exports['.'].import, './dist/index.js');
});

/** A consumer script run by `node` (plain JavaScript, the installed package); asynchronously: the local server is in this process. */
async function runConsumer(node: string, baseUrl: string): Promise<unknown> {
  const script = path.join(project, 'consumer.mjs');
  writeFileSync(
    script,
    `import { createHmac } from 'node:crypto';
import { EcfClient, EcfUnavailableError, verifyWebhook, OPERATIONS } from '${PACKAGE}';
const client = new EcfClient({ apiKey: 'k', environment: 'TesteCF', baseUrl: process.argv[2], retryDelayMs: 5 });
const page = await client.listDocuments({ limit: '1' });
const failed = await client.contingency({}, { maxRetries: 0 }).catch((error) => error);
const body = JSON.stringify({ id: 'evt_1', type: 'ecf.queued' });
const t = Math.floor(Date.now() / 1000);
const v1 = createHmac('sha256', 'whsec_a').update(t + '.' + body).digest('hex');
const verified = await verifyWebhook({ rawBody: Buffer.from(body), headers: { 'svc-signature': 't=' + t + ',v1=' + v1 }, secrets: ['whsec_b', 'whsec_a'] });
console.log(JSON.stringify({ items: page.items, failed: failed instanceof EcfUnavailableError, code: failed.code, eventId: verified.eventId, secretIndex: verified.secretIndex, operations: Object.keys(OPERATIONS).length }));
`,
  );
  const { stdout } = await promisify(execFile)(node, [script, baseUrl], { cwd: project, encoding: 'utf8' });
  return JSON.parse(stdout);
}

test('plain Node runs the installed package: a retried read, a typed error and a verified webhook', async () => {
  const server = await startLocalServer();
  try {
    const nodes = [process.execPath];
    // The oldest supported Node, where the machine has it (Debian's, when the tests run on Node 24).
    const system = '/usr/bin/node';
    if (existsSync(system) && /^v2[0-3]\./.test(execFileSync(system, ['-v'], { encoding: 'utf8' })))
      nodes.push(system);
    else console.log(`# ${system}: not a Node 20–23 here; the packed SDK runs on ${process.version} only`);
    for (const node of nodes) {
      server.answer(
        failure(503, 'DATABASE_BUSY', { 'retry-after': '0' }),
        json(200, { ok: true, items: [{ encf: 'E310000000001' }], nextCursor: null, correlationId: 'c' }),
        failure(503, 'DATABASE_BUSY', { 'retry-after': '0' }),
      );
      const result = (await runConsumer(node, server.baseUrl)) as Record<string, unknown>;
      assert.deepEqual(result.items, [{ encf: 'E310000000001' }], node);
      assert.equal(result.failed, true);
      assert.equal(result.code, 'DATABASE_BUSY');
      assert.equal(result.eventId, 'evt_1');
      assert.equal(result.secretIndex, 1, 'the second secret of a rotation matched');
      assert.ok(Number(result.operations) > 90);
    }
  } finally {
    await server.close();
  }
});

test('a TypeScript consumer type-checks against the published declarations (NodeNext)', () => {
  writeFileSync(
    path.join(project, 'consumer.ts'),
    `import { EcfClient, type TOutputs } from '${PACKAGE}';
const client = new EcfClient({ apiKey: 'k', environment: 'eCF', baseUrl: 'https://api.example.do' });
export async function emitted(): Promise<string | undefined> {
  const answer: TOutputs['submitDocument'] = await client.submitDocument({ body: { type: 'E32', encf: 'E320000000001', issueDate: '01-01-2026', lines: [] } });
  return answer.documentId;
}
// @ts-expect-error an operation that does not exist
client.deleteEverything();
// @ts-expect-error documentReference is required
void client.documentPdf({});
`,
  );
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        lib: ['ES2022', 'DOM'],
        types: [],
      },
      files: ['consumer.ts'],
    }),
  );
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', project], { cwd: project, encoding: 'utf8' });
});
