import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { loadXsdValidators, OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { seedDocument, seedTenant, sqlPoolOf, type TDatabase } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import type { TXsdValidators } from '@ecf/fiscal-core';
import { preflightDocument } from '../emission/preflight-document.ts';
import { findHighestSequencePerType, findSequenceRangeOfEncf, isEncfAnnulled } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { listSequenceRanges } from './list-sequence-ranges.ts';
import { registerSequenceRange } from './register-sequence-range.ts';

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

const encf = (type: string, sequence: number) => `E${type}${String(sequence).padStart(10, '0')}`;

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError, String(error));
    return error;
  }
  assert.fail('expected a rejection');
}

const register = (input: { type?: string; from: string; to: string; date?: string; tenantId?: string }) =>
  registerSequenceRange({
    database,
    tenantId: input.tenantId ?? tenant.id,
    environment: 'TesteCF',
    type: input.type ?? '31',
    from: input.from,
    to: input.to,
    sequenceExpirationDate: input.date ?? '2027-12-31',
  });

describe('register and list', () => {
  test('a 10,000-number range with its counts: used, annulled, free', async () => {
    const first = randomInt(1, 1_000_000_000);
    const range = await register({ from: encf('31', first), to: encf('31', first + 9_999) });
    assert.equal(range.counts.total, 10_000);
    await seedDocument(database, { tenantId: tenant.id, encf: encf('31', first + 5) });
    await seedDocument(database, { tenantId: tenant.id, encf: encf('31', first + 6), status: 'cancelled' });
    const { rows } = await sqlPoolOf(database).query<{ id: string }>(
      `INSERT INTO annulments (id, tenant_id, environment, idempotency_key, request_fingerprint, request, state)
       VALUES (gen_random_uuid(), $1::uuid, 'TesteCF', $2, $3, '{}', 'accepted') RETURNING id`,
      [tenant.id, `seq-${first}`, 'b'.repeat(64)],
    );
    await sqlPoolOf(database).query(
      `INSERT INTO annulment_ranges (annulment_id, tenant_id, environment, type, prefix, first_encf, last_encf, first_number, last_number)
       VALUES ($1::uuid, $2::uuid, 'TesteCF', 31, 'E31', $3, $4, $5, $6)`,
      [rows[0]?.id, tenant.id, encf('31', first + 6), encf('31', first + 9), first + 6, first + 9],
    );
    const listed = (await listSequenceRanges({ database, tenantId: tenant.id, environment: 'TesteCF' })).find(
      (candidate) => candidate.id === range.id,
    );
    assert.deepEqual(listed?.counts, { total: 10_000, used: 1, annulled: 4, free: 9_995 });
    assert.equal(listed?.sequenceExpirationDate, '2027-12-31');
    // Other environments and tenants see nothing of it.
    assert.deepEqual(await listSequenceRanges({ database, tenantId: tenant.id, environment: 'eCF' }), []);
    const other = await seedTenant(database);
    assert.deepEqual(await listSequenceRanges({ database, tenantId: other.id, environment: 'TesteCF' }), []);
  });

  test('overlapping ranges of one type are 409, even racing; other types and tenants may overlap numbers', async () => {
    const first = randomInt(1, 1_000_000_000);
    await register({ from: encf('31', first), to: encf('31', first + 99) });
    const overlap = await rejection(register({ from: encf('31', first + 99), to: encf('31', first + 200) }));
    assert.equal(overlap.code, 'SEQUENCE_RANGE_OVERLAP');
    assert.equal(overlap.status, 409);
    assert.equal(overlap.details['from'], encf('31', first));
    await register({ type: '32', from: encf('32', first), to: encf('32', first + 99) });
    const other = await seedTenant(database);
    await register({ tenantId: other.id, from: encf('31', first), to: encf('31', first + 99) });

    const racing = await Promise.allSettled(
      Array.from({ length: 10 }, (_, index) =>
        register({ from: encf('31', first + 1000 + index), to: encf('31', first + 1100 + index) }),
      ),
    );
    assert.equal(racing.filter((result) => result.status === 'fulfilled').length, 1);
  });

  test('400 SEQUENCE_RANGE_INVALID: reversed, another type prefix, bad eNCF or date', async () => {
    const cases: Array<[Parameters<typeof register>[0], string]> = [
      [{ from: encf('31', 10), to: encf('31', 9) }, 'reversed'],
      [{ from: encf('32', 1), to: encf('32', 9) }, 'type_mismatch'],
      [{ from: encf('31', 1), to: encf('32', 9) }, 'type_mismatch'],
      [{ type: '99', from: encf('31', 1), to: encf('31', 9) }, 'type_invalid'],
      [{ from: 'E3100000001', to: encf('31', 9) }, 'encf_invalid'],
      [{ from: encf('31', 0), to: encf('31', 9) }, 'encf_invalid'],
      [{ from: encf('31', 1), to: encf('31', 9), date: '2027-02-31' }, 'date_invalid'],
    ];
    for (const [input, reason] of cases) {
      const error = await rejection(register(input));
      assert.equal(error.code, 'SEQUENCE_RANGE_INVALID');
      assert.equal(error.status, 400);
      assert.equal(error.details['reason'], reason, JSON.stringify(input));
    }
  });
});

describe('emission rules fed by ranges and annulments', () => {
  const invoice = (number: string, expiration: string) => ({
    type: 'E31',
    encf: number,
    sequenceExpirationDate: expiration,
    issueDate: '2026-04-01',
    buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
    paymentType: 'card',
    incomeType: '01',
    lines: [{ name: 'Artículo', quantity: 1, unitPrice: '450.00', itbisRate: 18, itemKind: 'good' }],
  });
  const preflight = (body: unknown) =>
    preflightDocument({
      database,
      tenant,
      environment: 'TesteCF',
      xsd,
      now: new Date('2026-04-01T14:15:00Z'),
      rawBody: JSON.stringify(body),
    });
  const codesOf = async (body: unknown) => {
    try {
      await preflight(body);
      return [];
    } catch (error) {
      assert.ok(error instanceof AppError);
      return (error.body['errors'] as Array<{ code: string }>).map((issue) => issue.code);
    }
  };

  test('rule 16: SEQUENCE_EXPIRATION_RANGE_MISMATCH against the registered range only', async () => {
    const first = randomInt(1, 1_000_000_000);
    await register({ from: encf('31', first), to: encf('31', first + 9), date: '2027-06-30' });
    assert.ok(
      (await codesOf(invoice(encf('31', first + 1), '31-12-2027'))).includes(
        'SEQUENCE_EXPIRATION_RANGE_MISMATCH',
      ),
    );
    assert.deepEqual(await codesOf(invoice(encf('31', first + 1), '30-06-2027')), []);
    assert.deepEqual(await codesOf(invoice(encf('31', first + 10), '31-12-2027')), [], 'outside every range');
  });

  test('rule 20: a note on an annulled eNCF is REFERENCED_ENCF_NOT_ACCEPTED', async () => {
    const first = randomInt(1, 1_000_000_000);
    const { rows } = await sqlPoolOf(database).query<{ id: string }>(
      `INSERT INTO annulments (id, tenant_id, environment, idempotency_key, request_fingerprint, request, state)
       VALUES (gen_random_uuid(), $1::uuid, 'TesteCF', $2, $3, '{}', 'accepted') RETURNING id`,
      [tenant.id, `r20-${first}`, 'c'.repeat(64)],
    );
    await sqlPoolOf(database).query(
      `INSERT INTO annulment_ranges (annulment_id, tenant_id, environment, type, prefix, first_encf, last_encf, first_number, last_number)
       VALUES ($1::uuid, $2::uuid, 'TesteCF', 31, 'E31', $3, $3, $4, $4)`,
      [rows[0]?.id, tenant.id, encf('31', first), first],
    );
    const note = (referenced: string) => ({
      type: 'E34',
      encf: encf('34', first),
      issueDate: '2026-04-01',
      buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
      paymentType: 'card',
      reference: { encf: referenced, date: '2026-03-20', modificationCode: 3, reason: 'Devolución' },
      lines: [{ name: 'Devolución', quantity: 1, unitPrice: '100.00', itbisRate: 18, itemKind: 'good' }],
    });
    assert.ok((await codesOf(note(encf('31', first)))).includes('REFERENCED_ENCF_NOT_ACCEPTED'));
    assert.ok(!(await codesOf(note(encf('31', first + 1)))).includes('REFERENCED_ENCF_NOT_ACCEPTED'));
  });
});

describe('client text that is not an eNCF (issue 25, item 1)', () => {
  const HOSTILE = ['abc', 'E31', 'E31000000010X', "' OR '1'='1", 'E3100000000012', 'E31-000000001'];

  test('the statements that read an eNCF as a number find nothing instead of failing', async () => {
    const first = randomInt(1, 1_000_000_000);
    await register({ from: encf('31', first), to: encf('31', first + 9) });
    for (const text of HOSTILE) {
      const found = await findSequenceRangeOfEncf(database, {
        tenantId: tenant.id,
        environment: 'TesteCF',
        encf: text,
      });
      assert.equal(found.range, null, text);
      assert.equal(found.anyRange, true, text);
      assert.equal(
        await isEncfAnnulled(database, { tenantId: tenant.id, environment: 'TesteCF', encf: text }),
        false,
      );
    }
  });

  test('a stored eNCF of another shape does not break the range counts or the highest sequence per type', async () => {
    const isolated = await seedTenant(database);
    const first = randomInt(1, 1_000_000_000);
    await register({ tenantId: isolated.id, from: encf('31', first), to: encf('31', first + 9) });
    // Rows written before rule 2 existed, or by hand: not eNCF-shaped, inside the range's text bounds.
    await seedDocument(database, { tenantId: isolated.id, encf: `${encf('31', first).slice(0, 12)}X` });
    await seedDocument(database, { tenantId: isolated.id, encf: encf('31', first + 1) });
    const [range] = await listSequenceRanges({ database, tenantId: isolated.id, environment: 'TesteCF' });
    assert.ok(range);
    const highest = await findHighestSequencePerType(database, {
      tenantId: isolated.id,
      environment: 'TesteCF',
    });
    assert.equal(highest.get(31), first + 1);
  });
});
