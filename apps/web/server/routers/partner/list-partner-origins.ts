import { findBrowserOrigins } from '@ecf/services';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZListOriginsOutput } from './partner-procedures.schema.ts';

/** The Partner's registered browser origins. */
export const listPartnerOrigins = partnerProcedure('partner.origins.read')
  .output(ZListOriginsOutput)
  .query(async ({ ctx }) => ({
    origins: await findBrowserOrigins({ database: ctx.database, partnerId: ctx.partner.id }),
  }));
