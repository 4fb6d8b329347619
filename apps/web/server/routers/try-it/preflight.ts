import { getTenant, preflightDocument } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZPreflightInput, ZPreflightOutput } from './preflight.schema.ts';
import { parseSubmission, refusalOf } from './submission-outcome.ts';

/**
 * Try it's preflight in TesteCF: the use-case of `POST /TesteCF/documentos-ecf?validate=true`
 * (nothing stored, the eNCF not reserved). A refused document is an answer, with each error on
 * its field path, not an exception.
 */
export const preflight = tenantProcedure('emission.test')
  .input(ZPreflightInput)
  .output(ZPreflightOutput)
  .mutation(async ({ ctx, input }) => {
    const parsed = parseSubmission(input.json);
    if ('ok' in parsed) return parsed;
    try {
      const result = await preflightDocument({
        database: ctx.database,
        tenant: await getTenant({ database: ctx.database, reference: ctx.tenant.id }),
        environment: 'TesteCF',
        xsd: await ctx.documents.loadXsd(),
        now: ctx.now(),
        rawBody: input.json,
      });
      return { ok: true as const, ...result };
    } catch (error) {
      return refusalOf(error);
    }
  });
