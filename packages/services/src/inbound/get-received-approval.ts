import type { Environment, TDatabase } from '@ecf/db';
import { AppError } from '../shared/errors.ts';
import { toReceivedApproval } from './received-items.ts';
import { findReceivedRow } from './received-lookups.ts';

/**
 * One received commercial approval (ACECF) of this account and environment. Another account's or
 * environment's, a received e-CF's id, or no such id: 404 `RECEIVED_COMMERCIAL_APPROVAL_NOT_FOUND`.
 */
export async function getReceivedApproval(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  inboundDocumentId: string;
}) {
  const row = await findReceivedRow({
    ...options,
    kind: 'commercial_approval',
    notFound: () =>
      new AppError(
        'RECEIVED_COMMERCIAL_APPROVAL_NOT_FOUND',
        'No received commercial approval with this id in this account and environment.',
        { details: { inboundDocumentId: options.inboundDocumentId } },
      ),
  });
  return { row, item: toReceivedApproval(row) };
}
