/**
 * The emission ⇄ annulment race against the real database: both orders forced (one side holds its
 * transaction open while the other starts), and 200 concurrent pairs. Exactly one side wins each
 * eNCF: either the document is stored first and the reservation sees it (and, if it was claimed for
 * sending, refuses the range), or the reservation commits first and the emission (or the send
 * claim) is refused.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { loadXsdValidators, OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { seedDocument, seedTenant, sqlPoolOf, type TDatabase } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { createTestCertificate, type TXsdValidators } from '@ecf/fiscal-core';
import {
  seedQueuedDocument,
  SIGNING_TEST_SUBMITTED_AT,
  SIGNING_TEST_TENANT,
} from '../../test/signing-fixtures.ts';
import { createCertificateKeyring, storeTenantCertificate } from '../accounts/index.ts';
import { signQueuedDocument } from '../signing/sign-queued-document.ts';
import { issueDocument } from '../emission/issue-document.ts';
import {
  RESERVED_ENCF_SQLSTATE,
  reserveAnnulment,
  reservingAnnulmentOf,
  type TCoveredDocumentRow,
  type TReservation,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { conflictsOf } from './annulment-model.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
let database: TDatabase;
let tenant: Awaited<ReturnType<typeof seedTenant>>;
let xsd: TXsdValidators;

before(async () => {
  context = await openTestDatabase();
  database = context.database;
  tenant = await seedTenant(database);
  xsd = await loadXsdValidators(OFFICIAL_XSD_DIRECTORY);
});
after(async () => {
  xsd.dispose();
  await context.close();
});

let nextBase = randomInt(1, 1_000_000_000);
function freshEncf(): string {
  nextBase += 1;
  return `E31${String(nextBase).padStart(10, '0')}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a promise is still pending after `ms`. */
async function stillPending(promise: Promise<unknown>, ms = 300): Promise<boolean> {
  const marker = Symbol('pending');
  const winner = await Promise.race([
    promise.then(
      () => 'settled',
      () => 'settled',
    ),
    sleep(ms).then(() => marker),
  ]);
  return winner === marker;
}

function reserve(encf: string, hold?: Promise<void>, entered?: () => void): Promise<TReservation> {
  return reserveAnnulment(database, {
    id: randomUUID(),
    tenantId: tenant.id,
    environment: 'TesteCF',
    idempotencyKey: `race-${encf}-${randomUUID()}`,
    requestFingerprint: 'f'.repeat(64),
    request: { ranges: [{ type: '31', from: encf, to: encf }], reason: null },
    signedXml: '<ANECF/>',
    ranges: [
      {
        type: 31,
        prefix: 'E31',
        firstEncf: encf,
        lastEncf: encf,
        firstNumber: Number(encf.slice(3)),
        lastNumber: Number(encf.slice(3)),
      },
    ],
    now: new Date(),
    isBlocking: async (documents: TCoveredDocumentRow[]) => {
      entered?.();
      if (hold) await hold;
      return conflictsOf(documents, new Date()).length > 0;
    },
  });
}

async function emit(encf: string) {
  const body = {
    type: 'E31',
    encf,
    sequenceExpirationDate: '31-12-2027',
    issueDate: '2026-04-01',
    buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
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

/** The worker's send claim (attempts + 1), as `sendToTaxauth` commits it before the request leaves. */
async function claim(documentId: string): Promise<void> {
  await sqlPoolOf(database).query('UPDATE documents SET attempts = attempts + 1 WHERE id = $1::uuid', [
    documentId,
  ]);
}

const isRefusal = (error: unknown, state: string) => reservingAnnulmentOf(error, state) !== null;

describe('forced orders', () => {
  test('emission first: the reservation waits for its commit and sees the document', async () => {
    const encf = freshEncf();
    const connection = await sqlPoolOf(database).connect();
    try {
      await connection.query('BEGIN');
      const { rows } = await connection.query<{ id: string }>(
        `INSERT INTO documents (id, tenant_id, environment, type, encf, status, format, issue_date, total_amount, submitted_payload, updated_at)
         VALUES (gen_random_uuid(), $1::uuid, 'TesteCF', 31, $2, 'queued_for_signing', 'simplified', '2026-04-01', 1, '{}', now()) RETURNING id`,
        [tenant.id, encf],
      );
      const reservation = reserve(encf);
      assert.ok(
        await stillPending(reservation),
        'the reservation must wait for the emission holding the lock',
      );
      await connection.query('COMMIT');
      const result = await reservation;
      assert.equal(result.kind, 'reserved');
      assert.deepEqual(result.kind === 'reserved' ? result.documents.map((row) => row.id) : [], [
        rows[0]?.id,
      ]);
      // The document never left: it may not be claimed for sending any more (the annulment cancels it).
      await assert.rejects(claim(rows[0]?.id as string), (error) =>
        isRefusal(error, RESERVED_ENCF_SQLSTATE.sendClaim),
      );
    } finally {
      connection.release();
    }
  });

  test('send claim first: the reservation waits for it and refuses the range', async () => {
    const encf = freshEncf();
    const document = await seedDocument(database, { tenantId: tenant.id, encf, status: 'signed' });
    const connection = await sqlPoolOf(database).connect();
    try {
      await connection.query('BEGIN');
      await connection.query(
        'UPDATE documents SET attempts = attempts + 1, updated_at = now() WHERE id = $1::uuid',
        [document.id],
      );
      const reservation = reserve(encf);
      assert.ok(await stillPending(reservation));
      await connection.query('COMMIT');
      const result = await reservation;
      assert.equal(result.kind, 'blocked');
      const conflicts = result.kind === 'blocked' ? conflictsOf(result.documents, new Date()) : [];
      assert.deepEqual(
        conflicts.map((conflict) => conflict.reason),
        ['document_taxauth_submission_in_progress'],
      );
    } finally {
      connection.release();
    }
  });

  test('annulment first: the emission waits for the reservation and gets 409 ENCF_ANNULLED', async () => {
    const encf = freshEncf();
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const reservation = reserve(encf, hold, entered);
    await inside; // the reservation holds the exclusive lock
    const emission = emit(encf);
    assert.ok(await stillPending(emission), 'the emission must wait for the reservation holding the lock');
    release();
    assert.equal((await reservation).kind, 'reserved');
    await assert.rejects(
      emission,
      (error) => error instanceof AppError && error.code === 'ENCF_ANNULLED' && error.status === 409,
    );
    const stored = await database.document.findFirst({ where: { tenantId: tenant.id, encf } });
    assert.equal(stored, null, 'nothing stored');
  });

  test('annulment first: a send claim waits for the reservation and is refused', async () => {
    const encf = freshEncf();
    const document = await seedDocument(database, { tenantId: tenant.id, encf, status: 'signed' });
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const reservation = reserve(encf, hold, entered);
    await inside;
    const claimed = claim(document.id);
    assert.ok(await stillPending(claimed));
    release();
    assert.equal((await reservation).kind, 'reserved');
    await assert.rejects(claimed, (error) => isRefusal(error, RESERVED_ENCF_SQLSTATE.sendClaim));
    const stored = await database.document.findUnique({ where: { id: document.id } });
    assert.equal(stored?.attempts, 0);
  });
});

describe('replays inside a reserved range', () => {
  test('the same eNCF and JSON again is still a replay; other content is still ENCF_CONFLICT', async () => {
    const encf = freshEncf();
    const first = await emit(encf);
    assert.equal((await reserve(encf)).kind, 'reserved');
    const again = await emit(encf);
    assert.equal(again.outcome, 'replayed');
    assert.equal(again.document.id, first.document.id);
    const body = {
      type: 'E31',
      encf,
      sequenceExpirationDate: '31-12-2027',
      issueDate: '2026-04-01',
      buyer: { rnc: '101672919', name: 'Otro' },
      paymentType: 'card',
      incomeType: '01',
      lines: [{ name: 'Otro', quantity: 2, unitPrice: '450.00', itbisRate: 18, itemKind: 'good' }],
    };
    const other = await issueDocument({
      database,
      tenant,
      environment: 'TesteCF',
      xsd,
      now: new Date('2026-04-01T14:15:00Z'),
      rawBody: JSON.stringify(body),
      body,
      enqueue: async () => {},
    }).catch((error: unknown) => error);
    assert.ok(other instanceof AppError && other.code === 'ENCF_CONFLICT', String(other));
  });
});

describe('200 concurrent pairs', () => {
  test('emission ⇄ reservation: exactly one winner per eNCF', async () => {
    const encfs = Array.from({ length: 200 }, freshEncf);
    const results = await Promise.all(
      encfs.map(async (encf, index) => {
        // Alternate who starts first, each after a random delay: every pair is in flight with the
        // 399 other requests, and both orders happen (an emission validates for a few ms of CPU
        // before its insert, so the reservations get a wider spread).
        const later = <T>(work: () => Promise<T>, spreadMs: number) =>
          sleep(randomInt(0, spreadMs)).then(work);
        const [emission, reservation] =
          index % 2 === 0
            ? await Promise.allSettled([later(() => emit(encf), 200), later(() => reserve(encf), 3000)])
            : await Promise.allSettled([later(() => reserve(encf), 3000), later(() => emit(encf), 200)]).then(
                ([r, e]) => [e, r] as const,
              );
        return { encf, emission, reservation };
      }),
    );
    let emissionFirst = 0;
    let annulmentFirst = 0;
    for (const { encf, emission, reservation } of results) {
      assert.equal(
        reservation.status,
        'fulfilled',
        `${encf}: the reservation failed: ${String((reservation as PromiseRejectedResult).reason)}`,
      );
      const reserved = reservation.value;
      assert.equal(reserved.kind, 'reserved', `${encf}: a stored, never-sent document does not block`);
      if (emission.status === 'fulfilled') {
        // The document won the lock first: the reservation saw it (the annulment cancels it; it never leaves).
        emissionFirst += 1;
        const seen = reserved.kind === 'reserved' ? reserved.documents.map((row) => row.id) : [];
        assert.deepEqual(
          seen,
          [emission.value.document.id],
          `${encf}: the reservation must see the committed document`,
        );
        await assert.rejects(claim(emission.value.document.id), (error) =>
          isRefusal(error, RESERVED_ENCF_SQLSTATE.sendClaim),
        );
      } else {
        annulmentFirst += 1;
        const error = emission.reason as unknown;
        assert.ok(error instanceof AppError && error.code === 'ENCF_ANNULLED', `${encf}: ${String(error)}`);
        assert.equal(await database.document.count({ where: { tenantId: tenant.id, encf } }), 0);
      }
    }
    console.log(`emission first: ${emissionFirst}, annulment first: ${annulmentFirst}`);
    assert.equal(emissionFirst + annulmentFirst, 200);
    assert.ok(emissionFirst > 0 && annulmentFirst > 0, 'both orders happened');
  });

  test('send claim ⇄ reservation: exactly one winner per eNCF', async () => {
    const encfs = Array.from({ length: 200 }, freshEncf);
    const documents = [];
    for (const encf of encfs)
      documents.push(await seedDocument(database, { tenantId: tenant.id, encf, status: 'signed' }));
    const results = await Promise.all(
      documents.map(async (document, index) => {
        const later = <T>(work: () => Promise<T>) => sleep(randomInt(0, 50)).then(work);
        const [claimed, reservation] =
          index % 2 === 0
            ? await Promise.allSettled([later(() => claim(document.id)), later(() => reserve(document.encf))])
            : await Promise.allSettled([
                later(() => reserve(document.encf)),
                later(() => claim(document.id)),
              ]).then(([r, c]) => [c, r] as const);
        return { document, claimed, reservation };
      }),
    );
    let claimFirst = 0;
    let annulmentFirst = 0;
    for (const { document, claimed, reservation } of results) {
      assert.equal(reservation.status, 'fulfilled');
      const reserved = reservation.value;
      if (claimed.status === 'fulfilled') {
        claimFirst += 1;
        assert.equal(reserved.kind, 'blocked', `${document.encf}: a claimed send must block the range`);
      } else {
        annulmentFirst += 1;
        assert.ok(isRefusal(claimed.reason, RESERVED_ENCF_SQLSTATE.sendClaim), String(claimed.reason));
        assert.equal(reserved.kind, 'reserved');
      }
    }
    console.log(`claim first: ${claimFirst}, annulment first: ${annulmentFirst}`);
    assert.equal(claimFirst + annulmentFirst, 200);
    assert.ok(claimFirst > 0 && annulmentFirst > 0, 'both orders happened');
  });
});

describe('the worker side', () => {
  test('signing with the send claim, inside a reserved range: signed without the claim, never sent', async () => {
    const signingTenant = await seedTenant(database, SIGNING_TEST_TENANT);
    const keyring = createCertificateKeyring({ currentKey: randomBytes(32).toString('base64') });
    const certificate = createTestCertificate({ rnc: signingTenant.rnc, commonName: 'Firmante' });
    await storeTenantCertificate({
      database,
      keyring,
      tenantId: signingTenant.id,
      p12: certificate.p12,
      password: certificate.password,
    });
    const encf = freshEncf();
    const document = await seedQueuedDocument(database, { tenantId: signingTenant.id, encf });
    const reserved = await reserveAnnulment(database, {
      id: randomUUID(),
      tenantId: signingTenant.id,
      environment: 'TesteCF',
      idempotencyKey: `sign-${encf}`,
      requestFingerprint: 'e'.repeat(64),
      request: {},
      signedXml: '<ANECF/>',
      ranges: [
        {
          type: 31,
          prefix: 'E31',
          firstEncf: encf,
          lastEncf: encf,
          firstNumber: Number(encf.slice(3)),
          lastNumber: Number(encf.slice(3)),
        },
      ],
      now: new Date(),
      isBlocking: (documents) => conflictsOf(documents, new Date()).length > 0,
    });
    assert.equal(reserved.kind, 'reserved');
    const result = await signQueuedDocument({
      database,
      documentId: document.id,
      keyring,
      now: new Date(SIGNING_TEST_SUBMITTED_AT.getTime() + 60_000),
      claimTransmission: true,
    });
    assert.equal(result.outcome, 'signed', JSON.stringify(result));
    assert.ok(
      result.outcome === 'signed' && result.claimed === undefined,
      'no claim: the document may not leave',
    );
    const stored = await database.document.findUnique({ where: { id: document.id } });
    assert.deepEqual([stored?.status, stored?.attempts], ['signed', 0]);
  });
});
