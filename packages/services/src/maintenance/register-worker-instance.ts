import { sqlPoolOf, type TDatabase } from '@ecf/db';
import { insertWorkerInstance } from '../persistence/index.ts';

/**
 * Registers a starting worker process and starts its lease (`worker_instances`): renewed every
 * few seconds (`renewWorkerInstance`) while the process lives. When the renewals stop, the other
 * workers know this one died and look for the documents of the jobs it held (`requeueLostDocuments`).
 */
export async function registerWorkerInstance(options: {
  database: TDatabase;
  instance: { id: string; host: string; pid: number };
}): Promise<void> {
  await insertWorkerInstance(sqlPoolOf(options.database), options.instance);
}
