import { createPartnerKey as createPartnerKeyUseCase } from '@ecf/services';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZCreateKeyInput, ZCreateKeyOutput } from './partner-procedures.schema.ts';

/** A new partner key with a profile: the clear key is in this answer only. */
export const createPartnerKey = partnerProcedure('partner.keys.manage')
  .input(ZCreateKeyInput)
  .output(ZCreateKeyOutput)
  .mutation(async ({ ctx, input }) =>
    createPartnerKeyUseCase({
      database: ctx.database,
      partnerId: ctx.partner.id,
      name: input.name,
      profile: input.profile,
      now: ctx.now,
    }),
  );
