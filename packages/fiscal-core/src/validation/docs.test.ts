import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ECF_TYPES } from '../model/ecf-tree.ts';
import { issuesOf, SIMPLIFIED_EXAMPLES, validate } from '../../test/validation-support.ts';

// The contract's documentation must never drift from what the service accepts.
test('every example of docs/simplified-contract.md validates, one per type', async () => {
  const markdown = readFileSync(new URL('../../docs/simplified-contract.md', import.meta.url), 'utf8');
  const blocks = [...markdown.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
  const types: string[] = [];
  for (const block of blocks) {
    const result = await validate(block);
    assert.ok(result.success, `${block.slice(0, 60)}: ${JSON.stringify(issuesOf(result))}`);
    assert.equal(result.data.format, 'simplified');
    assert.deepEqual(result.data.warnings, []);
    types.push(result.data.type);
  }
  assert.deepEqual(types, [...ECF_TYPES]);
});

test('docs/examples/*.json (the README walkthrough bodies) are the documented examples and validate', async () => {
  for (const type of ['31', '32']) {
    const text = readFileSync(new URL(`../../docs/examples/e${type}.json`, import.meta.url), 'utf8');
    assert.deepEqual(JSON.parse(text), SIMPLIFIED_EXAMPLES[type]);
    const result = await validate(text);
    assert.ok(result.success, JSON.stringify(issuesOf(result)));
  }
});
