import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedApiKey, seedDocument } from '@ecf/db';
import { ZErrorResponse, ZIssuedListResponse } from '@ecf/contract';
import { seedTenantWithKey, startTestApi, type TTestApi } from '../test/test-api.ts';
import { nextEncf } from '../test/submissions.ts';

let api: TTestApi;
before(async () => {
  api = await startTestApi();
});
after(async () => {
  await api.close();
});

const list = (key: string, query = '', environment = 'TesteCF') =>
  api.app.inject({
    method: 'GET',
    url: `/${environment}/documentos-ecf${query ? `?${query}` : ''}`,
    headers: { 'x-api-key': key },
  });

async function seedAt(
  tenantId: string,
  submittedAt: Date,
  input: { type?: string; status?: 'accepted' | 'queued_for_signing'; issueDate?: string } = {},
) {
  const document = await seedDocument(api.database, {
    tenantId,
    encf: nextEncf(input.type ?? '31'),
    ...(input.status ? { status: input.status } : {}),
  });
  return api.database.document.update({
    where: { id: document.id },
    data: {
      submittedAt,
      ...(input.issueDate ? { issueDate: new Date(`${input.issueDate}T00:00:00Z`) } : {}),
    },
  });
}

test('newest submission first; pages stay stable while new documents arrive', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const base = Date.parse('2026-11-01T12:00:00Z');
  const seeded = [];
  // Two share a submission time: the id breaks the tie.
  for (const offset of [0, 1, 2, 2, 3])
    seeded.push(await seedAt(tenant.id, new Date(base + offset * 60_000)));
  const expected = [...seeded]
    .sort((a, b) => b.submittedAt.getTime() - a.submittedAt.getTime() || (b.id < a.id ? -1 : 1))
    .map((document) => document.id);

  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const response = await list(key, `limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(response.statusCode, 200, response.body);
    const page = ZIssuedListResponse.parse(response.json());
    seen.push(...page.items.map((item) => item.documentId));
    cursor = page.nextCursor;
    pages += 1;
    // New submissions while paging land before the first page, never inside the walk.
    await seedAt(tenant.id, new Date());
  } while (cursor);
  assert.deepEqual(seen, expected);
  assert.equal(pages, 3);
});

test('filters: issue dates, type (E31 or 31), status; another tenant sees nothing', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const now = Date.now();
  const a = await seedAt(tenant.id, new Date(now - 3000), {
    type: '31',
    status: 'accepted',
    issueDate: '2026-10-01',
  });
  const b = await seedAt(tenant.id, new Date(now - 2000), { type: '32', issueDate: '2026-10-15' });
  const c = await seedAt(tenant.id, new Date(now - 1000), { type: '31', issueDate: '2026-11-01' });
  const ids = async (query: string) =>
    ZIssuedListResponse.parse((await list(key, query)).json()).items.map((item) => item.documentId);
  assert.deepEqual(await ids(''), [c.id, b.id, a.id]);
  assert.deepEqual(await ids('type=E31'), [c.id, a.id]);
  assert.deepEqual(await ids('type=32'), [b.id]);
  assert.deepEqual(await ids('status=accepted'), [a.id]);
  assert.deepEqual(await ids('issueDateFrom=2026-10-02&issueDateTo=2026-10-31'), [b.id]);
  assert.deepEqual(await ids('issueDateFrom=2026-10-15&issueDateTo=2026-10-15'), [b.id]);
  const item = ZIssuedListResponse.parse((await list(key, 'type=32')).json()).items[0];
  assert.equal(item?.totalAmount, '118.00');
  assert.equal(item?.issueDate, '2026-10-15');
  const { key: otherKey } = await seedTenantWithKey(api.database);
  assert.deepEqual(ZIssuedListResponse.parse((await list(otherKey)).json()).items, []);
  const { key: certKey } = await seedApiKey(api.database, { tenantId: tenant.id, environment: 'CerteCF' });
  assert.deepEqual(ZIssuedListResponse.parse((await list(certKey, '', 'CerteCF')).json()).items, []);
});

test('400 INVALID_ISSUED_DOCUMENTS_QUERY for any bad filter, limit or cursor', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  for (let index = 0; index < 3; index += 1) await seedAt(tenant.id, new Date(Date.now() - index * 1000));
  const first = ZIssuedListResponse.parse((await list(key, 'limit=1&type=31')).json());
  assert.ok(first.nextCursor);
  const cursor = first.nextCursor;
  const [payload, signature] = cursor.split('.') as [string, string];
  const tampered = `${Buffer.from(JSON.stringify(['2030-01-01T00:00:00.000Z', '00000000-0000-4000-8000-000000000000'])).toString('base64url')}.${signature}`;
  const { key: otherKey } = await seedTenantWithKey(api.database);
  const bad: Array<[string, string?]> = [
    ['issueDateFrom=2026-02-30'],
    ['issueDateFrom=01-10-2026'],
    ['issueDateTo=yesterday'],
    ['issueDateFrom=2026-11-02&issueDateTo=2026-11-01'],
    ['type=E99'],
    ['type=3'],
    ['status=approved'],
    ['limit=0'],
    ['limit=101'],
    ['limit=abc'],
    ['limit=2.5'],
    ['limit=1&limit=2'],
    ['colour=blue'],
    ['cursor='],
    ['cursor=garbage'],
    [`cursor=${encodeURIComponent(tampered)}&type=31`],
    [`cursor=${encodeURIComponent(`${payload}.${signature}x`)}&type=31`],
    // A cursor of another filter set, of no filter, or of another tenant.
    [`cursor=${encodeURIComponent(cursor)}&type=32`],
    [`cursor=${encodeURIComponent(cursor)}`],
    [`cursor=${encodeURIComponent(cursor)}&type=31`, otherKey],
  ];
  for (const [query, apiKey] of bad) {
    const response = await list(apiKey ?? key, query);
    assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
    assert.equal(ZErrorResponse.parse(response.json()).error.code, 'INVALID_ISSUED_DOCUMENTS_QUERY', query);
  }
  // The same cursor with the same filters (type written the other way) and another page size works.
  assert.equal((await list(key, `cursor=${encodeURIComponent(cursor)}&type=E31&limit=5`)).statusCode, 200);
});

test('the list needs ecf:read', async () => {
  const { tenant } = await seedTenantWithKey(api.database);
  const { key } = await seedApiKey(api.database, {
    tenantId: tenant.id,
    environment: 'TesteCF',
    scopes: ['status:read'],
  });
  const response = await list(key);
  assert.equal(response.statusCode, 403);
  assert.equal(ZErrorResponse.parse(response.json()).error.code, 'INSUFFICIENT_SCOPE');
});

test('receipts a certification restart replaced stay stored but leave the list (and its filters)', async () => {
  const { tenant } = await seedTenantWithKey(api.database);
  const { key } = await seedApiKey(api.database, { tenantId: tenant.id, environment: 'CerteCF' });
  const seed = (encf: string) =>
    seedDocument(api.database, { tenantId: tenant.id, environment: 'CerteCF', encf, status: 'accepted' });
  const replaced = await seed(nextEncf('31'));
  const kept = await seed(nextEncf('31'));
  const ids = async (query = '') =>
    ZIssuedListResponse.parse((await list(key, query, 'CerteCF')).json()).items.map(
      (item) => item.documentId,
    );
  assert.deepEqual((await ids()).sort(), [replaced.id, kept.id].sort());
  await api.database.document.update({ where: { id: replaced.id }, data: { replacedAt: new Date() } });
  assert.deepEqual(await ids(), [kept.id]);
  assert.deepEqual(await ids('status=accepted&type=31'), [kept.id]);
  assert.ok(await api.database.document.findUnique({ where: { id: replaced.id } }), 'kept, not deleted');
});
