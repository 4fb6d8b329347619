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
