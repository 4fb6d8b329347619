import { z } from 'zod';
import { ZEnvironment, ZSupportTenant } from './support-desk.schema.ts';

export const ZListContingencyInput = z.object({ environment: ZEnvironment.optional() }).optional();
export const ZListContingencyOutput = z.object({
  items: z.array(
    z.object({
      documentId: z.uuid(),
      encf: z.string(),
      type: z.string(),
      environment: ZEnvironment,
      tenant: ZSupportTenant,
      since: z.string().nullable(),
      attempts: z.number().int().nonnegative(),
      lastError: z.string().nullable(),
      lastDeferredAt: z.string().nullable(),
      nextAttemptAt: z.string().nullable(),
    }),
  ),
});
