import { acknowledgeOperatorNotification } from '@ecf/services';
import { supportProcedure } from '../../trpc/procedures.ts';
import {
  ZAcknowledgeNotificationInput,
  ZAcknowledgeNotificationOutput,
} from './acknowledge-notification.schema.ts';

/**
 * Support acknowledges an operator notification (idempotent). The first acknowledgement of a
 * tenant's notification is written to that tenant's audit log as `support.acted`.
 */
export const acknowledgeNotification = supportProcedure('support.act')
  .input(ZAcknowledgeNotificationInput)
  .output(ZAcknowledgeNotificationOutput)
  .mutation(async ({ ctx, input }) => {
    const result = await acknowledgeOperatorNotification({
      database: ctx.database,
      notificationId: input.notificationId,
      supportUserId: ctx.actor.userId,
      now: ctx.now,
    });
    const { notification } = result;
    if (result.acknowledged && notification.tenant !== null)
      await ctx.recordSupportAction(notification.tenant.id, 'notification.acknowledged', {
        notificationId: notification.id,
        kind: notification.kind,
        documentId: notification.document?.id ?? null,
      });
    return result;
  });
