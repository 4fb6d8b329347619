import { assertDirectCertification, restartCertificationPart } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZRestartInput, ZRestartOutput } from './certification.schema.ts';

/**
 * Restarts a part (the use-case of `POST /{environment}/certificacion/reiniciar`): its running run
 * stops, its receipts are marked replaced (kept) and its steps undone; a new run needs a new set.
 */
export const restartPart = tenantProcedure('certification.manage')
  .input(ZRestartInput)
  .output(ZRestartOutput)
  .mutation(async ({ ctx, input }) => {
    await assertDirectCertification(ctx.database, ctx.tenant.id);
    const result = await restartCertificationPart({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: input.environment,
      body: { part: input.part },
      now: ctx.now(),
    });
    return {
      part: result.part,
      stoppedRunId: result.stoppedRunId,
      stoppedApprovalSendId: result.stoppedApprovalSendId,
      replacedDocuments: result.replacedDocuments,
      state: result.state,
      step: result.step,
    };
  });
