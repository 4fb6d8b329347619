import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { openTestDatabase } from './testing.ts';
import { seedDocument, seedTenant } from './seed.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await context.close();
});

async function seedTenantDocument() {
  const tenant = await seedTenant(context.database);
  return seedDocument(context.database, {
    tenantId: tenant.id,
    encf: 'E310000000001',
    totalAmount: '1180.00',
  });
}

test('document events can be appended but never changed or deleted', async () => {
  const document = await seedTenantDocument();
  const event = await context.database.documentEvent.create({
    data: {
      documentId: document.id,
      tenantId: document.tenantId,
      type: 'document.queued',
      toStatus: 'queued_for_signing',
    },
  });
  await assert.rejects(
    context.database.documentEvent.update({ where: { id: event.id }, data: { type: 'tampered' } }),
    /append-only/,
  );
  await assert.rejects(context.database.documentEvent.delete({ where: { id: event.id } }), /append-only/);
  await assert.rejects(context.database.$executeRawUnsafe('TRUNCATE document_events CASCADE'), /append-only/);
  const stored = await context.database.documentEvent.findUniqueOrThrow({ where: { id: event.id } });
  assert.equal(stored.type, 'document.queued');
});

test('artifacts are write-once and their digest must match their content', async () => {
  const tenant = await seedTenant(context.database);
  const content = Buffer.from('<ECF>signed</ECF>');
  const sha256 = createHash('sha256').update(content).digest('hex');
  const artifact = await context.database.artifact.create({
    data: {
      tenantId: tenant.id,
      kind: 'signed_xml',
      contentType: 'application/xml',
      content,
      sha256,
      sizeBytes: content.length,
    },
  });
  await assert.rejects(
    context.database.artifact.update({
      where: { id: artifact.id },
      data: { content: Buffer.from('<ECF>other</ECF>') },
    }),
    /append-only/,
  );
  await assert.rejects(context.database.artifact.delete({ where: { id: artifact.id } }), /append-only/);
  await assert.rejects(
    context.database.artifact.create({
      data: {
        tenantId: tenant.id,
        kind: 'signed_xml',
        contentType: 'application/xml',
        content,
        sha256: '0'.repeat(64),
        sizeBytes: content.length,
      },
    }),
    /artifacts_sha256_matches_content/,
  );
});

test('an eNCF is unique per tenant and environment', async () => {
  const document = await seedTenantDocument();
  await assert.rejects(
    seedDocument(context.database, { tenantId: document.tenantId, encf: document.encf, totalAmount: '1.00' }),
    (error: unknown) => (error as { code?: string }).code === 'P2002',
  );
  const otherEnvironment = await seedDocument(context.database, {
    tenantId: document.tenantId,
    encf: document.encf,
    environment: 'CerteCF',
  });
  assert.equal(otherEnvironment.encf, document.encf);
});
