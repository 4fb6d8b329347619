/**
 * The account's settings reach emission: the payment term fills `{{FECHA_LIMITE_PAGO}}` and the
 * deferred-send authorization emits `IndicadorEnvioDiferido` (rule 13), through the API key's
 * look-up of the tenant (the account data validation and signing are built from).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedUser } from '@ecf/db';
import { updateAccountSettings } from '@ecf/services';
import { ZSubmitResponse } from '@ecf/contract';
import { seedTenantWithKey, startTestApi, type TTestApi } from '../test/test-api.ts';
import { simplifiedE31 } from '../test/submissions.ts';

let api: TTestApi;
before(async () => {
  api = await startTestApi();
});
after(async () => {
  await api.close();
});

const submit = (key: string, body: unknown) =>
  api.app.inject({
    method: 'POST',
    url: '/TesteCF/documentos-ecf',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

/** `DD-MM-YYYY` of the Dominican date `days` after today. */
function dominicanDatePlus(days: number): string {
  const [year, month, day] = new Date(Date.now() - 4 * 3600_000 + days * 86_400_000)
    .toISOString()
    .slice(0, 10)
    .split('-');
  return `${day}-${month}-${year}`;
}

async function issuedIdDoc(documentId: string): Promise<Record<string, unknown>> {
  const event = await api.database.documentEvent.findFirstOrThrow({
    where: { documentId, type: 'submitted' },
  });
  const tree = (event.data as { document: { ECF: { Encabezado: { IdDoc: Record<string, unknown> } } } })
    .document;
  return tree.ECF.Encabezado.IdDoc;
}

test('without settings: {{FECHA_LIMITE_PAGO}} stays unresolved (422) and no IndicadorEnvioDiferido', async () => {
  const { key } = await seedTenantWithKey(api.database);
  const refused = await submit(key, simplifiedE31({ dueDate: '{{FECHA_LIMITE_PAGO}}' }));
  assert.equal(refused.statusCode, 422, refused.body);
  assert.match(refused.body, /FECHA_LIMITE_PAGO/);

  const accepted = await submit(key, simplifiedE31());
  assert.equal(accepted.statusCode, 202, accepted.body);
  const idDoc = await issuedIdDoc(ZSubmitResponse.parse(accepted.json()).documentId ?? '');
  assert.equal(idDoc['IndicadorEnvioDiferido'], undefined);
  assert.equal(idDoc['FechaLimitePago'], undefined);
});

test("the owner's payment term fills {{FECHA_LIMITE_PAGO}}; the deferred-send authorization emits IndicadorEnvioDiferido", async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const owner = await seedUser(api.database, { passwordHash: 'not-used' });
  await updateAccountSettings({
    database: api.database,
    tenantId: tenant.id,
    actor: { userId: owner.id, principal: { kind: 'member', role: 'owner' } },
    settings: { buyerEmailEnvironments: [], paymentTermDays: 15, deferredSendAuthorized: true },
  });

  const response = await submit(key, simplifiedE31({ dueDate: '{{FECHA_LIMITE_PAGO}}' }));
  assert.equal(response.statusCode, 202, response.body);
  const idDoc = await issuedIdDoc(ZSubmitResponse.parse(response.json()).documentId ?? '');
  assert.equal(idDoc['FechaLimitePago'], dominicanDatePlus(15));
  assert.equal(String(idDoc['IndicadorEnvioDiferido']), '1');

  // An explicit `deferredSend: false` still wins over the account's authorization (rule 13).
  const explicit = await submit(key, simplifiedE31({ deferredSend: false }));
  assert.equal(explicit.statusCode, 202, explicit.body);
  const explicitIdDoc = await issuedIdDoc(ZSubmitResponse.parse(explicit.json()).documentId ?? '');
  assert.equal(explicitIdDoc['IndicadorEnvioDiferido'], undefined);
});
