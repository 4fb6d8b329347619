// The documents and Try it procedures against the real database: the API's list (filters, the same
// cursor), a document's page data, another tenant's document id, and Try it's preflight, emission
// (with its real pg-boss job) and status.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { findIssuedDocuments } from '@ecf/services';
import { brokenTryItJson, seedIssuedDocument, validTryItJson } from '../../../test/document-fixtures.ts';
import {
  callerOf,
  openPortalHarness,
  seedWorld,
  sessionOf,
  TEST_CURSOR_SECRET,
  type TPortalHarness,
  codeOf,
} from '../../../test/portal-harness.ts';

let harness: TPortalHarness;
before(async () => {
  harness = await openPortalHarness();
});
after(async () => {
  await harness.close();
});

test("the list is the API's: its filters, newest first, totals as decimal text, and a cursor the API's use-case accepts too", async () => {
  const world = await seedWorld(harness.database);
  const base = Date.parse('2026-11-20T12:00:00Z');
  for (let index = 0; index < 5; index += 1)
    await seedIssuedDocument(harness.database, {
      tenantId: world.tenant.id,
      status: index % 2 === 0 ? 'accepted' : 'rejected',
      totalAmount: `${1000 + index}.10`,
      submittedAt: new Date(base + index * 60_000),
    });
  await seedIssuedDocument(harness.database, { tenantId: world.otherTenant.id, status: 'accepted' });
  const accountant = callerOf(harness, world.sessions.accountant);
  const first = await accountant.documents.list({
    environment: 'TesteCF',
    query: { status: 'accepted', limit: '2' },
  });
  assert.deepEqual(
    first.items.map((item) => [item.status, item.totalAmount]),
    [
      ['accepted', '1004.10'],
      ['accepted', '1002.10'],
    ],
  );
  assert.ok(first.nextCursor);
  const second = await accountant.documents.list({
    environment: 'TesteCF',
    query: { status: 'accepted', limit: '2', cursor: first.nextCursor },
  });
  assert.deepEqual(
    second.items.map((item) => item.totalAmount),
    ['1000.10'],
  );
  assert.equal(second.nextCursor, null);
  // The same cursor works for the API's use-case (same secret, same binding).
  const viaApi = await findIssuedDocuments({
    database: harness.database,
    tenantId: world.tenant.id,
    environment: 'TesteCF',
    filters: { status: 'accepted' },
    limit: 2,
    cursor: first.nextCursor,
    cursorSecret: TEST_CURSOR_SECRET,
  });
  assert.deepEqual(
    viaApi.items.map((item) => item.documentId),
    second.items.map((item) => item.documentId),
  );
  // A cursor of another filter set, and bad filters, are refused as the API refuses them.
  assert.equal(
    await codeOf(
      accountant.documents.list({
        environment: 'TesteCF',
        query: { status: 'rejected', cursor: first.nextCursor },
      }),
    ),
    'BAD_REQUEST',
  );
  for (const query of [
    { status: 'done' },
    { type: 'E99' },
    { issueDateFrom: '2026-13-01' },
    { limit: '500' },
  ])
    assert.equal(
      await codeOf(accountant.documents.list({ environment: 'TesteCF', query } as never)),
      'BAD_REQUEST',
    );
});

test("another tenant's document id is NOT_FOUND for the page and Try it's status, as an id that exists nowhere", async () => {
  const world = await seedWorld(harness.database);
  const document = await seedIssuedDocument(harness.database, { tenantId: world.tenant.id });
  const intruder = callerOf(
    harness,
    await sessionOf(harness.database, world.otherOwner.id, world.otherTenant.id),
  );
  for (const documentId of [document.id, '00000000-0000-4000-8000-000000000000']) {
    assert.equal(await codeOf(intruder.documents.get({ environment: 'TesteCF', documentId })), 'NOT_FOUND');
    assert.equal(await codeOf(intruder.tryIt.status({ documentId })), 'NOT_FOUND');
  }
  // In another environment it is not found either.
  const owner = callerOf(harness, world.sessions.owner);
  assert.equal(
    await codeOf(owner.documents.get({ environment: 'eCF', documentId: document.id })),
    'NOT_FOUND',
  );
  const details = await owner.documents.get({ environment: 'TesteCF', documentId: document.id });
  assert.equal(details.document.encf, document.encf);
  assert.equal(details.document.isPrintable, false);
});

test('Try it: preflight errors on their fields, an emission stored with its document.sign job, a replay, and the live status', async () => {
  const world = await seedWorld(harness.database);
  const developer = callerOf(harness, world.sessions.developer);
  const broken = await developer.tryIt.preflight({ json: brokenTryItJson() });
  assert.equal(broken.ok, false);
  assert.ok(!broken.ok);
  assert.ok(
    broken.errors.some(
      (issue) => issue.path === 'lines[0].unitPrice' && issue.code === 'DECIMAL_FORMAT_INVALID',
    ),
    JSON.stringify(broken.errors),
  );
  assert.equal((await developer.tryIt.preflight({ json: '{"type": ' })).ok, false);
  const json = validTryItJson();
  const valid = await developer.tryIt.preflight({ json });
  assert.equal(valid.ok, true, JSON.stringify(valid));
  assert.equal(await harness.database.document.count({ where: { tenantId: world.tenant.id } }), 0);

  const emitted = await developer.tryIt.emit({ json });
  assert.ok(emitted.ok, JSON.stringify(emitted));
  assert.equal(emitted.outcome, 'created');
  assert.equal(emitted.status, 'queued_for_signing');
  const stored = await harness.database.document.findUniqueOrThrow({ where: { id: emitted.documentId } });
  assert.equal(stored.environment, 'TesteCF');
  const jobs = await harness.database.$queryRaw<{ count: bigint }[]>`
    SELECT count(*) AS count FROM pgboss.job WHERE name = 'document.sign' AND data->>'documentId' = ${emitted.documentId}`;
  assert.equal(Number(jobs[0]?.count), 1);

  const again = await developer.tryIt.emit({ json });
  assert.ok(again.ok);
  assert.equal(again.outcome, 'replayed');
  assert.equal(again.documentId, emitted.documentId);
  const conflict = await developer.tryIt.emit({ json: json.replace('Cemento', 'Arena') });
  assert.ok(!conflict.ok);
  assert.deepEqual(
    conflict.errors.map((issue) => [issue.path, issue.code]),
    [['encf', 'ENCF_CONFLICT']],
  );

  const status = await developer.tryIt.status({ documentId: emitted.documentId });
  assert.equal(status.status, 'queued_for_signing');
  assert.equal(status.isFinal, false);
  assert.deepEqual(
    status.timeline.map((entry) => entry.type),
    ['submitted'],
  );
});
