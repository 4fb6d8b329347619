// The sequences and annulments procedures: a developer registers a range and prevalidates (the
// conflicts per document, never another tenant's), sends (the page's key replays), reads the
// state; an accountant is refused; another tenant's annulment is NOT_FOUND; support reads only.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TRPCError } from '@trpc/server';
import { seedDocument } from '@ecf/db';
import { createTestCertificate } from '@ecf/fiscal-core/testing';
import { storeTenantCertificate } from '@ecf/services';
import {
  callerOf,
  openPortalHarness,
  seedWorld,
  sessionOf,
  TEST_CERTIFICATE_KEYRING,
  trpcFailureOf,
  type TPortalHarness,
} from '../../../test/portal-harness.ts';

let harness: TPortalHarness;
before(async () => {
  harness = await openPortalHarness();
});
after(async () => {
  await harness.close();
});

const detailsOf = (error: TRPCError) => error.cause as { code?: string; details?: Record<string, unknown> };

let block = 0;
function freshRange(size = 10) {
  block += 1;
  const start = (Date.now() % 1_000_000) * 1000 + block * 50;
  const encf = (sequence: number) => `E31${String(sequence).padStart(10, '0')}`;
  return {
    type: '31' as const,
    from: encf(start),
    to: encf(start + size - 1),
    at: (offset: number) => encf(start + offset),
  };
}

test('a developer registers a range; an overlap and a reversed range reach the form with their codes', async () => {
  const world = await seedWorld(harness.database);
  const developer = callerOf(harness, world.sessions.developer);
  const range = freshRange(100);
  const { range: registered } = await developer.sequences.register({
    environment: 'TesteCF',
    type: '31',
    from: range.from,
    to: range.to,
    sequenceExpirationDate: '2028-12-31',
  });
  assert.equal(registered.counts.total, 100);
  const listed = await developer.sequences.list({ environment: 'TesteCF' });
  assert.deepEqual(
    listed.ranges.map((item) => item.id),
    [registered.id],
  );
  assert.equal(listed.canManage, true);

  const overlap = await trpcFailureOf(
    developer.sequences.register({
      environment: 'TesteCF',
      type: '31',
      from: range.at(50),
      to: range.at(150),
      sequenceExpirationDate: '2028-12-31',
    }),
  );
  assert.equal(overlap.code, 'CONFLICT');
  assert.equal(detailsOf(overlap).code, 'SEQUENCE_RANGE_OVERLAP');
  const reversed = await trpcFailureOf(
    developer.sequences.register({
      environment: 'TesteCF',
      type: '31',
      from: range.to,
      to: range.from,
      sequenceExpirationDate: '2028-12-31',
    }),
  );
  assert.equal(detailsOf(reversed).code, 'SEQUENCE_RANGE_INVALID');

  // The accountant has no access; support reads but never registers.
  const accountant = await trpcFailureOf(
    callerOf(harness, world.sessions.accountant).sequences.list({ environment: 'TesteCF' }),
  );
  assert.equal(accountant.code, 'FORBIDDEN');
  const support = callerOf(harness, world.sessions.support);
  assert.equal((await support.sequences.list({ environment: 'TesteCF' })).canManage, false);
});

test('prevalidate lists this tenant’s conflicts per document, never another tenant’s', async () => {
  const world = await seedWorld(harness.database);
  const owner = callerOf(harness, world.sessions.owner);
  const range = freshRange(10);
  const mine = await seedDocument(harness.database, {
    tenantId: world.tenant.id,
    encf: range.at(2),
    status: 'accepted',
  });
  await seedDocument(harness.database, {
    tenantId: world.otherTenant.id,
    encf: range.at(4),
    status: 'accepted',
  });
  const refused = await trpcFailureOf(
    owner.annulments.prevalidate({
      environment: 'TesteCF',
      ranges: [{ type: '31', from: range.from, to: range.to }],
    }),
  );
  assert.equal(refused.code, 'BAD_REQUEST');
  const details = detailsOf(refused);
  assert.equal(details.code, 'ANECF_DOCUMENT_CONFLICT');
  assert.deepEqual(details.details?.['conflicts'], [
    {
      encf: mine.encf,
      documentId: mine.id,
      status: 'accepted',
      reason: 'document_already_submitted_or_taxauth_validated',
    },
  ]);

  const free = freshRange(10_000);
  const checked = await owner.annulments.prevalidate({
    environment: 'TesteCF',
    ranges: [{ type: '31', from: free.from, to: free.to }],
  });
  assert.equal(checked.count, 10_000);
});

test('send with the page’s key (a second click replays), read the state; another tenant gets NOT_FOUND', async () => {
  const world = await seedWorld(harness.database);
  const generated = createTestCertificate({ rnc: world.tenant.rnc, commonName: 'Firmante' });
  await storeTenantCertificate({
    database: harness.database,
    tenantId: world.tenant.id,
    p12: generated.p12,
    password: generated.password,
    keyring: TEST_CERTIFICATE_KEYRING,
  });
  const developer = callerOf(harness, world.sessions.developer);
  const range = freshRange(5);
  const input = {
    environment: 'TesteCF' as const,
    ranges: [{ type: '31' as const, from: range.from, to: range.to }],
    reason: 'Caja retirada',
    idempotencyKey: randomUUID(),
  };
  const first = await developer.annulments.send(input);
  // The harness's tax authority is unreachable: the ANECF never left and stays built.
  assert.equal(first.annulment.status, 'built');
  assert.equal(first.annulment.reason, 'Caja retirada');
  const second = await developer.annulments.send(input);
  assert.equal(second.annulment.id, first.annulment.id);

  const state = await developer.annulments.get({ environment: 'TesteCF', annulmentId: first.annulment.id });
  assert.equal(state.annulment.ranges[0]?.count, 5);
  // The list has it once (the replay stored nothing), with counts instead of the documents.
  const listed = await developer.annulments.list({ environment: 'TesteCF' });
  assert.deepEqual(
    listed.items.map((item) => [item.id, item.status, item.coveredCounts.cancelled]),
    [[first.annulment.id, 'built', 0]],
  );
  assert.equal(listed.nextCursor, null);
  assert.deepEqual(
    (await developer.annulments.list({ environment: 'TesteCF', status: 'accepted' })).items,
    [],
  );
  const forged = await trpcFailureOf(developer.annulments.list({ environment: 'TesteCF', cursor: 'bm9wZQ' }));
  assert.equal(forged.code, 'BAD_REQUEST');
  // Another tenant's list does not show it.
  const foreignList = await callerOf(
    harness,
    await sessionOf(harness.database, world.otherOwner.id, world.otherTenant.id),
  ).annulments.list({ environment: 'TesteCF' });
  assert.deepEqual(foreignList.items, []);
  const hidden = await trpcFailureOf(
    callerOf(
      harness,
      await sessionOf(harness.database, world.otherOwner.id, world.otherTenant.id),
    ).annulments.get({
      environment: 'TesteCF',
      annulmentId: first.annulment.id,
    }),
  );
  assert.equal(hidden.code, 'NOT_FOUND');
  // Another environment of the same tenant does not have it either.
  const elsewhere = await trpcFailureOf(
    developer.annulments.get({ environment: 'eCF', annulmentId: first.annulment.id }),
  );
  assert.equal(elsewhere.code, 'NOT_FOUND');
  const notUncertain = await trpcFailureOf(
    developer.annulments.reconcile({
      environment: 'TesteCF',
      annulmentId: first.annulment.id,
      outcome: 'accepted',
      evidence: 'codigo 1',
    }),
  );
  assert.equal(detailsOf(notUncertain).code, 'ANECF_NOT_UNCERTAIN');
});
