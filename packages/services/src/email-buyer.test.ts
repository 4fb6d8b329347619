import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedDocument, seedTenant, type TJobName, type TSql } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { applyWithBuyerEmail, composeBuyerEmail } from './email-buyer.ts';
import type { TEnqueueJob } from './job-executor.ts';
import { loadPrinting } from './printed-renderer.ts';
import { checkRiLinkToken, createRiLinkToken, RI_LINK_MAX_LENGTH } from './ri-link.ts';

const SECRET = 'unit-test-secret-0123456789abcdef-0123456789';
const DOCUMENT_ID = '3f2a1c9e-8b7d-4e6f-a5b4-c3d2e1f0a9b8';
let context: Awaited<ReturnType<typeof openTestDatabase>>;
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await context.close();
});

test('link token: round trip, compact, 30 days, expiry and tampering told apart', () => {
  const issuedAt = new Date('2026-04-01T12:00:00Z');
  const { token, expiresAt } = createRiLinkToken(
    { documentId: DOCUMENT_ID.toUpperCase(), environment: 'eCF', issuedAt },
    SECRET,
  );
  assert.ok(token.length <= 100 && token.length <= RI_LINK_MAX_LENGTH, `${token.length}`);
  assert.equal(expiresAt.toISOString(), '2026-05-01T12:00:00.000Z');
  const valid = checkRiLinkToken(token, SECRET, new Date('2026-05-01T11:59:59Z'));
  assert.equal(valid.status, 'valid');
  assert.deepEqual(valid.status === 'valid' && { ...valid.payload }, {
    documentId: DOCUMENT_ID,
    environment: 'eCF',
    issuedAt,
    expiresAt,
  });
  assert.equal(checkRiLinkToken(token, SECRET, expiresAt).status, 'expired');
  assert.equal(
    checkRiLinkToken(token, 'another-secret-0123456789abcdef-0123456789', issuedAt).status,
    'invalid',
  );
  // Expired and forged is invalid, not expired: only a genuine token learns it is old.
  assert.equal(
    checkRiLinkToken(token, 'another-secret-0123456789abcdef-0123456789', new Date('2027-01-01')).status,
    'invalid',
  );
  for (let index = 0; index < token.length; index += 7) {
    if (token[index] === '.') continue;
    const tampered = `${token.slice(0, index)}${token[index] === 'A' ? 'B' : 'A'}${token.slice(index + 1)}`;
    assert.equal(checkRiLinkToken(tampered, SECRET, issuedAt).status, 'invalid', `position ${index}`);
  }
  for (const garbage of [
    '',
    '.',
    'a.b',
    `${token}.`,
    token.replace('.', ''),
    'x'.repeat(RI_LINK_MAX_LENGTH + 1),
  ]) {
    assert.equal(checkRiLinkToken(garbage, SECRET, issuedAt).status, 'invalid');
  }
});

test('the e-mail is Spanish: type name and eNCF in the subject; issuer, total, link and expiry in the body', async () => {
  const message = composeBuyerEmail(
    {
      type: 31,
      encf: 'E310000000101',
      issuerName: 'Caribe Digital',
      buyerName: 'Ferretería Los Pinos SRL',
      total: '1234567.50',
      link: 'https://ecf.example/ri/abc.def',
      expiresAt: new Date('2026-05-01T03:00:00Z'),
      environment: 'eCF',
    },
    await loadPrinting(),
  );
  assert.equal(message.subject, 'Factura de Crédito Fiscal Electrónica E310000000101 de Caribe Digital');
  assert.match(message.text, /Ferretería Los Pinos SRL/);
  assert.match(message.text, /RD\$ 1,234,567\.50/);
  assert.match(message.text, /https:\/\/ecf\.example\/ri\/abc\.def/);
  // 03:00 UTC is still 30 April in Santo Domingo.
  assert.match(message.text, /válido hasta el 30-04-2026/);
  assert.doesNotMatch(message.text, /sin validez fiscal/);
  assert.match(message.html, /href="https:\/\/ecf\.example\/ri\/abc\.def"/);
});

test('acceptance enqueues document.email-buyer in its own transaction, only when enabled and accepted', async () => {
  const database = context.database;
  const enabled = await seedTenant(database);
  await database.tenant.update({ where: { id: enabled.id }, data: { buyerEmailEnvironments: ['TesteCF'] } });
  const disabled = await seedTenant(database);
  const enqueued: Array<[TJobName, unknown]> = [];
  const enqueue: TEnqueueJob = async (name, payload) => {
    enqueued.push([name, payload]);
  };
  const accept = (documentId: string) => async (sql: TSql) => {
    const moved = await sql.query(
      `UPDATE documents SET status = 'accepted' WHERE id = $1::uuid AND status = 'sent'`,
      [documentId],
    );
    return moved.rowCount === 1;
  };
  let counter = 100;
  const seed = (tenantId: string) =>
    seedDocument(database, { tenantId, encf: `E31${String(++counter).padStart(10, '0')}`, status: 'sent' });

  const document = await seed(enabled.id);
  assert.equal(await applyWithBuyerEmail(database, document, 'accepted', enqueue, accept(document.id)), true);
  assert.deepEqual(enqueued, [['document.email-buyer', { documentId: document.id }]]);
  // Not moved (someone else moved it first): no job.
  assert.equal(
    await applyWithBuyerEmail(database, document, 'accepted', enqueue, accept(document.id)),
    false,
  );
  assert.equal(enqueued.length, 1);

  for (const [tenantId, status] of [
    [disabled.id, 'accepted'],
    [enabled.id, 'rejected'],
  ] as const) {
    const other = await seed(tenantId);
    await applyWithBuyerEmail(database, other, status, enqueue, accept(other.id));
    assert.equal(enqueued.length, 1, `${status} in ${tenantId}`);
  }
  // Without enqueue (API tests, the sweeper) the answer is applied as before.
  const plain = await seed(enabled.id);
  assert.equal(await applyWithBuyerEmail(database, plain, 'accepted', undefined, accept(plain.id)), true);

  // The job and the acceptance commit or roll back together.
  const failing = await seed(enabled.id);
  const broken: TEnqueueJob = async () => {
    throw new Error('queue down');
  };
  await assert.rejects(
    applyWithBuyerEmail(database, failing, 'accepted', broken, accept(failing.id)),
    /queue down/,
  );
  assert.equal((await database.document.findUniqueOrThrow({ where: { id: failing.id } })).status, 'sent');
});
