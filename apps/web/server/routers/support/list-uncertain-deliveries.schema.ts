import { z } from 'zod';
import { ZEnvironment, ZSupportTenant } from './support-desk.schema.ts';

export const ZListUncertainDeliveriesInput = z.void();
export const ZListUncertainDeliveriesOutput = z.object({
  deliveries: z.array(
    z.object({
      documentId: z.uuid(),
      encf: z.string(),
      environment: ZEnvironment,
      buyerRnc: z.string().nullable(),
      tenant: ZSupportTenant,
      attempts: z.number().int().nonnegative(),
      targetUrl: z.string().nullable(),
      lastError: z.string().nullable(),
      since: z.string(),
    }),
  ),
});
