import type { Document, Environment, TDatabase } from '@ecf/db';
import { findScopedDocument } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { ENCF_PATTERN, isUuid } from '../shared/references.ts';

/**
 * Resolves a `documentReference` (documentId or eNCF) within one tenant and environment. Another
 * tenant's or environment's document is NOT_FOUND, exactly like an absent one.
 */
export async function getDocument(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  reference: string;
}): Promise<Document> {
  const { reference } = options;
  const scope = { tenantId: options.tenantId, environment: options.environment };
  let document: Document | null;
  if (isUuid(reference)) {
    document = await findScopedDocument(options.database, { ...scope, id: reference });
  } else if (ENCF_PATTERN.test(reference)) {
    document = await findScopedDocument(options.database, { ...scope, encf: reference });
  } else {
    throw new AppError(
      'INVALID_DOCUMENT_REFERENCE',
      'documentReference must be a documentId (UUID) or an eNCF (E + 12 digits).',
      { details: { reference: reference.slice(0, 64) } },
    );
  }
  if (!document) {
    throw new AppError('NOT_FOUND', `No document ${reference.slice(0, 64)} in ${options.environment}.`, {
      details: { reference: reference.slice(0, 64) },
    });
  }
  return document;
}
