// Longer than ~300 lines on purpose: every transmission outcome (faults, contingency, unknown
// outcomes, RFCE) runs against the same simulator and clock (test/transmission-harness.ts).
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sqlPoolOf } from '@ecf/db';
import { pollDocumentStatus } from './poll-document-status.ts';
import { transmitSignedDocument } from './transmit-signed-document.ts';
import {
  certificateFor,
  newEncf,
  openTransmissionHarness,
  type TTransmissionHarness,
} from '../../test/transmission-harness.ts';
import { TRANSMISSION_EVENT_TYPES } from './transmission-events.ts';
import { NOT_DELEGATED_HINT } from './transmission-rules.ts';

let harness: TTransmissionHarness;
before(async () => {
  // Long enough for a busy CI machine; the timeout fault hangs, so only that test waits it out.
  harness = await openTransmissionHarness({ timeoutMs: 3000 });
});
after(async () => {
  await harness.close();
});
beforeEach(async () => {
  await harness.clearFaults();
  // Each test starts with no open episode so that episode assertions are its own.
  await harness.database.$executeRawUnsafe(
    `UPDATE taxauth_episodes SET restored_at = degraded_since WHERE restored_at IS NULL`,
  );
  await harness.database.$executeRawUnsafe(`DELETE FROM taxauth_episodes`);
});

const MINUTE = 60_000;

async function documentOf(id: string) {
  return harness.database.document.findUniqueOrThrow({ where: { id } });
}

async function transmit(id: string) {
  return transmitSignedDocument({ database: harness.database, documentId: id, ...harness.transmission });
}

async function poll(id: string) {
  return pollDocumentStatus({ database: harness.database, documentId: id, ...harness.transmission });
}

test('accepted: sent with a trackId, followed until final, answers kept, lastError null', async () => {
  const { document } = await harness.seedSignedDocument();
  const sent = await transmit(document.id);
  assert.equal(sent.next, 'poll');
  const afterSend = await documentOf(document.id);
  assert.equal(afterSend.status, 'sent');
  assert.match(afterSend.trackId ?? '', /^[0-9a-f-]{36}$/);
  assert.equal(afterSend.attempts, 1);

  const polled = await poll(document.id);
  assert.deepEqual({ next: polled.next, outcome: polled.outcome }, { next: 'done', outcome: 'accepted' });
  const final = await documentOf(document.id);
  assert.equal(final.status, 'accepted');
  assert.equal(final.lastError, null);
  assert.deepEqual(final.taxauthMessages, []);

  const events = await harness.eventsOf(document.id);
  assert.deepEqual(
    events.map((event) => event.type),
    [TRANSMISSION_EVENT_TYPES.ATTEMPT, TRANSMISSION_EVENT_TYPES.OUTCOME, 'sent', 'accepted'],
  );
  assert.deepEqual(
    events.filter((event) => event.toStatus !== null).map((event) => [event.fromStatus, event.toStatus]),
    [
      ['signed', 'sent'],
      ['sent', 'accepted'],
    ],
  );
  const answers = await harness.database.artifact.count({
    where: { documentId: document.id, kind: 'taxauth_response' },
  });
  assert.equal(answers, 2);
  assert.equal(await harness.receptionsOf(document.encf), 1);

  // A redelivered job changes nothing and sends nothing.
  assert.equal((await transmit(document.id)).next, 'done');
  assert.equal((await poll(document.id)).next, 'done');
  assert.equal(await harness.receptionsOf(document.encf), 1);
});

test('accepted_conditional and rejected keep the tax authority messages', async () => {
  await harness.addFault({ service: 'recepcion', fault: 'accept_conditional', count: 1 });
  const conditional = await harness.seedSignedDocument();
  await transmit(conditional.document.id);
  await poll(conditional.document.id);
  const afterConditional = await documentOf(conditional.document.id);
  assert.equal(afterConditional.status, 'accepted_conditional');
  assert.equal(afterConditional.lastError, null);
  assert.ok(Array.isArray(afterConditional.taxauthMessages) && afterConditional.taxauthMessages.length > 0);

  await harness.addFault({ service: 'recepcion', fault: 'reject', count: 1 });
  const rejected = await harness.seedSignedDocument();
  await transmit(rejected.document.id);
  const report = await poll(rejected.document.id);
  assert.equal(report.outcome, 'rejected');
  const afterRejection = await documentOf(rejected.document.id);
  assert.equal(afterRejection.status, 'rejected');
  const lastError = afterRejection.lastError as { code: string; taxauthMessages: unknown[] };
  assert.equal(lastError.code, 'TAXAUTH_RECEPTION_REJECTED');
  assert.ok(lastError.taxauthMessages.length > 0);
  assert.deepEqual(afterRejection.taxauthMessages, lastError.taxauthMessages);
});

test('RFCE: an E32 below RD$250,000 goes as its summary and the immediate answer is final', async () => {
  const { document } = await harness.seedSignedDocument({ encf: newEncf('32') });
  const report = await transmit(document.id);
  assert.deepEqual({ next: report.next, outcome: report.outcome }, { next: 'done', outcome: 'accepted' });
  const final = await documentOf(document.id);
  assert.equal(final.status, 'accepted');
  assert.equal(final.trackId, null);
  assert.equal(await harness.receptionsOf(document.encf, 'RFCE'), 1);
  assert.equal(await harness.receptionsOf(document.encf, 'ECF'), 0);
  const events = await harness.eventsOf(document.id);
  assert.equal((events[0]?.data as { channel?: string }).channel, 'rfce');
});

test('contingency: 503, reset and timeout keep the document in contingency with growing waits; it leaves when the tax authority answers', async () => {
  const { document } = await harness.seedSignedDocument();
  await harness.addFault({ service: 'recepcion', fault: 'http_503', count: 1 });
  await harness.addFault({ service: 'recepcion', fault: 'connection_reset', count: 1 });
  await harness.addFault({ service: 'recepcion', fault: 'timeout', count: 1 });

  const first = await transmit(document.id);
  assert.deepEqual(
    {
      next: first.next,
      afterSeconds: 'afterSeconds' in first ? first.afterSeconds : null,
      episode: first.episode,
    },
    { next: 'retry', afterSeconds: 300, episode: 'degraded' },
  );
  const inContingency = await documentOf(document.id);
  assert.equal(inContingency.status, 'contingency');
  assert.deepEqual(inContingency.contingencySince, harness.clock.now());
  assert.equal((inContingency.lastError as { code: string; retrying: boolean }).code, 'TAXAUTH_UNAVAILABLE');
  assert.equal((inContingency.lastError as { retrying: boolean }).retrying, true);

  const waits = [300];
  for (let index = 0; index < 2; index += 1) {
    harness.clock.advanceSeconds(waits.at(-1) ?? 0);
    const report = await transmit(document.id);
    assert.equal(report.next, 'retry');
    assert.equal(report.episode, undefined, 'one degraded edge per episode');
    waits.push('afterSeconds' in report ? report.afterSeconds : -1);
  }
  assert.deepEqual(waits, [300, 600, 1200]);
  const since = (await documentOf(document.id)).contingencySince;
  assert.deepEqual(since, inContingency.contingencySince, 'contingencySince is kept across retries');

  harness.clock.advanceSeconds(1200);
  const recovered = await transmit(document.id);
  assert.equal(recovered.next, 'poll');
  assert.equal(recovered.episode, 'restored');
  const sent = await documentOf(document.id);
  assert.equal(sent.status, 'sent');
  assert.equal(sent.lastError, null);
  assert.equal(sent.contingencySince, null);
  assert.equal(
    await harness.receptionsOf(document.encf),
    1,
    'the reset and the timeout happened before the reception ran',
  );

  const episodes = await harness.database.taxauthEpisode.findMany();
  assert.equal(episodes.length, 1);
  assert.equal(episodes[0]?.environment, 'TesteCF');
  assert.equal(episodes[0]?.code, 'TAXAUTH_UNAVAILABLE');
  assert.ok(episodes[0]?.restoredAt);
  await poll(document.id);
  assert.equal((await documentOf(document.id)).status, 'accepted');
});

test('episodes: several documents failing in the same outage open one episode, the first answer closes it', async () => {
  // An episode left open by an earlier test (a transient failure on a busy machine) would hide this one's opening.
  await harness.database.taxauthEpisode.updateMany({
    where: { restoredAt: null },
    data: { restoredAt: harness.clock.now() },
  });
  const episodesBefore = await harness.database.taxauthEpisode.count();
  await harness.addFault({ service: '*', fault: 'auth_down' });
  await harness.addFault({ service: 'recepcion', fault: 'http_503' });
  const documents = await Promise.all([
    harness.seedSignedDocument(),
    harness.seedSignedDocument(),
    harness.seedSignedDocument(),
  ]);
  const reports = await Promise.all(documents.map(({ document }) => transmit(document.id)));
  assert.deepEqual(
    reports.map((report) => report.next),
    ['retry', 'retry', 'retry'],
  );
  assert.equal(reports.filter((report) => report.episode === 'degraded').length, 1);
  const open = await harness.database.taxauthEpisode.findMany({ where: { restoredAt: null } });
  assert.equal(open.length, 1);

  await harness.clearFaults();
  harness.clock.advanceSeconds(300);
  const recovered = await Promise.all(documents.map(({ document }) => transmit(document.id)));
  assert.deepEqual(
    recovered.map((report) => report.next),
    ['poll', 'poll', 'poll'],
  );
  assert.equal(recovered.filter((report) => report.episode === 'restored').length, 1);
  assert.equal(
    (await harness.database.taxauthEpisode.count()) - episodesBefore,
    1,
    'one episode for the whole outage',
  );
  const closed = await harness.database.taxauthEpisode.findUniqueOrThrow({
    where: { id: open[0]?.id ?? '' },
  });
  assert.ok(closed.restoredAt);
});

test('episodes: one outage of reception alone is one episode; status queries, ConsultaTrackIds and RFCE answers during it do not close it, a reception that succeeds afterwards does', async () => {
  const episodesBefore = await harness.database.taxauthEpisode.count();
  // Sent before the outage; its result stays "En Proceso", so its status queries keep answering throughout.
  const pending = await harness.seedSignedDocument({ buyer: '000000003' });
  assert.equal((await transmit(pending.document.id)).next, 'poll');

  // The outage starts with a reception whose answer is lost (the tax authority has it), then 503s.
  await harness.addFault({ service: 'recepcion', fault: 'lose_answer', count: 1 });
  const lost = await harness.seedSignedDocument();
  const opened = await transmit(lost.document.id);
  assert.deepEqual([opened.next, opened.episode], ['retry', 'degraded']);
  await harness.addFault({ service: 'recepcion', fault: 'http_503' });
  const waiting = await harness.seedSignedDocument();
  assert.equal((await transmit(waiting.document.id)).episode, undefined, 'already open');

  // Two minutes of the outage, other services answering.
  const edges: Array<string | undefined> = [];
  for (let minute = 0; minute < 2; minute += 1) {
    harness.clock.advanceSeconds(60);
    const polled = await poll(pending.document.id);
    assert.equal(polled.outcome, 'in_process');
    edges.push(polled.episode);
    edges.push((await transmit(waiting.document.id)).episode);
    // An E32 below RD$250,000 goes to recepcionfc, which answers: another service.
    const rfce = await harness.seedSignedDocument({ encf: newEncf('32') });
    const summary = await transmit(rfce.document.id);
    assert.equal(summary.outcome, 'accepted');
    edges.push(summary.episode);
  }
  // The lost reception is found by ConsultaTrackIds (past the in-flight window): sent, but no evidence.
  harness.clock.advanceSeconds(120);
  const found = await transmit(lost.document.id);
  assert.equal(found.outcome, 'sent');
  edges.push(found.episode);
  assert.deepEqual(
    edges.filter((edge) => edge !== undefined),
    [],
    'nothing closed or reopened the episode during the outage',
  );
  const open = await harness.database.taxauthEpisode.findMany({ where: { restoredAt: null } });
  assert.equal(open.length, 1);
  assert.equal(open[0]?.service, 'recepcion');

  // The outage ends: the first reception that succeeds closes it, once.
  await harness.clearFaults();
  harness.clock.advanceSeconds(300);
  const restoredAt = harness.clock.now();
  const recovered = await transmit(waiting.document.id);
  assert.deepEqual([recovered.next, recovered.episode], ['poll', 'restored']);
  const next = await harness.seedSignedDocument();
  assert.equal((await transmit(next.document.id)).episode, undefined);
  assert.equal(
    (await harness.database.taxauthEpisode.count()) - episodesBefore,
    1,
    'one outage, one episode',
  );
  const closed = await harness.database.taxauthEpisode.findUniqueOrThrow({
    where: { id: open[0]?.id ?? '' },
  });
  assert.deepEqual(closed.restoredAt, restoredAt);
});

test('72 hours without reaching the tax authority: one operator notification, sent, and retries go on', async () => {
  const before = harness.notifications.length;
  const { document } = await harness.seedSignedDocument();
  await harness.addFault({ service: 'recepcion', fault: 'http_503' });
  await transmit(document.id);
  harness.clock.advance(72 * 60 * MINUTE - MINUTE);
  const almost = await transmit(document.id);
  assert.equal(almost.notification, undefined);
  assert.equal(await harness.database.operatorNotification.count({ where: { documentId: document.id } }), 0);

  harness.clock.advance(2 * MINUTE);
  const due = await transmit(document.id);
  assert.equal(due.next, 'retry');
  assert.equal(due.notification?.kind, 'taxauth_contingency_72h');
  harness.clock.advance(30 * MINUTE);
  const later = await transmit(document.id);
  assert.equal(later.next, 'retry', 'retries continue after the notification');
  assert.equal(later.notification, undefined);

  const rows = await harness.database.operatorNotification.findMany({ where: { documentId: document.id } });
  assert.equal(rows.length, 1);
  assert.ok(rows[0]?.sentAt);
  assert.equal(harness.notifications.length - before, 1);
  assert.equal((await documentOf(document.id)).status, 'contingency');
  const events = await harness.eventsOf(document.id);
  assert.equal(events.filter((event) => event.type === TRANSMISSION_EVENT_TYPES.OPERATOR_NOTIFIED).length, 1);
});

test('transmission_failed on a definite failure (the tax authority refuses the authentication); not retried, XML kept', async () => {
  const tenant = await harness.database.tenant.create({
    data: { rnc: '131000777', legalName: 'Vencida SRL' },
  });
  const expired = certificateFor(tenant.rnc, {
    validFrom: new Date('2020-01-01T00:00:00Z'),
    validTo: new Date('2021-01-01T00:00:00Z'),
  });
  const { document } = await harness.seedSignedDocument({
    tenantId: tenant.id,
    rnc: tenant.rnc,
    signer: expired,
  });
  const report = await transmitSignedDocument({
    database: harness.database,
    documentId: document.id,
    ...harness.transmission,
    loadCertificate: async () => expired,
  });
  assert.deepEqual(
    { next: report.next, outcome: report.outcome },
    { next: 'done', outcome: 'transmission_failed' },
  );
  const failed = await documentOf(document.id);
  assert.equal(failed.status, 'transmission_failed');
  const lastError = failed.lastError as { code: string; retrying: boolean; reason: string };
  assert.deepEqual(
    [lastError.code, lastError.retrying, lastError.reason],
    ['TAXAUTH_TRANSMISSION_FAILED', false, 'auth_failed'],
  );
  assert.equal(
    await harness.database.artifact.count({ where: { documentId: document.id, kind: 'signed_xml' } }),
    1,
  );
  assert.equal((await transmit(document.id)).next, 'done');
  assert.equal(await harness.receptionsOf(document.encf), 0);
});

test('not delegated: TAXAUTH_CERTIFICATE_NOT_DELEGATED with a hint', async () => {
  await harness.addFault({ service: 'autenticacion', fault: 'not_delegated', count: 1 });
  // A fresh client: the cached token of the other tests would skip the authentication.
  const { document } = await harness.seedSignedDocument();
  const tenantless = {
    ...harness.transmission,
    loadCertificate: async () => certificateFor(harness.tenant.rnc),
  };
  const other = await openFreshClient();
  const report = await transmitSignedDocument({
    database: harness.database,
    documentId: document.id,
    ...tenantless,
    clientFor: other,
  });
  assert.equal(report.outcome, 'transmission_failed');
  const failed = await documentOf(document.id);
  const lastError = failed.lastError as { code: string; hint: string };
  assert.equal(failed.status, 'transmission_failed');
  assert.equal(lastError.code, 'TAXAUTH_CERTIFICATE_NOT_DELEGATED');
  assert.equal(lastError.hint, NOT_DELEGATED_HINT);
});

test('a signer not delegated for the issuer is rejected by the tax authority with the hint', async () => {
  const stranger = certificateFor('402000000011');
  const { document } = await harness.seedSignedDocument({ signer: stranger });
  const other = await openFreshClient();
  await transmitSignedDocument({
    database: harness.database,
    documentId: document.id,
    ...harness.transmission,
    clientFor: other,
    loadCertificate: async () => stranger,
  });
  await pollDocumentStatus({
    database: harness.database,
    documentId: document.id,
    ...harness.transmission,
    clientFor: other,
    loadCertificate: async () => stranger,
  });
  const rejected = await documentOf(document.id);
  assert.equal(rejected.status, 'rejected');
  assert.equal((rejected.lastError as { code: string }).code, 'TAXAUTH_CERTIFICATE_NOT_DELEGATED');
  assert.equal((rejected.lastError as { hint: string }).hint, NOT_DELEGATED_HINT);
});

test('duplicate eNCF at the tax authority: rejected with its message', async () => {
  const { document, xml } = await harness.seedSignedDocument();
  // Someone (another system of the taxpayer) already sent this eNCF.
  const first = await harness
    .clientFor('TesteCF')
    .forTaxpayer({ cacheKey: 'elsewhere', certificate: harness.certificate })
    .sendEcf({ xml });
  assert.ok(first.trackId);
  await transmit(document.id);
  await poll(document.id);
  const rejected = await documentOf(document.id);
  assert.equal(rejected.status, 'rejected');
  const messages = rejected.taxauthMessages as Array<{ valor: string }>;
  assert.ok(
    messages.some((message) => message.valor.includes(document.encf)),
    JSON.stringify(messages),
  );
  assert.equal(await harness.receptionsOf(document.encf), 2);
});

test('lose_answer: the retry finds the trackId by eNCF and does not send again', async () => {
  const { document } = await harness.seedSignedDocument();
  await harness.addFault({ service: 'recepcion', fault: 'lose_answer', count: 1 });
  const lost = await transmit(document.id);
  assert.equal(lost.next, 'retry');
  assert.equal(await harness.receptionsOf(document.encf), 1);
  const afterLoss = await harness.eventsOf(document.id);
  assert.equal(
    (afterLoss.find((event) => event.type === TRANSMISSION_EVENT_TYPES.OUTCOME)?.data as { outcome: string })
      .outcome,
    'unknown',
  );

  harness.clock.advanceSeconds('afterSeconds' in lost ? lost.afterSeconds : 300);
  const resolved = await transmit(document.id);
  assert.equal(resolved.next, 'poll');
  const sent = await documentOf(document.id);
  assert.equal(sent.status, 'sent');
  assert.equal(sent.attempts, 1, 'no second attempt');
  assert.equal(await harness.receptionsOf(document.encf), 1, 'the simulator saw one reception');
  await poll(document.id);
  assert.equal((await documentOf(document.id)).status, 'accepted');
});

test('RFCE resent after its answer was lost and Consulta Estado did not see it yet: the duplicate refusal is checked, the first copy accepted is the verdict', async () => {
  const { document } = await harness.seedSignedDocument({ encf: newEncf('32') });
  // The first summary arrives and is accepted, but the answer never comes back.
  await harness.addFault({ service: 'recepcionfc', fault: 'lose_answer', count: 1 });
  const lost = await transmit(document.id);
  assert.deepEqual([lost.next, lost.outcome], ['retry', 'contingency']);
  // Asked before resending, Consulta Estado does not see it yet: the summary goes again.
  await harness.addFault({ service: 'consultaestado', fault: 'query_lag', count: 1 });
  harness.clock.advanceSeconds('afterSeconds' in lost ? lost.afterSeconds : 300);
  const resent = await transmit(document.id);
  assert.equal(
    await harness.receptionsOf(document.encf, 'RFCE'),
    2,
    'the duplicate reached the tax authority',
  );
  assert.deepEqual({ next: resent.next, outcome: resent.outcome }, { next: 'done', outcome: 'accepted' });
  const final = await documentOf(document.id);
  assert.equal(final.status, 'accepted', JSON.stringify(final.lastError));
  assert.equal(final.lastError, null);
  const outcomes = (await harness.eventsOf(document.id))
    .filter((event) => event.type === TRANSMISSION_EVENT_TYPES.OUTCOME)
    .map((event) => {
      const data = event.data as { attempt: number; outcome: string; resolvedBy?: string };
      return [data.attempt, data.outcome, data.resolvedBy ?? null];
    });
  assert.deepEqual(outcomes, [
    [1, 'unknown', null],
    [1, 'not_received', 'consultaestado'],
    [2, 'accepted', 'consultaestado'],
  ]);

  // A resend refused when no copy of it was accepted stays refused.
  const refused = await harness.seedSignedDocument({ encf: newEncf('32') });
  await harness.addFault({ service: 'recepcionfc', fault: 'http_503', count: 1 });
  const down = await transmit(refused.document.id);
  assert.deepEqual([down.next, down.outcome], ['retry', 'contingency']);
  await harness.addFault({ service: 'recepcionfc', fault: 'reject', count: 1 });
  harness.clock.advanceSeconds('afterSeconds' in down ? down.afterSeconds : 300);
  assert.equal((await transmit(refused.document.id)).outcome, 'rejected');
  const rejected = await documentOf(refused.document.id);
  assert.equal(rejected.status, 'rejected');
  assert.equal((rejected.lastError as { code: string }).code, 'TAXAUTH_RECEPTION_REJECTED');
});

test('an attempt without outcome (crash) is in flight for a while, then resolved by asking before sending', async () => {
  // Crash after the attempt was committed but before the request left.
  const notLeft = await harness.seedSignedDocument();
  await recordBareAttempt(notLeft.document.id, notLeft.document.tenantId);
  const early = await transmit(notLeft.document.id);
  assert.deepEqual([early.next, early.outcome], ['retry', 'attempt_in_flight']);
  assert.equal(await harness.receptionsOf(notLeft.document.encf), 0);
  harness.clock.advance(3 * MINUTE);
  assert.equal((await transmit(notLeft.document.id)).next, 'poll');
  assert.equal(await harness.receptionsOf(notLeft.document.encf), 1);
  const outcomes = (await harness.eventsOf(notLeft.document.id))
    .filter((event) => event.type === TRANSMISSION_EVENT_TYPES.OUTCOME)
    .map((event) => (event.data as { outcome: string }).outcome);
  assert.deepEqual(outcomes, ['not_received', 'received']);

  // Crash after the request left: the tax authority has it, the retry adopts its trackId.
  const left = await harness.seedSignedDocument();
  await recordBareAttempt(left.document.id, left.document.tenantId);
  const reception = await harness
    .clientFor('TesteCF')
    .forTaxpayer({ cacheKey: left.document.tenantId, certificate: harness.certificate })
    .sendEcf({ xml: left.xml });
  harness.clock.advance(3 * MINUTE);
  assert.equal((await transmit(left.document.id)).next, 'poll');
  assert.equal((await documentOf(left.document.id)).trackId, reception.trackId);
  assert.equal(await harness.receptionsOf(left.document.encf), 1);
});

test('an attempt of a worker process known to be gone is resolved at once; one of a live process waits at most 5 s at a time', async () => {
  const [live, recovered, lapsed] = [randomUUID(), randomUUID(), randomUUID()];
  await sqlPoolOf(harness.database).query(
    `INSERT INTO worker_instances (id, host, pid, started_at, heartbeat_at, recovered_at) VALUES
       ($1::uuid, 'host', 1, now(), now(), NULL),
       ($2::uuid, 'host', 2, now() - interval '2 minutes', now() - interval '1 minute', now()),
       ($3::uuid, 'host', 3, now() - interval '2 minutes', now() - interval '20 seconds', NULL)`,
    [live, recovered, lapsed],
  );
  const withLease = { workerInstanceId: () => randomUUID(), workerDeadAfterSeconds: 15 };
  const transmitWith = (id: string, extra: Record<string, unknown> = {}) =>
    transmitSignedDocument({
      database: harness.database,
      documentId: id,
      ...harness.transmission,
      ...withLease,
      ...extra,
    });

  // Its process renews its lease: it may still be sending. Looked at again within 5 s, nothing sent.
  const alive = await harness.seedSignedDocument();
  await recordBareAttempt(alive.document.id, alive.document.tenantId, live);
  const waiting = await transmitWith(alive.document.id);
  assert.deepEqual([waiting.next, waiting.outcome], ['retry', 'attempt_in_flight']);
  assert.ok('afterSeconds' in waiting && waiting.afterSeconds <= 5, JSON.stringify(waiting));
  assert.equal(await harness.receptionsOf(alive.document.encf), 0);

  // Its process was found dead a minute ago: asked at once (nothing there), then sent once.
  const orphan = await harness.seedSignedDocument();
  await recordBareAttempt(orphan.document.id, orphan.document.tenantId, recovered);
  assert.equal((await transmitWith(orphan.document.id)).next, 'poll');
  assert.equal(await harness.receptionsOf(orphan.document.encf), 1);
  const outcomes = (await harness.eventsOf(orphan.document.id))
    .filter((event) => event.type === TRANSMISSION_EVENT_TYPES.OUTCOME)
    .map((event) => (event.data as { outcome: string; resolvedBy?: string }).resolvedBy ?? 'sent');
  assert.deepEqual(outcomes, ['consultatrackids', 'sent']);

  // Its lease lapsed 20 s ago: dead, but what it sent may still be settling at the tax authority
  // (30 s here): the run waits for the ~10 s left, then (settled) asks and sends.
  const settling = await harness.seedSignedDocument();
  await recordBareAttempt(settling.document.id, settling.document.tenantId, lapsed);
  const early = await transmitWith(settling.document.id, { orphanSettleMs: 30_000 });
  assert.deepEqual([early.next, early.outcome], ['retry', 'attempt_in_flight']);
  assert.ok(
    'afterSeconds' in early && early.afterSeconds >= 8 && early.afterSeconds <= 11,
    JSON.stringify(early),
  );
  assert.equal((await transmitWith(settling.document.id, { orphanSettleMs: 10_000 })).next, 'poll');
  assert.equal(await harness.receptionsOf(settling.document.encf), 1);

  // Its own attempt (this process) or one naming no process: the whole in-flight window.
  const own = await harness.seedSignedDocument();
  await recordBareAttempt(own.document.id, own.document.tenantId, live);
  const ownWait = await transmitWith(own.document.id, { workerInstanceId: () => live, inFlightMs: 60_000 });
  assert.ok('afterSeconds' in ownWait && ownWait.afterSeconds > 50, JSON.stringify(ownWait));
});

test('concurrent runs of the same document send it once', async () => {
  const { document } = await harness.seedSignedDocument();
  const reports = await Promise.all([transmit(document.id), transmit(document.id), transmit(document.id)]);
  assert.equal(reports.filter((report) => report.outcome === 'sent').length, 1, JSON.stringify(reports));
  assert.equal(await harness.receptionsOf(document.encf), 1);
  assert.equal((await documentOf(document.id)).attempts, 1);
});

async function recordBareAttempt(documentId: string, tenantId: string, worker?: string) {
  await harness.database.$transaction([
    harness.database.document.update({ where: { id: documentId }, data: { attempts: 1 } }),
    harness.database.documentEvent.create({
      data: {
        documentId,
        tenantId,
        type: TRANSMISSION_EVENT_TYPES.ATTEMPT,
        data: {
          attempt: 1,
          channel: 'ecf',
          at: harness.clock.now().toISOString(),
          ...(worker === undefined ? {} : { worker }),
        },
        createdAt: harness.clock.now(),
      },
    }),
  ]);
}

async function openFreshClient() {
  const { createTaxauthClient } = await import('@ecf/taxauth-client');
  const client = createTaxauthClient({
    environment: 'TesteCF',
    baseUrls: {
      ecf: harness.simulator.baseUrl,
      fc: harness.simulator.baseUrl,
      status: harness.simulator.baseUrl,
    },
    timeoutMs: 2000,
  });
  return () => client;
}

test('a process whose own lease went stale (a long pause) commits its attempt but sends nothing; the attempt is resolved by asking', async () => {
  const paused = randomUUID();
  await sqlPoolOf(harness.database).query(
    `INSERT INTO worker_instances (id, host, pid, started_at, heartbeat_at, recovered_at)
     VALUES ($1::uuid, 'host', 4, now() - interval '2 minutes', now() - interval '1 minute', now())`,
    [paused],
  );
  const { document } = await harness.seedSignedDocument();
  const stale = await transmitSignedDocument({
    database: harness.database,
    documentId: document.id,
    ...harness.transmission,
    workerInstanceId: () => paused,
    workerDeadAfterSeconds: 15,
    workerLeaseFresh: () => false,
  });
  assert.deepEqual([stale.next, stale.outcome], ['retry', 'worker_lease_stale']);
  assert.equal(await harness.receptionsOf(document.encf), 0);

  // Another process (the paused one was taken for dead) asks first, finds nothing, sends once.
  const next = await transmitSignedDocument({
    database: harness.database,
    documentId: document.id,
    ...harness.transmission,
    workerInstanceId: () => randomUUID(),
    workerDeadAfterSeconds: 15,
    workerLeaseFresh: () => true,
  });
  assert.equal(next.next, 'poll');
  assert.equal(await harness.receptionsOf(document.encf), 1);
  const outcomes = (await harness.eventsOf(document.id))
    .filter((event) => event.type === TRANSMISSION_EVENT_TYPES.OUTCOME)
    .map((event) => (event.data as { outcome: string; resolvedBy?: string }).resolvedBy ?? 'sent');
  assert.deepEqual(outcomes, ['consultatrackids', 'sent']);
});
