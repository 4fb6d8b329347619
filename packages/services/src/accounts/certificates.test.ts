// Longer than ~300 lines on purpose: the certificate life cycle (upload checks, encryption at rest,
// the cache, key rotation) shares one database and one keyring, scenario after scenario.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { seedTenant, seedUser } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { createTestCertificate } from '@ecf/fiscal-core';
import {
  CERTIFICATE_FILE_MAX_BYTES,
  createCertificateKeyring,
  findTenantCertificates,
  loadActiveCertificate,
  masterKeyIdOf,
  previewTenantCertificate,
  reencryptTenantCertificates,
  storeTenantCertificate,
} from './index.ts';
import { AppError } from '../shared/errors.ts';
import { findAuditEntries } from '../audit/index.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await context.close();
});

const newKey = () => randomBytes(32).toString('base64');

function assertAppError(code: string, check?: (error: AppError) => void) {
  return (error: unknown) => {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, code);
    check?.(error);
    return true;
  };
}

/** True when any `window`-byte slice of `needle` appears in `haystack`. */
function containsSlice(haystack: Uint8Array, needle: Uint8Array, window = 16): boolean {
  const hay = Buffer.from(haystack);
  for (let start = 0; start + window <= needle.length; start += 1) {
    if (hay.includes(Buffer.from(needle.subarray(start, start + window)))) return true;
  }
  return false;
}

test('a stored certificate is encrypted: no plaintext in the row, and it loads back ready to sign', async () => {
  const tenant = await seedTenant(context.database);
  const certificate = createTestCertificate({
    rnc: tenant.rnc,
    commonName: 'Firmante Uno',
    password: 'clave-secreta-de-prueba-123',
  });
  const masterKey = newKey();
  const keyring = createCertificateKeyring({ currentKey: masterKey });

  const stored = await storeTenantCertificate({
    database: context.database,
    keyring,
    tenantId: tenant.id,
    p12: certificate.p12,
    password: certificate.password,
  });
  assert.equal(stored.holderId, tenant.rnc);
  assert.equal(stored.keyId, masterKeyIdOf(Buffer.from(masterKey, 'base64')));
  assert.equal(stored.active, true);
  assert.match(stored.subject, /serialNumber=IDCDO-/);
  assert.ok(!('encryptedP12' in stored), 'metadata never carries the sealed file');

  const row = await context.database.tenantCertificate.findUniqueOrThrow({ where: { id: stored.id } });
  assert.ok(!Buffer.from(row.encryptedP12).equals(certificate.p12));
  assert.equal(
    containsSlice(row.encryptedP12, certificate.p12),
    false,
    'no 16-byte run of the PKCS#12 survives',
  );
  for (const column of [row.encryptedP12, row.encryptedPassword]) {
    assert.equal(
      Buffer.from(column).includes(Buffer.from(certificate.password)),
      false,
      'the password never appears in clear',
    );
  }
  assert.equal(Buffer.from(row.encryptedPassword).includes(Buffer.from('clave-secreta')), false);

  // A fresh keyring (empty cache) really decrypts from the database.
  const loaded = await loadActiveCertificate({
    database: context.database,
    tenantId: tenant.id,
    keyring: createCertificateKeyring({ currentKey: masterKey }),
  });
  assert.equal(loaded.holderId, tenant.rnc);
  assert.equal(loaded.certificateSerialNumber, stored.serialNumber);
  assert.equal(
    loaded.certificatePem.replace(/\r\n/g, '\n').trim(),
    certificate.certificatePem.replace(/\r\n/g, '\n').trim(),
  );
  // Cached per keyring: the same object comes back.
  assert.equal(
    await loadActiveCertificate({ database: context.database, tenantId: tenant.id, keyring }),
    await loadActiveCertificate({ database: context.database, tenantId: tenant.id, keyring }),
  );
});

test('the wrong master key, or altered ciphertext, fails clearly without revealing anything', async () => {
  const tenant = await seedTenant(context.database);
  const certificate = createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante Dos' });
  const rightKey = newKey();
  const stored = await storeTenantCertificate({
    database: context.database,
    keyring: createCertificateKeyring({ currentKey: rightKey }),
    tenantId: tenant.id,
    ...certificate,
  });

  const wrongKey = newKey();
  await assert.rejects(
    loadActiveCertificate({
      database: context.database,
      tenantId: tenant.id,
      keyring: createCertificateKeyring({ currentKey: wrongKey }),
    }),
    assertAppError('CERTIFICATE_DECRYPTION_FAILED', (error) => {
      assert.match(error.message, new RegExp(stored.keyId));
      assert.match(error.message, /not configured/);
      for (const secret of [rightKey, wrongKey, certificate.password])
        assert.ok(!error.message.includes(secret) && !JSON.stringify(error.details).includes(secret));
    }),
  );

  const row = await context.database.tenantCertificate.findUniqueOrThrow({ where: { id: stored.id } });
  const tampered = Buffer.from(row.encryptedP12);
  tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 0xff;
  await context.database.tenantCertificate.update({
    where: { id: stored.id },
    data: { encryptedP12: new Uint8Array(tampered) },
  });
  await assert.rejects(
    loadActiveCertificate({
      database: context.database,
      tenantId: tenant.id,
      keyring: createCertificateKeyring({ currentKey: rightKey }),
    }),
    assertAppError('CERTIFICATE_DECRYPTION_FAILED', (error) =>
      assert.match(error.message, /wrong key or altered data/),
    ),
  );

  // Sealed values are bound to their row: another row's password does not open here.
  const other = await storeTenantCertificate({
    database: context.database,
    keyring: createCertificateKeyring({ currentKey: rightKey }),
    tenantId: tenant.id,
    ...createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante Tres' }),
  });
  const otherRow = await context.database.tenantCertificate.findUniqueOrThrow({ where: { id: other.id } });
  await context.database.tenantCertificate.update({
    where: { id: other.id },
    data: { encryptedPassword: new Uint8Array(row.encryptedPassword) },
  });
  await assert.rejects(
    loadActiveCertificate({
      database: context.database,
      tenantId: tenant.id,
      keyring: createCertificateKeyring({ currentKey: rightKey }),
    }),
    assertAppError('CERTIFICATE_DECRYPTION_FAILED'),
  );
  await context.database.tenantCertificate.update({
    where: { id: other.id },
    data: { encryptedPassword: otherRow.encryptedPassword },
  });
});

test('master-key rotation: old rows stay readable through the keyring, re-encryption moves them to the new key', async () => {
  const tenant = await seedTenant(context.database);
  const oldKey = newKey();
  const newMasterKey = newKey();
  const oldKeyring = createCertificateKeyring({ currentKey: oldKey });
  const first = await storeTenantCertificate({
    database: context.database,
    keyring: oldKeyring,
    tenantId: tenant.id,
    ...createTestCertificate({ rnc: tenant.rnc, commonName: 'Antes' }),
  });

  const rotated = createCertificateKeyring({ currentKey: newMasterKey, previousKeys: `${oldKey}, ` });
  assert.deepEqual(rotated.keyIds, [rotated.currentKeyId, first.keyId]);
  assert.equal(
    (await loadActiveCertificate({ database: context.database, tenantId: tenant.id, keyring: rotated }))
      .certificateSerialNumber,
    first.serialNumber,
  );
  await assert.rejects(
    loadActiveCertificate({
      database: context.database,
      tenantId: tenant.id,
      keyring: createCertificateKeyring({ currentKey: newMasterKey }),
    }),
    assertAppError('CERTIFICATE_DECRYPTION_FAILED'),
  );

  const moved = await reencryptTenantCertificates({
    database: context.database,
    keyring: rotated,
    tenantId: tenant.id,
  });
  assert.deepEqual(moved, { reencrypted: 1, skipped: [] });
  assert.deepEqual(
    await reencryptTenantCertificates({ database: context.database, keyring: rotated, tenantId: tenant.id }),
    { reencrypted: 0, skipped: [] },
    'a second run has nothing left to do',
  );
  // Across all tenants, rows under keys this keyring lacks are listed, not fatal.
  const everywhere = await reencryptTenantCertificates({ database: context.database, keyring: rotated });
  assert.ok(everywhere.skipped.every((row) => row.keyId !== first.keyId));
  const onlyNewKey = createCertificateKeyring({ currentKey: newMasterKey });
  assert.equal(
    (await loadActiveCertificate({ database: context.database, tenantId: tenant.id, keyring: onlyNewKey }))
      .certificateSerialNumber,
    first.serialNumber,
  );
  const listed = await findTenantCertificates({ database: context.database, tenantId: tenant.id });
  assert.ok(listed.every((row) => row.keyId === onlyNewKey.currentKeyId));
});

test('a new certificate replaces the active one in the same transaction, also under concurrent uploads', async () => {
  const tenant = await seedTenant(context.database);
  const keyring = createCertificateKeyring({ currentKey: newKey() });
  const first = await storeTenantCertificate({
    database: context.database,
    keyring,
    tenantId: tenant.id,
    ...createTestCertificate({ rnc: tenant.rnc, commonName: 'Primero' }),
  });
  const second = await storeTenantCertificate({
    database: context.database,
    keyring,
    tenantId: tenant.id,
    ...createTestCertificate({ rnc: tenant.rnc, commonName: 'Segundo' }),
  });
  const listed = await findTenantCertificates({ database: context.database, tenantId: tenant.id });
  assert.deepEqual(
    listed.map((row) => [row.id, row.active]),
    [
      [second.id, true],
      [first.id, false],
    ],
  );
  assert.equal(
    (await loadActiveCertificate({ database: context.database, tenantId: tenant.id, keyring }))
      .certificateSerialNumber,
    second.serialNumber,
  );

  const uploads = [1, 2, 3, 4].map((index) =>
    createTestCertificate({ rnc: tenant.rnc, commonName: `Concurrente ${index}` }),
  );
  await Promise.all(
    uploads.map((upload) =>
      storeTenantCertificate({ database: context.database, keyring, tenantId: tenant.id, ...upload }),
    ),
  );
  assert.equal(
    await context.database.tenantCertificate.count({ where: { tenantId: tenant.id, active: true } }),
    1,
  );
});

test('a preview reads what an upload would install: the metadata the install then stores', async () => {
  const tenant = await seedTenant(context.database);
  const generated = createTestCertificate({
    rnc: tenant.rnc,
    commonName: 'Vista Previa',
    validFrom: new Date('2026-01-01T00:00:00Z'),
    validTo: new Date('2028-01-01T00:00:00Z'),
  });
  const preview = previewTenantCertificate({
    p12: generated.p12,
    password: generated.password,
    now: new Date('2026-06-01T00:00:00Z'),
  });
  assert.match(preview.subject, /CN=Vista Previa/);
  assert.equal(preview.holderId, tenant.rnc);
  assert.deepEqual(preview.keyUsage, ['digitalSignature', 'nonRepudiation']);
  assert.deepEqual(
    [preview.validFrom, preview.validTo],
    [new Date('2026-01-01T00:00:00Z'), new Date('2028-01-01T00:00:00Z')],
  );
  // The same serial number the install stores.
  const stored = await storeTenantCertificate({
    database: context.database,
    keyring: createCertificateKeyring({ currentKey: newKey() }),
    tenantId: tenant.id,
    p12: generated.p12,
    password: generated.password,
    now: new Date('2026-06-01T00:00:00Z'),
  });
  assert.equal(preview.serialNumber, stored.serialNumber);
  assert.equal(preview.subject, stored.subject);
});

test('uploads are checked first, each refusal with its spec code; nothing is stored', async () => {
  const tenant = await seedTenant(context.database);
  const keyring = createCertificateKeyring({ currentKey: newKey() });
  const rnc = tenant.rnc;
  const cases: Array<{ code: string; upload: { p12: Uint8Array; password: string }; now?: Date }> = [
    {
      code: 'CERTIFICATE_PASSWORD_INVALID',
      upload: { p12: createTestCertificate({ rnc, commonName: 'Clave' }).p12, password: 'no-es-esta-clave' },
    },
    { code: 'CERTIFICATE_FILE_INVALID', upload: { p12: Buffer.from('not a pkcs12 file'), password: 'x' } },
    {
      code: 'CERTIFICATE_FILE_INVALID',
      upload: { p12: Buffer.alloc(CERTIFICATE_FILE_MAX_BYTES + 1, 0x30), password: 'x' },
    },
    {
      code: 'CERTIFICATE_PRIVATE_KEY_MISSING',
      upload: createTestCertificate({ rnc, commonName: 'Sin llave', contents: 'certificate_only' }),
    },
    {
      code: 'CERTIFICATE_KEY_PAIR_NOT_FOUND',
      upload: createTestCertificate({ rnc, commonName: 'Otra llave', contents: 'other_key' }),
    },
    {
      code: 'CERTIFICATE_HOLDER_ID_MISSING',
      upload: createTestCertificate({ rnc, commonName: 'Sin titular', omitHolderId: true }),
    },
    {
      code: 'CERTIFICATE_KEY_USAGE_INVALID',
      upload: createTestCertificate({ rnc, commonName: 'Sin uso', keyUsage: null }),
    },
    {
      code: 'CERTIFICATE_KEY_USAGE_INVALID',
      upload: createTestCertificate({ rnc, commonName: 'Cifrado', keyUsage: ['keyEncipherment'] }),
    },
    {
      code: 'CERTIFICATE_EXPIRED',
      upload: createTestCertificate({
        rnc,
        commonName: 'Vencido',
        validFrom: new Date('2020-01-01'),
        validTo: new Date('2021-01-01'),
      }),
    },
    {
      code: 'CERTIFICATE_NOT_YET_VALID',
      upload: createTestCertificate({
        rnc,
        commonName: 'Futuro',
        validFrom: new Date('2030-01-01'),
        validTo: new Date('2032-01-01'),
      }),
      now: new Date('2026-06-01'),
    },
  ];
  for (const { code, upload, now } of cases) {
    // The preview refuses what the install refuses, with the same code.
    assert.throws(
      () => previewTenantCertificate({ p12: upload.p12, password: upload.password, ...(now ? { now } : {}) }),
      assertAppError(code),
      `preview: ${code}`,
    );
    await assert.rejects(
      storeTenantCertificate({
        database: context.database,
        keyring,
        tenantId: tenant.id,
        p12: upload.p12,
        password: upload.password,
        ...(now ? { now } : {}),
      }),
      assertAppError(code, (error) => {
        assert.equal(error.status, 422);
        assert.ok(!error.message.includes(upload.password) || upload.password === 'x');
      }),
      code,
    );
  }
  await assert.rejects(
    storeTenantCertificate({
      database: context.database,
      keyring,
      tenantId: '00000000-0000-4000-8000-000000000000',
      ...createTestCertificate({ rnc, commonName: 'Nadie' }),
    }),
    assertAppError('NOT_FOUND'),
  );
  assert.equal(await context.database.tenantCertificate.count({ where: { tenantId: tenant.id } }), 0);
  assert.equal((await findAuditEntries({ database: context.database, tenantId: tenant.id })).items.length, 0);
  await assert.rejects(
    loadActiveCertificate({ database: context.database, tenantId: tenant.id, keyring }),
    assertAppError('CERTIFICATE_NOT_ACTIVE', (error) => assert.equal(error.status, 409)),
  );

  // A holder other than the tenant's RNC is a delegation the tax authority checks: accepted.
  const delegated = await storeTenantCertificate({
    database: context.database,
    keyring,
    tenantId: tenant.id,
    ...createTestCertificate({
      rnc: '00112345678',
      commonName: 'Otra Persona',
      keyUsage: ['nonRepudiation'],
    }),
  });
  assert.equal(delegated.holderId, '00112345678');
  assert.deepEqual(delegated.keyUsage, ['nonRepudiation']);
});

test('an upload installs the certificate with its audit entry, or changes nothing at all', async () => {
  const tenant = await seedTenant(context.database);
  const owner = await seedUser(context.database, {
    passwordHash: 'x',
    email: `duena-${Date.now()}@example.com`,
  });
  const keyring = createCertificateKeyring({ currentKey: newKey() });
  const actor = (userId: string, role: 'owner' | 'developer' = 'owner') => ({
    userId,
    principal: { kind: 'member' as const, role },
    ip: '203.0.113.7',
  });
  const first = createTestCertificate({
    rnc: tenant.rnc,
    commonName: 'Primero',
    password: 'clave-uno-secreta',
  });
  const installed = await storeTenantCertificate({
    database: context.database,
    keyring,
    tenantId: tenant.id,
    ...first,
    actor: actor(owner.id),
  });
  assert.deepEqual(installed.keyUsage, ['digitalSignature', 'nonRepudiation']);
  const { items: entries } = await findAuditEntries({ database: context.database, tenantId: tenant.id });
  assert.equal(entries.length, 1);
  assert.equal(entries[0]?.action, 'certificate.uploaded');
  assert.equal(entries[0]?.targetId, installed.id);
  assert.equal(entries[0]?.actor?.id, owner.id);
  const logged = JSON.stringify(entries);
  assert.ok(
    !logged.includes('clave-uno-secreta') && !logged.includes(first.p12.toString('base64').slice(0, 40)),
  );

  // A developer may not upload, whatever the transport.
  await assert.rejects(
    storeTenantCertificate({
      database: context.database,
      keyring,
      tenantId: tenant.id,
      ...createTestCertificate({ rnc: tenant.rnc, commonName: 'Dev' }),
      actor: actor(owner.id, 'developer'),
    }),
    assertAppError('FORBIDDEN'),
  );

  // The audit entry fails (an actor that is no user): the new row is rolled back with it and the
  // previous certificate stays the active one.
  await assert.rejects(
    storeTenantCertificate({
      database: context.database,
      keyring,
      tenantId: tenant.id,
      ...createTestCertificate({ rnc: tenant.rnc, commonName: 'Segundo' }),
      actor: actor('00000000-0000-4000-8000-000000000001'),
    }),
    /foreign key/,
  );
  const rows = await findTenantCertificates({ database: context.database, tenantId: tenant.id });
  assert.deepEqual(
    rows.map((row) => [row.id, row.active]),
    [[installed.id, true]],
  );
  assert.equal((await findAuditEntries({ database: context.database, tenantId: tenant.id })).items.length, 1);
});

test('the keyring never shows its keys, and bad key configuration names the variable only', () => {
  const key = newKey();
  const previous = newKey();
  const keyring = createCertificateKeyring({ currentKey: key, previousKeys: [previous] });
  for (const shown of [JSON.stringify(keyring), inspect(keyring), String(JSON.stringify({ keyring }))]) {
    assert.ok(!shown.includes(key) && !shown.includes(previous), shown);
    assert.ok(!shown.includes(Buffer.from(key, 'base64').toString('hex')));
  }
  assert.match(JSON.stringify(keyring), new RegExp(keyring.currentKeyId));
  const short = randomBytes(16).toString('base64');
  assert.throws(
    () => createCertificateKeyring({ currentKey: short }),
    (error: Error) => {
      assert.match(error.message, /CERTIFICATE_MASTER_KEY must be 32 random bytes in base64/);
      assert.ok(!error.message.includes(short));
      return true;
    },
  );
  assert.throws(
    () => createCertificateKeyring({ currentKey: key, previousKeys: 'not base64 at all!' }),
    /CERTIFICATE_MASTER_KEYS must be/,
  );
});
