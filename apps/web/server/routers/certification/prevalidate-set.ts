import { getTenant, prevalidateCertificationSet } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZPrevalidateOutput, ZSetInput } from './certification.schema.ts';

/**
 * Reads and validates every row of a set as a run would (the use-case of `POST
 * /{environment}/certificacion/prevalidar`); stores and sends nothing. A set that cannot run is
 * UNPROCESSABLE_CONTENT (CERTIFICATION_SET_INVALID, CERTIFICATION_SET_ISSUER_MISMATCH) with
 * `details.errors[]` locating each problem (sheet, row, column or path, code, message); CONFLICT for
 * a part the case is not ready for.
 */
export const prevalidateSet = tenantProcedure('certification.manage')
  .input(ZSetInput)
  .output(ZPrevalidateOutput)
  .mutation(async ({ ctx, input }) => {
    const { environment, ...body } = input;
    const result = await prevalidateCertificationSet({
      database: ctx.database,
      tenant: await getTenant({ database: ctx.database, reference: ctx.tenant.id }),
      environment,
      xsd: await ctx.documents.loadXsd(),
      now: ctx.now(),
      body,
    });
    return {
      part: result.part,
      source: result.source,
      issuerRnc: result.issuerRnc,
      rows: result.rows,
      types: result.types,
      documents: result.documents,
      alreadyUsedEncfs: result.alreadyUsedEncfs,
    };
  });
