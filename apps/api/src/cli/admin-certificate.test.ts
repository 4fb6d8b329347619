import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openTestDatabase } from '@ecf/db/testing';
import { createTestCertificate } from '@ecf/fiscal-core';
import { createCertificateKeyring, loadActiveCertificate } from '@ecf/services';
import { runAdminHere, type TAdminResult } from '../../test/admin-cli.ts';

const MASTER_KEY = randomBytes(32).toString('base64');
let context: Awaited<ReturnType<typeof openTestDatabase>>;
let scratch: string;
before(async () => {
  context = await openTestDatabase();
  scratch = await mkdtemp(path.join(tmpdir(), 'ecf-admin-certificate-'));
});
after(async () => {
  await context.close();
  await rm(scratch, { recursive: true, force: true });
});

async function admin(extraEnv: Record<string, string | undefined>, ...args: string[]): Promise<TAdminResult> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: context.url,
    CERTIFICATE_MASTER_KEY: MASTER_KEY,
    CERTIFICATE_MASTER_KEYS: '',
    ...extraEnv,
  };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return runAdminHere(env, [...args, '--json']);
}

test('an operator uploads a certificate with the password in a named variable, and lists it without secrets', async () => {
  assert.equal(
    (await admin({}, 'tenant', 'create', '--rnc', '130000001', '--legal-name', 'Importadora Uno SRL')).code,
    0,
  );
  const password = 'contraseña-del-p12-muy-secreta';
  const certificate = createTestCertificate({ rnc: '130000001', commonName: 'Firmante Uno', password });
  const p12File = path.join(scratch, 'firma.p12');
  await writeFile(p12File, certificate.p12);

  const uploaded = await admin(
    { ECF_P12_PASSWORD: password },
    'certificate',
    'upload',
    '--tenant',
    '130000001',
    '--p12',
    p12File,
    '--password-env',
    'ECF_P12_PASSWORD',
  );
  assert.equal(uploaded.code, 0, uploaded.stderr);
  const stored = JSON.parse(uploaded.stdout) as {
    id: string;
    holderId: string;
    active: boolean;
    keyId: string;
  };
  assert.equal(stored.holderId, '130000001');
  assert.equal(stored.active, true);
  assert.equal(stored.keyId, createCertificateKeyring({ currentKey: MASTER_KEY }).currentKeyId);
  assert.ok(!uploaded.stdout.includes(password) && !uploaded.stderr.includes(password));

  const listed = await admin({}, 'certificate', 'list', '--tenant', '130000001');
  assert.equal(listed.code, 0, listed.stderr);
  const rows = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
  assert.deepEqual(
    rows.map((row) => row['id']),
    [stored.id],
  );
  assert.ok(rows.every((row) => !('encryptedP12' in row) && !('encryptedPassword' in row)));

  const tenant = await context.database.tenant.findUniqueOrThrow({ where: { rnc: '130000001' } });
  const loaded = await loadActiveCertificate({
    database: context.database,
    tenantId: tenant.id,
    keyring: createCertificateKeyring({ currentKey: MASTER_KEY }),
  });
  assert.equal(loaded.holderId, '130000001');
});

test('certificate upload refuses clearly: wrong password, key usage, no password variable, no master key; another holder is accepted', async () => {
  const p12File = path.join(scratch, 'otro.p12');
  await writeFile(
    p12File,
    createTestCertificate({ rnc: '130000002', commonName: 'Otro', password: 'la-buena' }).p12,
  );
  const upload = (env: Record<string, string | undefined>, ...extra: string[]) =>
    admin(
      env,
      'certificate',
      'upload',
      '--tenant',
      '130000001',
      '--p12',
      p12File,
      '--password-env',
      'P12_PASS',
      ...extra,
    );

  const wrongPassword = await upload({ P12_PASS: 'la-mala' });
  assert.equal(wrongPassword.code, 1);
  assert.match(wrongPassword.stderr, /password is not correct/);
  assert.ok(!wrongPassword.stderr.includes('la-mala'));

  // The portal's checks: a certificate that cannot sign (no digitalSignature/nonRepudiation) is refused.
  const encipherOnly = path.join(scratch, 'cifrado.p12');
  await writeFile(
    encipherOnly,
    createTestCertificate({
      rnc: '130000001',
      commonName: 'Cifrado',
      password: 'la-buena',
      keyUsage: ['keyEncipherment'],
    }).p12,
  );
  const keyUsage = await admin(
    { P12_PASS: 'la-buena' },
    'certificate',
    'upload',
    '--tenant',
    '130000001',
    '--p12',
    encipherOnly,
    '--password-env',
    'P12_PASS',
  );
  assert.equal(keyUsage.code, 1);
  assert.match(keyUsage.stderr, /CERTIFICATE_KEY_USAGE_INVALID/);

  const noVariable = await upload({ P12_PASS: undefined });
  assert.match(noVariable.stderr, /--password-env: the variable P12_PASS is not set/);

  const noKey = await upload({ P12_PASS: 'la-buena', CERTIFICATE_MASTER_KEY: undefined });
  assert.equal(noKey.code, 1);
  assert.match(noKey.stderr, /CERTIFICATE_MASTER_KEY is not set/);

  const badKey = await upload({ P12_PASS: 'la-buena', CERTIFICATE_MASTER_KEY: 'c2hvcnQ=' });
  assert.equal(badKey.code, 1);
  assert.match(badKey.stderr, /CERTIFICATE_MASTER_KEY must be 32 random bytes/);
  assert.ok(!badKey.stderr.includes('c2hvcnQ='));

  // Another holder than the tenant's RNC: a delegation the tax authority checks, accepted.
  const delegated = await upload({ P12_PASS: 'la-buena' });
  assert.equal(delegated.code, 0, delegated.stderr);
  assert.equal((JSON.parse(delegated.stdout) as { holderId: string }).holderId, '130000002');
});

test('demo gives the demo tenant a generated certificate once, and works without a master key', async () => {
  const keysFile = path.join(scratch, 'demo-keys.json');
  const usersFile = path.join(scratch, 'demo-portal-users.json');
  const withoutKey = await admin(
    { CERTIFICATE_MASTER_KEY: undefined },
    'demo',
    '--keys-file',
    keysFile,
    '--users-file',
    usersFile,
  );
  assert.equal(withoutKey.code, 0, withoutKey.stderr);
  assert.equal((JSON.parse(withoutKey.stdout) as { certificate: unknown }).certificate, null);
  assert.match(withoutKey.stderr, /no signing certificate/);

  const first = JSON.parse(
    (await admin({}, 'demo', '--keys-file', keysFile, '--users-file', usersFile)).stdout,
  ) as {
    tenant: { id: string; rnc: string };
    certificate: { id: string; holderId: string };
  };
  const second = JSON.parse(
    (await admin({}, 'demo', '--keys-file', keysFile, '--users-file', usersFile)).stdout,
  ) as {
    certificate: { id: string };
  };
  assert.equal(first.certificate.holderId, first.tenant.rnc);
  assert.equal(second.certificate.id, first.certificate.id, 'an existing certificate is kept');
  const loaded = await loadActiveCertificate({
    database: context.database,
    tenantId: first.tenant.id,
    keyring: createCertificateKeyring({ currentKey: MASTER_KEY }),
  });
  assert.equal(loaded.holderId, first.tenant.rnc);
});
