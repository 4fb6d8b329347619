/**
 * next-auth's routes (`app/api/auth/[...nextauth]`) at the request edge (issue 25). next-auth 4
 * reads a POST body whole (`req.text()` for the credentials sign-in form, `req.json()` for JSON),
 * and Next.js puts no limit on a route handler's body: any sender could make the portal hold a body
 * of any size. So the edge reads it first, with the services' bounded reader, under
 * `AUTH_BODY_LIMITS` (16 KiB, 10 s: an e-mail, a password, the CSRF token and a callback URL),
 * checks it (strict UTF-8; a JSON body through `readJsonBody`; a form's names and values without
 * U+0000, which PostgreSQL cannot store), and hands next-auth a new request with those bytes.
 * Refusals are the portal route handlers' JSON error (400, `code`, `details`, `correlationId`).
 */
import { NextRequest } from 'next/server';
import {
  AppError,
  assertStorableText,
  edgeLimits,
  readJsonBody,
  readRequestBytes,
  SMALL_JSON_LIMITS,
  type TEdgeLimits,
} from '@ecf/services';

/** The limits of next-auth's POSTs (sign-in, sign-out, CSRF): small forms. */
export const AUTH_BODY_LIMITS: TEdgeLimits = edgeLimits(SMALL_JSON_LIMITS, {
  bodyBytes: 16 * 1024,
  maxStringLength: 4_096,
  maxArrayLength: 16,
  maxDepth: 4,
});

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A refusal of a portal route handler: the AppError's status, code, message and details. */
export function routeRefusal(error: AppError): Response {
  return Response.json(
    {
      ok: false,
      error: { code: error.code, message: error.message, details: error.details },
      correlationId: crypto.randomUUID(),
    },
    { status: error.status, headers: { 'cache-control': 'no-store' } },
  );
}

/** The form's text: strict UTF-8, then each decoded name and value storable. */
function assertFormBody(bytes: Uint8Array): void {
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    throw new AppError('INVALID_REQUEST', 'The form is not valid UTF-8.', {
      details: { reason: 'invalid_utf8' },
    });
  }
  for (const [name, value] of new URLSearchParams(text)) {
    assertStorableText(name, name);
    assertStorableText(value, name);
  }
}

/**
 * The request next-auth may read: a POST's body read under `AUTH_BODY_LIMITS` and checked, then
 * carried by a new request; any other method as it came. A refusal is the Response to send.
 */
export async function boundedAuthRequest(request: Request): Promise<NextRequest | Response> {
  if (request.method.toUpperCase() !== 'POST')
    return request instanceof NextRequest ? request : new NextRequest(request);
  const contentType = request.headers.get('content-type') ?? '';
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  try {
    if (mediaType !== 'application/x-www-form-urlencoded' && mediaType !== 'application/json')
      throw new AppError('UNSUPPORTED_CONTENT_TYPE', 'Send the form as application/x-www-form-urlencoded.', {
        details: { accepted: ['application/x-www-form-urlencoded', 'application/json'] },
      });
    const bytes = await readRequestBytes(request, AUTH_BODY_LIMITS);
    if (mediaType === 'application/json')
      await readJsonBody(bytes, { limits: AUTH_BODY_LIMITS, contentType });
    else assertFormBody(bytes);
    const headers = new Headers(request.headers);
    headers.delete('content-length');
    headers.delete('transfer-encoding');
    return new NextRequest(request.url, {
      method: 'POST',
      headers,
      body: bytes as Uint8Array<ArrayBuffer>,
      signal: request.signal,
    });
  } catch (error) {
    if (error instanceof AppError) {
      await request.body?.cancel().catch(() => undefined);
      return routeRefusal(error);
    }
    throw error;
  }
}
