import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { hashApiKey } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';

const run = promisify(execFile);
let context: Awaited<ReturnType<typeof openTestDatabase>>;
let scratch: string;
before(async () => {
  context = await openTestDatabase();
  scratch = await mkdtemp(path.join(tmpdir(), 'ecf-admin-'));
});
after(async () => {
  await context.close();
  await rm(scratch, { recursive: true, force: true });
});

async function admin(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'admin.ts'), ...args, '--json'],
      {
        env: { ...process.env, DATABASE_URL: context.url },
      },
    );
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failure = error as { stdout: string; stderr: string; code: number };
    return { stdout: failure.stdout, stderr: failure.stderr, code: failure.code };
  }
}

test('an operator creates a tenant, a key shown once, lists and revokes it', async () => {
  const created = await admin(
    'tenant',
    'create',
    '--rnc',
    '101010101',
    '--legal-name',
    'Ferretería Central SRL',
    '--phone',
    '809-555-1234',
  );
  assert.equal(created.code, 0, created.stderr);
  const tenant = JSON.parse(created.stdout) as { id: string; rnc: string };
  assert.equal(tenant.rnc, '101010101');

  const duplicate = await admin('tenant', 'create', '--rnc', '101010101', '--legal-name', 'Otra');
  assert.equal(duplicate.code, 1);
  assert.match(duplicate.stderr, /already exists/);

  const keyResult = await admin(
    'key',
    'create',
    '--tenant',
    '101010101',
    '--environment',
    'CerteCF',
    '--scopes',
    'ecf:validate,status:read',
  );
  assert.equal(keyResult.code, 0, keyResult.stderr);
  const { key, apiKey } = JSON.parse(keyResult.stdout) as {
    key: string;
    apiKey: { id: string; prefix: string; scopes: string[] };
  };
  assert.match(key, /^ecf_cert_/);
  assert.deepEqual(apiKey.scopes, ['ecf:validate', 'status:read']);
  const stored = await context.database.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
  assert.equal(stored.hash, hashApiKey(key));

  const listed = await admin('key', 'list', '--tenant', tenant.id);
  assert.ok(!listed.stdout.includes(key), 'listing never shows the clear key');
  assert.match(listed.stdout, new RegExp(apiKey.prefix));

  const revoked = await admin('key', 'revoke', '--tenant', tenant.id, '--key', apiKey.prefix);
  assert.equal(revoked.code, 0, revoked.stderr);
  assert.ok((await context.database.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).revokedAt);
});

test('bad operator input is refused with a clear message', async () => {
  const badScope = await admin(
    'key',
    'create',
    '--tenant',
    '101010101',
    '--environment',
    'TesteCF',
    '--scopes',
    'ecf:everything',
  );
  assert.equal(badScope.code, 1);
  assert.match(badScope.stderr, /unknown scope\(s\) ecf:everything/);
  const badEnvironment = await admin('key', 'create', '--tenant', '101010101', '--environment', 'prod');
  assert.match(badEnvironment.stderr, /--environment must be one of/);
  const unknownTenant = await admin('key', 'list', '--tenant', '999999999');
  assert.match(unknownTenant.stderr, /not found/);
  const badRnc = await admin('tenant', 'create', '--rnc', '12AB', '--legal-name', 'X');
  assert.equal(badRnc.code, 1);
});

test('demo seeding is idempotent and keeps printing the same valid keys', async () => {
  const keysFile = path.join(scratch, 'demo-keys.json');
  const first = JSON.parse((await admin('demo', '--keys-file', keysFile)).stdout) as {
    keys: Record<string, string>;
  };
  const second = JSON.parse((await admin('demo', '--keys-file', keysFile)).stdout) as {
    keys: Record<string, string>;
  };
  assert.match(first.keys.TesteCF ?? '', /^ecf_test_/);
  assert.match(first.keys.CerteCF ?? '', /^ecf_cert_/);
  assert.deepEqual(second.keys, first.keys);
  assert.deepEqual(JSON.parse(await readFile(keysFile, 'utf8')), first.keys);
  assert.equal(await context.database.tenant.count({ where: { rnc: '131880738' } }), 1);
  // Buyer e-mail is on in TesteCF (once, however many times demo runs).
  assert.deepEqual(
    (await context.database.tenant.findUniqueOrThrow({ where: { rnc: '131880738' } })).buyerEmailEnvironments,
    ['TesteCF'],
  );
});
