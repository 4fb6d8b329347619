import { assertDirectCertification, getTenant, startCertificationRun } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { runSummaryOf } from './certification-view.ts';
import { ZSetInput, ZStartRunOutput } from './certification.schema.ts';

/**
 * Starts a run of a set (the use-case of `POST /{environment}/certificacion`): the set, the run, its
 * items and its first `certification.advance` job in one transaction; the worker then issues the
 * documents through the pipeline. The refusals of prevalidation, and CONFLICT for a run in
 * progress, a set already used, no certificate, an approved certification.
 */
export const startRun = tenantProcedure('certification.manage')
  .input(ZSetInput)
  .output(ZStartRunOutput)
  .mutation(async ({ ctx, input }) => {
    await assertDirectCertification(ctx.database, ctx.tenant.id);
    const { environment, ...body } = input;
    const { run } = await startCertificationRun({
      database: ctx.database,
      tenant: await getTenant({ database: ctx.database, reference: ctx.tenant.id }),
      environment,
      xsd: await ctx.documents.loadXsd(),
      now: ctx.now(),
      body,
      enqueue: ctx.documents.enqueue,
    });
    return { run: runSummaryOf(run) };
  });
