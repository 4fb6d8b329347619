// The certificate procedures: the owner's upload through the use-case the admin CLI calls, each
// refusal with its spec code for the page's fields, nothing secret in answers or the audit log,
// and another tenant's certificates never listed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { TRPCError } from '@trpc/server';
import { createTestCertificate } from '@ecf/fiscal-core/testing';
import { findAuditEntries } from '@ecf/services';
import {
  callerOf,
  openPortalHarness,
  seedWorld,
  sessionOf,
  trpcFailureOf,
  type TPortalHarness,
} from '../../../test/portal-harness.ts';

let harness: TPortalHarness;
before(async () => {
  harness = await openPortalHarness();
});
after(async () => {
  await harness.close();
});

const appCodeOf = (error: TRPCError) => (error.cause as { code?: string } | undefined)?.code;

test('an owner installs a certificate (metadata, never the key); refusals carry their spec codes; nothing half-written', async () => {
  const world = await seedWorld(harness.database);
  const owner = callerOf(harness, world.sessions.owner);
  const generated = createTestCertificate({
    rnc: world.tenant.rnc,
    commonName: 'Firmante Portal',
    password: 'clave-del-p12-secreta',
  });
  const upload = (p12: Uint8Array, password: string) =>
    owner.certificate.upload({ p12Base64: Buffer.from(p12).toString('base64'), password });

  const wrong = await trpcFailureOf(upload(generated.p12, 'otra-clave'));
  assert.equal(wrong.code, 'UNPROCESSABLE_CONTENT');
  assert.equal(appCodeOf(wrong), 'CERTIFICATE_PASSWORD_INVALID');
  const noUsage = createTestCertificate({ rnc: world.tenant.rnc, commonName: 'Sin uso', keyUsage: null });
  assert.equal(
    appCodeOf(await trpcFailureOf(upload(noUsage.p12, noUsage.password))),
    'CERTIFICATE_KEY_USAGE_INVALID',
  );
  const garbage = await trpcFailureOf(upload(Buffer.from('no soy un certificado'), 'x'));
  assert.equal(appCodeOf(garbage), 'CERTIFICATE_FILE_INVALID');
  // Too large for a signing certificate: refused by the input schema, on its field.
  const huge = await trpcFailureOf(
    owner.certificate.upload({ p12Base64: 'A'.repeat(90_000), password: 'x' }),
  );
  assert.equal(huge.code, 'BAD_REQUEST');
  const notBase64 = await trpcFailureOf(owner.certificate.upload({ p12Base64: '%%%', password: 'x' }));
  assert.equal(notBase64.code, 'BAD_REQUEST');
  assert.deepEqual((await owner.certificate.list()).certificates, []);

  const installed = await upload(generated.p12, generated.password);
  assert.equal(installed.holderId, world.tenant.rnc);
  assert.equal(installed.active, true);
  assert.deepEqual(installed.keyUsage, ['digitalSignature', 'nonRepudiation']);
  assert.match(installed.subject, /CN=Firmante Portal/);
  const second = createTestCertificate({ rnc: '00112345678', commonName: 'Delegado' });
  await upload(second.p12, second.password);
  const { certificates } = await callerOf(harness, world.sessions.accountant).certificate.list();
  assert.deepEqual(
    certificates.map((certificate) => [certificate.holderId, certificate.active]),
    [
      ['00112345678', true],
      [world.tenant.rnc, false],
    ],
  );
  const shown = JSON.stringify(certificates);
  assert.ok(!/encrypted|password|privateKey|keyId/i.test(shown), shown);

  const { items } = await findAuditEntries({ database: harness.database, tenantId: world.tenant.id });
  const uploads = items.filter((entry) => entry.action === 'certificate.uploaded');
  assert.equal(uploads.length, 2);
  const logged = JSON.stringify(items);
  assert.ok(!logged.includes('clave-del-p12-secreta'));
  assert.ok(!logged.includes(generated.p12.toString('base64').slice(0, 32)));

  // Another tenant sees none of it.
  const intruder = callerOf(
    harness,
    await sessionOf(harness.database, world.otherOwner.id, world.otherTenant.id),
  );
  assert.deepEqual((await intruder.certificate.list()).certificates, []);
  // A developer cannot upload.
  assert.equal(
    (
      await trpcFailureOf(
        callerOf(harness, world.sessions.developer).certificate.upload({ p12Base64: 'AAAA', password: 'x' }),
      )
    ).code,
    'FORBIDDEN',
  );
});

test('a preview answers what the upload would install and stores nothing; the upload refusals, the same codes', async () => {
  const world = await seedWorld(harness.database);
  const owner = callerOf(harness, world.sessions.owner);
  const generated = createTestCertificate({
    rnc: world.tenant.rnc,
    commonName: 'Reemplazo Portal',
    password: 'clave-del-reemplazo',
  });
  const p12Base64 = Buffer.from(generated.p12).toString('base64');

  const preview = await owner.certificate.preview({ p12Base64, password: generated.password });
  assert.match(preview.subject, /CN=Reemplazo Portal/);
  assert.equal(preview.holderId, world.tenant.rnc);
  assert.ok(Date.parse(preview.validFrom) < Date.parse(preview.validTo));
  assert.deepEqual(preview.keyUsage, ['digitalSignature', 'nonRepudiation']);
  // Nothing installed, nothing audited.
  assert.deepEqual((await owner.certificate.list()).certificates, []);
  const { items } = await findAuditEntries({ database: harness.database, tenantId: world.tenant.id });
  assert.equal(items.filter((entry) => entry.action.startsWith('certificate.')).length, 0);
  // What the upload then installs is what the preview showed.
  const installed = await owner.certificate.upload({ p12Base64, password: generated.password });
  assert.deepEqual(
    [installed.subject, installed.serialNumber, installed.validFrom, installed.validTo],
    [preview.subject, preview.serialNumber, preview.validFrom, preview.validTo],
  );

  const wrong = await trpcFailureOf(owner.certificate.preview({ p12Base64, password: 'otra-clave' }));
  assert.equal(wrong.code, 'UNPROCESSABLE_CONTENT');
  assert.equal(appCodeOf(wrong), 'CERTIFICATE_PASSWORD_INVALID');
  assert.ok(!JSON.stringify(wrong).includes('otra-clave'));
  assert.equal(
    (await trpcFailureOf(owner.certificate.preview({ p12Base64: '%%%', password: 'x' }))).code,
    'BAD_REQUEST',
  );
  // Only who may install may preview.
  assert.equal(
    (
      await trpcFailureOf(
        callerOf(harness, world.sessions.accountant).certificate.preview({
          p12Base64,
          password: generated.password,
        }),
      )
    ).code,
    'FORBIDDEN',
  );
});
