import { getTenant, issueDocument } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZEmitInput, ZEmitOutput } from './emit.schema.ts';
import { parseSubmission, refusalOf } from './submission-outcome.ts';

/**
 * Try it's emission, in TesteCF only: the use-case of `POST /TesteCF/documentos-ecf`, its
 * `document.sign` job enqueued in the document's transaction with the shared enqueue function.
 * The eNCF and the JSON are the idempotency key, as in the API: the same JSON again (a double
 * click) answers the same document (`replayed`), other JSON with that eNCF is `ENCF_CONFLICT`.
 */
export const emit = tenantProcedure('emission.test')
  .input(ZEmitInput)
  .output(ZEmitOutput)
  .mutation(async ({ ctx, input }) => {
    const parsed = parseSubmission(input.json);
    if ('ok' in parsed) return parsed;
    try {
      const issued = await issueDocument({
        database: ctx.database,
        tenant: await getTenant({ database: ctx.database, reference: ctx.tenant.id }),
        environment: 'TesteCF',
        xsd: await ctx.documents.loadXsd(),
        now: ctx.now(),
        rawBody: input.json,
        body: parsed.body,
        enqueue: ctx.documents.enqueue,
      });
      return {
        ok: true as const,
        outcome: issued.outcome,
        documentId: issued.document.id,
        encf: issued.document.encf,
        status: issued.document.status,
        warnings: issued.warnings,
      };
    } catch (error) {
      return refusalOf(error);
    }
  });
