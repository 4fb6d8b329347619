import { findUncertainDeliveries } from '@ecf/services';
import { supportProcedure } from '../../trpc/procedures.ts';
import {
  ZListUncertainDeliveriesInput,
  ZListUncertainDeliveriesOutput,
} from './list-uncertain-deliveries.schema.ts';

/** Uncertain receiver deliveries of every tenant; a support view is recorded for each tenant listed. */
export const listUncertainDeliveries = supportProcedure('support.read')
  .input(ZListUncertainDeliveriesInput)
  .output(ZListUncertainDeliveriesOutput)
  .query(async ({ ctx }) => {
    const deliveries = await findUncertainDeliveries({ database: ctx.database });
    for (const tenantId of new Set(deliveries.map((delivery) => delivery.tenant.id)))
      await ctx.recordSupportView(tenantId, 'support.uncertainDeliveries', {
        deliveries: deliveries.filter((delivery) => delivery.tenant.id === tenantId).length,
      });
    return { deliveries };
  });
