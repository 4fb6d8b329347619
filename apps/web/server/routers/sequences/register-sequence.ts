import { registerSequenceRange } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZRegisterSequenceInput, ZRegisterSequenceOutput } from './sequence.schema.ts';
import { sequenceRangeViewOf } from './sequence-view.ts';

/**
 * Registers an active range of one type in the active tenant and environment (the use-case of
 * `POST /{environment}/secuencias`): SEQUENCE_RANGE_INVALID (details.path) and
 * SEQUENCE_RANGE_OVERLAP reach the form on their field.
 */
export const registerSequence = tenantProcedure('annulments.manage')
  .input(ZRegisterSequenceInput)
  .output(ZRegisterSequenceOutput)
  .mutation(async ({ ctx, input }) => {
    const range = await registerSequenceRange({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: input.environment,
      type: input.type,
      from: input.from,
      to: input.to,
      sequenceExpirationDate: input.sequenceExpirationDate,
    });
    return { range: sequenceRangeViewOf(range) };
  });
