import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contingencyWaitSeconds, pollWaitSeconds } from './transmission-rules.ts';

test('contingency waits: 5 minutes, doubling, at most 30 minutes', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 50].map(contingencyWaitSeconds), [300, 600, 1200, 1800, 1800, 1800]);
});

test('result polling waits grow with the time already waited, between 1 s and 5 minutes', () => {
  assert.deepEqual([0, 1000, 10_000, 120_000, 86_400_000].map(pollWaitSeconds), [1, 1, 5, 60, 300]);
});
