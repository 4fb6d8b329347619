import { addBrowserOrigin } from '@ecf/services';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZOriginInput } from './partner-procedures.schema.ts';
import { ZPartnerOrigin } from './partner.schema.ts';

/** Registers an exact HTTPS origin (BAD_REQUEST `INVALID_BROWSER_ORIGIN` otherwise). */
export const addPartnerOrigin = partnerProcedure('partner.origins.manage')
  .input(ZOriginInput)
  .output(ZPartnerOrigin)
  .mutation(async ({ ctx, input }) =>
    addBrowserOrigin({
      database: ctx.database,
      partnerId: ctx.partner.id,
      origin: input.origin,
      now: ctx.now,
    }),
  );
