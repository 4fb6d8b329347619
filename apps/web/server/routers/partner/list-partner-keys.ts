import { findPartnerKeys } from '@ecf/services';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZListKeysOutput } from './partner-procedures.schema.ts';

/** The Partner's keys (prefix, profile, dates; never a key). */
export const listPartnerKeys = partnerProcedure('partner.keys.read')
  .output(ZListKeysOutput)
  .query(async ({ ctx }) => ({
    keys: await findPartnerKeys({ database: ctx.database, partnerId: ctx.partner.id }),
  }));
