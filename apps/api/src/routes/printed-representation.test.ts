import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedApiKey, seedDocument } from '@ecf/db';
import { ZErrorResponse, ZStatusBatchResponse } from '@ecf/contract';
import { seedTenantWithKey, startTestApi, type TTestApi } from '../../test/test-api.ts';
import { pdfText, randomEncf, seedPrintableDocument } from '../../test/printed-documents.ts';

let api: TTestApi;
before(async () => {
  api = await startTestApi();
});
after(async () => {
  await api.close();
});

const getPdf = (reference: string, key: string, options: { environment?: string; accept?: string } = {}) =>
  api.app.inject({
    method: 'GET',
    url: `/${options.environment ?? 'TesteCF'}/documentos-ecf/${reference}/pdf`,
    headers: { 'x-api-key': key, ...(options.accept === undefined ? {} : { accept: options.accept }) },
  });
const errorOf = (response: { json: () => unknown }) => ZErrorResponse.parse(response.json()).error;

test('PDF route: an accepted e-CF is rendered from its stored signed XML (eNCF, security code, signature date)', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const printable = await seedPrintableDocument(api.database, tenant.id, { status: 'accepted' });
  for (const reference of [printable.document.id, printable.document.encf]) {
    const response = await getPdf(reference, key);
    assert.equal(response.statusCode, 200, response.body.slice(0, 300));
    assert.equal(response.headers['content-type'], 'application/pdf');
    assert.equal(
      response.headers['content-disposition'],
      `attachment; filename="${tenant.rnc}${printable.document.encf}.pdf"`,
    );
    assert.equal(response.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');
    const text = await pdfText(response.rawPayload);
    assert.ok(text.includes(printable.document.encf), 'eNCF printed');
    assert.ok(text.includes(printable.securityCode), 'security code printed');
    assert.ok(text.includes(printable.signedAt), 'signature date printed as signed (dd-MM-yyyy HH:mm:ss)');
    assert.ok(text.includes('Factura de Crédito Fiscal Electrónica'));
  }
});

test('PDF route: accepted-conditional, contingency and sent-with-TrackID are deliverable too; CerteCF printing.pdfUrl is null', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  for (const status of ['accepted_conditional', 'contingency', 'sent'] as const) {
    const printable = await seedPrintableDocument(api.database, tenant.id, { status });
    const response = await getPdf(printable.document.id, key);
    assert.equal(response.statusCode, 200, `${status}: ${response.body.slice(0, 200)}`);
    assert.ok((await pdfText(response.rawPayload)).includes(printable.document.encf));
  }
  const { key: certKey } = await seedApiKey(api.database, { tenantId: tenant.id, environment: 'CerteCF' });
  const cert = await seedPrintableDocument(api.database, tenant.id, {
    status: 'accepted',
    environment: 'CerteCF',
  });
  const batch = await api.app.inject({
    method: 'POST',
    url: '/CerteCF/documentos-ecf/status/batch',
    headers: { 'x-api-key': certKey, 'content-type': 'application/json' },
    payload: JSON.stringify({ encfs: [cert.document.encf] }),
  });
  const found = ZStatusBatchResponse.parse(batch.json()).found[0];
  assert.equal(found?.printingStatus, 'deliverable');
  assert.ok(found?.printing);
  assert.equal(found.printing.pdfUrl, null);
  assert.equal(found.printing.securityCode, cert.securityCode);
  // The PDF itself is still served to the account in CerteCF (only the link is withheld).
  assert.equal((await getPdf(cert.document.id, certKey, { environment: 'CerteCF' })).statusCode, 200);
  const teste = await seedPrintableDocument(api.database, tenant.id, { status: 'accepted' });
  const testeBatch = await api.app.inject({
    method: 'POST',
    url: '/TesteCF/documentos-ecf/status/batch',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    payload: JSON.stringify({ encfs: [teste.document.encf] }),
  });
  assert.equal(
    ZStatusBatchResponse.parse(testeBatch.json()).found[0]?.printing?.pdfUrl,
    `/TesteCF/documentos-ecf/${teste.document.id}/pdf`,
  );
});

test('PDF route: every 409 of the contract, as JSON ErrorResponse', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const cases: Array<[Parameters<typeof seedPrintableDocument>[2], string]> = [
    [{ status: 'queued_for_signing' }, 'DOCUMENT_NOT_SIGNED'],
    [{ status: 'signed' }, 'RI_AWAITING_TAXAUTH_RESPONSE'],
    [{ status: 'rejected' }, 'RI_NOT_DELIVERABLE_REJECTED'],
    // The RFCE summary of a consumer invoice below RD$250,000 rejected: no TrackID, status rejected.
    [{ status: 'rejected', type: '32' }, 'RI_NOT_DELIVERABLE_REJECTED'],
    [{ status: 'transmission_failed' }, 'RI_NOT_DELIVERABLE_NOT_TRANSMITTED'],
    [{ status: 'cancelled' }, 'RI_NOT_DELIVERABLE_CANCELLED'],
  ];
  for (const [options, code] of cases) {
    const printable = await seedPrintableDocument(api.database, tenant.id, options);
    const response = await getPdf(printable.document.id, key, { accept: 'application/pdf' });
    assert.equal(response.statusCode, 409, `${JSON.stringify(options)}: ${response.body}`);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.equal(errorOf(response).code, code);
  }
  // An accepted row without signed XML (never through the signer) is not a 500.
  const bare = await seedDocument(api.database, {
    tenantId: tenant.id,
    encf: randomEncf(),
    status: 'accepted',
  });
  assert.equal(errorOf(await getPdf(bare.id, key)).code, 'DOCUMENT_NOT_SIGNED');
});

test('PDF route: another tenant or environment is 404, a bad reference 400, Accept honoured (clarification 17)', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const printable = await seedPrintableDocument(api.database, tenant.id, { status: 'accepted' });
  const { key: otherKey } = await seedTenantWithKey(api.database);
  for (const reference of [printable.document.id, printable.document.encf]) {
    const response = await getPdf(reference, otherKey);
    assert.equal(response.statusCode, 404);
    assert.equal(errorOf(response).code, 'NOT_FOUND');
  }
  const { key: certKey } = await seedApiKey(api.database, { tenantId: tenant.id, environment: 'CerteCF' });
  assert.equal((await getPdf(printable.document.id, certKey, { environment: 'CerteCF' })).statusCode, 404);
  assert.equal(errorOf(await getPdf('not-a-reference', key)).code, 'INVALID_DOCUMENT_REFERENCE');
  assert.equal(
    (await api.app.inject({ method: 'GET', url: `/TesteCF/documentos-ecf/${printable.document.id}/pdf` }))
      .statusCode,
    401,
  );

  for (const accept of [
    'application/pdf',
    '*/*',
    'application/*',
    'text/html,application/xhtml+xml,*/*;q=0.8',
    'application/json, application/pdf;q=0.5',
  ]) {
    assert.equal((await getPdf(printable.document.id, key, { accept })).statusCode, 200, accept);
  }
  for (const accept of ['application/xml', 'application/json', 'application/pdf;q=0, text/plain']) {
    const refused = await getPdf(printable.document.id, key, { accept });
    assert.equal(refused.statusCode, 400, accept);
    assert.equal(errorOf(refused).code, 'NOT_ACCEPTABLE');
  }
});
