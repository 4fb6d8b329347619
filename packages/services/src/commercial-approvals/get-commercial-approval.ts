import type { Environment, TDatabase } from '@ecf/db';
import { findInboundForApproval, findLatestCommercialApproval } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { commercialApprovalViewOf, type TCommercialApprovalView } from './commercial-approval-rules.ts';

/**
 * `GET /{environment}/inbound-taxauth/{inboundId}/aprobacion-comercial`: the approval of a received
 * e-CF (the active one, else the last superseded one, e.g. rejected by the tax authority), or null
 * when none was sent. 404 `RECEIVED_DOCUMENT_NOT_FOUND` for another account's or environment's id,
 * or a received ACECF's.
 */
export async function getCommercialApproval(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  inboundDocumentId: string;
}): Promise<{ inboundDocumentId: string; commercialApproval: TCommercialApprovalView | null }> {
  const inbound = await findInboundForApproval(options.database, {
    tenantId: options.tenantId,
    environment: options.environment,
    inboundDocumentId: options.inboundDocumentId,
  });
  if (inbound === null || inbound.kind !== 'ecf')
    throw new AppError(
      'RECEIVED_DOCUMENT_NOT_FOUND',
      'No received e-CF with this id in this account and environment.',
    );
  const row = await findLatestCommercialApproval(options.database, inbound.id);
  return {
    inboundDocumentId: inbound.id,
    commercialApproval: row === null ? null : commercialApprovalViewOf(row),
  };
}
