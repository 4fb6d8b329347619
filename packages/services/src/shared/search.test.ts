// The portal's searches of issue 27's second part against the real database: the buyer's name
// written on submit and backfilled by 0024_search_names, the issued list's name search, "Recibidos"
// (e-NCF prefix, supplier's RNC or name, amount range, total, previous page, the REST API's cursors
// unchanged), annulments by e-NCF, and the account searches of support and Partners.
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { loadXsdValidators, OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { MIGRATIONS_DIRECTORY, seedInbound, seedTenant, sqlPoolOf, type TDatabase } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import type { TXsdValidators } from '@ecf/fiscal-core';
import { searchTenants } from '../accounts/search-tenants.ts';
import { annulmentEncfSearchOf, searchAnnulments } from '../annulments/search-annulments.ts';
import { issuedSearchFiltersOf, searchIssuedDocuments } from '../documents/search-issued-documents.ts';
import { issueDocument } from '../emission/issue-document.ts';
import { findReceivedDocuments } from '../inbound/find-received-documents.ts';
import { ZReceivedListQuery } from '@ecf/contract';
import { searchReceivedDocuments, ZReceivedSearchQuery } from '../inbound/search-received-documents.ts';
import { findFiscalAccounts } from '../partners/find-fiscal-accounts.ts';
import { reserveAnnulment } from '../persistence/index.ts';
import { accountSearchOf, NAME_SEARCH_COUNT_CAP, nameSearchOf } from './search-text.ts';

const SECRET = 'search-test-cursor-secret-0123456789';
let context: Awaited<ReturnType<typeof openTestDatabase>>;
let database: TDatabase;
let xsd: TXsdValidators;
before(async () => {
  context = await openTestDatabase();
  database = context.database;
  xsd = await loadXsdValidators(OFFICIAL_XSD_DIRECTORY);
});
after(async () => {
  xsd.dispose();
  await context.close();
});

let nextNumber = randomInt(1, 1_000_000_000);
const freshEncf = (type = '31') => `E${type}${String((nextNumber += 1)).padStart(10, '0')}`;

async function emit(
  tenant: { id: string } & Parameters<typeof issueDocument>[0]['tenant'],
  buyerName: string,
) {
  const body = {
    type: 'E31',
    encf: freshEncf(),
    sequenceExpirationDate: '31-12-2027',
    issueDate: '2026-04-01',
    buyer: { rnc: '101672919', name: buyerName },
    paymentType: 'card',
    incomeType: '01',
    lines: [{ name: 'Artículo', quantity: 1, unitPrice: '450.00', itbisRate: 18, itemKind: 'good' }],
  };
  return issueDocument({
    database,
    tenant,
    environment: 'TesteCF',
    xsd,
    now: new Date('2026-04-01T14:15:00Z'),
    rawBody: JSON.stringify(body),
    body,
    enqueue: async () => {},
  });
}

async function issuedSearch(tenantId: string, q: string) {
  const page = await searchIssuedDocuments({
    database,
    tenantId,
    environment: 'TesteCF',
    filters: issuedSearchFiltersOf({ q }),
    limit: 50,
    cursorSecret: SECRET,
  });
  return page.items.map((item) => item.encf);
}

test('submit stores the buyer name; the name search is contains, any case, wildcards literal', async () => {
  const tenant = await seedTenant(database);
  const pinos = await emit(tenant, 'Ferretería Los Pinos SRL');
  const percent = await emit(tenant, 'Descuento 50% SRL');
  const underscore = await emit(tenant, 'Mega_Tienda');
  const other = await seedTenant(database);
  await emit(other, 'Ferretería Los Pinos SRL');
  const stored = await database.document.findUniqueOrThrow({ where: { id: pinos.document.id } });
  assert.equal(stored.buyerName, 'Ferretería Los Pinos SRL');

  assert.deepEqual(await issuedSearch(tenant.id, 'los pinos'), [pinos.document.encf]);
  assert.deepEqual(await issuedSearch(tenant.id, '  FERRETERÍA   LOS '), [pinos.document.encf]);
  // `%` and `_` are letters of the name, never wildcards.
  assert.deepEqual(await issuedSearch(tenant.id, '50%'), [percent.document.encf]);
  assert.deepEqual(await issuedSearch(tenant.id, 'a_t'), [underscore.document.encf]);
  assert.deepEqual(await issuedSearch(tenant.id, 'a%t'), []);
  // One word is a TrackId or a name: both are searched.
  await database.document.update({ where: { id: percent.document.id }, data: { trackId: 'Pinos-track-1' } });
  assert.deepEqual(
    new Set(await issuedSearch(tenant.id, 'Pinos')),
    new Set([pinos.document.encf]),
    'a part of a TrackId is not a TrackId',
  );
  assert.deepEqual(await issuedSearch(tenant.id, 'Pinos-track-1'), [percent.document.encf]);
  assert.equal(nameSearchOf('ab'), null);

  // A name search counts up to 1,000 ("más de 1,000"), every other search up to 10,000.
  await database.document.createMany({
    data: Array.from({ length: NAME_SEARCH_COUNT_CAP + 1 }, () => ({
      tenantId: tenant.id,
      environment: 'TesteCF' as const,
      type: 32,
      encf: freshEncf('32'),
      format: 'simplified' as const,
      issueDate: new Date('2026-04-01'),
      totalAmount: '10.00',
      buyerName: 'CONSUMIDOR FINAL',
      submittedPayload: {},
    })),
  });
  const anonymous = await searchIssuedDocuments({
    database,
    tenantId: tenant.id,
    environment: 'TesteCF',
    filters: issuedSearchFiltersOf({ q: 'consumidor final' }),
    limit: 10,
    cursorSecret: SECRET,
  });
  assert.deepEqual(anonymous.total, { count: NAME_SEARCH_COUNT_CAP, capped: true });
  const byPrefix = await searchIssuedDocuments({
    database,
    tenantId: tenant.id,
    environment: 'TesteCF',
    filters: issuedSearchFiltersOf({ q: 'E32' }),
    limit: 10,
    cursorSecret: SECRET,
  });
  assert.deepEqual(byPrefix.total, { count: NAME_SEARCH_COUNT_CAP + 1, capped: false });
});

test('0024 backfills buyer_name from the submitted event, else from either payload shape', async () => {
  const tenant = await seedTenant(database);
  const fromEvent = await emit(tenant, 'Colmado El Sol');
  const taxauth = await database.document.create({
    data: {
      tenantId: tenant.id,
      environment: 'TesteCF',
      type: 31,
      encf: freshEncf(),
      format: 'taxauth_json',
      issueDate: new Date('2026-04-01'),
      totalAmount: '10.00',
      submittedPayload: { ECF: { Encabezado: { Comprador: { RazonSocialComprador: 'Banca La Suerte' } } } },
    },
  });
  const simplified = await database.document.create({
    data: {
      tenantId: tenant.id,
      environment: 'TesteCF',
      type: 31,
      encf: freshEncf(),
      format: 'simplified',
      issueDate: new Date('2026-04-01'),
      totalAmount: '10.00',
      submittedPayload: { buyer: { name: 'Farmacia Carol' } },
    },
  });
  await sqlPoolOf(database).query(`UPDATE documents SET buyer_name = NULL WHERE tenant_id = $1::uuid`, [
    tenant.id,
  ]);
  const migration = readFileSync(
    path.join(MIGRATIONS_DIRECTORY, '0024_search_names', 'migration.sql'),
    'utf8',
  );
  const backfill = /UPDATE "documents" d[\s\S]*?;/.exec(migration)?.[0];
  assert.ok(backfill, 'the migration holds the backfill');
  await sqlPoolOf(database).query(backfill);
  const names = await database.document.findMany({
    where: { id: { in: [fromEvent.document.id, taxauth.id, simplified.id] } },
    select: { id: true, buyerName: true },
  });
  const nameOf = (id: string) => names.find((row) => row.id === id)?.buyerName;
  assert.equal(nameOf(fromEvent.document.id), 'Colmado El Sol');
  assert.equal(nameOf(taxauth.id), 'Banca La Suerte');
  assert.equal(nameOf(simplified.id), 'Farmacia Carol');
  const indexes = await sqlPoolOf(database).query<{ indexname: string }>(
    `SELECT indexname FROM pg_indexes WHERE indexname IN ('documents_search_buyer_name_idx', 'inbound_documents_search_issuer_name_idx')`,
  );
  assert.equal(indexes.rows.length, 2, 'pg_trgm is available here, so both trigram indexes exist');
});

test('Recibidos: e-NCF prefix, supplier RNC or name, amount range, total, previous page; the API cursor unchanged', async () => {
  const tenant = await seedTenant(database);
  const base = Date.parse('2026-11-20T12:00:00Z');
  const suppliers = ['Distribuidora Corripio', 'Ferretería Ochoa', 'distribuidora del Caribe'];
  for (let index = 1; index <= 6; index += 1)
    await seedInbound(database, {
      tenantId: tenant.id,
      encf: `E${index % 2 === 0 ? '31' : '33'}00000001${String(index).padStart(2, '0')}`,
      issuerRnc: index % 3 === 0 ? '131880681' : '101010101',
      issuerName: suppliers[index % 3],
      totalAmount: `${index}00.${index}0`,
      receivedAt: new Date(base + index * 60_000),
    });
  await seedInbound(database, {
    tenantId: (await seedTenant(database)).id,
    issuerName: 'Distribuidora Corripio',
  });
  const search = async (values: Record<string, string>, query: Record<string, string> = {}) =>
    searchReceivedDocuments({
      database,
      tenantId: tenant.id,
      environment: 'TesteCF',
      query: ZReceivedListQuery.parse(query),
      search: ZReceivedSearchQuery.parse(values),
      cursorSecret: SECRET,
    });
  const encfs = (page: { items: { encf: string }[] }) => page.items.map((item) => item.encf.slice(-1));

  assert.deepEqual(encfs(await search({ q: 'e31' })), ['6', '4', '2']);
  assert.deepEqual(encfs(await search({ q: 'E3300000001' })), ['5', '3', '1']);
  assert.deepEqual(encfs(await search({ q: '131-88068-1' })), ['6', '3']);
  const byName = await search({ q: 'DISTRIBUIDORA' });
  // Corripio (3, 6) and del Caribe (2, 5): any letter case.
  assert.deepEqual(encfs(byName), ['6', '5', '3', '2']);
  assert.deepEqual(byName.total, { count: 4, capped: false });
  assert.deepEqual(encfs(await search({ q: 'caribe', amountMin: '200.20', amountMax: '500.50' })), [
    '5',
    '2',
  ]);
  assert.deepEqual(encfs(await search({ q: 'E31' }, { group: 'not_received' })), []);
  for (const refused of [{ q: 'ab' }, { q: '12345' }, { amountMin: '5', amountMax: '4' }])
    assert.equal(ZReceivedSearchQuery.safeParse(refused).success, false, JSON.stringify(refused));

  // Pages of two: forward to the end, back to the start.
  const first = await search({ q: 'distribuidora' }, { limit: '2' });
  assert.deepEqual(encfs(first), ['6', '5']);
  assert.equal(first.previousCursor, null);
  const second = await search({ q: 'distribuidora' }, { limit: '2', cursor: first.nextCursor! });
  assert.deepEqual(encfs(second), ['3', '2']);
  assert.equal(second.nextCursor, null);
  const back = await search({ q: 'distribuidora', before: second.previousCursor! }, { limit: '2' });
  assert.deepEqual(encfs(back), ['6', '5']);
  assert.equal(back.previousCursor, null);
  await assert.rejects(search({ q: 'ferretería' }, { limit: '2', cursor: first.nextCursor! }));

  // Without search members, the portal's cursor is the REST API's.
  const plain = await search({}, { limit: '2' });
  assert.deepEqual(plain.total, { count: 6, capped: false });
  const viaApi = await findReceivedDocuments({
    database,
    tenantId: tenant.id,
    environment: 'TesteCF',
    query: ZReceivedListQuery.parse({ limit: '2', cursor: plain.nextCursor! }),
    cursorSecret: SECRET,
  });
  assert.deepEqual(encfs(viaApi), ['4', '3']);
});

test('annulments by e-NCF: the ranges that hold the prefix, with the total and both neighbours', async () => {
  const tenant = await seedTenant(database);
  const reserve = async (type: string, first: number, last: number, createdAt: Date) => {
    const encfOf = (number: number) => `E${type}${String(number).padStart(10, '0')}`;
    const reservation = await reserveAnnulment(database, {
      id: randomUUID(),
      tenantId: tenant.id,
      environment: 'TesteCF',
      idempotencyKey: randomUUID(),
      requestFingerprint: 'f'.repeat(64),
      request: { ranges: [{ type, from: encfOf(first), to: encfOf(last) }], reason: null },
      signedXml: '<ANECF/>',
      ranges: [
        {
          type: Number(type),
          prefix: `E${type}`,
          firstEncf: encfOf(first),
          lastEncf: encfOf(last),
          firstNumber: first,
          lastNumber: last,
        },
      ],
      now: createdAt,
      isBlocking: () => false,
    });
    assert.equal(reservation.kind, 'reserved');
    const id = reservation.kind === 'reserved' ? reservation.annulment.id : '';
    await sqlPoolOf(database).query('UPDATE annulments SET created_at = $2 WHERE id = $1::uuid', [
      id,
      createdAt,
    ]);
    return id;
  };
  const day = (n: number) => new Date(Date.parse('2026-11-01T12:00:00Z') + n * 86_400_000);
  const a = await reserve('31', 100, 199, day(1));
  const b = await reserve('31', 250, 260, day(2));
  const c = await reserve('32', 100, 105, day(3));
  const run = (q: string | undefined, page: { cursor?: string; before?: string } = {}, limit = 50) =>
    searchAnnulments({
      database,
      tenantId: tenant.id,
      environment: 'TesteCF',
      search: { q, ...page },
      limit,
    });
  const ids = (page: { items: { id: string }[] }) => page.items.map((item) => item.id);

  assert.deepEqual(ids(await run('E31')), [b, a]);
  assert.deepEqual(ids(await run('e3')), [c, b, a]);
  assert.deepEqual(ids(await run('E310000000150')), [a]);
  assert.deepEqual(ids(await run('E31000000025')), [b]);
  // E3100000002 spans 200-299: 250-260 meets it, 100-199 does not.
  assert.deepEqual(ids(await run('E3100000002')), [b]);
  assert.deepEqual(ids(await run('E310000000300')), []);
  await assert.rejects(run('Corripio'), /Busque por e-NCF/);
  assert.deepEqual((await run('E3')).total, { count: 3, capped: false });
  assert.deepEqual(annulmentEncfSearchOf('E3100000002'), {
    prefixPattern: 'E31',
    lowNumber: 200n,
    highNumber: 299n,
  });

  const first = await run(undefined, {}, 2);
  assert.deepEqual(ids(first), [c, b]);
  const second = await run(undefined, { cursor: first.nextCursor! }, 2);
  assert.deepEqual(ids(second), [a]);
  const back = await run(undefined, { before: second.previousCursor! }, 2);
  assert.deepEqual(ids(back), [c, b]);
  await assert.rejects(run('E31', { cursor: first.nextCursor! }, 2), /another search/);
});

test('account searches: support finds any tenant by RNC start or name; a Partner only its own', async () => {
  const stamp = String(randomInt(100_000, 999_999));
  const mine = await seedTenant(database, { rnc: `4${stamp}01`, legalName: `Panadería ${stamp} SRL` });
  const trade = await seedTenant(database, {
    rnc: `4${stamp}02`,
    legalName: 'Inversiones XYZ',
    tradeName: `Tienda ${stamp}`,
  });
  const foreign = await seedTenant(database, { rnc: `4${stamp}03`, legalName: `Panadería ${stamp} Norte` });
  const support = async (text: string) => {
    const search = accountSearchOf(text);
    assert.ok(search, text);
    const page = await searchTenants({ database, search, limit: 50, offset: 0 });
    return page.items.map((item) => item.id);
  };
  assert.deepEqual(new Set(await support(`4${stamp}0`)), new Set([mine.id, trade.id, foreign.id]));
  assert.deepEqual(await support(`panadería ${stamp} srl`), [mine.id]);
  assert.deepEqual(await support(`tienda ${stamp}`), [trade.id]);
  assert.equal(accountSearchOf('12'), null);
  assert.equal(accountSearchOf('ab'), null);

  const partner = await database.partner.create({ data: { name: `Partner ${stamp}` } });
  for (const tenant of [mine, trade])
    await database.tenant.update({
      where: { id: tenant.id },
      data: { partnerId: partner.id, externalTenantId: tenant.id },
    });
  const partnerSearch = async (text: string) => {
    const page = await findFiscalAccounts({
      database,
      partnerId: partner.id,
      limit: 100,
      offset: 0,
      search: accountSearchOf(text) ?? undefined,
    });
    return { ids: page.items.map((item) => item.tenant.id), total: page.total };
  };
  assert.deepEqual(await partnerSearch(`panadería ${stamp}`), { ids: [mine.id], total: 1 });
  assert.deepEqual(await partnerSearch(`4${stamp}`), { ids: [mine.id, trade.id], total: 2 });
  assert.deepEqual(await partnerSearch(`4${stamp}03`), { ids: [], total: 0 });
});
