// The read-only pages (the Partner's embed, the Partner account page) never tell anyone to act on
// them: every step's text says where it is done instead (issue 27 item 10: no "súbalo aquí").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CERTIFICATION_STEP_INFO, CERTIFICATION_STEPS } from '@ecf/services';
import { readOnlyStepAction } from './certification-read-only.ts';

test('no step asks to upload, send or mark anything on a read-only page', () => {
  for (const step of CERTIFICATION_STEPS) {
    const text = readOnlyStepAction(step, CERTIFICATION_STEP_INFO[step].action);
    assert.doesNotMatch(text, /aquí|marque este paso|súbalo|envíelo/i, step);
    assert.ok(text.length > 20, step);
  }
  // Steps the service completes by itself keep the tenant page's words.
  assert.equal(
    readOnlyStepAction('reception_ecf', CERTIFICATION_STEP_INFO.reception_ecf.action),
    CERTIFICATION_STEP_INFO.reception_ecf.action,
  );
});
