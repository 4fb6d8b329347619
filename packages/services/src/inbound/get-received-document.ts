import type { Environment, TDatabase } from '@ecf/db';
import { AppError } from '../shared/errors.ts';
import { toReceivedDocument } from './received-items.ts';
import { findReceivedRow } from './received-lookups.ts';

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
  const row = await findReceivedRow({
    ...options,
    kind: 'ecf',
    notFound: () =>
      new AppError(
        'RECEIVED_DOCUMENT_NOT_FOUND',
        'No received e-CF with this id in this account and environment.',
        {
          details: { inboundDocumentId: options.inboundDocumentId },
        },
      ),
  });
  return { row, item: toReceivedDocument(row) };
}
