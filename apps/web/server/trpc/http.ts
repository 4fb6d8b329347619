/**
 * The tRPC HTTP endpoint's rules, before tRPC sees a request (pure: tested with plain Requests):
 * - only GET (queries) and POST (mutations, and batched queries) reach tRPC; tRPC itself refuses a
 *   mutation over GET (405), and method override is off;
 * - a POST must carry JSON (`application/json`): no form posts, no multipart, no binary inputs;
 * - a POST must come from the portal's own origin: `Origin` equal to the public origin (or, when a
 *   browser sends no Origin, `Sec-Fetch-Site: same-origin`); a request that says neither is refused.
 *   A GET that a browser marks as cross-site is refused too (reads may write support's audit entries).
 * Together with sameSite=lax cookies this is the CSRF protection of every mutation.
 */
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { TTrpcContext } from './context.ts';
import { appRouter } from '../routers/root.ts';

export const TRPC_ENDPOINT = '/api/trpc';

function refusal(status: number, code: string, message: string): Response {
  return new Response(
    JSON.stringify({ error: { message, code: -32600, data: { code, httpStatus: status } } }),
    {
      status,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    },
  );
}

/** Why a request may not reach tRPC; null when it may. */
export function refusalOf(request: Request, publicOrigin: string): Response | null {
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'POST')
    return refusal(405, 'METHOD_NOT_SUPPORTED', 'Only GET (queries) and POST are accepted.');
  const fetchSite = request.headers.get('sec-fetch-site');
  if (method === 'GET') {
    if (fetchSite === 'cross-site' || fetchSite === 'same-site')
      return refusal(403, 'FORBIDDEN', 'Cross-site request refused.');
    return null;
  }
  const contentType = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json')
    return refusal(415, 'UNSUPPORTED_MEDIA_TYPE', 'Mutations are JSON (content-type: application/json).');
  const origin = request.headers.get('origin');
  const sameOrigin = origin !== null ? origin === publicOrigin : fetchSite === 'same-origin';
  if (!sameOrigin) return refusal(403, 'FORBIDDEN', 'Cross-origin request refused.');
  return null;
}

/** Answers a tRPC request: the rules above, then the router with a context built for it. */
export async function handleTrpcRequest(
  request: Request,
  options: { publicOrigin: string; createContext: () => Promise<TTrpcContext> },
): Promise<Response> {
  const refused = refusalOf(request, options.publicOrigin);
  if (refused !== null) return refused;
  const response = await fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    req: request,
    router: appRouter,
    allowMethodOverride: false,
    createContext: options.createContext,
    onError({ error, path }) {
      if (error.code === 'INTERNAL_SERVER_ERROR')
        console.error(`portal: tRPC ${path ?? '?'} failed`, error.cause ?? error);
    },
  });
  response.headers.set('cache-control', 'no-store');
  return response;
}
