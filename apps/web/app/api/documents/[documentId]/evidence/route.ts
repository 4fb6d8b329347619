import { headers } from 'next/headers';
import { z } from 'zod';
import { AppError, buildEvidenceBundle, getDocumentScope, recordSupportView } from '@ecf/services';
import { getPortalSession } from '../../../../../auth/portal-session.ts';
import { requestMetaOf } from '../../../../../server/request-meta.ts';
import { portalRuntime } from '../../../../../server/runtime.ts';
import {
  answeringDatabaseBusy,
  errorResponse,
  fileResponse,
  isCrossSite,
  serveTenantDownload,
  type TDownload,
} from '../../../../../server/tenant-download.ts';

export const dynamic = 'force-dynamic';

const ZDocumentId = z.uuid();

/**
 * The evidence bundle (ZIP with `manifest.json` of SHA-256s) of one document, through
 * `buildEvidenceBundle` of @ecf/services:
 * - a tenant member with `evidence.download` (owners): a document of the session's ACTIVE tenant
 *   (serveTenantDownload: the guard of every download); another tenant's id is 404;
 * - operator staff: any tenant's document. Support is bound to no tenant, so the document's tenant
 *   is looked up, and support's view is written to THAT tenant's audit log before the bundle is
 *   built (an unknown document is 404 and audits nothing).
 * A browser request marked cross-site is refused (like tRPC's GETs: reads may write audit entries).
 * `?environment=` (links from the document page) is accepted and not needed: the id names the document.
 */
async function evidence(request: Request, context: { params: Promise<{ documentId: string }> }) {
  if (isCrossSite(request)) return errorResponse(403, 'FORBIDDEN', 'Cross-site request refused.');
  const parsed = ZDocumentId.safeParse((await context.params).documentId);
  const documentId = parsed.success ? parsed.data.toLowerCase() : null;
  const session = await getPortalSession();
  if (session === null) return errorResponse(401, 'SESSION_INVALID', 'Sign in first.');
  const load = async (tenantId: string): Promise<TDownload> => {
    const bundle = await buildEvidenceBundle({
      database: portalRuntime().database,
      tenantId,
      documentId: documentId ?? '',
    });
    return { content: bundle.zip, fileName: bundle.fileName, contentType: 'application/zip' };
  };
  if (!session.user.isSupport)
    return serveTenantDownload({
      request,
      capability: 'evidence.download',
      what: 'documents.evidence',
      input: documentId === null ? null : { documentId },
      load: ({ tenantId }) => load(tenantId),
    });

  if (documentId === null) return errorResponse(400, 'INVALID_REQUEST', 'Invalid document id.');
  const { database } = portalRuntime();
  try {
    const scope = await getDocumentScope({ database, documentId });
    await recordSupportView({
      database,
      tenantId: scope.tenantId,
      supportUserId: session.user.id,
      what: 'documents.evidence',
      input: { documentId, environment: scope.environment },
      ip: requestMetaOf(await headers()).ip,
      now: () => new Date(),
    });
    return fileResponse(await load(scope.tenantId));
  } catch (error) {
    if (error instanceof AppError && error.status < 500)
      return errorResponse(error.status, error.code, error.message);
    throw error;
  }
}

/** No free database connection (support's branch reads before the guard): 503 with Retry-After. */
export const GET = answeringDatabaseBusy(evidence);
