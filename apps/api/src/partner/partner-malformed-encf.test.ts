// Issue 25, item 1, on the Partner API: a submission whose eNCF is not eNCF-shaped answered 500
// (a database lookup cast it to bigint). It is the 422 of rule 2 on the field, and nothing is stored.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApi, type TTestApi } from '../../test/test-api.ts';
import { simplifiedE31 } from '../../test/submissions.ts';
import { seedAccount, seedPartner } from '../../test/partner-support.ts';

let api: TTestApi;
before(async () => {
  api = await startTestApi({ PSFE_PARTNER_API_ENABLED: 'true' });
});
after(async () => {
  await api.close();
});

// The paths of a Partner submission are the document's own (as in the direct API).
const PATH = 'encf';
const HOSTILE_ENCFS = ['abc', 'E31', 'E31000000010X', "' OR '1'='1"];

test('a malformed eNCF on Partner preflight and emission (testecf and production): 422 VALIDATION_FAILED on encf, nothing stored', async () => {
  const { partner, keys } = await seedPartner(api.database);
  const account = await seedAccount(api.database, partner.id);
  await api.database.tenant.update({ where: { id: account.id }, data: { productionState: 'active' } });
  for (const family of ['testecf', 'production']) {
    const base = `/partner/v1/fiscal-accounts/${account.id}/${family}/documents`;
    for (const encf of HOSTILE_ENCFS) {
      for (const query of ['?validate=true', '']) {
        const response = await api.app.inject({
          method: 'POST',
          url: `${base}${query}`,
          headers: { 'x-partner-key': keys.runtime, 'content-type': 'application/json' },
          payload: JSON.stringify({ document: simplifiedE31({ encf }) }),
        });
        assert.equal(response.statusCode, 422, `${family} ${query} ${encf}: ${response.body}`);
        const body = response.json<{
          error: { code: string };
          errors: Array<{ path: string; code: string }>;
        }>();
        assert.equal(body.error.code, 'VALIDATION_FAILED');
        assert.ok(
          body.errors.some((error) => error.path === PATH && error.code === 'FIELD_VALUE_INVALID'),
          JSON.stringify(body.errors),
        );
      }
    }
  }
  assert.equal(await api.database.document.count({ where: { tenantId: account.id } }), 0);
});
