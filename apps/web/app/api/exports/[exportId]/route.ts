import { AppError, getExportFile, hasCapability, type TCapability } from '@ecf/services';
import { serveTenantDownload } from '../../../../server/tenant-download.ts';

export const dynamic = 'force-dynamic';

/** What each kind of export may be read with (the capability of the list it comes from). */
const EXPORT_CAPABILITIES: Record<string, TCapability> = {
  issued: 'documents.read',
  received: 'inbound.read',
  audit: 'audit.read',
};

const EXPORT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A finished export (CSV or xlsx) of the session's user in its active tenant, its SHA-256 checked
 * on the read; another user's, another tenant's, an expired or an unfinished one is 404. The role
 * must still hold the capability of the export's list (a member whose role changed loses it).
 */
export async function GET(request: Request, context: { params: Promise<{ exportId: string }> }) {
  const { exportId } = await context.params;
  return serveTenantDownload({
    request,
    capability: 'overview.read',
    what: 'exports.download',
    input: EXPORT_ID.test(exportId) ? { exportId } : null,
    load: async ({ database, tenantId, userId, principal }) => {
      const file = await getExportFile({ database, tenantId, userId, exportId, now: new Date() });
      const capability = EXPORT_CAPABILITIES[file.kind];
      if (capability === undefined || !hasCapability(principal, capability))
        throw new AppError('FORBIDDEN', `This role may not do ${capability ?? 'exports'}.`);
      return { content: file.content, fileName: file.fileName, contentType: file.contentType };
    },
  });
}
