/**
 * Calendar dates and instants as the tax authority writes them, in Dominican Republic time.
 * The Dominican Republic is UTC-4 all year (no daylight saving), so a fixed offset is exact and
 * no time-zone database is needed.
 */
export type TCalendarDate = { readonly year: number; readonly month: number; readonly day: number };

/** Milliseconds of the Dominican offset (UTC-4). */
export const DOMINICAN_OFFSET_MS = -4 * 60 * 60 * 1000;

const TAXAUTH_DATE = /^(\d{1,2})-(\d{1,2})-(\d{4})$/;
const TAXAUTH_DATE_TIME = /^(\d{2})-(\d{2})-(\d{4}) (\d{1,2}):(\d{1,2}):(\d{1,2})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** True when the day exists in that month of that year (`31-04`, `29-02-2025` do not). */
export function isRealCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

/** A real date within the years the tax authority's XSD admits (`(19|20)\d{2}`). */
function isRealDate(year: number, month: number, day: number): boolean {
  return year >= 1900 && year <= 2099 && isRealCalendarDate(year, month, day);
}

/** `DD-MM-YYYY` (the XSD also admits one-digit day and month) that exists; null otherwise (`31-02-2027`). */
export function parseTaxauthDate(text: string): TCalendarDate | null {
  const match = TAXAUTH_DATE.exec(text);
  if (match === null) return null;
  const day = Number(match[1]);
  const month = Number(match[2]);
  const year = Number(match[3]);
  return isRealDate(year, month, day) ? { year, month, day } : null;
}

/** ISO `YYYY-MM-DD` that exists. */
export function parseIsoDate(text: string): TCalendarDate | null {
  const match = ISO_DATE.exec(text);
  if (match === null) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  return isRealDate(year, month, day) ? { year, month, day } : null;
}

/** `DD-MM-YYYY HH:mm:ss` read as Dominican time; returns the instant in epoch milliseconds. */
export function parseTaxauthDateTime(text: string): number | null {
  const match = TAXAUTH_DATE_TIME.exec(text);
  if (match === null) return null;
  const [day, month, year, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!isRealDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second) - DOMINICAN_OFFSET_MS;
}

/** ISO 8601 date-time with an explicit offset (`2026-11-21T10:00:00-04:00`); epoch milliseconds. */
export function parseIsoDateTime(text: string): number | null {
  const match = ISO_DATE_TIME.exec(text);
  if (match === null) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const hour = Number(match[4]);
  const minute = Number(match[5]);
  const second = match[6] === undefined ? 0 : Number(match[6]);
  if (!isRealDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  const zone = match[7] ?? 'Z';
  let offsetMs = 0;
  if (zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const offsetHours = Number(zone.slice(1, 3));
    const offsetMinutes = Number(zone.slice(4, 6));
    if (offsetHours > 14 || offsetMinutes > 59) return null;
    offsetMs = sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  }
  const milliseconds = Number((/\.(\d{1,3})/.exec(text)?.[1] ?? '0').padEnd(3, '0'));
  return Date.UTC(year, month - 1, day, hour, minute, second, milliseconds) - offsetMs;
}

/** The Dominican calendar date of an instant. */
export function dominicanDateOf(instantMs: number): TCalendarDate {
  const shifted = new Date(instantMs + DOMINICAN_OFFSET_MS);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/** `DD-MM-YYYY HH:mm:ss` in Dominican time (`FechaHoraFirma`). */
export function formatDominicanDateTime(instantMs: number): string {
  const shifted = new Date(instantMs + DOMINICAN_OFFSET_MS);
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${formatTaxauthDate(dominicanDateOf(instantMs))} ${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}`;
}

/** `DD-MM-YYYY` with two-digit day and month. */
export function formatTaxauthDate(date: TCalendarDate): string {
  return `${String(date.day).padStart(2, '0')}-${String(date.month).padStart(2, '0')}-${String(date.year).padStart(4, '0')}`;
}

/** ISO `YYYY-MM-DD`. */
export function formatIsoDate(date: TCalendarDate): string {
  return `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

/** Days since 1970-01-01 (for differences in calendar days and comparisons). */
export function dayNumber(date: TCalendarDate): number {
  return Date.UTC(date.year, date.month - 1, date.day) / 86_400_000;
}

/** The calendar date `days` later (or earlier when negative). */
export function addDays(date: TCalendarDate, days: number): TCalendarDate {
  const shifted = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/** Negative, zero or positive as `a` is before, on or after `b`. */
export function compareDates(a: TCalendarDate, b: TCalendarDate): number {
  return dayNumber(a) - dayNumber(b);
}
