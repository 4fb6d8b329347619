import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { seedTenant } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { getDocumentDetails } from './get-document-details.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await context.close();
});

async function seedDocument(tenantId: string) {
  return context.database.document.create({
    data: {
      tenantId,
      environment: 'TesteCF',
      type: 31,
      encf: 'E310000000101',
      status: 'accepted',
      format: 'simplified',
      issueDate: new Date('2026-11-21'),
      totalAmount: '8731.00',
      buyerRnc: '101672919',
      submittedPayload: {},
      trackId: 'track-1',
      taxauthMessages: [{ codigo: 0, valor: 'Aceptado' }],
    },
  });
}

test('a document with its timeline (tax authority messages), artifacts, receiver delivery with ARECF and buyer e-mail attempts', async () => {
  const tenant = await seedTenant(context.database);
  const document = await seedDocument(tenant.id);
  const arecfBytes = Buffer.from('<ARECF/>');
  const arecf = await context.database.artifact.create({
    data: {
      tenantId: tenant.id,
      documentId: document.id,
      kind: 'receiver_acknowledgement',
      contentType: 'application/xml',
      content: arecfBytes,
      sha256: createHash('sha256').update(arecfBytes).digest('hex'),
      sizeBytes: arecfBytes.length,
    },
  });
  const events = [
    { type: 'submitted', toStatus: 'queued_for_signing', data: { document: { huge: true }, warnings: [] } },
    { type: 'signed', fromStatus: 'queued_for_signing', toStatus: 'signed', data: {} },
    { type: 'sent', fromStatus: 'signed', toStatus: 'sent', data: { trackId: 'track-1', attempt: 1 } },
    {
      type: 'accepted',
      fromStatus: 'sent',
      toStatus: 'accepted',
      data: { taxauthMessages: [{ codigo: 0, valor: 'Aceptado' }] },
    },
    { type: 'buyer_email_intent', data: { attempt: 1, to: 'compras@example.com' } },
    { type: 'buyer_email_failed', data: { attempt: 1, code: 'SMTP_TIMEOUT', message: 'timed out' } },
    { type: 'buyer_email_intent', data: { attempt: 2, to: 'compras@example.com' } },
    { type: 'buyer_email_sent', data: { attempt: 2, to: 'compras@example.com' } },
  ] as const;
  for (const event of events)
    await context.database.documentEvent.create({
      data: { documentId: document.id, tenantId: tenant.id, ...event },
    });
  await context.database.receiverDelivery.create({
    data: {
      documentId: document.id,
      tenantId: tenant.id,
      status: 'sent',
      attempts: 1,
      targetUrl: 'http://buyer.test/fe/recepcion',
      arecfArtifactId: arecf.id,
    },
  });

  const details = await getDocumentDetails({
    database: context.database,
    tenantId: tenant.id,
    environment: 'TesteCF',
    documentId: document.id,
  });
  assert.equal(details.document.totalAmount, '8731.00');
  assert.equal(details.document.isPrintable, true);
  assert.equal(details.document.isSigned, false);
  assert.deepEqual(details.document.taxauthMessages, [{ code: '0', message: 'Aceptado' }]);
  assert.deepEqual(
    details.timeline.map((entry) => [entry.type, entry.toStatus]),
    events.map((event) => [event.type, 'toStatus' in event ? event.toStatus : null]),
  );
  // The validated tree of `submitted` never reaches the page; the messages are on their step.
  assert.deepEqual(details.timeline[0]?.details, {});
  assert.deepEqual(details.timeline[3]?.taxauthMessages, [{ code: '0', message: 'Aceptado' }]);
  assert.equal(details.timeline[2]?.details['trackId'], 'track-1');
  assert.deepEqual(
    details.buyerEmailAttempts.map((attempt) => [attempt.attempt, attempt.outcome, attempt.error]),
    [
      [1, 'failed', 'SMTP_TIMEOUT: timed out'],
      [2, 'sent', null],
    ],
  );
  assert.equal(details.receiverDelivery?.status, 'sent');
  assert.equal(details.receiverDelivery?.arecf?.artifactId, arecf.id);
  assert.deepEqual(
    details.artifacts.map((artifact) => artifact.kind),
    ['receiver_acknowledgement'],
  );
});

test("another tenant's or environment's document is NOT_FOUND", async () => {
  const tenant = await seedTenant(context.database);
  const other = await seedTenant(context.database);
  const document = await seedDocument(tenant.id);
  for (const scope of [
    { tenantId: other.id, environment: 'TesteCF' as const },
    { tenantId: tenant.id, environment: 'eCF' as const },
  ])
    await assert.rejects(
      getDocumentDetails({ database: context.database, ...scope, documentId: document.id }),
      { code: 'NOT_FOUND' },
    );
});
