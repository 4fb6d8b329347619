/**
 * The portal's cookies (next-auth's, named and configured here so that the rules are visible and
 * tested): httpOnly (no script reads them), sameSite=lax (not sent on cross-site subrequests or
 * cross-site POSTs), secure with the `__Secure-`/`__Host-` prefixes when the portal's public URL is
 * https.
 */
import type { CookiesOptions } from 'next-auth';

export function sessionCookieName(secure: boolean): string {
  return secure ? '__Secure-ecf.session-token' : 'ecf.session-token';
}

export function portalCookies(secure: boolean): Partial<CookiesOptions> {
  const options = { httpOnly: true, sameSite: 'lax' as const, path: '/', secure };
  return {
    sessionToken: { name: sessionCookieName(secure), options },
    callbackUrl: { name: secure ? '__Secure-ecf.callback-url' : 'ecf.callback-url', options },
    csrfToken: { name: secure ? '__Host-ecf.csrf-token' : 'ecf.csrf-token', options },
  };
}
