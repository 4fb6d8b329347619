import type { Environment, TDatabase } from '@ecf/db';
import { AppError } from '../shared/errors.ts';
import { getReceivedDocument } from './get-received-document.ts';
import { readReceivedXml } from './received-lookups.ts';

/**
 * The XML of a received e-CF exactly as the supplier sent it (byte-order mark and declaration
 * included), named `<RNCEmisor><eNCF>.xml`. Not this account's: 404 `RECEIVED_DOCUMENT_NOT_FOUND`;
 * refused before its signature was verified (no copy kept): 404 `RECEIVED_DOCUMENT_XML_NOT_AVAILABLE`;
 * the copy fails its SHA-256: 500 `RECEIVED_DOCUMENT_XML_INTEGRITY_FAILED`. `beforeContent` runs
 * once the 404 of another account is ruled out (the API negotiates `Accept` there).
 */
export async function getReceivedDocumentXml(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  inboundDocumentId: string;
  beforeContent?: () => void;
}) {
  const { row } = await getReceivedDocument(options);
  return readReceivedXml({
    ...options,
    row,
    fileName: `${row.issuerRnc}${row.encf}.xml`,
    notAvailable: () =>
      new AppError(
        'RECEIVED_DOCUMENT_XML_NOT_AVAILABLE',
        'No copy of this e-CF was kept: it was refused before its signature could be verified.',
        { details: { inboundDocumentId: row.id, status: row.status, notReceivedCode: row.notReceivedCode } },
      ),
  });
}
