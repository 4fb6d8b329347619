import type { Environment, TDatabase } from '@ecf/db';
import { findAnnulment } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { annulmentViewOf, type TAnnulmentView } from './annulment-model.ts';
import { settleAcceptedAnnulment } from './settle-accepted-annulment.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `GET /{environment}/anulaciones-ecf/{annulmentId}`: state, ranges, the tax authority's answer
 * and the covered documents. Another tenant's (or environment's) id, or a malformed one, is
 * `NOT_FOUND`. An accepted annulment whose local cancellation was interrupted is finished first.
 */
export async function getAnnulment(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  annulmentId: string;
  now?: Date;
}): Promise<TAnnulmentView> {
  const { database, tenantId, environment, annulmentId } = options;
  if (!UUID.test(annulmentId)) throw new AppError('NOT_FOUND', 'No such annulment.');
  let row = await findAnnulment(database, { tenantId, environment, annulmentId });
  if (!row) throw new AppError('NOT_FOUND', 'No such annulment.');
  if (row.state === 'accepted' && row.coveredSettledAt === null) {
    await settleAcceptedAnnulment({ database, annulmentId, now: options.now ?? new Date() });
    row = (await findAnnulment(database, { tenantId, environment, annulmentId })) ?? row;
  }
  return annulmentViewOf(row);
}
