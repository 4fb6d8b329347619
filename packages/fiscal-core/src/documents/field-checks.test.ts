import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TXmlIssue } from '../xml/xml-issues.ts';
import { checkAmount, checkDate, checkDateTime, parseEncf } from './field-checks.ts';

test('amounts are written with exactly two decimals, by string work only', () => {
  const issues: TXmlIssue[] = [];
  assert.equal(checkAmount('540', 'a', issues), '540.00');
  assert.equal(checkAmount('637.2', 'a', issues), '637.20');
  assert.equal(checkAmount('007.05', 'a', issues), '7.05');
  assert.equal(checkAmount('0', 'a', issues), '0.00');
  assert.equal(checkAmount('9999999999999999.99', 'a', issues), '9999999999999999.99');
  assert.equal(checkAmount('-25.5', 'a', issues, { allowNegative: true }), '-25.50');
  assert.equal(checkAmount('-0', 'a', issues, { allowNegative: true }), '0.00');
  assert.deepEqual(issues, []);
  for (const bad of ['-1', '1,000.00', '1.234', '1e3', '', ' 1', '.5', '10000000000000000']) {
    const found: TXmlIssue[] = [];
    assert.equal(checkAmount(bad, 'a', found), undefined, bad);
    assert.equal(found[0]?.code, 'AMOUNT_INVALID', bad);
  }
});

test('dates and date-times must exist on the calendar', () => {
  const issues: TXmlIssue[] = [];
  assert.equal(checkDate('29-02-2028', 'd', issues), '29-02-2028');
  assert.equal(checkDateTime('31-12-2026 23:59:59', 't', issues), '31-12-2026 23:59:59');
  assert.deepEqual(issues, []);
  for (const bad of ['29-02-2027', '31-04-2026', '1-1-2026', '2026-01-01'])
    assert.equal(checkDate(bad, 'd', []), undefined, bad);
  for (const bad of ['31-12-2026 24:00:00', '31-12-2026 9:00:00', '30-02-2026 10:00:00'])
    assert.equal(checkDateTime(bad, 't', []), undefined, bad);
});

test('eNCFs: series E–Z except P, a known type, ten digits', () => {
  assert.deepEqual(parseEncf('E310000000001'), { series: 'E', type: '31', sequence: 1 });
  assert.deepEqual(parseEncf('F470000012345'), { series: 'F', type: '47', sequence: 12345 });
  for (const bad of ['P310000000001', 'D310000000001', 'E300000000001', 'E31000000001', 'e310000000001']) {
    assert.equal(parseEncf(bad), undefined, bad);
  }
});
