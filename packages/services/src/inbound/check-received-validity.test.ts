// The validity of a received e-CF (job inbound.check-validity, issue 18 task L): Consulta Estado
// asked to the real tax authority simulator with the RECEIVING tenant's token.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { signXml } from '@ecf/fiscal-core';
import {
  buildEcfXml,
  certificateFor,
  newEncf,
  openTransmissionHarness,
  type TTransmissionHarness,
} from '../../test/transmission-harness.ts';
import { seedInbound } from '@ecf/db';
import { checkReceivedValidity, securityCodeOf } from './check-received-validity.ts';

let harness: TTransmissionHarness;
before(async () => {
  harness = await openTransmissionHarness();
});
after(async () => {
  await harness.close();
});

const SUPPLIER_RNC = '131880681';

/** A supplier's e-CF to the harness tenant, sent to the simulator by the supplier and accepted there. */
async function acceptedSupplierEcf() {
  const encf = newEncf('31');
  const supplier = certificateFor(SUPPLIER_RNC);
  const xml = signXml(buildEcfXml({ rnc: SUPPLIER_RNC, encf, buyer: harness.tenant.rnc }), supplier).xml;
  const taxpayer = harness.clientFor('TesteCF').forTaxpayer({ cacheKey: 'supplier', certificate: supplier });
  const sent = await taxpayer.sendEcf({ xml });
  // Until the simulator's validation is over (bounded by time, not by a count of tries), then accepted.
  const deadline = Date.now() + 15_000;
  let result = await taxpayer.getResult({ trackId: sent.trackId });
  while (!result.isFinal && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    result = await taxpayer.getResult({ trackId: sent.trackId });
  }
  assert.equal(result.status, 'accepted', `the supplier's e-CF ${encf} is ${result.status}`);
  return { encf, xml };
}

function check(inboundDocumentId: string) {
  return checkReceivedValidity({
    database: harness.database,
    inboundDocumentId,
    clientFor: harness.clientFor,
    loadCertificate: async () => harness.certificate,
    now: () => new Date('2026-11-25T12:00:00Z'),
  });
}

test('an e-CF the tax authority accepted is valid; the security code of the kept copy goes with the question', async () => {
  const { encf, xml } = await acceptedSupplierEcf();
  assert.equal(securityCodeOf(Buffer.from(xml))?.length, 6);
  const received = await seedInbound(harness.database, {
    tenantId: harness.tenant.id,
    issuerRnc: SUPPLIER_RNC,
    buyerRnc: harness.tenant.rnc,
    encf,
    xml,
  });
  assert.deepEqual(await check(received.id), { outcome: 'valid' });
  const row = await harness.database.inboundDocument.findUniqueOrThrow({ where: { id: received.id } });
  assert.deepEqual(row.taxauthValidity, {
    status: 'valid',
    codigo: 1,
    estado: 'Aceptado',
    checkedAt: '2026-11-25T12:00:00.000Z',
  });
  assert.equal(row.taxauthValidityCheckedAt?.toISOString(), '2026-11-25T12:00:00.000Z');
});

test('an e-CF the tax authority never saw is not_found; a copy whose signature is not the one sent too', async () => {
  const unknown = await seedInbound(harness.database, {
    tenantId: harness.tenant.id,
    issuerRnc: SUPPLIER_RNC,
    buyerRnc: harness.tenant.rnc,
    encf: newEncf('31'),
  });
  assert.deepEqual(await check(unknown.id), { outcome: 'not_found' });
  const row = await harness.database.inboundDocument.findUniqueOrThrow({ where: { id: unknown.id } });
  assert.equal((row.taxauthValidity as { status: string; codigo: number }).status, 'not_found');
  assert.equal((row.taxauthValidity as { codigo: number }).codigo, 0);

  // Same eNCF as an accepted one, but signed again (another security code): not what was accepted.
  const { encf } = await acceptedSupplierEcf();
  const forged = signXml(
    buildEcfXml({ rnc: SUPPLIER_RNC, encf, buyer: harness.tenant.rnc, lines: 3 }),
    certificateFor(SUPPLIER_RNC),
  ).xml;
  const other = await seedInbound(harness.database, {
    tenantId: harness.tenant.id,
    issuerRnc: SUPPLIER_RNC,
    buyerRnc: harness.tenant.rnc,
    encf,
    xml: forged,
  });
  assert.deepEqual(await check(other.id), { outcome: 'not_found' });
});

test('a transient failure is thrown (the job retries) and stores nothing; CerteCF is not_applicable; others are skipped', async () => {
  const received = await seedInbound(harness.database, {
    tenantId: harness.tenant.id,
    issuerRnc: SUPPLIER_RNC,
    buyerRnc: harness.tenant.rnc,
  });
  await harness.addFault({ service: 'consultaestado', fault: 'http_503', count: 1 });
  await assert.rejects(check(received.id));
  await harness.clearFaults();
  const row = await harness.database.inboundDocument.findUniqueOrThrow({ where: { id: received.id } });
  assert.equal(row.taxauthValidity, null);
  assert.equal(row.taxauthValidityCheckedAt, null);

  const certification = await seedInbound(harness.database, {
    tenantId: harness.tenant.id,
    environment: 'CerteCF',
  });
  assert.deepEqual(await check(certification.id), { outcome: 'not_applicable' });

  const refused = await seedInbound(harness.database, {
    tenantId: harness.tenant.id,
    status: 'not_received',
    xml: null,
  });
  const acecf = await seedInbound(harness.database, {
    tenantId: harness.tenant.id,
    kind: 'commercial_approval',
  });
  assert.deepEqual(await check(refused.id), { outcome: 'skipped' });
  assert.deepEqual(await check(acecf.id), { outcome: 'skipped' });
  assert.deepEqual(await check('00000000-0000-4000-8000-000000000000'), { outcome: 'skipped' });
});
