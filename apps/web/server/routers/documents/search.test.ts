// The issued list's search (issue 27) against the real database: an e-NCF prefix in any case, an
// exact TrackId, the buyer's RNC, an amount range as decimal text, the capped total, the previous
// page, the REST API's cursors unchanged; and "Ir a e-NCF o TrackId" across environments and kinds.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { findIssuedDocuments, ISSUED_COUNT_CAP, ZIssuedSearchQuery } from '@ecf/services';
import { seedIssuedDocument } from '../../../test/document-fixtures.ts';
import {
  callerOf,
  openPortalHarness,
  seedWorld,
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

/** Six documents a minute apart (E310000000101..106, the last the newest), two buyers, amounts 100.10..600.60. */
async function seedSix(tenantId: string) {
  const base = Date.parse('2026-11-20T12:00:00Z');
  const documents = [];
  for (let index = 1; index <= 6; index += 1)
    documents.push(
      await seedIssuedDocument(harness.database, {
        tenantId,
        encf: `E3100000001${String(index).padStart(2, '0')}`,
        buyerRnc: index % 2 === 0 ? '131234567' : '40212345678',
        trackId: `track-${tenantId.slice(0, 8)}-${index}`,
        totalAmount: `${index}00.${index}0`,
        submittedAt: new Date(base + index * 60_000),
      }),
    );
  return documents;
}

test('search: e-NCF prefix in any case, exact TrackId, buyer RNC (dashes allowed), amount range; totals; bad text refused', async () => {
  const world = await seedWorld(harness.database);
  const documents = await seedSix(world.tenant.id);
  // Another tenant's document with the same e-NCF never shows.
  await seedIssuedDocument(harness.database, { tenantId: world.otherTenant.id, encf: 'E310000000101' });
  const accountant = callerOf(harness, world.sessions.accountant);
  const list = (search: Record<string, string>) =>
    accountant.documents.list({ environment: 'TesteCF', query: {}, search });
  const encfs = (page: { items: { encf: string }[] }) => page.items.map((item) => item.encf);

  const prefix = await list({ q: 'e31000000010' });
  assert.deepEqual(encfs(prefix), [
    'E310000000106',
    'E310000000105',
    'E310000000104',
    'E310000000103',
    'E310000000102',
    'E310000000101',
  ]);
  assert.deepEqual(prefix.total, { count: 6, capped: false });
  assert.deepEqual(encfs(await list({ q: 'E310000000103' })), ['E310000000103']);
  assert.deepEqual(encfs(await list({ q: 'E32' })), []);

  const byTrackId = await list({ q: documents[3]!.trackId! });
  assert.deepEqual(encfs(byTrackId), ['E310000000104']);

  const byRnc = await list({ q: '131-23456-7' });
  assert.deepEqual(encfs(byRnc), ['E310000000106', 'E310000000104', 'E310000000102']);
  assert.deepEqual(byRnc.total, { count: 3, capped: false });
  assert.deepEqual(encfs(await list({ q: '40212345678' })), [
    'E310000000105',
    'E310000000103',
    'E310000000101',
  ]);

  // Bounds are inclusive and exact to the cent: 200.20 is in, 500.49 keeps 500.50 out.
  const range = await list({ amountMin: '200.20', amountMax: '500.49' });
  assert.deepEqual(encfs(range), ['E310000000104', 'E310000000103', 'E310000000102']);
  assert.deepEqual(encfs(await list({ amountMin: '1,000' })), []);
  // Search and the REST API's filters combine.
  assert.deepEqual(
    encfs(
      await accountant.documents.list({
        environment: 'TesteCF',
        query: { status: 'queued_for_signing' },
        search: { q: '131234567', amountMax: '400.40' },
      }),
    ),
    ['E310000000104', 'E310000000102'],
  );

  // Any other text of 3 or more characters is part of the buyer's name (0024's column).
  assert.deepEqual(encfs(await list({ q: 'nombre con espacios' })), []);
  const refused: Record<string, string>[] = [
    { q: 'ab' },
    { q: '12345' },
    { amountMin: '1.005' },
    { amountMin: '5', amountMax: '4.99' },
    // Found by the contract fuzzer: a range end that is not an amount is a bad input, not a crash.
    { amountMin: 'sGBJowEog2zCmQ7lVcqrSk', amountMax: '5' },
    { amountMin: '5', amountMax: '1e3' },
  ];
  for (const search of refused)
    assert.equal(await codeOf(list(search)), 'BAD_REQUEST', JSON.stringify(search));
  assert.equal(
    ZIssuedSearchQuery.safeParse({ amountMin: '5', amountMax: '4.99' }).error?.issues[0]?.message,
    'El monto mínimo no puede ser mayor que el máximo.',
  );
  assert.equal(ISSUED_COUNT_CAP, 10_000);
});

test('paging: next and previous pages with their cursors, the search kept; the REST API cursor stays valid without search', async () => {
  const world = await seedWorld(harness.database);
  await seedSix(world.tenant.id);
  const owner = callerOf(harness, world.sessions.owner);
  const encfs = (page: { items: { encf: string }[] }) => page.items.map((item) => item.encf.slice(-1));
  const search = { q: 'E31' };
  const first = await owner.documents.list({ environment: 'TesteCF', query: { limit: '2' }, search });
  assert.deepEqual(encfs(first), ['6', '5']);
  assert.equal(first.previousCursor, null);
  assert.deepEqual(first.total, { count: 6, capped: false });
  const second = await owner.documents.list({
    environment: 'TesteCF',
    query: { limit: '2', cursor: first.nextCursor! },
    search,
  });
  assert.deepEqual(encfs(second), ['4', '3']);
  assert.ok(second.previousCursor);
  const third = await owner.documents.list({
    environment: 'TesteCF',
    query: { limit: '2', cursor: second.nextCursor! },
    search,
  });
  assert.deepEqual(encfs(third), ['2', '1']);
  assert.equal(third.nextCursor, null);
  // Back from the third page: the second again, then the first (no previous page before it).
  const back = await owner.documents.list({
    environment: 'TesteCF',
    query: { limit: '2' },
    search: { ...search, before: third.previousCursor! },
  });
  assert.deepEqual(encfs(back), ['4', '3']);
  assert.ok(back.nextCursor);
  const backAgain = await owner.documents.list({
    environment: 'TesteCF',
    query: { limit: '2' },
    search: { ...search, before: back.previousCursor! },
  });
  assert.deepEqual(encfs(backAgain), ['6', '5']);
  assert.equal(backAgain.previousCursor, null);
  // A cursor of the searched list does not page the unsearched one.
  assert.equal(
    await codeOf(
      owner.documents.list({ environment: 'TesteCF', query: { limit: '2', cursor: first.nextCursor! } }),
    ),
    'BAD_REQUEST',
  );
  // Without search, the portal's cursor is still the REST API's.
  const plain = await owner.documents.list({ environment: 'TesteCF', query: { limit: '2' } });
  const viaApi = await findIssuedDocuments({
    database: harness.database,
    tenantId: world.tenant.id,
    environment: 'TesteCF',
    filters: {},
    limit: 2,
    cursor: plain.nextCursor!,
    cursorSecret: TEST_CURSOR_SECRET,
  });
  assert.deepEqual(
    viaApi.items.map((item) => item.encf.slice(-1)),
    ['4', '3'],
  );
});

test('Ir a e-NCF o TrackId: issued by e-NCF (any case) or TrackId in any environment, received by e-NCF, nothing of another tenant', async () => {
  const world = await seedWorld(harness.database);
  const issued = await seedIssuedDocument(harness.database, {
    tenantId: world.tenant.id,
    environment: 'CerteCF',
    encf: 'E310000000777',
    trackId: `locate-${world.tenant.id}`,
  });
  const received = await harness.database.inboundDocument.create({
    data: {
      tenantId: world.tenant.id,
      environment: 'eCF',
      kind: 'ecf',
      status: 'received',
      issuerRnc: '131234567',
      encf: 'E310000000888',
      ecfType: 31,
    },
  });
  const foreign = await seedIssuedDocument(harness.database, {
    tenantId: world.otherTenant.id,
    encf: 'E310000000999',
  });
  const accountant = callerOf(harness, world.sessions.accountant);
  assert.deepEqual(
    (await accountant.documents.locate({ reference: 'e310000000777', environment: 'TesteCF' })).matches,
    [
      {
        kind: 'issued',
        environment: 'CerteCF',
        encf: 'E310000000777',
        href: `/CerteCF/documents/${issued.id}`,
      },
    ],
  );
  assert.deepEqual(
    (await accountant.documents.locate({ reference: ` locate-${world.tenant.id} ` })).matches.map(
      (match) => match.href,
    ),
    [`/CerteCF/documents/${issued.id}`],
  );
  assert.deepEqual(
    (await accountant.documents.locate({ reference: 'E310000000888' })).matches.map((match) => match.href),
    [`/eCF/received/${received.id}`],
  );
  assert.deepEqual((await accountant.documents.locate({ reference: foreign.encf })).matches, []);
  assert.equal(await codeOf(accountant.documents.locate({ reference: '  ' })), 'BAD_REQUEST');
});

test('the total stops counting past the cap: 10,001 documents are "more than 10,000"', async () => {
  const world = await seedWorld(harness.database);
  const base = Date.parse('2026-11-01T12:00:00Z');
  // One statement (Prisma's createMany of 10,001 rows took seconds of CPU): E320000000000…, one a second.
  await harness.database.$executeRaw`
    INSERT INTO "documents" ("id", "tenant_id", "environment", "type", "encf", "status", "format",
      "issue_date", "total_amount", "submitted_payload", "submitted_at", "updated_at")
    SELECT gen_random_uuid(), ${world.tenant.id}::uuid, 'TesteCF'::"Environment", 32,
      'E32' || lpad(i::text, 10, '0'), 'accepted'::"DocumentStatus", 'simplified'::"SubmissionFormat",
      DATE '2026-11-01', 10.00, '{}'::jsonb, ${new Date(base)}::timestamptz + i * interval '1 second', now()
    FROM generate_series(0, ${ISSUED_COUNT_CAP}::int) AS i`;
  const owner = callerOf(harness, world.sessions.owner);
  const all = await owner.documents.list({ environment: 'TesteCF', query: { limit: '10' } });
  assert.deepEqual(all.total, { count: ISSUED_COUNT_CAP, capped: true });
  assert.equal(all.items.length, 10);
  // A narrower prefix (E3200000099xx) is counted exactly.
  const narrow = await owner.documents.list({
    environment: 'TesteCF',
    query: {},
    search: { q: 'E3200000099' },
  });
  assert.deepEqual(narrow.total, { count: 100, capped: false });
});
