import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedDocument as seedDocumentRow, seedTenant, type DocumentStatus } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { findDocumentStatuses } from './find-document-statuses.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await context.close();
});

async function seedDocument(tenantId: string, encf: string, status: DocumentStatus) {
  return seedDocumentRow(context.database, {
    tenantId,
    encf,
    status,
    lastError: { code: 'TAXAUTH_UNAVAILABLE', message: 'no answer' },
  });
}

test('finds by eNCF or documentId in request order, lists the rest as sent', async () => {
  const tenant = await seedTenant(context.database);
  const first = await seedDocument(tenant.id, 'E310000000001', 'contingency');
  const second = await seedDocument(tenant.id, 'E320000000002', 'queued_for_signing');
  const result = await findDocumentStatuses({
    database: context.database,
    tenantId: tenant.id,
    environment: 'TesteCF',
    references: ['E320000000002', 'E319999999999', first.id.toUpperCase(), 'not-a-reference'],
  });
  assert.deepEqual(
    result.found.map((item) => item.documentId),
    [second.id, first.id],
  );
  assert.deepEqual(result.unfound, ['E319999999999', 'not-a-reference']);
  assert.equal(result.found[0]?.type, 'E32');
  assert.equal(result.found[0]?.printing, null);
});

test('lastError is kept while a document can move and null for final states and cancelled', async () => {
  const tenant = await seedTenant(context.database);
  const statuses: DocumentStatus[] = [
    'contingency',
    'accepted',
    'accepted_conditional',
    'rejected',
    'cancelled',
    'transmission_failed',
  ];
  const encfs = statuses.map((_, index) => `E3100000001${String(index).padStart(2, '0')}`);
  for (const [index, status] of statuses.entries()) await seedDocument(tenant.id, encfs[index] ?? '', status);
  const { found } = await findDocumentStatuses({
    database: context.database,
    tenantId: tenant.id,
    environment: 'TesteCF',
    references: encfs,
  });
  const lastErrors = Object.fromEntries(found.map((item) => [item.status, item.lastError]));
  assert.deepEqual(lastErrors.contingency, { code: 'TAXAUTH_UNAVAILABLE', message: 'no answer' });
  assert.deepEqual(lastErrors.transmission_failed, { code: 'TAXAUTH_UNAVAILABLE', message: 'no answer' });
  for (const status of ['accepted', 'accepted_conditional', 'rejected', 'cancelled'])
    assert.equal(lastErrors[status], null, status);
});

test('errors carries the same error as lastError (spec "Status batch"), and is empty when lastError is null', async () => {
  const tenant = await seedTenant(context.database);
  const moving = await seedDocument(tenant.id, 'E310000000201', 'contingency');
  const final = await seedDocument(tenant.id, 'E310000000202', 'accepted');
  const quiet = await seedDocumentRow(context.database, {
    tenantId: tenant.id,
    encf: 'E310000000203',
    status: 'queued_for_signing',
  });
  const { found } = await findDocumentStatuses({
    database: context.database,
    tenantId: tenant.id,
    environment: 'TesteCF',
    references: [moving.encf, final.encf, quiet.encf],
  });
  assert.deepEqual(
    found.map((item) => [item.encf, item.lastError, item.errors]),
    [
      [
        moving.encf,
        { code: 'TAXAUTH_UNAVAILABLE', message: 'no answer' },
        [{ code: 'TAXAUTH_UNAVAILABLE', message: 'no answer' }],
      ],
      [final.encf, null, []],
      [quiet.encf, null, []],
    ],
  );
});

test("another tenant's documents and another environment's are never found", async () => {
  const owner = await seedTenant(context.database);
  const stranger = await seedTenant(context.database);
  const document = await seedDocument(owner.id, 'E310000000500', 'accepted');
  const asStranger = await findDocumentStatuses({
    database: context.database,
    tenantId: stranger.id,
    environment: 'TesteCF',
    references: [document.encf, document.id],
  });
  assert.deepEqual(asStranger.found, []);
  const otherEnvironment = await findDocumentStatuses({
    database: context.database,
    tenantId: owner.id,
    environment: 'CerteCF',
    references: [document.encf],
  });
  assert.deepEqual(otherEnvironment.unfound, [document.encf]);
});
