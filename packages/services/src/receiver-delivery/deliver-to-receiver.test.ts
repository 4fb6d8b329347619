// Longer than ~300 lines on purpose: every outcome of a delivery runs against the same simulator
// and buyer endpoint (test/receiver-harness.ts), each scenario a test.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { verifyXmlSignature } from '@ecf/fiscal-core';
import { deliverToReceiver } from './deliver-to-receiver.ts';
import type { TEnqueue } from '@ecf/db';
import { pollDocumentStatus, transmitSignedDocument } from '../transmission/index.ts';
import { checkAcknowledgement } from './check-acknowledgement.ts';
import { RECEIVER_DELIVERY_EVENT_TYPES } from './receiver-delivery-rules.ts';
import { BUYERS, openReceiverHarness, type TReceiverHarness } from '../../test/receiver-harness.ts';
import { newEncf } from '../../test/transmission-harness.ts';

let harness: TReceiverHarness;
before(async () => {
  harness = await openReceiverHarness({ timeoutMs: 1000 });
});
after(async () => {
  await harness.close();
});

const outcomesOf = async (documentId: string) =>
  (await harness.eventsOf(documentId))
    .filter((event) => event.type === RECEIVER_DELIVERY_EVENT_TYPES.OUTCOME)
    .map((event) => event.data as Record<string, unknown>);

test('a buyer that answers a signed ARECF Estado 0: sent, the ARECF stored and verifiable, one multipart upload with Content-Length', async () => {
  const { document, rncEmisor } = await harness.seedAcceptedDocument({ buyer: BUYERS.received });
  const report = await deliverToReceiver({
    database: harness.database,
    documentId: document.id,
    ...harness.delivery,
  });
  assert.deepEqual([report.next, report.status, report.outcome], ['done', 'sent', 'received']);

  const delivery = await harness.deliveryOf(document.id);
  assert.equal(delivery.status, 'sent');
  assert.equal(delivery.attempts, 1);
  assert.equal(delivery.lastError, null);
  assert.equal(delivery.targetUrl, `${harness.buyer.hostOf(BUYERS.received)}/fe/recepcion/api/ecf`);
  assert.ok(delivery.arecfArtifactId);
  const artifact = await harness.database.artifact.findUniqueOrThrow({
    where: { id: delivery.arecfArtifactId },
  });
  assert.equal(artifact.kind, 'receiver_acknowledgement');
  const arecf = Buffer.from(artifact.content).toString('utf8');
  const verified = verifyXmlSignature(arecf);
  assert.ok(verified.valid && verified.certificate.holderId === BUYERS.received);
  const checked = checkAcknowledgement(
    arecf,
    { rncEmisor, rncComprador: BUYERS.received, encf: document.encf },
    { xsdValidators: harness.xsdValidators, now: new Date() },
  );
  assert.ok(checked.success && checked.data.received);

  const [upload, ...others] = harness.buyer
    .receptionsOf(BUYERS.received)
    .filter((request) => request.fileName === `${rncEmisor}${document.encf}.xml`);
  assert.equal(others.length, 0);
  assert.equal(upload?.contentLength, String(upload?.bodyLength));
  assert.equal(upload?.transferEncoding, undefined);

  const events = (await harness.eventsOf(document.id)).map((event) => event.type);
  assert.deepEqual(events, [RECEIVER_DELIVERY_EVENT_TYPES.ATTEMPT, RECEIVER_DELIVERY_EVENT_TYPES.OUTCOME]);
  // Final: a second run (a redelivered job) sends nothing.
  assert.equal(
    (await deliverToReceiver({ database: harness.database, documentId: document.id, ...harness.delivery }))
      .outcome,
    'already_final',
  );
  assert.equal(
    harness.buyer
      .receptionsOf(BUYERS.received)
      .filter((request) => request.fileName === `${rncEmisor}${document.encf}.xml`).length,
    1,
  );
});

test('an ARECF "not received": not_received with its reason code, the ARECF kept', async () => {
  const { document } = await harness.seedAcceptedDocument({ buyer: BUYERS.notReceived });
  const report = await deliverToReceiver({
    database: harness.database,
    documentId: document.id,
    ...harness.delivery,
  });
  assert.deepEqual([report.next, report.status], ['done', 'not_received']);
  const delivery = await harness.deliveryOf(document.id);
  assert.equal((delivery.lastError as { codigoMotivoNoRecibido: string }).codigoMotivoNoRecibido, '4');
  assert.ok(delivery.arecfArtifactId);
  const [outcome] = await outcomesOf(document.id);
  assert.deepEqual(
    [outcome?.['outcome'], outcome?.['estado'], outcome?.['codigoMotivoNoRecibido']],
    ['not_received', '1', '4'],
  );
});

test('a buyer that never answers: retried after 1, 2, 4, 8 and 16 minutes, then uncertain and never sent again', async () => {
  const { document } = await harness.seedAcceptedDocument({ buyer: BUYERS.hang });
  const waits: number[] = [];
  for (let attempt = 1; attempt <= 6; attempt += 1) {
    const report = await deliverToReceiver({
      database: harness.database,
      documentId: document.id,
      ...harness.delivery,
    });
    if (attempt < 6) {
      assert.equal(report.next, 'retry', `attempt ${attempt}`);
      assert.equal(report.status, 'retry_scheduled');
      const afterSeconds = report.next === 'retry' ? report.afterSeconds : 0;
      waits.push(afterSeconds);
      // A job that runs early changes nothing and sends nothing.
      const early = await deliverToReceiver({
        database: harness.database,
        documentId: document.id,
        ...harness.delivery,
      });
      assert.equal(early.outcome, 'not_yet');
      harness.clock.advanceSeconds(afterSeconds);
    } else {
      assert.deepEqual([report.next, report.status, report.outcome], ['done', 'uncertain', 'uncertain']);
    }
  }
  assert.deepEqual(waits, [60, 120, 240, 480, 960]);
  const delivery = await harness.deliveryOf(document.id);
  assert.deepEqual([delivery.status, delivery.attempts, delivery.nextAttemptAt], ['uncertain', 6, null]);
  assert.equal((delivery.lastError as { reason: string }).reason, 'timeout');
  harness.clock.advanceSeconds(3600);
  assert.equal(
    (await deliverToReceiver({ database: harness.database, documentId: document.id, ...harness.delivery }))
      .outcome,
    'already_final',
  );
  assert.equal(harness.buyer.receptionsOf(BUYERS.hang).length, 6);
  const events = await harness.eventsOf(document.id);
  assert.equal(events.filter((event) => event.type === RECEIVER_DELIVERY_EVENT_TYPES.ATTEMPT).length, 6);
  assert.deepEqual(
    (await outcomesOf(document.id)).map((outcome) => outcome['status']),
    [
      'retry_scheduled',
      'retry_scheduled',
      'retry_scheduled',
      'retry_scheduled',
      'retry_scheduled',
      'uncertain',
    ],
  );
});

test('an ARECF signed by someone else, for another eNCF, or altered after signing is an invalid answer (retried)', async () => {
  for (const [buyer, reason] of [
    [BUYERS.foreignSigner, 'arecf_signer_not_buyer'],
    [BUYERS.otherEncf, 'arecf_encf_mismatch'],
    [BUYERS.tampered, 'arecf_signature_invalid'],
  ] as const) {
    const { document } = await harness.seedAcceptedDocument({ buyer });
    const report = await deliverToReceiver({
      database: harness.database,
      documentId: document.id,
      ...harness.delivery,
    });
    assert.deepEqual(
      [report.next, report.status, report.outcome],
      ['retry', 'retry_scheduled', 'invalid_answer'],
      buyer,
    );
    const delivery = await harness.deliveryOf(document.id);
    assert.equal((delivery.lastError as { reason: string }).reason, reason);
    assert.equal(delivery.arecfArtifactId, null);
    assert.equal(
      await harness.database.artifact.count({
        where: { documentId: document.id, kind: 'receiver_acknowledgement' },
      }),
      0,
    );
  }
});

test('HTTP 503 is retried; a 4xx without an ARECF is a definite refusal (dispatch_failed)', async () => {
  const unavailable = await harness.seedAcceptedDocument({ buyer: BUYERS.serverError });
  const retried = await deliverToReceiver({
    database: harness.database,
    documentId: unavailable.document.id,
    ...harness.delivery,
  });
  assert.deepEqual([retried.next, retried.status], ['retry', 'retry_scheduled']);
  assert.equal(
    ((await harness.deliveryOf(unavailable.document.id)).lastError as { httpStatus: number }).httpStatus,
    503,
  );

  const refused = await harness.seedAcceptedDocument({ buyer: BUYERS.refused });
  const report = await deliverToReceiver({
    database: harness.database,
    documentId: refused.document.id,
    ...harness.delivery,
  });
  assert.deepEqual([report.next, report.status], ['done', 'dispatch_failed']);
  const lastError = (await harness.deliveryOf(refused.document.id)).lastError as {
    code: string;
    httpStatus: number;
    body: string;
  };
  assert.deepEqual(
    [lastError.code, lastError.httpStatus, lastError.body],
    ['RECEIVER_REFUSED', 400, 'XML no valido'],
  );
});

test('a receiver that declares authentication: seed signed with the issuer certificate, token sent as bearer', async () => {
  const { document } = await harness.seedAcceptedDocument({ buyer: BUYERS.authenticated });
  const report = await deliverToReceiver({
    database: harness.database,
    documentId: document.id,
    ...harness.delivery,
  });
  assert.equal(report.status, 'sent');
  const requests = harness.buyer.requests.filter((request) => request.rnc === BUYERS.authenticated);
  const paths = requests.map((request) => request.path);
  assert.deepEqual(paths.slice(-3), [
    '/fe/autenticacion/api/semilla',
    '/fe/autenticacion/api/validacioncertificado',
    '/fe/recepcion/api/ecf',
  ]);
  assert.match(requests.at(-1)?.authorization ?? '', /^Bearer [0-9a-f]{32}$/);
});

test('nothing to deliver: buyer not in the directory, a type never exchanged, CerteCF (no directory)', async () => {
  const absent = await harness.seedAcceptedDocument({ buyer: BUYERS.absent });
  assert.deepEqual(
    await deliverToReceiver({
      database: harness.database,
      documentId: absent.document.id,
      ...harness.delivery,
    }),
    {
      documentId: absent.document.id,
      next: 'done',
      status: 'not_applicable',
      outcome: 'not_in_directory',
    },
  );
  const [event] = await harness.eventsOf(absent.document.id);
  assert.deepEqual(
    [event?.type, (event?.data as { reason: string }).reason],
    [RECEIVER_DELIVERY_EVENT_TYPES.NOT_APPLICABLE, 'not_in_directory'],
  );

  const consumer = await harness.seedAcceptedDocument({ buyer: BUYERS.received, encf: newEncf('32') });
  assert.equal(
    (
      await deliverToReceiver({
        database: harness.database,
        documentId: consumer.document.id,
        ...harness.delivery,
      })
    ).outcome,
    'type_not_exchanged',
  );
  const certification = await harness.seedAcceptedDocument({
    buyer: BUYERS.received,
    environment: 'CerteCF',
  });
  assert.equal(
    (
      await deliverToReceiver({
        database: harness.database,
        documentId: certification.document.id,
        ...harness.delivery,
      })
    ).outcome,
    'no_directory_in_certecf',
  );
  assert.equal((await harness.deliveryOf(certification.document.id)).status, 'not_applicable');
});

test('a directory that does not answer defers the delivery without counting an attempt', async () => {
  const { document } = await harness.seedAcceptedDocument({ buyer: BUYERS.received });
  await fetch(`${harness.simulator.baseUrl}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      environment: 'testecf',
      service: 'consultadirectorio',
      fault: 'http_503',
      count: 1,
    }),
  });
  const deferred = await deliverToReceiver({
    database: harness.database,
    documentId: document.id,
    ...harness.delivery,
  });
  assert.deepEqual([deferred.next, deferred.outcome], ['retry', 'deferred_http_5xx']);
  const delivery = await harness.deliveryOf(document.id);
  assert.deepEqual(
    [delivery.status, delivery.attempts, (delivery.lastError as { code: string }).code],
    ['pending', 0, 'DIRECTORY_UNAVAILABLE'],
  );
  harness.clock.advanceSeconds(60);
  assert.equal(
    (await deliverToReceiver({ database: harness.database, documentId: document.id, ...harness.delivery }))
      .status,
    'sent',
  );
});

test('a worker that died mid-attempt: after the lease, the attempt counts as failed and is retried on the schedule', async () => {
  const { document } = await harness.seedAcceptedDocument({ buyer: BUYERS.received });
  await harness.database.receiverDelivery.update({
    where: { documentId: document.id },
    data: { status: 'sending', attempts: 1, nextAttemptAt: new Date(harness.clock.now().getTime() + 30_000) },
  });
  assert.equal(
    (await deliverToReceiver({ database: harness.database, documentId: document.id, ...harness.delivery }))
      .outcome,
    'attempt_in_flight',
  );
  harness.clock.advanceSeconds(31);
  const settled = await deliverToReceiver({
    database: harness.database,
    documentId: document.id,
    ...harness.delivery,
  });
  assert.deepEqual([settled.next, settled.outcome], ['retry', 'unknown']);
  harness.clock.advanceSeconds(60);
  const report = await deliverToReceiver({
    database: harness.database,
    documentId: document.id,
    ...harness.delivery,
  });
  assert.equal(report.status, 'sent');
  assert.equal((await harness.deliveryOf(document.id)).attempts, 2);
});

test('acceptance enqueues document.deliver-to-receiver in its own transaction (a failing enqueue rolls the acceptance back)', async () => {
  const options = {
    clientFor: harness.clientFor,
    loadCertificate: async () => harness.certificate,
    now: harness.clock.now,
  };
  const enqueued: Array<{ name: string; payload: unknown }> = [];
  const enqueue: TEnqueue = async (jobs, options) => {
    const executor = options?.executor;
    assert.ok(executor, 'enqueued on the acceptance transaction');
    for (const { name, payload } of jobs) {
      assert.ok('documentId' in payload);
      // Proves the executor is a live transaction: it sees the uncommitted acceptance.
      const rows = (
        await executor.executeSql('SELECT status::text AS status FROM documents WHERE id = $1::uuid', [
          payload.documentId,
        ])
      ).rows as Array<{ status: string }>;
      assert.equal(rows[0]?.status, 'accepted');
      enqueued.push({ name, payload });
    }
  };
  const { document } = await harness.seedAcceptedDocument({ buyer: BUYERS.received, status: 'signed' });
  assert.equal(
    (await transmitSignedDocument({ database: harness.database, documentId: document.id, ...options })).next,
    'poll',
  );
  const failing: TEnqueue = async () => {
    throw new Error('queue down');
  };
  await assert.rejects(
    pollDocumentStatus({ database: harness.database, documentId: document.id, ...options, enqueue: failing }),
    /queue down/,
  );
  assert.equal(
    (await harness.database.document.findUniqueOrThrow({ where: { id: document.id } })).status,
    'sent',
  );
  assert.equal(await harness.database.receiverDelivery.count({ where: { documentId: document.id } }), 0);

  const report = await pollDocumentStatus({
    database: harness.database,
    documentId: document.id,
    ...options,
    enqueue,
  });
  assert.equal(report.outcome, 'accepted');
  assert.deepEqual(enqueued, [
    { name: 'document.deliver-to-receiver', payload: { documentId: document.id } },
  ]);
  assert.equal((await harness.deliveryOf(document.id)).status, 'pending');
  assert.equal(
    (await deliverToReceiver({ database: harness.database, documentId: document.id, ...harness.delivery }))
      .status,
    'sent',
  );

  // An E32 is never delivered: nothing is enqueued for it.
  const consumer = await harness.seedAcceptedDocument({
    buyer: BUYERS.received,
    status: 'signed',
    encf: newEncf('32'),
  });
  await harness.database.document.update({
    where: { id: consumer.document.id },
    data: { totalAmount: '300000.00' },
  });
  enqueued.length = 0;
  const sent = await transmitSignedDocument({
    database: harness.database,
    documentId: consumer.document.id,
    ...options,
  });
  if (sent.next === 'poll')
    await pollDocumentStatus({
      database: harness.database,
      documentId: consumer.document.id,
      ...options,
      enqueue,
    });
  assert.deepEqual(enqueued, []);
});
