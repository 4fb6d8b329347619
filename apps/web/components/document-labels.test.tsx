import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatShortDate, formatShortDateTime } from '../lib/format.ts';
import { ecfTypeLabel } from './document-labels.ts';

test('a type is shown short in tables, from its code with or without the E', () => {
  assert.equal(ecfTypeLabel('E31'), 'E31 · Crédito fiscal');
  assert.equal(ecfTypeLabel('31'), 'E31 · Crédito fiscal');
  assert.equal(ecfTypeLabel(34), 'E34 · Nota de crédito');
  assert.equal(ecfTypeLabel('E99'), 'E99');
});

test('table dates are one short line in Dominican time', () => {
  assert.equal(formatShortDateTime('2026-11-27T18:05:00Z'), '27/11/2026 14:05');
  assert.equal(formatShortDateTime(new Date('2026-01-02T03:04:00Z')), '01/01/2026 23:04');
  assert.equal(formatShortDate('2026-11-20T12:00:00-04:00'), '20/11/2026');
});
