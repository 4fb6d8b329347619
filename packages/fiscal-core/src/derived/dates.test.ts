import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { formatDate, formatSignatureDateTime, parseDate, parseSignatureDateTime } from './dates.ts';

describe('Dominican dates', () => {
  test('formats in UTC-4 with 24-hour time', () => {
    assert.equal(formatSignatureDateTime(new Date('2026-04-01T14:15:09Z')), '01-04-2026 10:15:09');
    assert.equal(formatSignatureDateTime(new Date('2026-04-01T23:05:00Z')), '01-04-2026 19:05:00');
    assert.equal(formatDate(new Date('2026-04-01T14:15:09Z')), '01-04-2026');
  });

  test('the Dominican day changes at 04:00 UTC, also across a year end', () => {
    assert.equal(formatSignatureDateTime(new Date('2026-01-01T03:59:59Z')), '31-12-2025 23:59:59');
    assert.equal(formatSignatureDateTime(new Date('2026-01-01T04:00:00Z')), '01-01-2026 00:00:00');
    assert.equal(formatDate(new Date('2026-01-01T03:59:59Z')), '31-12-2025');
  });

  test('no daylight saving: July and January use the same offset', () => {
    assert.equal(formatSignatureDateTime(new Date('2026-07-15T12:00:00Z')), '15-07-2026 08:00:00');
    assert.equal(formatSignatureDateTime(new Date('2026-01-15T12:00:00Z')), '15-01-2026 08:00:00');
  });

  test('matches the IANA America/Santo_Domingo zone when the runtime has it', () => {
    const formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/Santo_Domingo',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    fc.assert(
      // From 2001: the zone data records a short UTC-5 spell from 29 Oct to 3 Dec 2000 (an aborted DST switch).
      fc.property(
        fc.date({
          min: new Date('2001-01-01T00:00:00Z'),
          max: new Date('2099-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        (date) => {
          const parts = Object.fromEntries(
            formatter.formatToParts(date).map((part) => [part.type, part.value]),
          );
          const expected = `${parts['day']}-${parts['month']}-${parts['year']} ${parts['hour']}:${parts['minute']}:${parts['second']}`;
          assert.equal(formatSignatureDateTime(date), expected);
        },
      ),
      { numRuns: 1000 },
    );
  });

  test('an invalid Date is a programmer error', () => {
    assert.throws(() => formatSignatureDateTime(new Date('nope')), TypeError);
  });

  test('parseDate accepts real dates and rejects impossible ones', () => {
    assert.deepEqual(parseDate('29-02-2024'), { success: true, data: { year: 2024, month: 2, day: 29 } });
    for (const impossible of [
      '29-02-2025',
      '31-04-2026',
      '00-01-2026',
      '32-01-2026',
      '15-13-2026',
      '15-00-2026',
    ]) {
      const result = parseDate(impossible, 'FechaEmision');
      assert.ok(!result.success, impossible);
      assert.equal(result.issues[0]?.code, 'DATE_INVALID');
      assert.equal(result.issues[0]?.path, 'FechaEmision');
    }
    for (const malformed of ['1-4-2026', '2026-04-01', '01/04/2026', '01-04-26', ' 01-04-2026', '']) {
      const result = parseDate(malformed);
      assert.ok(!result.success, malformed);
      assert.equal(result.issues[0]?.code, 'DATE_FORMAT_INVALID');
    }
  });

  test('parseSignatureDateTime returns the instant and rejects impossible times', () => {
    const parsed = parseSignatureDateTime('31-12-2025 23:59:59');
    assert.ok(parsed.success);
    assert.equal(parsed.data.toISOString(), '2026-01-01T03:59:59.000Z');
    for (const impossible of [
      '31-12-2025 24:00:00',
      '31-12-2025 23:60:00',
      '31-12-2025 23:59:60',
      '30-02-2024 10:00:00',
    ]) {
      const result = parseSignatureDateTime(impossible);
      assert.ok(!result.success, impossible);
      assert.equal(result.issues[0]?.code, 'DATE_INVALID');
    }
    const malformed = parseSignatureDateTime('31-12-2025T23:59:59');
    assert.ok(!malformed.success);
    assert.equal(malformed.issues[0]?.code, 'DATE_FORMAT_INVALID');
  });

  test('format and parse round-trip to the second (property)', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1900-01-05T00:00:00Z'),
          max: new Date('2099-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        (date) => {
          const seconds = new Date(Math.floor(date.getTime() / 1000) * 1000);
          const parsed = parseSignatureDateTime(formatSignatureDateTime(seconds));
          assert.ok(parsed.success);
          assert.equal(parsed.data.getTime(), seconds.getTime());
          assert.ok(parseDate(formatDate(seconds)).success);
        },
      ),
      { numRuns: 300 },
    );
  });
});
