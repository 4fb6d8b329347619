import { hasCapability, locateDocuments } from '@ecf/services';
import { ENVIRONMENTS } from '../../../lib/environments.ts';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZLocateDocumentInput, ZLocateDocumentOutput } from './locate-document.schema.ts';

/**
 * The header's "Ir a e-NCF o TrackId" (issue 27): the active tenant's documents with exactly that
 * e-NCF or TrackId, issued and (for a role that reads them) received, in every environment (each
 * environment's pages are open to every role that reads documents).
 */
export const locateDocument = tenantProcedure('documents.read')
  .input(ZLocateDocumentInput)
  .output(ZLocateDocumentOutput)
  .query(async ({ ctx, input }) => {
    const found = await locateDocuments({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      reference: input.reference,
      environments: [...ENVIRONMENTS],
      issued: true,
      received: hasCapability(ctx.principal, 'inbound.read'),
    });
    // Stable sort: the page's own environment first, otherwise issued before received, newest first.
    const ordered = [...found].sort(
      (a, b) => Number(b.environment === input.environment) - Number(a.environment === input.environment),
    );
    return {
      matches: ordered.map((match) => ({
        kind: match.kind,
        environment: match.environment,
        encf: match.encf,
        href:
          match.kind === 'issued'
            ? `/${match.environment}/documents/${match.id}`
            : `/${match.environment}/received/${match.id}`,
      })),
    };
  });
