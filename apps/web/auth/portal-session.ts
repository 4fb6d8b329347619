/**
 * The portal session of the current request, checked in PostgreSQL: the next-auth JWT (cookie) is
 * decrypted for its session id, then `validatePortalSession` decides (not revoked, not expired,
 * the user exists, the active tenant is still one of their memberships). Cached per request (React
 * `cache`), so a page and its layout share one check. Null: treat as signed out.
 */
import 'server-only';
import { cache } from 'react';
import { cookies } from 'next/headers';
import { decode } from 'next-auth/jwt';
import { validatePortalSession, type TPortalSession } from '@ecf/services';
import { portalEnv } from '../env.ts';
import { portalRuntime } from '../server/runtime.ts';
import { sessionCookieName } from './cookies.ts';

/** The session id a cookie value names, when it decrypts under our secret and has not expired. */
export async function sessionIdOfCookie(value: string | undefined): Promise<string | null> {
  if (value === undefined || value === '') return null;
  try {
    const token = await decode({ token: value, secret: portalEnv().NEXTAUTH_SECRET });
    return typeof token?.sid === 'string' ? token.sid : null;
  } catch {
    return null;
  }
}

export const getPortalSession = cache(async (): Promise<TPortalSession | null> => {
  const runtime = portalRuntime();
  const store = await cookies();
  const sessionId = await sessionIdOfCookie(
    store.get(sessionCookieName(runtime.publicUrl.protocol === 'https:'))?.value,
  );
  if (sessionId === null) return null;
  return validatePortalSession({ database: runtime.database, sessionId });
});
