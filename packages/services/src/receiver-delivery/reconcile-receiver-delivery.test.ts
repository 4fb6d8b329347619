import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedTenant } from '@ecf/db';
import { AppError } from '../shared/errors.ts';
import {
  reconcileReceiverDelivery,
  type TReceiverDeliveryReconciliationRequest,
} from './reconcile-receiver-delivery.ts';
import { RECEIVER_DELIVERY_EVENT_TYPES } from './receiver-delivery-rules.ts';
import {
  BUYERS,
  openReceiverHarness,
  signedArecf,
  type TReceiverHarness,
} from '../../test/receiver-harness.ts';
import { certificateFor, newEncf } from '../../test/transmission-harness.ts';

let harness: TReceiverHarness;
before(async () => {
  harness = await openReceiverHarness();
});
after(async () => {
  await harness.close();
});

/** An accepted document whose delivery ended `uncertain`. */
async function seedUncertain(buyer: string = BUYERS.hang) {
  const seeded = await harness.seedAcceptedDocument({ buyer });
  await harness.database.receiverDelivery.update({
    where: { documentId: seeded.document.id },
    data: { status: 'uncertain', attempts: 6, targetUrl: harness.buyer.hostOf(buyer) },
  });
  return seeded;
}

function reconcile(
  documentId: string,
  request: TReceiverDeliveryReconciliationRequest,
  tenantId = harness.tenant.id,
) {
  return reconcileReceiverDelivery({
    database: harness.database,
    tenantId,
    environment: 'TesteCF',
    documentId,
    request,
    xsdValidators: harness.xsdValidators,
    now: harness.clock.now(),
  });
}

async function rejectsWith(promise: Promise<unknown>, code: string, reason?: string) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, code, error.message);
    if (reason !== undefined) assert.equal(error.details['reason'], reason, error.message);
    return true;
  });
}

test("uncertain → sent with the buyer's verified ARECF: stored as evidence; the same request again answers the same", async () => {
  const { document, rncEmisor } = await seedUncertain();
  const arecfXml = signedArecf({ rncEmisor, rncComprador: BUYERS.hang, encf: document.encf });
  const request = { outcome: 'sent' as const, evidence: { arecfXml }, note: 'ARECF received by e-mail' };
  const first = await reconcile(document.id, request);
  assert.equal(first.receiverDelivery.status, 'sent');
  assert.equal(first.receiverDelivery.reconciliation.outcome, 'sent');
  assert.equal(first.receiverDelivery.reconciliation.note, 'ARECF received by e-mail');
  const artifactId = first.receiverDelivery.reconciliation.evidence?.artifactId;
  assert.ok(artifactId);
  assert.equal(first.receiverDelivery.arecfArtifactId, artifactId);
  const artifact = await harness.database.artifact.findUniqueOrThrow({ where: { id: artifactId } });
  assert.equal(artifact.kind, 'receiver_acknowledgement');
  assert.equal(Buffer.from(artifact.content).toString('utf8'), arecfXml);
  assert.equal(first.receiverDelivery.reconciliation.evidence?.signer.holderId, BUYERS.hang);

  harness.clock.advanceSeconds(60);
  assert.deepEqual(await reconcile(document.id, request), first);
  assert.equal(
    await harness.database.artifact.count({
      where: { documentId: document.id, kind: 'receiver_acknowledgement' },
    }),
    1,
  );
  const reconciled = (await harness.eventsOf(document.id)).filter(
    (event) => event.type === RECEIVER_DELIVERY_EVENT_TYPES.RECONCILED,
  );
  assert.equal(reconciled.length, 1);
});

test('a reconciled delivery is immutable: another outcome, other evidence or another note is 409 RECEIVER_DELIVERY_OUTCOME_CONFLICT', async () => {
  const { document, rncEmisor } = await seedUncertain();
  const arecfXml = signedArecf({ rncEmisor, rncComprador: BUYERS.hang, encf: document.encf });
  await reconcile(document.id, { outcome: 'sent', evidence: { arecfXml } });
  await rejectsWith(
    reconcile(document.id, { outcome: 'dispatch_failed' }),
    'RECEIVER_DELIVERY_OUTCOME_CONFLICT',
    'outcome_differs',
  );
  // Another valid ARECF (signed by a delegated person, holder id a cédula): other bytes.
  const other = signedArecf({
    rncEmisor,
    rncComprador: BUYERS.hang,
    encf: document.encf,
    signer: certificateFor('00112345678'),
  });
  await rejectsWith(
    reconcile(document.id, { outcome: 'sent', evidence: { arecfXml: other } }),
    'RECEIVER_DELIVERY_OUTCOME_CONFLICT',
    'evidence_differs',
  );
  await rejectsWith(
    reconcile(document.id, { outcome: 'sent', evidence: { arecfXml }, note: 'later' }),
    'RECEIVER_DELIVERY_OUTCOME_CONFLICT',
    'note_differs',
  );
  assert.equal((await harness.deliveryOf(document.id)).status, 'sent');
});

test('evidence that does not fit is 409 RECEIVER_DELIVERY_EVIDENCE_INVALID and changes nothing', async () => {
  const { document, rncEmisor } = await seedUncertain();
  const parties = { rncEmisor, rncComprador: BUYERS.hang, encf: document.encf };
  const cases: Array<[TReceiverDeliveryReconciliationRequest, string]> = [
    [{ outcome: 'sent' }, 'evidence_required'],
    [{ outcome: 'sent', evidence: { arecfXml: 'not xml at all' } }, 'not_xml'],
    [
      { outcome: 'sent', evidence: { arecfXml: signedArecf({ ...parties, encf: newEncf('31') }) } },
      'encf_mismatch',
    ],
    [
      { outcome: 'sent', evidence: { arecfXml: signedArecf({ ...parties, rncComprador: BUYERS.received }) } },
      'buyer_mismatch',
    ],
    [
      {
        outcome: 'sent',
        evidence: { arecfXml: signedArecf({ ...parties, signer: certificateFor('209000001') }) },
      },
      'signer_not_buyer',
    ],
    [
      { outcome: 'sent', evidence: { arecfXml: signedArecf({ ...parties, signer: harness.certificate }) } },
      'signer_is_issuer',
    ],
    [
      {
        outcome: 'sent',
        evidence: {
          arecfXml: signedArecf(parties).replace(
            /<FechaHoraAcuseRecibo>(\d)/,
            (_whole, digit: string) => `<FechaHoraAcuseRecibo>${digit === '0' ? '1' : '0'}`,
          ),
        },
      },
      'signature_invalid',
    ],
    [
      {
        outcome: 'sent',
        evidence: { arecfXml: signedArecf({ ...parties, notReceivedReason: 'duplicate' }) },
      },
      'not_received',
    ],
    [{ outcome: 'dispatch_failed', evidence: { arecfXml: signedArecf(parties) } }, 'evidence_not_applicable'],
  ];
  for (const [request, reason] of cases)
    await rejectsWith(reconcile(document.id, request), 'RECEIVER_DELIVERY_EVIDENCE_INVALID', reason);
  const delivery = await harness.deliveryOf(document.id);
  assert.deepEqual(
    [delivery.status, delivery.reconciledAt, delivery.arecfArtifactId],
    ['uncertain', null, null],
  );
  assert.equal(
    await harness.database.artifact.count({
      where: { documentId: document.id, kind: 'receiver_acknowledgement' },
    }),
    0,
  );
});

test('uncertain → dispatch_failed without evidence; replay the same', async () => {
  const { document } = await seedUncertain();
  const first = await reconcile(document.id, {
    outcome: 'dispatch_failed',
    note: 'buyer confirms it never arrived',
  });
  assert.equal(first.receiverDelivery.status, 'dispatch_failed');
  assert.equal(first.receiverDelivery.reconciliation.evidence, null);
  assert.deepEqual(
    await reconcile(document.id, { outcome: 'dispatch_failed', note: 'buyer confirms it never arrived' }),
    first,
  );
});

test("only an uncertain delivery is reconciled (409 RECEIVER_DELIVERY_NOT_UNCERTAIN); another tenant's document is 404", async () => {
  const pending = await harness.seedAcceptedDocument({ buyer: BUYERS.received });
  await rejectsWith(
    reconcile(pending.document.id, { outcome: 'dispatch_failed' }),
    'RECEIVER_DELIVERY_NOT_UNCERTAIN',
  );
  const without = await harness.seedAcceptedDocument({ buyer: BUYERS.received, withDelivery: false });
  await rejectsWith(
    reconcile(without.document.id, { outcome: 'dispatch_failed' }),
    'RECEIVER_DELIVERY_NOT_UNCERTAIN',
  );

  const { document } = await seedUncertain();
  const other = await seedTenant(harness.database);
  await rejectsWith(reconcile(document.id, { outcome: 'dispatch_failed' }, other.id), 'NOT_FOUND');
  await rejectsWith(
    reconcileReceiverDelivery({
      database: harness.database,
      tenantId: harness.tenant.id,
      environment: 'eCF',
      documentId: document.id,
      request: { outcome: 'dispatch_failed' },
      xsdValidators: harness.xsdValidators,
    }),
    'NOT_FOUND',
  );
  assert.equal((await harness.deliveryOf(document.id)).status, 'uncertain');
});

test('two concurrent reconciliations with different outcomes: one wins, the other is 409', async () => {
  const { document, rncEmisor } = await seedUncertain();
  const arecfXml = signedArecf({ rncEmisor, rncComprador: BUYERS.hang, encf: document.encf });
  const results = await Promise.allSettled([
    reconcile(document.id, { outcome: 'sent', evidence: { arecfXml } }),
    reconcile(document.id, { outcome: 'dispatch_failed' }),
  ]);
  assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1);
  const rejected = results.find((result) => result.status === 'rejected');
  assert.ok(
    rejected?.status === 'rejected' &&
      rejected.reason instanceof AppError &&
      rejected.reason.code === 'RECEIVER_DELIVERY_OUTCOME_CONFLICT',
  );
});
