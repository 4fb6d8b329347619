import { findOperatorNotifications } from '@ecf/services';
import { supportProcedure } from '../../trpc/procedures.ts';
import { ZListNotificationsInput, ZListNotificationsOutput } from './list-notifications.schema.ts';

/** Operator notifications of the last 72 hours; a support view is recorded for each tenant they name. */
export const listNotifications = supportProcedure('support.read')
  .input(ZListNotificationsInput)
  .output(ZListNotificationsOutput)
  .query(async ({ ctx }) => {
    const notifications = await findOperatorNotifications({ database: ctx.database, now: ctx.now });
    const tenantIds = new Set(
      notifications.flatMap((item) => (item.tenant === null ? [] : [item.tenant.id])),
    );
    for (const tenantId of tenantIds)
      await ctx.recordSupportView(tenantId, 'support.notifications', {
        notifications: notifications.filter((item) => item.tenant?.id === tenantId).length,
      });
    return { notifications };
  });
