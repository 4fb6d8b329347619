// The Partner portal's procedures (issue 20): the client-safe copies match the services' tables,
// a Partner's people see and change only their Partner's data, and tenant members none of it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  PARTNER_KEY_PROFILES,
  PARTNER_WEBHOOK_EVENT_TYPES,
  createPartner,
  createPartnerKey,
} from '@ecf/services';
import {
  callerOf,
  openPortalHarness,
  seedWorld,
  trpcFailureOf,
  type TPortalHarness,
} from '../../../test/portal-harness.ts';
import { PARTNER_KEY_PROFILES_OFFERED, PARTNER_WEBHOOK_EVENT_TYPES_OFFERED } from './partner.schema.ts';

let harness: TPortalHarness;
before(async () => {
  harness = await openPortalHarness();
});
after(async () => {
  await harness.close();
});

test('the client-safe copies are the services tables', () => {
  assert.deepEqual([...PARTNER_KEY_PROFILES_OFFERED], [...PARTNER_KEY_PROFILES]);
  assert.deepEqual([...PARTNER_WEBHOOK_EVENT_TYPES_OFFERED].sort(), [...PARTNER_WEBHOOK_EVENT_TYPES].sort());
});

test("a Partner's people work on their own Partner only; the key is shown once; billing by month", async () => {
  const world = await seedWorld(harness.database);
  const admin = callerOf(harness, world.sessions.partnerAdmin);
  const created = await admin.partner.createKey({ name: 'ERP', profile: 'runtime' });
  assert.match(created.key, /^ecfp_/);
  const { keys } = await admin.partner.keys();
  assert.equal(keys.length, 1);
  assert.ok(!JSON.stringify(keys).includes(created.key), 'never the key again');
  // Another Partner's key: not found, exactly like none.
  const other = await createPartner({ database: harness.database, input: { name: 'Otro' } });
  const foreign = await createPartnerKey({ database: harness.database, partnerId: other.id, name: 'x' });
  const refused = await trpcFailureOf(admin.partner.revokeKey({ keyId: foreign.row.id }));
  assert.equal(refused.code, 'NOT_FOUND');
  // Origins: exact HTTPS only.
  const badOrigin = await trpcFailureOf(admin.partner.addOrigin({ origin: 'http://erp.example.com' }));
  assert.equal(badOrigin.code, 'BAD_REQUEST');
  const wildcard = await trpcFailureOf(admin.partner.addOrigin({ origin: 'https://*.example.com' }));
  assert.equal(wildcard.code, 'BAD_REQUEST');
  assert.equal((wildcard.cause as { code?: string } | undefined)?.code, 'INVALID_BROWSER_ORIGIN');
  await admin.partner.addOrigin({ origin: 'https://erp.example.com' });
  assert.deepEqual(
    (await admin.partner.origins()).origins.map((row) => row.origin),
    ['https://erp.example.com'],
  );
  // The developer may not register origins nor read billing (the table says so).
  const developer = callerOf(harness, world.sessions.partnerDeveloper);
  assert.equal(
    (await trpcFailureOf(developer.partner.addOrigin({ origin: 'https://x.example.com' }))).code,
    'FORBIDDEN',
  );
  const usage = await admin.partner.billing({ month: '2020-01' });
  assert.equal(usage.accepted, 0);
  // A tenant owner is no Partner's person.
  assert.equal(
    (await trpcFailureOf(callerOf(harness, world.sessions.owner).partner.accounts())).code,
    'FORBIDDEN',
  );
  // The session shows the Partner pages to its people.
  const current = await admin.session.current();
  assert.ok(current.capabilities.includes('partner.billing.read'));
});
