/**
 * The parameters of a document download route (`/api/documents/{documentId}/xml|pdf?environment=`):
 * the document id of the path and the environment of the page that links it. Null when invalid.
 */
import { z } from 'zod';
import { ENVIRONMENTS, type TEnvironment } from '../lib/environments.ts';

const ZDownloadParams = z.object({ documentId: z.uuid(), environment: z.enum(ENVIRONMENTS) });

export function documentDownloadParamsOf(
  request: Request,
  documentId: string,
): { documentId: string; environment: TEnvironment } | null {
  const parsed = ZDownloadParams.safeParse({
    documentId,
    environment: new URL(request.url).searchParams.get('environment'),
  });
  return parsed.success ? parsed.data : null;
}

/** The route of a download from the document's page. */
export function documentDownloadHref(
  documentId: string,
  environment: TEnvironment,
  kind: 'xml' | 'pdf' | 'evidence',
): string {
  return `/api/documents/${documentId}/${kind}?environment=${environment}`;
}
