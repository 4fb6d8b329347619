import type { Environment, TDatabase } from '@ecf/db';
import { findInboundItem } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { toReceivedDocument } from './received-items.ts';

/**
 * One received e-CF of this account and environment. Another account's or environment's, an
 * ACECF's id, or no such id: 404 `RECEIVED_DOCUMENT_NOT_FOUND` (the same answer for all, so an id
 * reveals nothing).
 */
export async function getReceivedDocument(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  inboundDocumentId: string;
}) {
  const row = isUuid(options.inboundDocumentId)
    ? await findInboundItem(options.database, {
        tenantId: options.tenantId,
        environment: options.environment,
        kind: 'ecf',
        id: options.inboundDocumentId.toLowerCase(),
      })
    : null;
  if (!row)
    throw new AppError(
      'RECEIVED_DOCUMENT_NOT_FOUND',
      'No received e-CF with this id in this account and environment.',
      {
        details: { inboundDocumentId: options.inboundDocumentId },
      },
    );
  return { row, item: toReceivedDocument(row) };
}
