import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { seedDocument, seedTenant, sqlPoolOf, type DocumentStatus, type TDatabase } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { summarizeDocuments } from './summarize-documents.ts';

let database: TDatabase;
let close: () => Promise<void>;
before(async () => {
  const context = await openTestDatabase();
  database = context.database;
  close = context.close;
});
after(async () => {
  await close();
});

/** 2026-11-20 10:00 in Santo Domingo (14:00 UTC). */
const NOW = new Date('2026-11-20T14:00:00Z');
let sequence = 0;

async function seedAt(
  tenantId: string,
  status: DocumentStatus,
  submittedAt: string,
  extra: { environment?: 'TesteCF' | 'eCF'; contingencySince?: Date } = {},
) {
  sequence += 1;
  const document = await seedDocument(database, {
    tenantId,
    encf: `E31${String(sequence).padStart(10, '0')}`,
    status,
    ...extra,
  });
  await database.document.update({
    where: { id: document.id },
    data: { submittedAt: new Date(submittedAt) },
  });
}

async function seedCertificate(tenantId: string, validTo: Date) {
  await database.tenantCertificate.create({
    data: {
      tenantId,
      subject: 'CN=Prueba',
      serialNumber: randomUUID(),
      validFrom: new Date('2025-01-01T00:00:00Z'),
      validTo,
      keyId: 'k1',
      encryptedP12: Buffer.from('x'),
      encryptedPassword: Buffer.from('y'),
    },
  });
}

test('counts by status today (Dominican time) and over 30 days, accepted per day, banners', async () => {
  const tenant = await seedTenant(database);
  const other = await seedTenant(database);
  // Today in Santo Domingo began at 2026-11-20T04:00Z.
  await seedAt(tenant.id, 'accepted', '2026-11-20T04:00:00Z');
  await seedAt(tenant.id, 'accepted_conditional', '2026-11-20T13:59:00Z');
  await seedAt(tenant.id, 'rejected', '2026-11-20T05:00:00Z');
  await seedAt(tenant.id, 'contingency', '2026-11-20T06:00:00Z', {
    contingencySince: new Date('2026-11-20T06:01:00Z'),
  });
  // Yesterday evening in Santo Domingo (03:59Z): counts for the 19th.
  await seedAt(tenant.id, 'accepted', '2026-11-20T03:59:00Z');
  // 29 days before today: the first day of the period; 30 days before: outside.
  await seedAt(tenant.id, 'accepted', '2026-10-22T12:00:00Z');
  await seedAt(tenant.id, 'accepted', '2026-10-21T12:00:00Z');
  // Another environment, another tenant: never counted.
  await seedAt(tenant.id, 'accepted', '2026-11-20T12:00:00Z', { environment: 'eCF' });
  await seedAt(other.id, 'accepted', '2026-11-20T12:00:00Z');
  await seedCertificate(tenant.id, new Date('2026-12-05T00:00:00Z'));

  const summary = await summarizeDocuments({
    database,
    tenantId: tenant.id,
    environment: 'TesteCF',
    now: NOW,
  });
  assert.equal(summary.today, '2026-11-20');
  assert.equal(summary.todayCounts.total, 4);
  assert.equal(summary.todayCounts.byStatus.accepted, 1);
  assert.equal(summary.todayCounts.byStatus.accepted_conditional, 1);
  assert.equal(summary.todayCounts.byStatus.rejected, 1);
  assert.equal(summary.todayCounts.byStatus.contingency, 1);
  assert.equal(summary.periodCounts.total, 6);
  assert.equal(summary.periodCounts.byStatus.accepted, 3);
  assert.equal(summary.acceptedPerDay.length, 30);
  assert.deepEqual(summary.acceptedPerDay[0], { day: '2026-10-22', count: 1 });
  assert.deepEqual(summary.acceptedPerDay.at(-2), { day: '2026-11-19', count: 1 });
  assert.deepEqual(summary.acceptedPerDay.at(-1), { day: '2026-11-20', count: 2 });
  assert.deepEqual(summary.contingency, { count: 1, since: new Date('2026-11-20T06:01:00Z') });
  assert.equal(summary.openEpisode, null);
  assert.equal(summary.certificate.state, 'expiring');
  assert.equal(summary.certificate.state === 'expiring' ? summary.certificate.daysLeft : -1, 14);

  const production = await summarizeDocuments({
    database,
    tenantId: tenant.id,
    environment: 'eCF',
    now: NOW,
  });
  assert.equal(production.todayCounts.total, 1);
  assert.deepEqual(production.contingency, { count: 0, since: null });
  const none = await summarizeDocuments({ database, tenantId: other.id, environment: 'TesteCF', now: NOW });
  assert.equal(none.certificate.state, 'missing');
});

test('an open outage episode of the environment is reported; a closed one or another environment is not', async () => {
  const tenant = await seedTenant(database);
  await seedCertificate(tenant.id, new Date('2026-11-01T00:00:00Z'));
  const pool = sqlPoolOf(database);
  await pool.query(
    `INSERT INTO taxauth_episodes (id, environment, code, service, degraded_since, restored_at)
     VALUES ($1, 'CerteCF', 'TAXAUTH_TIMEOUT', 'recepcion', '2026-11-20T10:00:00Z', NULL),
            ($2, 'TesteCF', 'TAXAUTH_TIMEOUT', 'recepcion', '2026-11-19T10:00:00Z', '2026-11-19T11:00:00Z')`,
    [randomUUID(), randomUUID()],
  );
  const certe = await summarizeDocuments({ database, tenantId: tenant.id, environment: 'CerteCF', now: NOW });
  assert.deepEqual(certe.openEpisode, {
    code: 'TAXAUTH_TIMEOUT',
    service: 'recepcion',
    since: new Date('2026-11-20T10:00:00Z'),
  });
  assert.equal(certe.certificate.state, 'expired');
  const teste = await summarizeDocuments({ database, tenantId: tenant.id, environment: 'TesteCF', now: NOW });
  assert.equal(teste.openEpisode, null);
});
