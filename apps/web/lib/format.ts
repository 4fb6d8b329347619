/** Dates as the portal shows them: Dominican time, Spanish. Client-safe. */
const DATE_TIME = new Intl.DateTimeFormat('es-DO', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'America/Santo_Domingo',
});
const DATE = new Intl.DateTimeFormat('es-DO', { dateStyle: 'medium', timeZone: 'America/Santo_Domingo' });

export function formatDateTime(iso: string | Date): string {
  return DATE_TIME.format(typeof iso === 'string' ? new Date(iso) : iso);
}

export function formatDate(iso: string | Date): string {
  return DATE.format(typeof iso === 'string' ? new Date(iso) : iso);
}

/** Tables: day/month/year and 24-hour time, one short line (`27/11/2026 14:05`), Dominican time. */
const SHORT_DATE_TIME = new Intl.DateTimeFormat('es-DO', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'America/Santo_Domingo',
});
const SHORT_DATE = new Intl.DateTimeFormat('es-DO', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: 'America/Santo_Domingo',
});

export function formatShortDateTime(iso: string | Date): string {
  return SHORT_DATE_TIME.format(typeof iso === 'string' ? new Date(iso) : iso).replace(', ', ' ');
}

export function formatShortDate(iso: string | Date): string {
  return SHORT_DATE.format(typeof iso === 'string' ? new Date(iso) : iso);
}
