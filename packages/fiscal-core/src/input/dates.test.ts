import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  dayNumber,
  dominicanDateOf,
  formatDominicanDateTime,
  formatTaxauthDate,
  parseIsoDate,
  parseIsoDateTime,
  parseTaxauthDate,
  parseTaxauthDateTime,
} from './dates.ts';

describe('dates', () => {
  test('DD-MM-YYYY must exist', () => {
    assert.deepEqual(parseTaxauthDate('29-02-2028'), { year: 2028, month: 2, day: 29 });
    assert.deepEqual(parseTaxauthDate('1-2-2027'), { year: 2027, month: 2, day: 1 });
    for (const text of [
      '31-02-2027',
      '29-02-2027',
      '00-01-2027',
      '32-01-2027',
      '01-13-2027',
      '2027-01-01',
      '01/01/2027',
      '',
    ])
      assert.equal(parseTaxauthDate(text), null, text);
  });

  test('Dominican time is UTC-4 all year', () => {
    assert.deepEqual(dominicanDateOf(Date.parse('2026-11-22T03:59:59Z')), { year: 2026, month: 11, day: 21 });
    assert.deepEqual(dominicanDateOf(Date.parse('2026-11-22T04:00:00Z')), { year: 2026, month: 11, day: 22 });
    assert.equal(formatDominicanDateTime(Date.parse('2026-07-01T16:05:09Z')), '01-07-2026 12:05:09');
    assert.equal(parseTaxauthDateTime('01-07-2026 12:05:09'), Date.parse('2026-07-01T16:05:09Z'));
    assert.equal(parseTaxauthDateTime('01-07-2026 24:00:00'), null);
  });

  test('ISO forms', () => {
    assert.equal(parseIsoDateTime('2026-11-21T10:15:00-04:00'), Date.parse('2026-11-21T14:15:00Z'));
    assert.equal(parseIsoDateTime('2026-11-21T10:15:00.250Z'), Date.parse('2026-11-21T10:15:00.250Z'));
    assert.equal(parseIsoDateTime('2026-11-21T10:15:00'), null, 'an offset is required');
    assert.equal(parseIsoDateTime('2026-02-30T10:15:00Z'), null);
    assert.deepEqual(parseIsoDate('2026-11-21'), { year: 2026, month: 11, day: 21 });
    assert.equal(formatTaxauthDate({ year: 2026, month: 1, day: 5 }), '05-01-2026');
    assert.equal(
      dayNumber({ year: 2026, month: 11, day: 21 }) - dayNumber({ year: 2026, month: 10, day: 22 }),
      30,
    );
  });
});
