import type { TDatabase } from '@ecf/db';
import { deletePartnerBrowserOrigin } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';

/** Removes a registered origin; NOT_FOUND when it was not registered. */
export async function removeBrowserOrigin(options: {
  database: TDatabase;
  partnerId: string;
  origin: string;
}): Promise<void> {
  const removed = await deletePartnerBrowserOrigin(options.database, {
    partnerId: options.partnerId,
    origin: options.origin,
  });
  if (!removed) throw new AppError('NOT_FOUND', `The origin ${options.origin} is not registered.`);
}
