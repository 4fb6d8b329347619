import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pollDocumentStatus } from './poll-document-status.ts';
import { transmitSignedDocument } from './transmit-signed-document.ts';
import {
  createClock,
  newEncf,
  openTransmissionHarness,
  type TTransmissionHarness,
} from '../../test/transmission-harness.ts';
import { TRANSMISSION_EVENT_TYPES } from './transmission-events.ts';

// The simulator runs on a clock of its own, so its tokens can expire while ours think them valid.
const simulatorClock = createClock(new Date());
let harness: TTransmissionHarness;
before(async () => {
  harness = await openTransmissionHarness({ simulatorNow: simulatorClock.now, timeoutMs: 3000 });
});
after(async () => {
  await harness.close();
});

test('token expiry mid-run: the tax authority refuses the cached token, the client authenticates again, nothing is lost', async () => {
  const first = await harness.seedSignedDocument();
  assert.equal(
    (
      await transmitSignedDocument({
        database: harness.database,
        documentId: first.document.id,
        ...harness.transmission,
      })
    ).next,
    'poll',
  );
  const second = await harness.seedSignedDocument();
  // Two hours later at the tax authority: the token cached by our client has expired there.
  simulatorClock.advance(2 * 3600_000);
  assert.equal(
    (
      await transmitSignedDocument({
        database: harness.database,
        documentId: second.document.id,
        ...harness.transmission,
      })
    ).next,
    'poll',
  );
  assert.equal(
    (
      await pollDocumentStatus({
        database: harness.database,
        documentId: first.document.id,
        ...harness.transmission,
      })
    ).outcome,
    'accepted',
  );
  assert.equal(
    (
      await pollDocumentStatus({
        database: harness.database,
        documentId: second.document.id,
        ...harness.transmission,
      })
    ).outcome,
    'accepted',
  );
  assert.equal(await harness.receptionsOf(second.document.encf), 1);
});

test('a trackId still in process is asked about again, less and less often', async () => {
  const { document } = await harness.seedSignedDocument({ buyer: '000000003' });
  await transmitSignedDocument({
    database: harness.database,
    documentId: document.id,
    ...harness.transmission,
  });
  const waits: number[] = [];
  for (const elapsedSeconds of [1, 10, 120, 3600]) {
    harness.clock.advanceSeconds(elapsedSeconds);
    const report = await pollDocumentStatus({
      database: harness.database,
      documentId: document.id,
      ...harness.transmission,
    });
    assert.equal(report.next, 'poll');
    waits.push('afterSeconds' in report ? report.afterSeconds : -1);
  }
  assert.ok(
    waits.every((wait, index) => index === 0 || wait >= (waits[index - 1] ?? 0)),
    JSON.stringify(waits),
  );
  assert.ok((waits.at(-1) ?? 0) <= 300);
  assert.equal(
    (await harness.database.document.findUniqueOrThrow({ where: { id: document.id } })).status,
    'sent',
  );
});

test('a result query that fails transiently keeps the document sent; status queries neither open nor close an episode', async () => {
  const { document } = await harness.seedSignedDocument();
  await transmitSignedDocument({
    database: harness.database,
    documentId: document.id,
    ...harness.transmission,
  });
  await harness.addFault({ service: 'consultaresultado', fault: 'http_503', count: 1 });
  const failed = await pollDocumentStatus({
    database: harness.database,
    documentId: document.id,
    ...harness.transmission,
  });
  assert.deepEqual([failed.next, failed.episode], ['poll', undefined]);
  assert.equal(await harness.database.taxauthEpisode.count({ where: { restoredAt: null } }), 0);
  assert.ok('afterSeconds' in failed && failed.afterSeconds >= 60);
  assert.equal(
    (await harness.database.document.findUniqueOrThrow({ where: { id: document.id } })).status,
    'sent',
  );
  const answered = await pollDocumentStatus({
    database: harness.database,
    documentId: document.id,
    ...harness.transmission,
  });
  assert.deepEqual([answered.outcome, answered.episode], ['accepted', undefined]);
});

test('RFCE whose answer was lost: Consulta Estado finds it accepted, nothing is sent again', async () => {
  const { document } = await harness.seedSignedDocument({ encf: newEncf('32') });
  await harness.addFault({ service: 'recepcionfc', fault: 'lose_answer', count: 1 });
  const lost = await transmitSignedDocument({
    database: harness.database,
    documentId: document.id,
    ...harness.transmission,
  });
  assert.equal(lost.next, 'retry');
  harness.clock.advanceSeconds('afterSeconds' in lost ? lost.afterSeconds : 300);
  const resolved = await transmitSignedDocument({
    database: harness.database,
    documentId: document.id,
    ...harness.transmission,
  });
  assert.deepEqual([resolved.next, resolved.outcome], ['done', 'accepted']);
  assert.equal(await harness.receptionsOf(document.encf, 'RFCE'), 1);
  const outcomes = (await harness.eventsOf(document.id))
    .filter((event) => event.type === TRANSMISSION_EVENT_TYPES.OUTCOME)
    .map((event) => event.data as { outcome: string; resolvedBy?: string });
  assert.deepEqual(
    outcomes.map((outcome) => outcome.outcome),
    ['unknown', 'accepted'],
  );
  assert.equal(outcomes[1]?.resolvedBy, 'consultaestado');
});
