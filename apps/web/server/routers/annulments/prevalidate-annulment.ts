import { getTenant, prevalidateAnnulment as prevalidateAnnulmentUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZPrevalidateAnnulmentInput, ZPrevalidateAnnulmentOutput } from './annulment.schema.ts';

/**
 * Builds and checks the ANECF of the ranges without sending anything (the use-case of
 * `POST /{environment}/anulaciones-ecf/prevalidar`). ANECF_INVALID (details.errors[] on
 * `ranges[i].from`...) and ANECF_DOCUMENT_CONFLICT (details.conflicts[] per document) reach the page.
 */
export const prevalidateAnnulment = tenantProcedure('annulments.manage')
  .input(ZPrevalidateAnnulmentInput)
  .output(ZPrevalidateAnnulmentOutput)
  .mutation(async ({ ctx, input }) => {
    const result = await prevalidateAnnulmentUseCase({
      database: ctx.database,
      tenant: await getTenant({ database: ctx.database, reference: ctx.tenant.id }),
      environment: input.environment,
      request: { ranges: input.ranges, ...(input.reason === undefined ? {} : { reason: input.reason }) },
      now: ctx.now(),
      xsd: await ctx.documents.loadXsd(),
    });
    return {
      ranges: result.ranges,
      count: result.count,
      cancellable: result.coveredDocuments.cancellable,
    };
  });
