import type { Environment, TDatabase } from '@ecf/db';
import { listSequenceRangesWithCounts } from '../persistence/index.ts';
import { sequenceRangeViewOf, type TSequenceRange } from './sequence-range-view.ts';

/**
 * `GET /{environment}/secuencias`: the tenant's registered ranges of the environment (by type, then
 * first number) with how many numbers are used by documents, annulled or reserved by an
 * annulment, and free.
 */
export async function listSequenceRanges(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
}): Promise<TSequenceRange[]> {
  const rows = await listSequenceRangesWithCounts(options.database, {
    tenantId: options.tenantId,
    environment: options.environment,
  });
  return rows.map(sequenceRangeViewOf);
}
