import { hasCapability, listSequenceRanges } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZListSequencesInput, ZListSequencesOutput } from './sequence.schema.ts';
import { sequenceRangeViewOf } from './sequence-view.ts';

/** The active tenant's registered eNCF ranges of one environment, with used / annulled / free counts. */
export const listSequences = tenantProcedure('annulments.read')
  .input(ZListSequencesInput)
  .output(ZListSequencesOutput)
  .query(async ({ ctx, input }) => {
    const ranges = await listSequenceRanges({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: input.environment,
    });
    return {
      ranges: ranges.map(sequenceRangeViewOf),
      canManage: hasCapability(ctx.principal, 'annulments.manage'),
    };
  });
