import { contingencyNextAttemptOf, findDocumentStatuses } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZLiveDocumentStatusesInput, ZLiveDocumentStatusesOutput } from './document-statuses.schema.ts';

/**
 * The status of the documents a live page shows (issue 27 "Live status"): the REST API's status
 * batch (`findDocumentStatuses`: one indexed read of up to 100 ids of the active tenant and
 * environment) reduced to what the page needs to update in place, and the next retry of those in
 * contingency. Ids of other tenants or environments are simply not in the answer. A support user's
 * refreshes are one audit entry per 5 minutes (tenantProcedure's repeat window), not one per poll.
 */
export const liveDocumentStatuses = tenantProcedure('documents.read')
  .input(ZLiveDocumentStatusesInput)
  .output(ZLiveDocumentStatusesOutput)
  .query(async ({ ctx, input }) => {
    const { found } = await findDocumentStatuses({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: input.environment,
      references: [...new Set(input.documentIds.map((id) => id.toLowerCase()))],
    });
    return {
      items: found.map((document) => ({
        documentId: document.documentId,
        status: document.status,
        nextAttemptAt:
          document.status === 'contingency' ? contingencyNextAttemptOf(document.lastError) : null,
        updatedAt: document.updatedAt,
      })),
      checkedAt: ctx.now().toISOString(),
    };
  });
