import { getSignedDocumentXml } from '@ecf/services';
import { documentDownloadParamsOf } from '../../../../../server/document-download-params.ts';
import { serveTenantDownload } from '../../../../../server/tenant-download.ts';

export const dynamic = 'force-dynamic';

/** The signed XML of a document of the active tenant, through the API's use-case (its name, its 404 and 409). */
export async function GET(request: Request, context: { params: Promise<{ documentId: string }> }) {
  const params = documentDownloadParamsOf(request, (await context.params).documentId);
  return serveTenantDownload({
    request,
    capability: 'documents.download',
    what: 'documents.xml',
    input: params,
    load: async ({ database, tenantId }) => {
      const file = await getSignedDocumentXml({
        database,
        tenantId,
        environment: params?.environment ?? 'TesteCF',
        reference: params?.documentId ?? '',
      });
      return { content: file.content, fileName: file.fileName, contentType: 'application/xml' };
    },
  });
}
