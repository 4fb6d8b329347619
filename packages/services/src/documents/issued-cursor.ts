/**
 * The issued list's cursors: opaque, tamper-evident (HMAC under the API's cursor secret) and bound
 * to the tenant, the environment and the filter set, so a client cannot page one query with
 * another's cursor.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Environment } from '@ecf/db';
import type { TIssuedFilters } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';

export type TCursor = { submittedAt: Date; id: string };

function invalidQuery(message: string, details: Record<string, unknown> = {}): AppError {
  return new AppError('INVALID_ISSUED_DOCUMENTS_QUERY', message, { details });
}

/** What a cursor is bound to: the tenant, the environment and the filter set (not the page size). */
export function bindingOf(tenantId: string, environment: Environment, filters: TIssuedFilters): string {
  const search = [
    filters.encfPrefix ?? null,
    filters.trackId ?? null,
    filters.buyerRnc ?? null,
    filters.amountMin ?? null,
    filters.amountMax ?? null,
  ];
  // The portal's search members join the binding only when set: the REST API's cursors (which
  // never carry them) stay exactly what they were.
  const canonical = JSON.stringify([
    tenantId,
    environment,
    filters.issueDateFrom ?? null,
    filters.issueDateTo ?? null,
    filters.type ?? null,
    filters.status ?? null,
    ...(search.some((value) => value !== null) ? search : []),
    // The name (issue 27's second part) likewise: the cursors of the searches before it stay valid.
    ...(filters.buyerName === undefined ? [] : [['buyerName', filters.buyerName]]),
  ]);
  return createHash('sha256').update(canonical).digest('base64url');
}

function sign(secret: string, payload: string, binding: string): Buffer {
  return createHmac('sha256', secret).update(`${payload}.${binding}`).digest();
}

/** An opaque cursor: the keyset position (submittedAt, id) and an HMAC over it and the binding. */
export function encodeCursor(secret: string, binding: string, position: TCursor): string {
  const payload = Buffer.from(JSON.stringify([position.submittedAt.toISOString(), position.id])).toString(
    'base64url',
  );
  return `${payload}.${sign(secret, payload, binding).toString('base64url')}`;
}

export function decodeCursor(secret: string, binding: string, cursor: string): TCursor {
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined)
    throw invalidQuery('The cursor is malformed; repeat the request with nextCursor exactly as received.', {
      reason: 'cursor_malformed',
    });
  const expected = sign(secret, payload, binding);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw invalidQuery('The cursor was not issued for this query: keep the same filters while paging.', {
      reason: 'cursor_mismatch',
    });
  }
  try {
    const [submittedAt, id] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [
      string,
      string,
    ];
    const date = new Date(submittedAt);
    if (Number.isNaN(date.getTime()) || !isUuid(id)) throw new Error('bad position');
    return { submittedAt: date, id };
  } catch {
    throw invalidQuery('The cursor is malformed.', { reason: 'cursor_malformed' });
  }
}
