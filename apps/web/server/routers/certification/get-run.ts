import { getCertificationRun, hasCapability } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { runViewOf } from './certification-view.ts';
import { ZRunInput, ZRunOutput } from './certification.schema.ts';

/**
 * One run of the active tenant, row by row (the use-case of `GET /{environment}/certificacion/{runId}`):
 * each workbook row's document, its state and the tax authority's messages. Another tenant's run
 * is NOT_FOUND, exactly as one that does not exist.
 */
export const getRun = tenantProcedure('certification.read')
  .input(ZRunInput)
  .output(ZRunOutput)
  .query(async ({ ctx, input }) => ({
    run: runViewOf(
      await getCertificationRun({
        database: ctx.database,
        tenantId: ctx.tenant.id,
        environment: input.environment,
        runId: input.runId,
      }),
    ),
    canManage: hasCapability(ctx.principal, 'certification.manage'),
  }));
