import { getReceivedApprovalXml } from '@ecf/services';
import { documentDownloadParamsOf } from '../../../../../server/document-download-params.ts';
import { serveTenantDownload } from '../../../../../server/tenant-download.ts';

export const dynamic = 'force-dynamic';

/**
 * A received commercial approval (ACECF) exactly as the customer sent it (`?environment=`), through the API's
 * use-case: its file name, its 404s and the SHA-256 check (500 when the kept copy fails it).
 */
export async function GET(request: Request, context: { params: Promise<{ inboundDocumentId: string }> }) {
  const params = documentDownloadParamsOf(request, (await context.params).inboundDocumentId);
  return serveTenantDownload({
    request,
    capability: 'inbound.read',
    what: 'inbound.approval_xml',
    input: params,
    load: async ({ database, tenantId }) => {
      const file = await getReceivedApprovalXml({
        database,
        tenantId,
        environment: params?.environment ?? 'TesteCF',
        inboundDocumentId: params?.documentId ?? '',
      });
      return { content: file.content, fileName: file.fileName, contentType: 'application/xml' };
    },
  });
}
