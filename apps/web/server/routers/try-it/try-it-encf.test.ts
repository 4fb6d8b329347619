// Issue 25, item 1, in the portal: Try it with an eNCF that is not eNCF-shaped failed with a 500
// (a database lookup cast it to bigint). It is rule 2's refusal on `encf`, and nothing is stored.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { validTryItJson } from '../../../test/document-fixtures.ts';
import { callerOf, openPortalHarness, seedWorld, type TPortalHarness } from '../../../test/portal-harness.ts';

let harness: TPortalHarness;
before(async () => {
  harness = await openPortalHarness();
});
after(async () => {
  await harness.close();
});

const HOSTILE_ENCFS = ['abc', 'E31', 'E31000000010X', "' OR '1'='1"];

test('Try it: a malformed eNCF on preflight and emission is refused on encf (FIELD_VALUE_INVALID), nothing stored', async () => {
  const world = await seedWorld(harness.database);
  const developer = callerOf(harness, world.sessions.developer);
  for (const encf of HOSTILE_ENCFS) {
    const json = JSON.stringify({ ...(JSON.parse(validTryItJson()) as Record<string, unknown>), encf });
    for (const outcome of [await developer.tryIt.preflight({ json }), await developer.tryIt.emit({ json })]) {
      assert.ok(!outcome.ok, JSON.stringify(outcome));
      assert.ok(
        outcome.errors.some((issue) => issue.path === 'encf' && issue.code === 'FIELD_VALUE_INVALID'),
        JSON.stringify(outcome.errors),
      );
    }
  }
  assert.equal(await harness.database.document.count({ where: { tenantId: world.tenant.id } }), 0);
});
