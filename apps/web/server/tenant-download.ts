/**
 * Downloads (binary answers) are Next route handlers, not tRPC procedures; this is their guard,
 * the same as `tenantProcedure`'s: the portal session checked in PostgreSQL for this request, its
 * ACTIVE tenant (never one from the URL), the capability from the permission table, and for
 * support an entry in the tenant's audit log (`support.viewed`) before anything is read. The file
 * comes from a use-case of @ecf/services given that tenant, so another tenant's document id is
 * 404 exactly like one that exists nowhere. Errors are JSON `{ ok: false, error: { code, message } }`.
 *
 *   export const GET = (request, { params }) =>
 *     serveTenantDownload(request, { capability: 'documents.download', what: 'documents.pdf',
 *       input: { documentId }, load: ({ database, tenantId }) => getDocumentPdf({ ... }) });
 */
import 'server-only';
import { headers } from 'next/headers';
import type { TDatabase } from '@ecf/db';
import {
  AppError,
  databaseBusyError,
  hasCapability,
  recordSupportView,
  type TCapability,
  type TPrincipal,
} from '@ecf/services';
import { getPortalSession } from '../auth/portal-session.ts';
import { requestMetaOf } from './request-meta.ts';
import { portalRuntime } from './runtime.ts';

export type TDownload = { content: Uint8Array; fileName: string; contentType: string };

/** The JSON error answer of a download. */
export function errorResponse(
  status: number,
  code: string,
  message: string,
  extraHeaders: Record<string, string> = {},
): Response {
  return Response.json(
    { ok: false, error: { code, message } },
    { status, headers: { 'cache-control': 'no-store', ...extraHeaders } },
  );
}

/** The file as an attachment, never cached by a shared cache. */
export function fileResponse(file: TDownload): Response {
  return new Response(Buffer.from(file.content), {
    status: 200,
    headers: {
      'content-type': file.contentType,
      'content-disposition': `attachment; filename="${file.fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
      'cache-control': 'private, no-store',
    },
  });
}

/** A browser request another site started (a link or image elsewhere): refused, as reads may write audit entries. */
export function isCrossSite(request: Request): boolean {
  const fetchSite = request.headers.get('sec-fetch-site');
  return fetchSite === 'cross-site' || fetchSite === 'same-site';
}

/** A file download of the session's active tenant, or the JSON error the guard or the use-case decided. */
export async function serveTenantDownload(options: {
  request: Request;
  capability: TCapability;
  /** What support viewed, for the tenant's audit log (`documents.pdf`). */
  what: string;
  /** The request's parameters as parsed; null when they are not valid (400, before any check of the data). */
  input: Record<string, unknown> | null;
  /** `userId` and `principal`: for files owned by one user (exports) and checks that depend on the file. */
  load: (scope: {
    database: TDatabase;
    tenantId: string;
    userId: string;
    principal: TPrincipal;
  }) => Promise<TDownload>;
}): Promise<Response> {
  // No database connection was free (pool full, server out of slots): 503 with Retry-After.
  return answeringDatabaseBusy(guardedDownload)(options);
}

/**
 * A route handler whose database work may find no free connection: such a failure is answered 503
 * SERVICE_UNAVAILABLE with Retry-After (the JSON error of the downloads) instead of Next's 500.
 */
export function answeringDatabaseBusy<TArguments extends unknown[]>(
  handler: (...args: TArguments) => Promise<Response>,
): (...args: TArguments) => Promise<Response> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      const busy = databaseBusyError(error);
      if (busy === undefined) throw error;
      return errorResponse(busy.status, busy.code, busy.message, busy.headers);
    }
  };
}

async function guardedDownload(options: Parameters<typeof serveTenantDownload>[0]): Promise<Response> {
  if (isCrossSite(options.request)) return errorResponse(403, 'FORBIDDEN', 'Cross-site request refused.');
  const session = await getPortalSession();
  if (session === null) return errorResponse(401, 'SESSION_INVALID', 'Sign in first.');
  const tenant = session.activeTenant;
  const principal = session.principal;
  if (tenant === null || principal === null)
    return errorResponse(403, 'NO_ACTIVE_TENANT', 'Choose an account first.');
  if (!hasCapability(principal, options.capability))
    return errorResponse(403, 'FORBIDDEN', `This role may not do ${options.capability}.`);
  if (options.input === null) return errorResponse(400, 'INVALID_REQUEST', 'Invalid download parameters.');
  const { database } = portalRuntime();
  if (principal.kind === 'support')
    await recordSupportView({
      database,
      tenantId: tenant.id,
      supportUserId: session.user.id,
      what: options.what,
      input: options.input,
      ip: requestMetaOf(await headers()).ip,
      now: () => new Date(),
    });
  try {
    return fileResponse(
      await options.load({ database, tenantId: tenant.id, userId: session.user.id, principal }),
    );
  } catch (error) {
    if (error instanceof AppError && error.status < 500)
      return errorResponse(error.status, error.code, error.message);
    throw error;
  }
}
