// Order of the download checks (issue 14): existence and access first, content negotiation after,
// so another tenant's document is 404 whatever `Accept` says; then the state (409) and the content.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedApiKey, seedDocument } from '@ecf/db';
import { ZErrorResponse } from '@ecf/contract';
import { seedTenantWithKey, startTestApi, type TTestApi } from '../../test/test-api.ts';
import { nextEncf, storeSignedXml } from '../../test/submissions.ts';
import { seedPrintableDocument } from '../../test/printed-documents.ts';

let api: TTestApi;
before(async () => {
  api = await startTestApi();
});
after(async () => {
  await api.close();
});

const download = (
  kind: 'xml' | 'pdf',
  reference: string,
  key: string,
  accept?: string,
  environment = 'TesteCF',
) =>
  api.app.inject({
    method: 'GET',
    url: `/${environment}/documentos-ecf/${reference}/${kind}`,
    headers: { 'x-api-key': key, ...(accept === undefined ? {} : { accept }) },
  });

const codeOf = (response: { json: () => unknown }) => ZErrorResponse.parse(response.json()).error.code;

test("another tenant's or environment's document is 404 NOT_FOUND whatever Accept says (XML and PDF)", async () => {
  const { tenant } = await seedTenantWithKey(api.database);
  const printable = await seedPrintableDocument(api.database, tenant.id, { status: 'accepted' });
  const { key: strangerKey } = await seedTenantWithKey(api.database);
  const { key: certKey } = await seedApiKey(api.database, {
    tenantId: tenant.id,
    environment: 'CerteCF',
    scopes: ['ecf:read'],
  });
  const { document } = printable;
  for (const kind of ['xml', 'pdf'] as const) {
    for (const accept of ['image/png', 'application/json', 'text/html;q=1, */*;q=0', undefined]) {
      for (const reference of [document.id, document.encf]) {
        const stranger = await download(kind, reference, strangerKey, accept);
        assert.equal(stranger.statusCode, 404, `${kind} ${String(accept)} ${reference}`);
        assert.equal(codeOf(stranger), 'NOT_FOUND');
        const otherEnvironment = await download(kind, reference, certKey, accept, 'CerteCF');
        assert.equal(otherEnvironment.statusCode, 404, `${kind} ${String(accept)} CerteCF`);
        assert.equal(codeOf(otherEnvironment), 'NOT_FOUND');
      }
      // An absent document is the same 404, not the Accept refusal.
      assert.equal(codeOf(await download(kind, nextEncf(), strangerKey, accept)), 'NOT_FOUND');
    }
  }
});

test('own document with an Accept that allows neither type is 400 NOT_ACCEPTABLE, before any 409', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const printable = await seedPrintableDocument(api.database, tenant.id, { status: 'accepted' });
  const unsigned = await seedDocument(api.database, { tenantId: tenant.id, encf: nextEncf() });
  for (const kind of ['xml', 'pdf'] as const) {
    for (const reference of [printable.document.id, unsigned.encf]) {
      const refused = await download(kind, reference, key, 'image/png');
      assert.equal(refused.statusCode, 400, `${kind} ${reference}`);
      assert.equal(codeOf(refused), 'NOT_ACCEPTABLE');
      assert.match(String(refused.headers['content-type']), /^application\/json/);
    }
    // With an acceptable Accept the unsigned document gets its 409.
    const conflict = await download(kind, unsigned.encf, key, '*/*');
    assert.equal(conflict.statusCode, 409, kind);
    assert.equal(codeOf(conflict), 'DOCUMENT_NOT_SIGNED');
  }
  // A transmission_failed document never signed has no XML at all: 404 before Accept, as for a stranger.
  const neverSigned = await seedDocument(api.database, {
    tenantId: tenant.id,
    encf: nextEncf(),
    status: 'transmission_failed',
  });
  const missing = await download('xml', neverSigned.id, key, 'image/png');
  assert.equal(missing.statusCode, 404);
  assert.equal(codeOf(missing), 'NOT_FOUND');
});

test('XML is served for application/xml, text/xml, */*, application/* and no Accept; PDF for its own', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const document = await seedDocument(api.database, { tenantId: tenant.id, encf: nextEncf() });
  const xml = '<ECF><Encabezado>ñ</Encabezado></ECF>';
  await storeSignedXml(api.database, document, xml);
  for (const accept of ['application/xml', 'text/xml', '*/*', 'application/*', undefined]) {
    const response = await download('xml', document.encf, key, accept);
    assert.equal(response.statusCode, 200, String(accept));
    assert.match(String(response.headers['content-type']), /^application\/xml/);
    assert.equal(response.rawPayload.toString('utf8'), xml);
  }
  const printable = await seedPrintableDocument(api.database, tenant.id, { status: 'accepted' });
  for (const accept of ['application/pdf', '*/*', 'application/*', undefined]) {
    const response = await download('pdf', printable.document.encf, key, accept);
    assert.equal(response.statusCode, 200, String(accept));
    assert.match(String(response.headers['content-type']), /^application\/pdf/);
  }
});
