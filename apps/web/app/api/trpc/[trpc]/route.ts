import { handleTrpcRequest } from '../../../../server/trpc/http.ts';
import { createRequestContext } from '../../../../server/trpc/request-context.ts';
import { portalRuntime } from '../../../../server/runtime.ts';

export const dynamic = 'force-dynamic';

/** tRPC over fetch: same-origin JSON POSTs for mutations (server/trpc/http.ts). */
function handler(request: Request): Promise<Response> {
  return handleTrpcRequest(request, {
    publicOrigin: portalRuntime().publicUrl.origin,
    createContext: createRequestContext,
  });
}

export { handler as GET, handler as POST };
