/**
 * Live status (issue 27, README "Live status"): the client-safe rules of the portal's live pages.
 * Pages poll tRPC queries; these decide how often, and how waiting times read in Spanish.
 */

/** Statuses a document still leaves on its own (the worker moves it): its row and page keep refreshing. */
export const PENDING_DOCUMENT_STATUSES: readonly string[] = [
  'queued_for_signing',
  'signed',
  'sent',
  'contingency',
];

export function isPendingDocumentStatus(status: string): boolean {
  return PENDING_DOCUMENT_STATUSES.includes(status);
}

/** An idle page (nothing pending) waits at most this many poll intervals between refreshes. */
export const IDLE_BACKOFF_FACTOR = 12;

/**
 * The wait before the next refresh: the page's interval while something on it is pending; when
 * nothing is, as long as the page has been idle (`idleForMs`, since it last had something pending
 * or changed), between the interval and {@link IDLE_BACKOFF_FACTOR} times it (5 s → 5, 10, 20, 40,
 * 60 s: a doubling back-off); or never again when nothing on the page can change by itself
 * (`stopWhenIdle`: a documents page whose rows are all final).
 */
export function nextRefreshDelay(input: {
  pollMs: number;
  pending: boolean;
  idleForMs: number;
  stopWhenIdle?: boolean;
}): number | false {
  if (input.pending) return input.pollMs;
  if (input.stopWhenIdle === true) return false;
  return Math.min(Math.max(input.idleForMs, input.pollMs), input.pollMs * IDLE_BACKOFF_FACTOR);
}

/** `2 h 5 min`, `2 min 10 s`, `45 s`: a duration as a person reads it (whole seconds, rounded up). */
export function formatWait(milliseconds: number): string {
  const total = Math.max(0, Math.ceil(milliseconds / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  if (minutes > 0) return seconds > 0 ? `${minutes} min ${seconds} s` : `${minutes} min`;
  return `${seconds} s`;
}

/** `9:35`, `1:05:10`: a wait as a countdown clock (a dense table's cell). */
export function formatClock(milliseconds: number): string {
  const total = Math.max(0, Math.ceil(milliseconds / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** "Próximo intento en 2 min 10 s", or that it is due now (the worker takes it within seconds). */
export function nextAttemptText(nextAttemptAt: string, now: number): string {
  const left = Date.parse(nextAttemptAt) - now;
  return left <= 0 ? 'Próximo intento: en curso' : `Próximo intento en ${formatWait(left)}`;
}

/** "Actualizado hace 3 s" / "hace 2 min": how old what the page shows is. */
export function updatedAgoText(updatedAt: number, now: number): string {
  const seconds = Math.max(0, Math.floor((now - updatedAt) / 1000));
  if (seconds < 60) return `Actualizado hace ${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `Actualizado hace ${minutes} min`;
  return `Actualizado hace ${Math.floor(minutes / 60)} h`;
}

/**
 * JSON with object keys sorted: two answers with the same content compare equal whatever order the
 * server listed a record's keys in (the overview's counts by status), so a page is re-rendered only
 * when something it shows changed.
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
