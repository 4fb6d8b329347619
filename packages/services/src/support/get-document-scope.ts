import type { Environment, TDatabase } from '@ecf/db';
import { findDocumentScope } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';

/**
 * Which tenant and environment a document belongs to, whatever the tenant: for operator staff, who
 * are bound to no tenant (the portal then records support's view in that tenant's audit log).
 * NOT_FOUND when there is no such document (or the id is not a UUID).
 */
export async function getDocumentScope(options: {
  database: TDatabase;
  documentId: string;
}): Promise<{ documentId: string; tenantId: string; environment: Environment }> {
  const scope = isUuid(options.documentId)
    ? await findDocumentScope(options.database, options.documentId.toLowerCase())
    : null;
  if (scope === null) throw new AppError('NOT_FOUND', 'No such document.');
  return { documentId: scope.id, tenantId: scope.tenantId, environment: scope.environment };
}
