import { z } from 'zod';
import { ZUuid } from '../../../lib/schemas.ts';
import { ZOperatorNotification } from './operator-notification.schema.ts';

export const ZAcknowledgeNotificationInput = z.object({ notificationId: ZUuid });
export const ZAcknowledgeNotificationOutput = z.object({
  /** False: it was already acknowledged (by whom and when stays the first acknowledgement). */
  acknowledged: z.boolean(),
  notification: ZOperatorNotification,
});
