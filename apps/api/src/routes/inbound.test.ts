// The received lists, items and kept copies (issue 18, task L), through the API with real
// PostgreSQL; rows seeded as the reception routes write them (seedInbound of @ecf/db).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { seedApiKey, seedDocument, seedTenant } from '@ecf/db';
import {
  ZErrorResponse,
  ZReceivedApprovalListResponse,
  ZReceivedApprovalResponse,
  ZReceivedDocumentListResponse,
  ZReceivedDocumentResponse,
} from '@ecf/contract';
import { seedTenantWithKey, startTestApi, type TTestApi } from '../../test/test-api.ts';
import { corruptArtifact, seedEncf, seedInbound } from '@ecf/db';

let api: TTestApi;
before(async () => {
  api = await startTestApi();
});
after(async () => {
  await api.close();
});

const get = (key: string, url: string, headers: Record<string, string> = {}) =>
  api.app.inject({ method: 'GET', url, headers: { 'x-api-key': key, ...headers } });

function errorOf(response: { json: () => unknown }) {
  return ZErrorResponse.parse(response.json()).error;
}

test('received e-CF: newest reception first, stable keyset pages, only e-CF, every item member', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const base = Date.parse('2026-11-10T15:00:00Z');
  const seeded = [];
  for (const offset of [0, 1, 2, 2, 3])
    seeded.push(
      await seedInbound(api.database, { tenantId: tenant.id, receivedAt: new Date(base + offset * 60_000) }),
    );
  // An ACECF of the same account is never in this list.
  await seedInbound(api.database, { tenantId: tenant.id, kind: 'commercial_approval', decision: 'accepted' });
  const expected = [...seeded]
    .sort((a, b) => b.row.receivedAt.getTime() - a.row.receivedAt.getTime() || (b.id < a.id ? -1 : 1))
    .map((seed) => seed.id);

  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const response = await get(
      key,
      `/TesteCF/documentos-recibidos?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    assert.equal(response.statusCode, 200, response.body);
    const page = ZReceivedDocumentListResponse.parse(response.json());
    seen.push(...page.items.map((item) => item.inboundDocumentId));
    cursor = page.nextCursor;
  } while (cursor);
  assert.deepEqual(seen, expected);

  const first = ZReceivedDocumentListResponse.parse(
    (await get(key, '/TesteCF/documentos-recibidos?limit=1')).json(),
  ).items[0]!;
  assert.equal(first.totalAmount, '11800.00');
  assert.equal(first.type, 'E31');
  assert.equal(first.status, 'received');
  assert.equal(first.group, 'pending_approval');
  assert.equal(first.commercialApprovalDeadline, '2026-12-15');
  assert.equal(first.taxauthValidity, null);
  assert.equal(first.commercialApproval, null);
  assert.equal(first.view, `/TesteCF/received/${first.inboundDocumentId}`);
  assert.equal(first.links.xml, `/TesteCF/documentos-recibidos/${first.inboundDocumentId}/xml`);
});

test('filters: group, type, encf, issuerRnc, reception dates (Dominican days)', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const pending = await seedInbound(api.database, {
    tenantId: tenant.id,
    issuerRnc: '131880681',
    receivedAt: new Date('2026-11-05T03:30:00Z'), // 4 November, 23:30 in Santo Domingo
  });
  const refused = await seedInbound(api.database, {
    tenantId: tenant.id,
    status: 'not_received',
    notReceivedCode: 2,
    notReceivedReason: 'signature invalid',
    xml: null,
    issueDate: null,
    totalAmount: null,
    receivedAt: new Date('2026-11-05T04:30:00Z'),
  });
  const e33 = await seedInbound(api.database, {
    tenantId: tenant.id,
    encf: seedEncf('33'),
    issuerRnc: '101999999',
    receivedAt: new Date('2026-11-06T12:00:00Z'),
  });
  const answered = await seedInbound(api.database, {
    tenantId: tenant.id,
    receivedAt: new Date('2026-11-07T12:00:00Z'),
  });
  await api.database.commercialApproval.create({
    data: {
      inboundDocumentId: answered.id,
      tenantId: tenant.id,
      environment: 'TesteCF',
      decision: 'reject',
      approvalDate: new Date('2026-11-08T12:00:00Z'),
      rejectionReason: 'precio distinto',
      targetSource: 'directory',
    },
  });
  const ids = async (query: string) => {
    const response = await get(key, `/TesteCF/documentos-recibidos?${query}`);
    assert.equal(response.statusCode, 200, response.body);
    return ZReceivedDocumentListResponse.parse(response.json()).items.map((item) => item.inboundDocumentId);
  };
  assert.deepEqual(await ids('group=pending_approval'), [e33.id, pending.id]);
  assert.deepEqual(await ids('group=not_received'), [refused.id]);
  assert.deepEqual(await ids('group=rejected'), [answered.id]);
  assert.deepEqual(await ids('group=accepted'), []);
  assert.deepEqual(await ids('type=E33'), [e33.id]);
  assert.deepEqual(await ids('type=33'), [e33.id]);
  assert.deepEqual(await ids(`encf=${pending.encf}`), [pending.id]);
  assert.deepEqual(await ids('issuerRnc=101999999'), [e33.id]);
  assert.deepEqual(await ids('from=2026-11-04&to=2026-11-04'), [pending.id]);
  assert.deepEqual(await ids('from=2026-11-05&to=2026-11-06'), [e33.id, refused.id]);

  const rejected = ZReceivedDocumentResponse.parse(
    (await get(key, `/TesteCF/documentos-recibidos/${answered.id}`)).json(),
  );
  assert.equal(rejected.group, 'rejected');
  assert.equal(rejected.commercialApprovalDeadline, null, 'no deadline once answered');
  assert.equal(rejected.commercialApproval?.decision, 'reject');
  assert.equal(rejected.commercialApproval?.rejectionReason, 'precio distinto');

  const notReceived = ZReceivedDocumentResponse.parse(
    (await get(key, `/TesteCF/documentos-recibidos/${refused.id}`)).json(),
  );
  assert.deepEqual(notReceived.notReceived, { code: 2, reason: 'signature invalid' });
  assert.equal(notReceived.links.xml, null);
  assert.equal(notReceived.commercialApprovalDeadline, null);
});

test('400 INVALID_RECEIVED_DOCUMENTS_QUERY with the path of each bad filter; a cursor of other filters', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  for (let index = 0; index < 3; index += 1) await seedInbound(api.database, { tenantId: tenant.id });
  const cases: Array<[string, string]> = [
    ['group=answered', 'group'],
    ['type=E99', 'type'],
    ['type=31&type=32', 'type'],
    ['encf=B0100000001', 'encf'],
    ['issuerRnc=12ab', 'issuerRnc'],
    ['from=2026-02-30', 'from'],
    ['from=2026-11-10&to=2026-11-01', 'from'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=1e2', 'limit'],
    ['cursor=', 'cursor'],
    ['sort=asc', 'sort'],
  ];
  for (const [query, path] of cases) {
    const response = await get(key, `/TesteCF/documentos-recibidos?${query}`);
    assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
    const error = errorOf(response);
    assert.equal(error.code, 'INVALID_RECEIVED_DOCUMENTS_QUERY', query);
    const issues = error.details['issues'] as Array<{ path: string }>;
    assert.ok(
      issues.some((issue) => issue.path === path),
      `${query}: ${JSON.stringify(issues)}`,
    );
  }
  const first = ZReceivedDocumentListResponse.parse(
    (await get(key, '/TesteCF/documentos-recibidos?limit=1&group=pending_approval')).json(),
  );
  assert.ok(first.nextCursor);
  for (const query of [
    `limit=1&cursor=${encodeURIComponent(first.nextCursor)}`,
    `group=accepted&cursor=${encodeURIComponent(first.nextCursor)}`,
    `group=pending_approval&cursor=${encodeURIComponent(`${first.nextCursor}x`)}`,
    `group=pending_approval&cursor=${'a'.repeat(600)}`,
  ]) {
    const response = await get(key, `/TesteCF/documentos-recibidos?${query}`);
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(errorOf(response).code, 'INVALID_RECEIVED_DOCUMENTS_QUERY');
  }
  // The ACECF list's cursor does not page the e-CF list, even with the same (empty) filters.
  await seedInbound(api.database, { tenantId: tenant.id, kind: 'commercial_approval', decision: 'accepted' });
  await seedInbound(api.database, { tenantId: tenant.id, kind: 'commercial_approval', decision: 'accepted' });
  const approvals = ZReceivedApprovalListResponse.parse(
    (await get(key, '/TesteCF/aprobaciones-comerciales-recibidas?limit=1')).json(),
  );
  assert.ok(approvals.nextCursor);
  const crossed = await get(
    key,
    `/TesteCF/documentos-recibidos?limit=1&cursor=${encodeURIComponent(approvals.nextCursor)}`,
  );
  assert.equal(crossed.statusCode, 400);
  // The same cursor under another account's key.
  const other = await seedTenantWithKey(api.database);
  const stolen = await get(
    other.key,
    `/TesteCF/documentos-recibidos?limit=1&group=pending_approval&cursor=${encodeURIComponent(first.nextCursor)}`,
  );
  assert.equal(stolen.statusCode, 400);
});

test('items: 404 RECEIVED_DOCUMENT_NOT_FOUND for another account, another environment, an ACECF, a non-UUID', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const other = await seedTenantWithKey(api.database);
  const mine = await seedInbound(api.database, { tenantId: tenant.id });
  const theirs = await seedInbound(api.database, { tenantId: other.tenant.id });
  const inEcf = await seedInbound(api.database, { tenantId: tenant.id, environment: 'eCF' });
  const acecf = await seedInbound(api.database, {
    tenantId: tenant.id,
    kind: 'commercial_approval',
    decision: 'accepted',
  });

  assert.equal((await get(key, `/TesteCF/documentos-recibidos/${mine.id}`)).statusCode, 200);
  assert.equal((await get(key, `/TesteCF/documentos-recibidos/${mine.id.toUpperCase()}`)).statusCode, 200);
  for (const id of [theirs.id, inEcf.id, acecf.id, randomUUID(), 'not-a-uuid', 'x'.repeat(5000)]) {
    for (const suffix of ['', '/xml']) {
      const response = await get(key, `/TesteCF/documentos-recibidos/${id}${suffix}`);
      assert.equal(response.statusCode, 404, `${id}${suffix}: ${response.body}`);
      assert.equal(errorOf(response).code, 'RECEIVED_DOCUMENT_NOT_FOUND');
    }
  }
  // And the ACECF routes refuse the received e-CF's id.
  for (const suffix of ['', '/xml']) {
    const response = await get(key, `/TesteCF/aprobaciones-comerciales-recibidas/${mine.id}${suffix}`);
    assert.equal(response.statusCode, 404);
    assert.equal(errorOf(response).code, 'RECEIVED_COMMERCIAL_APPROVAL_NOT_FOUND');
  }
  // Another account's list never shows mine.
  const theirList = ZReceivedDocumentListResponse.parse(
    (await get(other.key, '/TesteCF/documentos-recibidos')).json(),
  );
  assert.deepEqual(
    theirList.items.map((item) => item.inboundDocumentId),
    [theirs.id],
  );
});

test('XML as the supplier sent it (BOM kept), named RNCEmisor + eNCF; 404 without a copy; 500 on a corrupted copy', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const bytes = Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from(
      '<?xml version="1.0" encoding="utf-8"?>\r\n<ECF xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><n>ñ</n></ECF>',
      'utf8',
    ),
  ]);
  const kept = await seedInbound(api.database, { tenantId: tenant.id, issuerRnc: '131880681', xml: bytes });
  const response = await get(key, `/TesteCF/documentos-recibidos/${kept.id}/xml`);
  assert.equal(response.statusCode, 200, response.body);
  assert.ok(response.rawPayload.equals(bytes), 'byte for byte');
  assert.match(String(response.headers['content-type']), /^application\/xml/);
  assert.equal(response.headers['content-disposition'], `attachment; filename="131880681${kept.encf}.xml"`);

  const refusedAccept = await get(key, `/TesteCF/documentos-recibidos/${kept.id}/xml`, {
    accept: 'application/pdf',
  });
  assert.equal(refusedAccept.statusCode, 400);
  assert.equal(errorOf(refusedAccept).code, 'NOT_ACCEPTABLE');

  const without = await seedInbound(api.database, { tenantId: tenant.id, status: 'not_received', xml: null });
  const missing = await get(key, `/TesteCF/documentos-recibidos/${without.id}/xml`);
  assert.equal(missing.statusCode, 404);
  assert.equal(errorOf(missing).code, 'RECEIVED_DOCUMENT_XML_NOT_AVAILABLE');

  await corruptArtifact(api.database, kept.artifactId!);
  const corrupted = await get(key, `/TesteCF/documentos-recibidos/${kept.id}/xml`);
  assert.equal(corrupted.statusCode, 500);
  assert.equal(errorOf(corrupted).code, 'RECEIVED_DOCUMENT_XML_INTEGRITY_FAILED');
  assert.doesNotMatch(corrupted.body, /ECF/, 'nothing of the copy is served');

  // The ACECF's copy: the same integrity check, its own 404.
  const acecf = await seedInbound(api.database, {
    tenantId: tenant.id,
    kind: 'commercial_approval',
    issuerRnc: tenant.rnc,
    buyerRnc: '101000001',
    decision: 'accepted',
  });
  const good = await get(key, `/TesteCF/aprobaciones-comerciales-recibidas/${acecf.id}/xml`);
  assert.equal(good.statusCode, 200);
  assert.equal(good.headers['content-disposition'], `attachment; filename="101000001${acecf.encf}.xml"`);
  await corruptArtifact(api.database, acecf.artifactId!);
  const bad = await get(key, `/TesteCF/aprobaciones-comerciales-recibidas/${acecf.id}/xml`);
  assert.equal(bad.statusCode, 500);
  assert.equal(errorOf(bad).code, 'RECEIVED_DOCUMENT_XML_INTEGRITY_FAILED');
  const noCopy = await seedInbound(api.database, {
    tenantId: tenant.id,
    kind: 'commercial_approval',
    status: 'duplicate',
    xml: null,
  });
  const none = await get(key, `/TesteCF/aprobaciones-comerciales-recibidas/${noCopy.id}/xml`);
  assert.equal(none.statusCode, 404);
  assert.equal(errorOf(none).code, 'RECEIVED_COMMERCIAL_APPROVAL_XML_NOT_AVAILABLE');
});

test('received ACECF: list with filters, item with documentId, status and decision', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const issued = await seedDocument(api.database, { tenantId: tenant.id, encf: seedEncf('31') });
  const matched = await seedInbound(api.database, {
    tenantId: tenant.id,
    kind: 'commercial_approval',
    encf: issued.encf,
    issuerRnc: tenant.rnc,
    buyerRnc: '101000001',
    decision: 'rejected',
    decisionReason: 'Mercancía dañada',
    decidedAtText: '05-11-2026 10:00:00',
    documentId: issued.id,
    correspondence: { result: 'matched', mismatches: [] },
    receivedAt: new Date('2026-11-05T15:00:00Z'),
  });
  const duplicate = await seedInbound(api.database, {
    tenantId: tenant.id,
    kind: 'commercial_approval',
    status: 'duplicate',
    encf: issued.encf,
    issuerRnc: tenant.rnc,
    buyerRnc: '101000001',
    decision: 'rejected',
    receivedAt: new Date('2026-11-06T15:00:00Z'),
  });
  const otherBuyer = await seedInbound(api.database, {
    tenantId: tenant.id,
    kind: 'commercial_approval',
    issuerRnc: tenant.rnc,
    buyerRnc: '101000002',
    decision: 'accepted',
    correspondence: { result: 'ecf_not_found' },
    receivedAt: new Date('2026-11-07T15:00:00Z'),
  });
  const ids = async (query: string) => {
    const response = await get(key, `/TesteCF/aprobaciones-comerciales-recibidas?${query}`);
    assert.equal(response.statusCode, 200, response.body);
    return ZReceivedApprovalListResponse.parse(response.json()).items.map((item) => item.inboundDocumentId);
  };
  assert.deepEqual(await ids(''), [otherBuyer.id, duplicate.id, matched.id]);
  assert.deepEqual(await ids('buyerRnc=101000001'), [duplicate.id, matched.id]);
  assert.deepEqual(await ids(`encf=${issued.encf}`), [duplicate.id, matched.id]);
  assert.deepEqual(await ids('from=2026-11-07'), [otherBuyer.id]);
  const bad = await get(key, '/TesteCF/aprobaciones-comerciales-recibidas?group=accepted');
  assert.equal(bad.statusCode, 400);
  assert.equal(errorOf(bad).code, 'INVALID_RECEIVED_DOCUMENTS_QUERY');

  const item = ZReceivedApprovalResponse.parse(
    (await get(key, `/TesteCF/aprobaciones-comerciales-recibidas/${matched.id}`)).json(),
  );
  assert.equal(item.documentId, issued.id);
  assert.equal(item.status, 'received');
  assert.equal(item.decision, 'rejected');
  assert.equal(item.decisionReason, 'Mercancía dañada');
  assert.equal(item.approvedAt, '05-11-2026 10:00:00');
  assert.deepEqual(item.correspondence, { result: 'matched', mismatches: [] });
  assert.equal(item.notReceived, null);
  const dup = ZReceivedApprovalResponse.parse(
    (await get(key, `/TesteCF/aprobaciones-comerciales-recibidas/${duplicate.id}`)).json(),
  );
  assert.equal(dup.status, 'duplicate');
  assert.equal(dup.decision, null);
  assert.ok(dup.notReceived);
  // Another account: 404.
  const other = await seedTenantWithKey(api.database);
  const foreign = await get(other.key, `/TesteCF/aprobaciones-comerciales-recibidas/${matched.id}`);
  assert.equal(foreign.statusCode, 404);
  assert.equal(errorOf(foreign).code, 'RECEIVED_COMMERCIAL_APPROVAL_NOT_FOUND');
});

test('eCF without active production: 423 on every received route; without ecf:read: 403', async () => {
  const tenant = await seedTenant(api.database);
  const { key } = await seedApiKey(api.database, {
    tenantId: tenant.id,
    environment: 'eCF',
    scopes: ['ecf:read'],
  });
  const row = await seedInbound(api.database, { tenantId: tenant.id, environment: 'eCF' });
  for (const url of [
    '/eCF/documentos-recibidos',
    `/eCF/documentos-recibidos/${row.id}`,
    `/eCF/documentos-recibidos/${row.id}/xml`,
    '/eCF/aprobaciones-comerciales-recibidas',
  ]) {
    const response = await get(key, url);
    assert.equal(response.statusCode, 423, `${url}: ${response.body}`);
  }
  await api.database.tenant.update({ where: { id: tenant.id }, data: { productionState: 'active' } });
  assert.equal((await get(key, `/eCF/documentos-recibidos/${row.id}`)).statusCode, 200);

  const { key: writeOnly } = await seedApiKey(api.database, {
    tenantId: tenant.id,
    environment: 'TesteCF',
    scopes: ['ecf:create'],
  });
  const refused = await get(writeOnly, '/TesteCF/documentos-recibidos');
  assert.equal(refused.statusCode, 403);
});
