import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextContingencyAttemptAt } from './sweep-documents.ts';

test('the next contingency attempt: lastError.nextAttemptAt when present, else lastDeferredAt plus the schedule', () => {
  const deferred = new Date('2026-04-01T12:00:00Z');
  assert.equal(
    nextContingencyAttemptAt(
      { code: 'TAXAUTH_UNAVAILABLE', nextAttemptAt: '2026-04-01T12:05:00.000Z' },
      deferred,
    )?.toISOString(),
    '2026-04-01T12:05:00.000Z',
  );
  // 1 failure → 5 min, 2 → 10 min, 4 and more → 30 min.
  assert.equal(
    nextContingencyAttemptAt({ code: 'TAXAUTH_UNAVAILABLE', failures: 1 }, deferred)?.toISOString(),
    '2026-04-01T12:05:00.000Z',
  );
  assert.equal(
    nextContingencyAttemptAt({ code: 'TAXAUTH_UNAVAILABLE', failures: 2 }, deferred)?.toISOString(),
    '2026-04-01T12:10:00.000Z',
  );
  assert.equal(
    nextContingencyAttemptAt({ code: 'TAXAUTH_UNAVAILABLE', failures: 9 }, deferred)?.toISOString(),
    '2026-04-01T12:30:00.000Z',
  );
  assert.equal(
    nextContingencyAttemptAt({ nextAttemptAt: 'not a date' }, deferred)?.toISOString(),
    '2026-04-01T12:05:00.000Z',
  );
  assert.equal(nextContingencyAttemptAt(null, null), undefined);
});
