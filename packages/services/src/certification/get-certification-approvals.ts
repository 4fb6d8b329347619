import type { Environment, TDatabase } from '@ecf/db';
import {
  findApprovalItems,
  findLatestApprovalSend,
  findOpenCertificationCase,
} from '../persistence/index.ts';
import { assertCertificationEnvironment } from './certification-guards.ts';
import { approvalsViewOf, type TCertificationApprovalsView } from './certification-views.ts';

/**
 * `GET /{environment}/certificacion/aprobaciones-comerciales`: the progress of the last send of the
 * commercial approval tests (not replaced by a restart), or null when none was sent yet.
 */
export async function getCertificationApprovals(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
}): Promise<TCertificationApprovalsView | null> {
  assertCertificationEnvironment(options.environment);
  const open = await findOpenCertificationCase(options.database, options.tenantId);
  if (open === null) return null;
  const send = await findLatestApprovalSend(options.database, open.id);
  return send === null ? null : approvalsViewOf(send, await findApprovalItems(options.database, send.id));
}
