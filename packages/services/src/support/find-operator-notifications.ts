import type { TDatabase } from '@ecf/db';
import { findOperatorNotificationRows } from '../persistence/index.ts';
import {
  OPERATOR_NOTIFICATION_WINDOW_MS,
  viewsOfNotifications,
  type TOperatorNotificationView,
} from './operator-notification-view.ts';

/**
 * Operator notifications of the last 72 hours, newest first (at most 500), acknowledged or not.
 * The caller (support) records a view of each tenant a returned notification belongs to.
 */
export async function findOperatorNotifications(options: {
  database: TDatabase;
  now?: () => Date;
}): Promise<TOperatorNotificationView[]> {
  const now = (options.now ?? (() => new Date()))();
  const rows = await findOperatorNotificationRows(options.database, {
    since: new Date(now.getTime() - OPERATOR_NOTIFICATION_WINDOW_MS),
    take: 500,
  });
  return viewsOfNotifications(options.database, rows);
}
