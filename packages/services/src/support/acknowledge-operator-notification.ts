import type { TDatabase } from '@ecf/db';
import { findOperatorNotificationRow, markOperatorNotificationAcknowledged } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { viewsOfNotifications, type TOperatorNotificationView } from './operator-notification-view.ts';

/**
 * Support acknowledges an operator notification. Idempotent: the first acknowledgement stays (who
 * and when); acknowledging again changes nothing and says so (`acknowledged: false`). NOT_FOUND
 * for an unknown id. The caller records the action in the tenant's audit log when the notification
 * has a tenant and this call acknowledged it.
 */
export async function acknowledgeOperatorNotification(options: {
  database: TDatabase;
  notificationId: string;
  supportUserId: string;
  now?: () => Date;
}): Promise<{ acknowledged: boolean; notification: TOperatorNotificationView }> {
  const { database } = options;
  const notFound = () => new AppError('NOT_FOUND', 'No such operator notification.');
  if (!isUuid(options.notificationId)) throw notFound();
  const id = options.notificationId.toLowerCase();
  if ((await findOperatorNotificationRow(database, id)) === null) throw notFound();
  const acknowledged = await markOperatorNotificationAcknowledged(database, {
    id,
    userId: options.supportUserId,
    at: (options.now ?? (() => new Date()))(),
  });
  const row = await findOperatorNotificationRow(database, id);
  if (row === null) throw notFound();
  const [notification] = await viewsOfNotifications(database, [row]);
  if (notification === undefined) throw notFound();
  return { acknowledged, notification };
}
