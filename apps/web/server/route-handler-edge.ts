/**
 * THE EDGE OF EVERY ROUTE HANDLER under `app/api/` (issue 25), by its folder: what its body is read
 * with. `route-handler-edge.test.ts` walks `app/api/**\/route.ts` and fails when a handler has no
 * line, a line names no handler, a handler that takes no body exports a method that carries one,
 * or a handler that takes one does not call its declared reader.
 *
 * - `none`: GET only. Next.js hands a GET handler no body (`request.body` is null); whatever a
 *   client sends after the headers is never read into memory by the portal (Node discards it).
 * - `procedures`: the tRPC endpoint; each procedure's limits are `server/trpc/procedure-limits.ts`,
 *   read by `handleTrpcRequest` (`server/trpc/http.ts`).
 * - limits: read by the named reader with those limits (`readRequestBytes` of `@ecf/services`).
 */
import type { TEdgeLimits } from '@ecf/services';
import { AUTH_BODY_LIMITS } from './auth-request.ts';

export type TRouteHandlerEdge =
  | { body: 'none' }
  | { body: 'procedures'; reader: 'handleTrpcRequest' }
  | { body: TEdgeLimits; reader: string };

export const ROUTE_HANDLER_EDGE: Readonly<Record<string, TRouteHandlerEdge>> = Object.freeze({
  'auth/[...nextauth]': { body: AUTH_BODY_LIMITS, reader: 'boundedAuthRequest' },
  'trpc/[trpc]': { body: 'procedures', reader: 'handleTrpcRequest' },
  'documents/[documentId]/xml': { body: 'none' },
  'documents/[documentId]/pdf': { body: 'none' },
  'documents/[documentId]/evidence': { body: 'none' },
  'received/[inboundDocumentId]/xml': { body: 'none' },
  'received-approvals/[inboundDocumentId]/xml': { body: 'none' },
  'certification/runs/[runId]/evidence': { body: 'none' },
  'exports/[exportId]': { body: 'none' },
});
