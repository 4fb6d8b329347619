import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadXsdValidators, OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { seedDocument, seedTenant, sqlPoolOf } from '@ecf/db';
import type { TXsdValidators } from '@ecf/fiscal-core';
import {
  newEncf,
  openTransmissionHarness,
  type TTransmissionHarness,
} from '../../test/transmission-harness.ts';
import { AppError } from '../shared/errors.ts';
import { ANNULMENT_CONFLICT_REASONS } from './annulment-model.ts';
import { getAnnulment } from './get-annulment.ts';
import { listAnnulments } from './list-annulments.ts';
import { prevalidateAnnulment } from './prevalidate-annulment.ts';
import { reconcileAnnulment } from './reconcile-annulment.ts';
import { recoverAnnulments } from './recover-annulments.ts';
import { sendAnnulment } from './send-annulment.ts';

let h: TTransmissionHarness;
let xsd: TXsdValidators;

before(async () => {
  h = await openTransmissionHarness();
  xsd = await loadXsdValidators(OFFICIAL_XSD_DIRECTORY);
});
after(async () => {
  await h.close();
});

/** A fresh block of `size` consecutive E31 eNCFs. */
function block(size: number): string[] {
  const first = Number(newEncf('31').slice(3));
  return Array.from({ length: size }, (_, index) => `E31${String(first + index).padStart(10, '0')}`);
}

const range = (encfs: string[]) => ({
  type: '31',
  from: encfs[0] as string,
  to: encfs[encfs.length - 1] as string,
});

function base() {
  return {
    database: h.database,
    tenant: { id: h.tenant.id, rnc: h.tenant.rnc },
    environment: 'TesteCF' as const,
    xsd,
    clientFor: h.clientFor,
    loadCertificate: async () => h.certificate,
  };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError, `expected an AppError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a rejection');
}

async function setDocument(id: string, sql: string, values: unknown[] = []): Promise<void> {
  await sqlPoolOf(h.database).query(`UPDATE documents SET ${sql} WHERE id = $1::uuid`, [id, ...values]);
}

describe('prevalidate', () => {
  test('CerteCF is 400 ANECF_NOT_AVAILABLE_IN_CERTECF', async () => {
    const error = await rejection(
      prevalidateAnnulment({ ...base(), environment: 'CerteCF', request: { ranges: [range(block(2))] } }),
    );
    assert.equal(error.code, 'ANECF_NOT_AVAILABLE_IN_CERTECF');
    assert.equal(error.status, 400);
  });

  test('reversed ranges, another type prefix: 400 ANECF_INVALID on the field', async () => {
    const [a, b] = block(2) as [string, string];
    const reversed = await rejection(
      prevalidateAnnulment({ ...base(), request: { ranges: [{ type: '31', from: b, to: a }] } }),
    );
    assert.equal(reversed.code, 'ANECF_INVALID');
    assert.equal((reversed.details['errors'] as Array<{ path: string }>)[0]?.path, 'ranges[0]');
    const otherType = await rejection(
      prevalidateAnnulment({ ...base(), request: { ranges: [{ type: '32', from: a, to: b }] } }),
    );
    assert.equal(otherType.code, 'ANECF_INVALID');
  });

  test('every reason value; documents that never left are cancellable; other tenants never reported', async () => {
    const encfs = block(8);
    const at = (index: number) => encfs[index] as string;
    const submitted = await seedDocument(h.database, {
      tenantId: h.tenant.id,
      encf: at(0),
      status: 'accepted',
    });
    const contingency = await seedDocument(h.database, {
      tenantId: h.tenant.id,
      encf: at(1),
      status: 'contingency',
    });
    const inProgress = await seedDocument(h.database, {
      tenantId: h.tenant.id,
      encf: at(2),
      status: 'signed',
    });
    await setDocument(inProgress.id, 'attempts = 1, updated_at = now()');
    const uncertain = await seedDocument(h.database, {
      tenantId: h.tenant.id,
      encf: at(3),
      status: 'signed',
    });
    await setDocument(uncertain.id, "attempts = 1, updated_at = now() - interval '1 hour'");
    const delivered = await seedDocument(h.database, {
      tenantId: h.tenant.id,
      encf: at(4),
      status: 'accepted',
    });
    await sqlPoolOf(h.database).query(
      `INSERT INTO receiver_deliveries (document_id, tenant_id, status, updated_at) VALUES ($1::uuid, $2::uuid, 'sent', now())`,
      [delivered.id, h.tenant.id],
    );
    const queued = await seedDocument(h.database, {
      tenantId: h.tenant.id,
      encf: at(5),
      status: 'queued_for_signing',
    });
    const other = await seedTenant(h.database);
    await seedDocument(h.database, { tenantId: other.id, encf: at(6), status: 'accepted' });

    const error = await rejection(prevalidateAnnulment({ ...base(), request: { ranges: [range(encfs)] } }));
    assert.equal(error.code, 'ANECF_DOCUMENT_CONFLICT');
    assert.equal(error.status, 400);
    const conflicts = error.details['conflicts'] as Array<{
      documentId: string;
      reason: string;
      encf: string;
    }>;
    assert.deepEqual(
      conflicts.map((conflict) => [conflict.documentId, conflict.reason]),
      [
        [submitted.id, 'document_already_submitted_or_taxauth_validated'],
        [contingency.id, 'document_in_contingency'],
        [inProgress.id, 'document_taxauth_submission_in_progress'],
        [uncertain.id, 'document_taxauth_submission_uncertain'],
        [delivered.id, 'document_already_delivered_to_receiver'],
      ],
    );
    assert.deepEqual(
      new Set(conflicts.map((conflict) => conflict.reason)),
      new Set(ANNULMENT_CONFLICT_REASONS),
    );
    assert.ok(
      !conflicts.some((conflict) => conflict.encf === at(6)),
      "another tenant's document is never reported",
    );

    const clean = await prevalidateAnnulment({ ...base(), request: { ranges: [range(encfs.slice(5))] } });
    assert.equal(clean.count, 3);
    assert.deepEqual(
      clean.coveredDocuments.cancellable.map((document) => document.documentId),
      [queued.id],
    );
  });
});

describe('send', () => {
  test('Idempotency-Key required (428) and at most 200 characters', async () => {
    const request = { ranges: [range(block(1))] };
    const missing = await rejection(sendAnnulment({ ...base(), request, idempotencyKey: undefined }));
    assert.equal(missing.status, 428);
    const long = await rejection(sendAnnulment({ ...base(), request, idempotencyKey: 'k'.repeat(201) }));
    assert.equal(long.status, 400);
  });

  test('accepted: 202, documents that never left cancelled with their jobs, replay, key conflict, emission 409', async () => {
    const encfs = block(10);
    const queued = await seedDocument(h.database, { tenantId: h.tenant.id, encf: encfs[2] as string });
    const signed = await h.seedSignedDocument({ encf: encfs[3] as string });
    const key = `accept-${encfs[0]}`;
    const request = { ranges: [range(encfs)], reason: 'Caja retirada' };
    const result = await sendAnnulment({ ...base(), request, idempotencyKey: key });
    assert.equal(result.httpStatus, 202);
    assert.equal(result.annulment.status, 'accepted');
    assert.equal(result.annulment.ok, true);
    assert.equal(result.annulment.count, 10);
    assert.equal(result.annulment.taxauth?.codigo, '1');
    assert.deepEqual(
      result.annulment.coveredDocuments.cancelled.map((document) => document.documentId).sort(),
      [queued.id, signed.document.id].sort(),
    );
    assert.deepEqual(result.annulment.coveredDocuments.skipped, []);
    const stored = await h.database.document.findUnique({ where: { id: signed.document.id } });
    assert.equal(stored?.status, 'cancelled');
    const events = await h.eventsOf(queued.id);
    assert.equal(events.at(-1)?.type, 'cancelled_by_annulment');

    const replay = await sendAnnulment({ ...base(), request, idempotencyKey: key });
    assert.equal(replay.replayed, true);
    assert.equal(replay.httpStatus, 202);
    assert.equal(replay.annulment.id, result.annulment.id);

    const conflict = await rejection(
      sendAnnulment({ ...base(), request: { ...request, reason: 'otra' }, idempotencyKey: key }),
    );
    assert.equal(conflict.code, 'ANECF_IDEMPOTENCY_CONFLICT');
    assert.equal(conflict.status, 409);

    // Emission of an unused eNCF of the annulled range: refused by the insert trigger.
    await assert.rejects(
      seedDocument(h.database, { tenantId: h.tenant.id, encf: encfs[7] as string }),
      (error: unknown) => {
        const cause = (error as { meta?: { code?: string }; code?: string; message?: string }).message ?? '';
        return /EC409|reserved or annulled/.test(cause) || JSON.stringify(error).includes('EC409');
      },
    );

    const fetched = await getAnnulment({
      database: h.database,
      tenantId: h.tenant.id,
      environment: 'TesteCF',
      annulmentId: result.annulment.id,
    });
    assert.equal(fetched.status, 'accepted');
    const other = await seedTenant(h.database);
    const hidden = await rejection(
      getAnnulment({
        database: h.database,
        tenantId: other.id,
        environment: 'TesteCF',
        annulmentId: result.annulment.id,
      }),
    );
    assert.equal(hidden.code, 'NOT_FOUND');
    const otherEnvironment = await rejection(
      getAnnulment({
        database: h.database,
        tenantId: h.tenant.id,
        environment: 'eCF',
        annulmentId: result.annulment.id,
      }),
    );
    assert.equal(otherEnvironment.code, 'NOT_FOUND');
  });

  test('the same key and body sent 5 times at once: one annulment, one upload, the others replay it', async () => {
    const encfs = block(2);
    const request = { ranges: [range(encfs)] };
    const key = `same-${encfs[0]}`;
    const results = await Promise.all(
      Array.from({ length: 5 }, () => sendAnnulment({ ...base(), request, idempotencyKey: key })),
    );
    assert.equal(new Set(results.map((result) => result.annulment.id)).size, 1);
    assert.equal(results.filter((result) => !result.replayed).length, 1);
    const final = await getAnnulment({
      database: h.database,
      tenantId: h.tenant.id,
      environment: 'TesteCF',
      annulmentId: results[0]?.annulment.id as string,
    });
    assert.equal(final.status, 'accepted');
  });

  test('one ANECF with several types and ranges', async () => {
    const e31 = block(3);
    const first32 = Number(newEncf('32').slice(3));
    const e32 = [0, 1].map((offset) => `E32${String(first32 + offset).padStart(10, '0')}`);
    const request = {
      ranges: [
        range(e31.slice(0, 1)),
        { type: '32', from: e32[0] as string, to: e32[1] as string },
        range(e31.slice(2)),
      ],
    };
    const result = await sendAnnulment({ ...base(), request, idempotencyKey: `multi-${e31[0]}` });
    assert.equal(result.annulment.status, 'accepted');
    assert.deepEqual(
      result.annulment.ranges.map((item) => [item.type, item.count]),
      [
        ['31', 1],
        ['32', 2],
        ['31', 1],
      ],
    );
    assert.equal(result.annulment.count, 4);
    // The number between the two E31 ranges stays free.
    const free = await seedDocument(h.database, { tenantId: h.tenant.id, encf: e31[1] as string });
    assert.equal(free.status, 'queued_for_signing');
  });

  test('a range another annulment holds is 409 ANECF_RANGE_RESERVED', async () => {
    const encfs = block(6);
    await h.addFault({ service: 'anulacionrangos', fault: 'lose_answer', count: 1 });
    const first = await sendAnnulment({
      ...base(),
      request: { ranges: [range(encfs.slice(0, 4))] },
      idempotencyKey: `a-${encfs[0]}`,
    });
    assert.equal(first.httpStatus, 502);
    assert.equal(first.annulment.status, 'uncertain');
    const second = await rejection(
      sendAnnulment({
        ...base(),
        request: { ranges: [range(encfs.slice(3))] },
        idempotencyKey: `b-${encfs[0]}`,
      }),
    );
    assert.equal(second.code, 'ANECF_RANGE_RESERVED');
    assert.equal(second.details['annulmentId'], first.annulment.id);
  });

  test('uncertain (no answer): 502, never resent; reconcile once, replay, conflicts, not uncertain', async () => {
    const encfs = block(3);
    const queued = await seedDocument(h.database, { tenantId: h.tenant.id, encf: encfs[1] as string });
    await h.addFault({ service: 'anulacionrangos', fault: 'lose_answer', count: 1 });
    const key = `u-${encfs[0]}`;
    const request = { ranges: [range(encfs)] };
    const sent = await sendAnnulment({ ...base(), request, idempotencyKey: key });
    assert.equal(sent.httpStatus, 502);
    assert.equal(sent.annulment.ok, false);
    const again = await sendAnnulment({ ...base(), request, idempotencyKey: key });
    assert.equal(again.replayed, true);
    assert.equal(again.httpStatus, 502);

    const common = {
      database: h.database,
      tenantId: h.tenant.id,
      environment: 'TesteCF' as const,
      annulmentId: sent.annulment.id,
    };
    const incompatible = await rejection(
      reconcileAnnulment({ ...common, outcome: 'accepted', evidence: { content: '{"codigo":"2"}' } }),
    );
    assert.equal(incompatible.code, 'ANECF_RECONCILIATION_CONFLICT');
    const evidence = {
      content: '{"rnc":"x","codigo":"1","nombre":"Aceptado","mensajes":[]}',
      contentType: 'application/json',
    };
    const reconciled = await reconcileAnnulment({ ...common, outcome: 'accepted', evidence });
    assert.equal(reconciled.replayed, false);
    assert.equal(reconciled.annulment.status, 'accepted');
    assert.deepEqual(
      reconciled.annulment.coveredDocuments.cancelled.map((document) => document.documentId),
      [queued.id],
    );
    assert.equal(reconciled.annulment.reconciliation?.outcome, 'accepted');
    const artifact = await h.database.artifact.findMany({
      where: { tenantId: h.tenant.id, kind: 'evidence', documentId: null },
    });
    assert.ok(artifact.some((row) => row.sha256 === reconciled.annulment.reconciliation?.evidenceSha256));
    const replay = await reconcileAnnulment({ ...common, outcome: 'accepted', evidence });
    assert.equal(replay.replayed, true);
    const other = await rejection(
      reconcileAnnulment({ ...common, outcome: 'rejected', evidence: { content: 'x' } }),
    );
    assert.equal(other.code, 'ANECF_RECONCILIATION_CONFLICT');

    const accepted = await sendAnnulment({
      ...base(),
      request: { ranges: [range(block(1))] },
      idempotencyKey: `ok-${encfs[0]}`,
    });
    const notUncertain = await rejection(
      reconcileAnnulment({ ...common, annulmentId: accepted.annulment.id, outcome: 'accepted', evidence }),
    );
    assert.equal(notUncertain.code, 'ANECF_NOT_UNCERTAIN');
  });

  test('rejected: 422 with the messages, ranges freed, sent again with another key', async () => {
    const encfs = block(3);
    // The tax authority already received an eNCF of the range (sent there without a local document).
    const taxpayer = h
      .clientFor('TesteCF')
      .forTaxpayer({ cacheKey: h.tenant.id, certificate: h.certificate });
    const outside = await h.seedSignedDocument({ encf: encfs[1] as string });
    await taxpayer.sendEcf({ xml: outside.xml });
    const request = { ranges: [range(encfs)] };
    const result = await sendAnnulment({ ...base(), request, idempotencyKey: `r-${encfs[0]}` });
    assert.equal(result.httpStatus, 422);
    assert.equal(result.annulment.status, 'rejected');
    assert.equal(result.annulment.ok, false);
    assert.ok((result.annulment.taxauth?.mensajes.length ?? 0) > 0);
    // Freed: another annulment of the same numbers may reserve them (then rejected again by the tax authority).
    const again = await sendAnnulment({
      ...base(),
      request: { ranges: [range(encfs.slice(2))] },
      idempotencyKey: `r2-${encfs[0]}`,
    });
    assert.equal(again.annulment.status, 'accepted');
  });
});

/**
 * Another account of the harness's taxpayer (same RNC and certificate) whose client holds no token
 * yet: an authentication fault keeps its ANECF from ever reaching the annulment service.
 */
async function unauthenticatedAccount() {
  const tenant = await seedTenant(h.database);
  return { ...base(), tenant: { id: tenant.id, rnc: h.tenant.rnc } };
}

describe('an ANECF that never reached the tax authority', () => {
  test('unreachable: 200 built, ranges held; the same key sends it later (accepted)', async () => {
    const encfs = block(3);
    const own = await unauthenticatedAccount();
    await h.addFault({ service: 'autenticacion', fault: 'auth_down' });
    const key = `u-${encfs[0]}`;
    const first = await sendAnnulment({
      ...own,
      request: { ranges: [range(encfs)] },
      idempotencyKey: key,
    }).finally(() => h.clearFaults());
    assert.equal(first.httpStatus, 200);
    assert.equal(first.annulment.status, 'built');
    assert.equal(first.annulment.taxauth?.codigo ?? null, null);
    // Held meanwhile: an emission of one of its eNCF is refused.
    await assert.rejects(seedDocument(h.database, { tenantId: own.tenant.id, encf: encfs[1] as string }));
    const again = await sendAnnulment({ ...own, request: { ranges: [range(encfs)] }, idempotencyKey: key });
    assert.equal(again.replayed, true);
    assert.equal(again.annulment.id, first.annulment.id);
    assert.equal(again.annulment.status, 'accepted');
  });

  test('left built for 24 h: the sweep makes it failed and frees its ranges (never sent)', async () => {
    const encfs = block(2);
    const own = await unauthenticatedAccount();
    await h.addFault({ service: 'autenticacion', fault: 'auth_down' });
    const key = `x-${encfs[0]}`;
    const built = await sendAnnulment({
      ...own,
      request: { ranges: [range(encfs)] },
      idempotencyKey: key,
    }).finally(() => h.clearFaults());
    assert.equal(built.annulment.status, 'built');
    // Not yet stale: kept.
    const early = await recoverAnnulments({ database: h.database });
    assert.equal(early.failed, 0);
    const later = new Date(Date.now() + 24 * 60 * 60_000 + 60_000);
    const swept = await recoverAnnulments({ database: h.database, now: later });
    assert.ok(swept.failed >= 1, JSON.stringify(swept));
    const state = await getAnnulment({
      database: h.database,
      tenantId: own.tenant.id,
      environment: 'TesteCF',
      annulmentId: built.annulment.id,
    });
    assert.equal(state.status, 'failed');
    assert.equal(state.ok, false);
    // The same key answers the failed annulment and sends nothing; the numbers are free again.
    const replay = await sendAnnulment({ ...own, request: { ranges: [range(encfs)] }, idempotencyKey: key });
    assert.equal(replay.replayed, true);
    assert.equal(replay.annulment.status, 'failed');
    const emitted = await seedDocument(h.database, { tenantId: own.tenant.id, encf: encfs[0] as string });
    assert.equal(emitted.encf, encfs[0]);
    assert.equal(await h.receptionsOf(encfs[0] as string), 0);
  });
});

describe('list', () => {
  test('newest first, a status filter, cursor pages bound to their filter, other tenants never listed', async () => {
    const tenant = await seedTenant(h.database);
    const own = { ...base(), tenant: { id: tenant.id, rnc: h.tenant.rnc } };
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const encfs = block(2);
      if (index === 1) await h.addFault({ service: 'anulacionrangos', fault: 'lose_answer', count: 1 });
      const sent = await sendAnnulment({
        ...own,
        request: { ranges: [range(encfs)] },
        idempotencyKey: `l-${encfs[0]}`,
      });
      ids.push(sent.annulment.id);
    }
    const scope = { database: h.database, tenantId: tenant.id, environment: 'TesteCF' as const };
    const all = await listAnnulments({ ...scope });
    assert.deepEqual(
      all.items.map((item) => item.id),
      [...ids].reverse(),
    );
    assert.equal(all.nextCursor, null);
    const uncertain = await listAnnulments({ ...scope, status: 'uncertain' });
    assert.deepEqual(
      uncertain.items.map((item) => item.id),
      [ids[1]],
    );
    const page = await listAnnulments({ ...scope, limit: 1 });
    assert.ok(page.nextCursor);
    const next = await listAnnulments({ ...scope, limit: 5, cursor: page.nextCursor });
    assert.deepEqual(
      next.items.map((item) => item.id),
      [ids[1], ids[0]],
    );
    const crossed = await rejection(
      listAnnulments({ ...scope, status: 'accepted', cursor: page.nextCursor }),
    );
    assert.equal(crossed.code, 'INVALID_REQUEST');
    const elsewhere = await listAnnulments({ ...scope, tenantId: h.tenant.id, limit: 100 });
    assert.ok(elsewhere.items.every((item) => !ids.includes(item.id)));
  });
});
