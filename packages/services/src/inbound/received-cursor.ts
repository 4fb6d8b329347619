/**
 * The received lists' cursors: opaque, tamper-evident (HMAC under the cursor secret) and bound to
 * the list, the tenant, the environment and the filter set, so a client cannot page one query with
 * another's cursor (nor the received e-CF list with an ACECF list's cursor).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Environment } from '@ecf/db';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';

/** The keyset position: newest reception first, then id. */
export type TReceivedCursor = { receivedAt: Date; id: string };

function invalidCursor(message: string, reason: string): AppError {
  return new AppError('INVALID_RECEIVED_DOCUMENTS_QUERY', message, {
    details: { reason, issues: [{ path: 'cursor', code: reason, message }] },
  });
}

/** What a cursor is bound to (not the page size). */
export function receivedBindingOf(
  list: 'documents' | 'approvals',
  tenantId: string,
  environment: Environment,
  filters: Record<string, string | number | undefined>,
): string {
  const keys = Object.keys(filters).sort();
  const canonical = JSON.stringify([
    list,
    tenantId,
    environment,
    ...keys.map((key) => [key, filters[key] ?? null]),
  ]);
  return createHash('sha256').update(canonical).digest('base64url');
}

function sign(secret: string, payload: string, binding: string): Buffer {
  return createHmac('sha256', `received-list:${secret}`).update(`${payload}.${binding}`).digest();
}

export function encodeReceivedCursor(secret: string, binding: string, position: TReceivedCursor): string {
  const payload = Buffer.from(JSON.stringify([position.receivedAt.toISOString(), position.id])).toString(
    'base64url',
  );
  return `${payload}.${sign(secret, payload, binding).toString('base64url')}`;
}

export function decodeReceivedCursor(secret: string, binding: string, cursor: string): TReceivedCursor {
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined)
    throw invalidCursor(
      'The cursor is malformed; repeat the request with nextCursor exactly as received.',
      'cursor_malformed',
    );
  const expected = sign(secret, payload, binding);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw invalidCursor(
      'The cursor was not issued for this query: keep the same filters while paging.',
      'cursor_mismatch',
    );
  try {
    const [receivedAt, id] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [
      string,
      string,
    ];
    const date = new Date(receivedAt);
    if (Number.isNaN(date.getTime()) || !isUuid(id)) throw new Error('bad position');
    return { receivedAt: date, id };
  } catch {
    throw invalidCursor('The cursor is malformed.', 'cursor_malformed');
  }
}
