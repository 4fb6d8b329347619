import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { strFromU8, unzipSync } from 'fflate';
import { artifactData, seedTenant } from '@ecf/db';
import { AppError } from '../shared/errors.ts';
import { RECEIVER_DELIVERY_EVENT_TYPES, reconcileReceiverDelivery } from '../receiver-delivery/index.ts';
import { buildEvidenceBundle, type TEvidenceManifest } from './build-evidence-bundle.ts';
import {
  BUYERS,
  openReceiverHarness,
  signedArecf,
  type TReceiverHarness,
} from '../../test/receiver-harness.ts';

let harness: TReceiverHarness;
before(async () => {
  harness = await openReceiverHarness();
});
after(async () => {
  await harness.close();
});

test('the bundle holds the signed XML, every answer, the ARECF, e-mail attempts, events and document; the manifest hashes each file', async () => {
  const { document, xml, rncEmisor } = await harness.seedAcceptedDocument({ buyer: BUYERS.hang });
  const answers = ['{"trackId":"abc","estado":"En Proceso"}', '{"estado":"Aceptado","mensajes":[]}'];
  for (const [index, answer] of answers.entries())
    await harness.database.artifact.create({
      data: artifactData({
        tenantId: harness.tenant.id,
        documentId: document.id,
        kind: 'taxauth_response',
        contentType: 'application/json',
        content: answer,
        createdAt: new Date(Date.UTC(2026, 3, 1, 12, index)),
      }),
    });
  await harness.database.documentEvent.createMany({
    data: [
      { documentId: document.id, tenantId: harness.tenant.id, type: 'accepted', toStatus: 'accepted' },
      {
        documentId: document.id,
        tenantId: harness.tenant.id,
        type: 'buyer_email_intent',
        data: { attempt: 1, to: 'compras@example.com', messageId: '<m1@ecf>' },
      },
      {
        documentId: document.id,
        tenantId: harness.tenant.id,
        type: 'buyer_email_sent',
        data: { attempt: 1, to: 'compras@example.com', messageId: '<m1@ecf>' },
      },
    ],
  });
  await harness.database.receiverDelivery.update({
    where: { documentId: document.id },
    data: { status: 'uncertain', attempts: 6 },
  });
  const arecfXml = signedArecf({ rncEmisor, rncComprador: BUYERS.hang, encf: document.encf });
  await reconcileReceiverDelivery({
    database: harness.database,
    tenantId: harness.tenant.id,
    environment: 'TesteCF',
    documentId: document.id,
    request: { outcome: 'sent', evidence: { arecfXml } },
    xsdValidators: harness.xsdValidators,
    now: harness.clock.now(),
  });

  const generatedAt = new Date('2026-04-02T09:30:00Z');
  const bundle = await buildEvidenceBundle({
    database: harness.database,
    tenantId: harness.tenant.id,
    documentId: document.id,
    now: () => generatedAt,
  });
  assert.equal(bundle.fileName, `evidencia-${document.encf}-TesteCF.zip`);
  const files = unzipSync(bundle.zip);
  const manifestBytes = files['manifest.json'];
  assert.ok(manifestBytes);
  const manifest = JSON.parse(strFromU8(manifestBytes)) as TEvidenceManifest;
  assert.deepEqual(manifest, bundle.manifest);
  assert.equal(manifest.documentId, document.id);
  assert.equal(manifest.encf, document.encf);
  assert.equal(manifest.generatedAt, generatedAt.toISOString());
  assert.deepEqual(Object.keys(files).sort(), [
    'arecf.xml',
    'buyer-email-attempts.json',
    'document.json',
    'events.json',
    'manifest.json',
    'receiver-delivery.json',
    'signed.xml',
    'taxauth-answers/01.json',
    'taxauth-answers/02.json',
  ]);
  // Every file of the ZIP but the manifest is listed with its real size and SHA-256.
  assert.deepEqual(
    manifest.files.map((file) => file.name).sort(),
    Object.keys(files)
      .filter((name) => name !== 'manifest.json')
      .sort(),
  );
  for (const file of manifest.files) {
    const content = files[file.name];
    assert.ok(content, file.name);
    assert.equal(file.size, content.byteLength, file.name);
    assert.equal(file.sha256, createHash('sha256').update(content).digest('hex'), file.name);
    if (file.artifact !== undefined) assert.equal(file.artifact.storedSha256, file.sha256, file.name);
  }
  assert.equal(strFromU8(files['signed.xml'] ?? new Uint8Array()), xml);
  assert.equal(strFromU8(files['arecf.xml'] ?? new Uint8Array()), arecfXml);
  assert.equal(strFromU8(files['taxauth-answers/02.json'] ?? new Uint8Array()), answers[1]);
  const attempts = JSON.parse(strFromU8(files['buyer-email-attempts.json'] ?? new Uint8Array())) as Array<{
    type: string;
  }>;
  assert.deepEqual(
    attempts.map((attempt) => attempt.type),
    ['buyer_email_intent', 'buyer_email_sent'],
  );
  const events = JSON.parse(strFromU8(files['events.json'] ?? new Uint8Array())) as Array<{ type: string }>;
  assert.ok(events.some((event) => event.type === RECEIVER_DELIVERY_EVENT_TYPES.RECONCILED));
  assert.equal(events.length, 4);
  const data = JSON.parse(strFromU8(files['document.json'] ?? new Uint8Array())) as Record<string, unknown>;
  assert.equal(data['encf'], document.encf);
  assert.equal(data['totalAmount'], '236.00');
  const delivery = JSON.parse(strFromU8(files['receiver-delivery.json'] ?? new Uint8Array())) as Record<
    string,
    unknown
  >;
  assert.equal(delivery['status'], 'sent');
});

test("another tenant's document, an unknown id or a non-UUID is NOT_FOUND", async () => {
  const { document } = await harness.seedAcceptedDocument({ buyer: BUYERS.received });
  const other = await seedTenant(harness.database);
  for (const [tenantId, documentId] of [
    [other.id, document.id],
    [harness.tenant.id, '00000000-0000-4000-8000-000000000000'],
    [harness.tenant.id, '../etc/passwd'],
  ] as const)
    await assert.rejects(
      buildEvidenceBundle({ database: harness.database, tenantId, documentId }),
      (error: unknown) => error instanceof AppError && error.code === 'NOT_FOUND',
    );
});
