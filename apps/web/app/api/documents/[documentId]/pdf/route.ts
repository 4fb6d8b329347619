import { getDocumentPdf } from '@ecf/services';
import { documentDownloadParamsOf } from '../../../../../server/document-download-params.ts';
import { serveTenantDownload } from '../../../../../server/tenant-download.ts';

export const dynamic = 'force-dynamic';

/** The printed representation (PDF) of a document of the active tenant, through the API's use-case. */
export async function GET(request: Request, context: { params: Promise<{ documentId: string }> }) {
  const params = documentDownloadParamsOf(request, (await context.params).documentId);
  return serveTenantDownload({
    request,
    capability: 'documents.download',
    what: 'documents.pdf',
    input: params,
    load: async ({ database, tenantId }) => {
      const file = await getDocumentPdf({
        database,
        tenantId,
        environment: params?.environment ?? 'TesteCF',
        reference: params?.documentId ?? '',
      });
      return { content: file.content, fileName: file.fileName, contentType: 'application/pdf' };
    },
  });
}
