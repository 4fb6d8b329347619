// What closes an outage episode (see episodes.ts): a reception of the episode's own service whose
// request left at or after the episode opened; nothing else.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedDocument, seedTenant, sqlPoolOf } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { changeDocument } from '../documents/change-document.ts';
import { closeEpisode, openEpisode } from './episodes.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await context.close();
});

const opened = new Date('2026-11-22T09:00:00.000Z');
const before_ = new Date('2026-11-22T08:59:59.000Z');
const later = new Date('2026-11-22T09:05:00.000Z');

test('an episode closes only with a reception of its own service that left after it opened', async () => {
  const pool = sqlPoolOf(context.database);
  assert.equal(
    await openEpisode(pool, {
      environment: 'CerteCF',
      service: 'recepcion',
      code: 'TAXAUTH_UNAVAILABLE',
      at: opened,
    }),
    true,
  );
  assert.equal(
    await openEpisode(pool, {
      environment: 'CerteCF',
      service: 'recepcionfc',
      code: 'TAXAUTH_UNAVAILABLE',
      at: later,
    }),
    false,
    'one open episode per environment',
  );
  // A straggler: the reception answered now, but its request left before the outage began.
  assert.equal(
    await closeEpisode(pool, {
      environment: 'CerteCF',
      service: 'recepcion',
      requestedAt: before_,
      at: later,
    }),
    false,
  );
  // Another service answering (the RFCE reception) is no evidence for the e-CF reception.
  assert.equal(
    await closeEpisode(pool, {
      environment: 'CerteCF',
      service: 'recepcionfc',
      requestedAt: later,
      at: later,
    }),
    false,
  );
  // Another environment's reception neither.
  assert.equal(
    await closeEpisode(pool, { environment: 'eCF', service: 'recepcion', requestedAt: later, at: later }),
    false,
  );
  assert.equal(await context.database.taxauthEpisode.count({ where: { restoredAt: null } }), 1);
  assert.equal(
    await closeEpisode(pool, {
      environment: 'CerteCF',
      service: 'recepcion',
      requestedAt: opened,
      at: later,
    }),
    true,
  );
  const [episode] = await context.database.taxauthEpisode.findMany({ where: { environment: 'CerteCF' } });
  assert.equal(episode?.service, 'recepcion');
  assert.deepEqual(episode?.restoredAt, later);
});

test('concurrent closes (coalesced on the pool, or in one statement of changes): the latest request decides', async () => {
  const pool = sqlPoolOf(context.database);
  await openEpisode(pool, { environment: 'eCF', service: 'recepcion', code: 'TAXAUTH_TIMEOUT', at: opened });
  const closes = await Promise.all(
    [before_, later, before_].map((requestedAt) =>
      closeEpisode(pool, { environment: 'eCF', service: 'recepcion', requestedAt, at: later }),
    ),
  );
  assert.deepEqual(closes, [false, true, false]);

  // The same through changeDocument: writes of one flush share a statement; the episode closes once.
  await openEpisode(pool, { environment: 'eCF', service: 'recepcion', code: 'TAXAUTH_TIMEOUT', at: later });
  const tenant = await seedTenant(context.database);
  const documents = await Promise.all(
    ['E310000009101', 'E310000009102'].map((encf) =>
      seedDocument(context.database, { tenantId: tenant.id, encf, status: 'signed' }),
    ),
  );
  const afterwards = new Date(later.getTime() + 60_000);
  const results = await Promise.all(
    documents.map((document, index) =>
      changeDocument(pool, {
        documentId: document.id,
        from: ['signed'],
        set: { status: 'sent' },
        closeEpisode: {
          environment: 'eCF',
          service: 'recepcion',
          requestedAt: index === 0 ? before_ : afterwards,
          at: afterwards,
        },
      }),
    ),
  );
  assert.deepEqual(results, [
    { moved: true, restored: false },
    { moved: true, restored: true },
  ]);
  assert.equal(await context.database.taxauthEpisode.count({ where: { restoredAt: null } }), 0);
});
