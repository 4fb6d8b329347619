/**
 * The portal's proxy (Next.js 16's name for middleware), run before every page: a fresh CSP nonce
 * per request and the policy that requires it, so no script runs unless Next.js (which reads the
 * nonce from the request's policy header) or our code put it there. It also tells the pages which
 * path is being rendered (`x-pathname`, for the navigation and sign-in's return address) and
 * remembers the last environment visited (a UI preference cookie). No database, no session here:
 * pages and procedures check the session themselves on every request.
 *
 * The other security headers (frame, sniffing, referrer, permissions) are static: next.config.ts.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { expiredEmbedPage } from './lib/embed-expired-page.ts';
import { ENVIRONMENT_COOKIE, environmentOfPath } from './lib/environments.ts';

/** The Content-Security-Policy of a page rendered with `nonce`. */
export function contentSecurityPolicy(
  nonce: string,
  options: { development: boolean; https: boolean; frameAncestors?: string },
): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': scripts the nonce'd ones load are trusted, host allow-lists ignored.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ''}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${options.frameAncestors ?? "'none'"}`,
    ...(options.https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/** Paths of the embedded certification page a Partner frames (`/embed/certification/{token}`). */
const EMBED_PATH = /^\/embed\/certification\/([^/]+)$/;

/**
 * What an embed link's token says about framing, read without its signature (the page verifies it
 * and shows nothing for a forged one): the one HTTPS origin that may frame the page, and whether the
 * link expired (410 CERTIFICATION_EMBED_EXPIRED, answered here: a page cannot set its status).
 */
export function embedFramingOf(
  token: string,
  nowSeconds: number,
): { origin: string | null; expired: boolean } {
  const payload = token.split('.')[0] ?? '';
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      o?: unknown;
      e?: unknown;
    };
    const origin =
      typeof claims.o === 'string' && /^https:\/\/[a-z0-9.-]+(:\d{1,5})?$/i.test(claims.o) ? claims.o : null;
    return { origin, expired: typeof claims.e === 'number' && nowSeconds >= claims.e };
  } catch {
    return { origin: null, expired: false };
  }
}

export function proxy(request: NextRequest) {
  const embed = EMBED_PATH.exec(request.nextUrl.pathname);
  const framing = embed === null ? null : embedFramingOf(embed[1] ?? '', Date.now() / 1000);
  if (framing?.expired === true) {
    const correlationId = crypto.randomUUID();
    // A browser (the Partner's iframe) gets the notice in Spanish, framed by the token's origin;
    // an API client the contract's ErrorResponse. Both are 410 CERTIFICATION_EMBED_EXPIRED.
    if (request.headers.get('accept')?.includes('text/html') === true) {
      const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
      return new NextResponse(expiredEmbedPage({ nonce, origin: framing.origin }), {
        status: 410,
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'x-correlation-id': correlationId,
          'content-security-policy': [
            "default-src 'none'",
            `style-src 'nonce-${nonce}'`,
            `script-src 'nonce-${nonce}'`,
            "base-uri 'none'",
            "form-action 'none'",
            `frame-ancestors ${framing.origin ?? "'none'"}`,
          ].join('; '),
        },
      });
    }
    return NextResponse.json(
      {
        ok: false,
        error: {
          code: 'CERTIFICATION_EMBED_EXPIRED',
          message: 'This certification link expired: ask for a new one.',
          details: { code: 'CERTIFICATION_EMBED_EXPIRED' },
        },
        correlationId,
      },
      { status: 410, headers: { 'content-security-policy': "default-src 'none'; frame-ancestors 'none'" } },
    );
  }
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const https =
    request.nextUrl.protocol === 'https:' ||
    request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
  // NODE_ENV is fixed by Next.js itself at build time (not configuration): React needs eval in development only.
  // eslint-disable-next-line no-restricted-properties
  const development = process.env.NODE_ENV === 'development';
  const policy = contentSecurityPolicy(nonce, {
    development,
    https,
    ...(framing?.origin ? { frameAncestors: framing.origin } : {}),
  });
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', policy);
  headers.set('x-pathname', request.nextUrl.pathname);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', policy);
  const environment = environmentOfPath(request.nextUrl.pathname);
  if (environment !== null && request.cookies.get(ENVIRONMENT_COOKIE)?.value !== environment)
    response.cookies.set(ENVIRONMENT_COOKIE, environment, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: https,
    });
  return response;
}

export const config = {
  matcher: [
    {
      // Pages only: not the API routes (their own static policy, next.config.ts), not static files.
      source: '/((?!api/|_next/static|_next/image|favicon.ico).*)',
    },
  ],
};
