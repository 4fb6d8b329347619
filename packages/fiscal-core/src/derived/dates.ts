/**
 * Dates as the tax authority writes them: `dd-MM-yyyy` and `dd-MM-yyyy HH:mm:ss` (24 h) in
 * Dominican time. The Dominican Republic keeps UTC-4 all year (Atlantic Standard Time, no daylight
 * saving since 1974; the only exception in the zone data since then is an aborted switch to UTC-5 from 29 October to
 * 3 December 2000), so the conversion is a fixed offset; that avoids depending on the IANA time zone
 * data bundled with the runtime (small-ICU builds lack it). Dates before 2001 are not fiscal dates of
 * this system. Should the country ever adopt DST, this is the one place to change.
 */

import {
  DOMINICAN_OFFSET_MS,
  dominicanDateOf,
  formatDominicanDateTime,
  formatTaxauthDate,
  isRealCalendarDate,
} from '../input/dates.ts';

/** The fixed offset of America/Santo_Domingo from UTC, in minutes. */
export const DOMINICAN_UTC_OFFSET_MINUTES = DOMINICAN_OFFSET_MS / 60_000;

function instantOf(date: Date): number {
  const time = date.getTime();
  if (Number.isNaN(time)) throw new TypeError('Invalid Date');
  return time;
}

/**
 * `FechaHoraFirma` and the other signature timestamps: `dd-MM-yyyy HH:mm:ss` in Dominican time.
 * Throws a `TypeError` for an invalid `Date` (a programmer error).
 */
export function formatSignatureDateTime(date: Date): string {
  return formatDominicanDateTime(instantOf(date));
}

/** A plain date (`FechaEmision` ...) of an instant: `dd-MM-yyyy`, the Dominican calendar day. */
export function formatDate(date: Date): string {
  return formatTaxauthDate(dominicanDateOf(instantOf(date)));
}

/** A parsed plain date: calendar fields, no time zone (a fiscal date is a Dominican calendar day). */
export type TDominicanDate = { year: number; month: number; day: number };

/** Issue codes of the date parsers: `DATE_FORMAT_INVALID` (wrong shape) and `DATE_INVALID` (impossible date or time). */
export type TDateIssueCode = 'DATE_FORMAT_INVALID' | 'DATE_INVALID';
export type TDateParseResult<TData> =
  | { success: true; data: TData }
  | { success: false; issues: Array<{ code: TDateIssueCode; path: string; message: string }> };

const DATE_PATTERN = /^(\d{2})-(\d{2})-(\d{4})$/;
const DATE_TIME_PATTERN = /^(\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * Parses `dd-MM-yyyy` strictly (two-digit day and month, four-digit year; the canonical form we
 * write) and rejects impossible dates such as `31-04-2025` or `29-02-2025`.
 */
export function parseDate(text: string, path = ''): TDateParseResult<TDominicanDate> {
  const match = DATE_PATTERN.exec(text);
  if (match === null)
    return {
      success: false,
      issues: [{ code: 'DATE_FORMAT_INVALID', path, message: `"${text}" is not a dd-MM-yyyy date.` }],
    };
  const day = Number(match[1]);
  const month = Number(match[2]);
  const year = Number(match[3]);
  if (!isRealCalendarDate(year, month, day))
    return {
      success: false,
      issues: [{ code: 'DATE_INVALID', path, message: `"${text}" is not a real calendar date.` }],
    };
  return { success: true, data: { year, month, day } };
}

/**
 * Parses `dd-MM-yyyy HH:mm:ss` (24 h) as Dominican time and returns the instant. Rejects impossible
 * dates and times (`24:00:00`, `12:60:00`).
 */
export function parseSignatureDateTime(text: string, path = ''): TDateParseResult<Date> {
  const match = DATE_TIME_PATTERN.exec(text);
  if (match === null) {
    return {
      success: false,
      issues: [
        { code: 'DATE_FORMAT_INVALID', path, message: `"${text}" is not a dd-MM-yyyy HH:mm:ss date-time.` },
      ],
    };
  }
  const [day, month, year, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!isRealCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 59) {
    return {
      success: false,
      issues: [{ code: 'DATE_INVALID', path, message: `"${text}" is not a real date and time.` }],
    };
  }
  return {
    success: true,
    data: new Date(Date.UTC(year, month - 1, day, hour, minute, second) - DOMINICAN_OFFSET_MS),
  };
}
