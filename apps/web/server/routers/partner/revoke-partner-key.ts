import { z } from 'zod';
import { revokePartnerKey as revokePartnerKeyUseCase } from '@ecf/services';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZRevokeKeyInput } from './partner-procedures.schema.ts';

/** Revokes one of the Partner's keys (another Partner's: NOT_FOUND). */
export const revokePartnerKey = partnerProcedure('partner.keys.manage')
  .input(ZRevokeKeyInput)
  .output(z.object({ revokedAt: z.date().nullable() }))
  .mutation(async ({ ctx, input }) => {
    const row = await revokePartnerKeyUseCase({
      database: ctx.database,
      partnerId: ctx.partner.id,
      key: input.keyId,
      now: ctx.now,
    });
    return { revokedAt: row.revokedAt };
  });
