import { z } from 'zod';
import { ZOperatorNotification } from './operator-notification.schema.ts';

export const ZListNotificationsInput = z.void();
export const ZListNotificationsOutput = z.object({ notifications: z.array(ZOperatorNotification) });
