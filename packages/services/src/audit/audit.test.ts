import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sqlPoolOf } from '@ecf/db';
import {
  openIdentityHarness,
  refusal,
  seedPortalUser,
  seedTenantWithOwner,
  type TIdentityHarness,
} from '../../test/identity-harness.ts';
import { appendAuditEntry } from './append-audit-entry.ts';
import { findAuditEntries } from './find-audit-entries.ts';
import { recordSupportView, SUPPORT_VIEW_REPEAT_WINDOW_MS } from './record-support-view.ts';

let harness: TIdentityHarness;
before(async () => {
  harness = await openIdentityHarness();
});
after(async () => {
  await harness.close();
});

test('the audit log refuses UPDATE, DELETE and TRUNCATE', async () => {
  const { tenant, owner } = await seedTenantWithOwner(harness.database);
  const { id } = await appendAuditEntry({
    database: harness.database,
    entry: { tenantId: tenant.id, actorUserId: owner.user.id, action: 'member.invited' },
  });
  const pool = sqlPoolOf(harness.database);
  await assert.rejects(
    pool.query(`UPDATE portal_audit_log SET action = 'x' WHERE id = $1`, [id]),
    /append-only/,
  );
  await assert.rejects(pool.query(`DELETE FROM portal_audit_log WHERE id = $1`, [id]), /append-only/);
  await assert.rejects(pool.query(`TRUNCATE portal_audit_log`), /append-only/);
  const { items } = await findAuditEntries({ database: harness.database, tenantId: tenant.id });
  assert.deepEqual(
    items.map((item) => item.action),
    ['member.invited'],
  );
});

test("support's views are in the tenant's log for its owners, newest first, page by page; other tenants' are not", async () => {
  const { tenant } = await seedTenantWithOwner(harness.database);
  const other = await seedTenantWithOwner(harness.database);
  const support = await seedPortalUser(harness.database, {
    isSupport: true,
    email: 'soporte@operador.example',
  });
  for (const what of ['members.list', 'documents.list', 'documents.get'])
    await recordSupportView({
      database: harness.database,
      tenantId: tenant.id,
      supportUserId: support.user.id,
      what,
      input: { page: what },
      ip: '10.0.0.9',
    });
  await recordSupportView({
    database: harness.database,
    tenantId: other.tenant.id,
    supportUserId: support.user.id,
    what: 'x',
  });
  const first = await findAuditEntries({ database: harness.database, tenantId: tenant.id, limit: 2 });
  assert.deepEqual(
    first.items.map((item) => item.targetId),
    ['documents.get', 'documents.list'],
  );
  assert.equal(first.items[0]?.action, 'support.viewed');
  assert.deepEqual(first.items[0]?.actor, {
    id: support.user.id,
    email: 'soporte@operador.example',
    name: 'soporte',
    isSupport: true,
  });
  assert.deepEqual(first.items[0]?.data, { input: { page: 'documents.get' } });
  const second = await findAuditEntries({
    database: harness.database,
    tenantId: tenant.id,
    limit: 2,
    cursor: first.nextCursor,
  });
  assert.deepEqual(
    second.items.map((item) => item.targetId),
    ['members.list'],
  );
  assert.equal(second.nextCursor, null);
  assert.equal(
    (await refusal(findAuditEntries({ database: harness.database, tenantId: tenant.id, cursor: 'abc' })))
      .code,
    'INVALID_REQUEST',
  );
});

test('a cursor past the largest id (19 digits, over bigint) reads from the newest entry, never a database error', async () => {
  const { tenant, owner } = await seedTenantWithOwner(harness.database);
  await appendAuditEntry({
    database: harness.database,
    entry: { tenantId: tenant.id, actorUserId: owner.user.id, action: 'member.invited' },
  });
  for (const cursor of ['9999999999999999999', '9223372036854775808']) {
    const { items } = await findAuditEntries({ database: harness.database, tenantId: tenant.id, cursor });
    assert.deepEqual(
      items.map((item) => item.action),
      ['member.invited'],
      cursor,
    );
  }
});

test('a support view repeated within the window is written once (live pages); without a window, every time', async () => {
  const { tenant } = await seedTenantWithOwner(harness.database);
  const support = await seedPortalUser(harness.database, { isSupport: true });
  const start = Date.now();
  const view = (what: string, input: unknown, offsetMs: number, repeatWindowMs?: number) =>
    recordSupportView({
      database: harness.database,
      tenantId: tenant.id,
      supportUserId: support.user.id,
      what,
      input,
      now: () => new Date(start + offsetMs),
      ...(repeatWindowMs === undefined ? {} : { repeatWindowMs }),
    });
  const window = SUPPORT_VIEW_REPEAT_WINDOW_MS;
  const written: boolean[] = [];
  for (let poll = 0; poll < 6; poll += 1)
    written.push(await view('live.documents', { id: 'a' }, poll * 5000, window));
  assert.deepEqual(written, [true, false, false, false, false, false]);
  // Other input, or the window passed: a new view. No window (a download): every time.
  assert.equal(await view('live.documents', { id: 'b' }, 30_000, window), true);
  assert.equal(await view('live.documents', { id: 'a' }, window + 1000, window), true);
  assert.equal(await view('documents.evidence', { id: 'a' }, 40_000), true);
  assert.equal(await view('documents.evidence', { id: 'a' }, 41_000), true);
  const { items } = await findAuditEntries({ database: harness.database, tenantId: tenant.id, limit: 20 });
  assert.equal(items.filter((item) => item.action === 'support.viewed').length, 5);
});
