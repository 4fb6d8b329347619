import { getAnnulment as getAnnulmentUseCase, hasCapability } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZGetAnnulmentInput, ZGetAnnulmentOutput } from './annulment.schema.ts';
import { annulmentViewOf } from './annulment-view.ts';

/** One annulment of the active tenant in this environment; NOT_FOUND otherwise (another tenant's included). */
export const getAnnulment = tenantProcedure('annulments.read')
  .input(ZGetAnnulmentInput)
  .output(ZGetAnnulmentOutput)
  .query(async ({ ctx, input }) => ({
    annulment: annulmentViewOf(
      await getAnnulmentUseCase({
        database: ctx.database,
        tenantId: ctx.tenant.id,
        environment: input.environment,
        annulmentId: input.annulmentId,
      }),
    ),
    canManage: hasCapability(ctx.principal, 'annulments.manage'),
  }));
