import type { Environment, TDatabase } from '@ecf/db';
import { AppError } from '../shared/errors.ts';
import { getReceivedApproval } from './get-received-approval.ts';
import { readReceivedXml } from './received-lookups.ts';

/**
 * The signed ACECF a customer sent, exactly as received, named `<RNCComprador><eNCF>.xml`. Not
 * this account's: 404 `RECEIVED_COMMERCIAL_APPROVAL_NOT_FOUND`; no kept copy: 404
 * `RECEIVED_COMMERCIAL_APPROVAL_XML_NOT_AVAILABLE`; SHA-256 mismatch: 500
 * `RECEIVED_DOCUMENT_XML_INTEGRITY_FAILED`.
 */
export async function getReceivedApprovalXml(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  inboundDocumentId: string;
  beforeContent?: () => void;
}) {
  const { row } = await getReceivedApproval(options);
  return readReceivedXml({
    ...options,
    row,
    fileName: `${row.buyerRnc ?? ''}${row.encf}.xml`,
    notAvailable: () =>
      new AppError(
        'RECEIVED_COMMERCIAL_APPROVAL_XML_NOT_AVAILABLE',
        'No copy of this commercial approval was kept.',
        { details: { inboundDocumentId: row.id, status: row.status } },
      ),
  });
}
