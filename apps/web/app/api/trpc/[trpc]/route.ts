import { DATABASE_BUSY_RETRY_AFTER_SECONDS } from '@ecf/db';
import { handleTrpcRequest } from '../../../../server/trpc/http.ts';
import { createRequestContext } from '../../../../server/trpc/request-context.ts';
import { portalRuntime } from '../../../../server/runtime.ts';

export const dynamic = 'force-dynamic';

/**
 * tRPC over fetch: same-origin JSON POSTs for mutations (server/trpc/http.ts). A 503 (no database
 * connection was free) tells the client when to try again, as the API does.
 */
async function handler(request: Request): Promise<Response> {
  const response = await handleTrpcRequest(request, {
    publicOrigin: portalRuntime().publicUrl.origin,
    createContext: createRequestContext,
  });
  if (response.status === 503 && !response.headers.has('retry-after'))
    response.headers.set('retry-after', String(DATABASE_BUSY_RETRY_AFTER_SECONDS));
  return response;
}

export { handler as GET, handler as POST };
