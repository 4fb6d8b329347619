/**
 * next-auth 4 for the portal: e-mail and password (Credentials provider, which requires JWT
 * sessions). The JWT (encrypted with NEXTAUTH_SECRET, in an httpOnly cookie) carries only the id of
 * a `portal_sessions` row; every render, route handler and tRPC call checks that row in PostgreSQL
 * (auth/portal-session.ts), so signing out everywhere and removing a member take effect at once.
 * next-auth's own routes keep its CSRF protection (double-submit token on every POST).
 */
import 'server-only';
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { AppError, revokePortalSession, signIn } from '@ecf/services';
import { portalEnv } from '../env.ts';
import { ZSignInInput } from '../lib/schemas.ts';
import { requestMetaOf } from '../server/request-meta.ts';
import { portalRuntime } from '../server/runtime.ts';
import { portalCookies } from './cookies.ts';
import { encodeSignInFailure } from './sign-in-errors.ts';

declare module 'next-auth' {
  interface User {
    /** The `portal_sessions` row opened by this sign-in. */
    sessionId: string;
  }
}
declare module 'next-auth/jwt' {
  interface JWT {
    /** The `portal_sessions` row this browser is signed in with: the only thing the portal trusts. */
    sid?: string;
  }
}

let options: NextAuthOptions | undefined;

export function authOptions(): NextAuthOptions {
  if (options !== undefined) return options;
  const env = portalEnv();
  const runtime = portalRuntime();
  const secure = runtime.publicUrl.protocol === 'https:';
  options = {
    secret: env.NEXTAUTH_SECRET,
    session: { strategy: 'jwt', maxAge: runtime.sessionTtlSeconds },
    jwt: { maxAge: runtime.sessionTtlSeconds },
    useSecureCookies: secure,
    cookies: portalCookies(secure),
    pages: { signIn: '/sign-in', error: '/sign-in' },
    providers: [
      CredentialsProvider({
        id: 'credentials',
        name: 'Correo y contraseña',
        credentials: { email: { type: 'email' }, password: { type: 'password' } },
        async authorize(credentials, request) {
          // The same zod schema as the form's: a request that skips the browser is checked alike.
          const parsed = ZSignInInput.safeParse(credentials);
          if (!parsed.success) throw new Error(encodeSignInFailure({ code: 'INVALID_INPUT' }));
          const meta = requestMetaOf(request.headers ?? {});
          try {
            const signedIn = await signIn({
              database: runtime.database,
              email: parsed.data.email,
              password: parsed.data.password,
              ip: meta.ip,
              userAgent: meta.userAgent,
              policy: runtime.signInPolicy,
              sessionTtlSeconds: runtime.sessionTtlSeconds,
            });
            return {
              id: signedIn.user.id,
              email: signedIn.user.email,
              name: signedIn.user.name,
              sessionId: signedIn.sessionId,
            };
          } catch (error) {
            if (error instanceof AppError && error.code === 'INVALID_CREDENTIALS')
              throw new Error(encodeSignInFailure({ code: 'INVALID_CREDENTIALS' }));
            if (error instanceof AppError && error.code === 'TOO_MANY_ATTEMPTS')
              throw new Error(
                encodeSignInFailure({
                  code: 'TOO_MANY_ATTEMPTS',
                  reason: error.details.reason === 'ip' ? 'ip' : 'account',
                  retryAfterSeconds: Number(error.details.retryAfterSeconds) || 1,
                }),
              );
            console.error('portal: sign-in failed unexpectedly', error);
            throw new Error(encodeSignInFailure({ code: 'UNAVAILABLE' }));
          }
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        // On sign-in only: afterwards the token is decoded as it is and checked in the database.
        if (user !== undefined) return { sub: user.id, sid: user.sessionId };
        return token;
      },
      session({ session }) {
        // What /api/auth/session shows to the page's scripts: nothing beyond name and e-mail.
        return {
          expires: session.expires,
          user: { name: session.user?.name ?? null, email: session.user?.email ?? null },
        };
      },
    },
    events: {
      async signOut({ token }) {
        if (typeof token?.sid === 'string')
          await revokePortalSession({ database: runtime.database, sessionId: token.sid });
      },
    },
  };
  return options;
}
