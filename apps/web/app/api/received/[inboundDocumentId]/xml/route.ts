import { getReceivedDocumentXml } from '@ecf/services';
import { documentDownloadParamsOf } from '../../../../../server/document-download-params.ts';
import { serveTenantDownload } from '../../../../../server/tenant-download.ts';

export const dynamic = 'force-dynamic';

/**
 * A received e-CF's XML exactly as the supplier sent it (`?environment=`), through the API's
 * use-case: its file name, its 404s and the SHA-256 check (500 when the kept copy fails it).
 */
export async function GET(request: Request, context: { params: Promise<{ inboundDocumentId: string }> }) {
  const params = documentDownloadParamsOf(request, (await context.params).inboundDocumentId);
  return serveTenantDownload({
    request,
    capability: 'inbound.read',
    what: 'inbound.xml',
    input: params,
    load: async ({ database, tenantId }) => {
      const file = await getReceivedDocumentXml({
        database,
        tenantId,
        environment: params?.environment ?? 'TesteCF',
        inboundDocumentId: params?.documentId ?? '',
      });
      return { content: file.content, fileName: file.fileName, contentType: 'application/xml' };
    },
  });
}
