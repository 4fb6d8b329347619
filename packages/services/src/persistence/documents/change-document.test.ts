import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedDocument, seedTenant, sqlPoolOf } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { changeDocument, type TDocumentChange } from './change-document.ts';
import { openEpisode } from '../transmission/episodes.ts';
import { artifactInput } from '../statements.ts';
import { statementTexts } from '../../../test/statement-texts.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await context.close();
});

test('changeDocument: changes of every shape arriving together are one statement, the same text as a change alone', async () => {
  const { database } = context;
  const pool = sqlPoolOf(database);
  const tenant = await seedTenant(database);
  const seeds = await Promise.all(
    [
      ['E310000009401', 'signed', undefined],
      ['E310000009402', 'queued_for_signing', { code: 'CERTIFICATE_MISSING', message: 'x' }],
      ['E310000009403', 'queued_for_signing', { code: 'OTHER', message: 'y' }],
      ['E310000009404', 'sent', undefined],
      ['E310000009405', 'signed', undefined],
    ].map(([encf, status, lastError]) =>
      seedDocument(database, {
        tenantId: tenant.id,
        encf: encf as string,
        status: status as 'signed',
        ...(lastError === undefined ? {} : { lastError: lastError }),
      }),
    ),
  );
  const [sending, repeated, newProblem, polled, stale] = seeds.map((seed) => seed.id) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const at = new Date('2026-11-28T10:00:00.000Z');
  // One open episode per environment: the second is another environment's.
  for (const [environment, service, degraded] of [
    ['TesteCF', 'recepcion', '2026-11-28T09:00:00.000Z'],
    ['CerteCF', 'recepcionfc', '2026-11-28T09:30:00.000Z'],
  ] as const)
    assert.equal(
      await openEpisode(pool, { environment, service, code: 'TAXAUTH_UNAVAILABLE', at: new Date(degraded) }),
      true,
    );
  const problem = { code: 'CERTIFICATE_MISSING', message: 'no certificate' };
  const changes: TDocumentChange[] = [
    {
      documentId: sending,
      from: ['signed', 'contingency'],
      attempts: 0,
      set: { attempts: 1, track_id: 'track-1', last_error: null },
      events: [{ type: 'transmission_attempt', data: { n: 1 }, at }],
      // The earlier of two requests closing the same episode: the other one closes it.
      closeEpisode: {
        environment: 'TesteCF',
        service: 'recepcion',
        requestedAt: new Date('2026-11-28T09:40:00.000Z'),
        at,
      },
    },
    {
      documentId: repeated,
      from: ['queued_for_signing'],
      set: { last_error: problem },
      events: [{ type: 'signing_failed', data: { again: true }, at }],
      eventsUnlessLastErrorCode: problem.code,
    },
    {
      documentId: newProblem,
      from: ['queued_for_signing'],
      set: { last_error: problem, last_deferred_at: at },
      events: [{ type: 'signing_failed', data: { again: false }, at }],
      eventsUnlessLastErrorCode: problem.code,
    },
    {
      documentId: polled,
      from: ['sent'],
      set: {
        status: 'accepted',
        taxauth_messages: [{ codigo: 1, valor: 'Aceptado' }],
        security_code: 'abc123',
      },
      artifacts: [
        artifactInput({
          tenantId: tenant.id,
          documentId: polled,
          kind: 'taxauth_response',
          contentType: 'application/json',
          content: Buffer.from([0, 1, 2, 255]),
          createdAt: at,
        }),
      ],
      events: [
        { type: 'status_polled', data: {}, at },
        { type: 'accepted', fromStatus: 'sent', toStatus: 'accepted', data: { trackId: 't' }, at },
      ],
      closeEpisode: {
        environment: 'TesteCF',
        service: 'recepcion',
        requestedAt: new Date('2026-11-28T09:50:00.000Z'),
        at,
      },
    },
    {
      documentId: stale,
      from: ['signed'],
      attempts: 5,
      set: { attempts: 6 },
      events: [{ type: 'transmission_attempt', data: {}, at }],
      // Its guard fails; its episode still closes.
      closeEpisode: { environment: 'CerteCF', service: 'recepcionfc', requestedAt: at, at },
    },
  ];
  const { result, texts } = await statementTexts(pool, () =>
    Promise.all(changes.map((change) => changeDocument(pool, change))),
  );
  assert.equal(texts.length, 1, 'one statement for the five changes');
  assert.deepEqual(result, [
    { moved: true, restored: false },
    { moved: true, restored: false },
    { moved: true, restored: false },
    { moved: true, restored: true },
    { moved: false, restored: true },
  ]);
  const alone = await statementTexts(pool, () =>
    changeDocument(pool, { documentId: polled, from: ['accepted'], set: {} }),
  );
  assert.deepEqual(alone.texts, texts, 'a change alone is the same statement (planned once per connection)');

  const stored = new Map(
    (await database.document.findMany({ where: { id: { in: seeds.map((seed) => seed.id) } } })).map((row) => [
      row.id,
      row,
    ]),
  );
  const log = async (id: string) =>
    (await database.documentEvent.findMany({ where: { documentId: id }, orderBy: { id: 'asc' } })).map(
      (event) => event.type,
    );
  // Set columns changed; the others kept their values.
  assert.equal(stored.get(sending)?.attempts, 1);
  assert.equal(stored.get(sending)?.trackId, 'track-1');
  assert.equal(stored.get(sending)?.status, 'signed');
  assert.deepEqual(await log(sending), ['transmission_attempt']);
  // The same problem again: the row is written, its events are not.
  assert.deepEqual(stored.get(repeated)?.lastError, problem);
  assert.deepEqual(await log(repeated), []);
  assert.deepEqual(stored.get(newProblem)?.lastError, problem);
  assert.equal(stored.get(newProblem)?.lastDeferredAt?.toISOString(), at.toISOString());
  assert.deepEqual(await log(newProblem), ['signing_failed']);
  assert.equal(stored.get(polled)?.status, 'accepted');
  assert.equal(stored.get(polled)?.securityCode, 'abc123');
  assert.deepEqual(stored.get(polled)?.taxauthMessages, [{ codigo: 1, valor: 'Aceptado' }]);
  assert.deepEqual(await log(polled), ['status_polled', 'accepted']);
  const [artifact] = await database.artifact.findMany({ where: { documentId: polled } });
  assert.deepEqual([...(artifact?.content ?? [])], [0, 1, 2, 255], 'binary content kept byte for byte');
  assert.equal(stored.get(stale)?.attempts, 0);
  assert.deepEqual(await log(stale), []);
  const episodes = await database.taxauthEpisode.findMany({
    where: { degradedSince: { gte: new Date('2026-11-28T09:00:00.000Z') } },
    orderBy: { service: 'asc' },
  });
  assert.deepEqual(
    episodes.map((episode) => [episode.service, episode.restoredAt?.toISOString()]),
    [
      ['recepcion', at.toISOString()],
      ['recepcionfc', at.toISOString()],
    ],
  );
});
