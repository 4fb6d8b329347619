// Every procedure of the portal declares its edge limits (issue 25): the table of
// procedure-limits.ts and the router walked as the role × procedure matrix walks it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appRouter } from '../routers/root.ts';
import { limitsOfProcedure, PROCEDURE_LIMITS } from './procedure-limits.ts';

const procedures = Object.keys(appRouter._def.procedures).sort();

test('every procedure of appRouter has a line of edge limits', () => {
  const missing = procedures.filter((path) => limitsOfProcedure(path) === null);
  assert.deepEqual(missing, [], 'add a line to server/trpc/procedure-limits.ts for each');
});

test('every line of edge limits names a procedure of appRouter', () => {
  const stray = Object.keys(PROCEDURE_LIMITS).filter((path) => !procedures.includes(path));
  assert.deepEqual(stray, [], 'remove (or rename) these lines of server/trpc/procedure-limits.ts');
});

test('every line is complete and bounded', () => {
  for (const [path, limits] of Object.entries(PROCEDURE_LIMITS)) {
    for (const key of [
      'bodyBytes',
      'bodyTimeoutMs',
      'maxDepth',
      'maxStringLength',
      'maxArrayLength',
    ] as const)
      assert.ok(Number.isSafeInteger(limits[key]) && limits[key] > 0, `${path}.${key}`);
    assert.ok(limits.bodyBytes <= 6 * 1024 * 1024, `${path}: over 6 MiB`);
    assert.ok(limits.bodyTimeoutMs <= 30_000, `${path}: over 30 s`);
  }
});
