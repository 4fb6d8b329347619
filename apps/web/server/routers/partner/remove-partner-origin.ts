import { z } from 'zod';
import { removeBrowserOrigin } from '@ecf/services';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZOriginInput } from './partner-procedures.schema.ts';

/** Removes a registered origin (NOT_FOUND when it was not). */
export const removePartnerOrigin = partnerProcedure('partner.origins.manage')
  .input(ZOriginInput)
  .output(z.object({ removed: z.string() }))
  .mutation(async ({ ctx, input }) => {
    await removeBrowserOrigin({ database: ctx.database, partnerId: ctx.partner.id, origin: input.origin });
    return { removed: input.origin };
  });
