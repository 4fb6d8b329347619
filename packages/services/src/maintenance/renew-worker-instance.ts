import { sqlPoolOf, type TDatabase } from '@ecf/db';
import { touchWorkerInstance } from '../persistence/index.ts';

/**
 * Renews a worker's lease. False when it had lapsed and the process was already taken for dead
 * (its lost jobs looked after): the process is alive after all; its jobs' own leases decide.
 */
export async function renewWorkerInstance(options: { database: TDatabase; id: string }): Promise<boolean> {
  return touchWorkerInstance(sqlPoolOf(options.database), options.id);
}
