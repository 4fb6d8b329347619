import {
  AppError,
  getTenant,
  submitCommercialApproval as submitCommercialApprovalUseCase,
  type TCommercialApprovalView,
} from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import {
  ZSubmitCommercialApprovalInput,
  ZSubmitCommercialApprovalOutput,
} from './commercial-approval.schema.ts';

/**
 * Accepts or rejects a received e-CF: the same use-case as `POST .../aprobacion-comercial` (signed,
 * sent to the tax authority, then to the issuer, in the request). The issuer not receiving it yet
 * (502 ACECF_DISPATCH_NOT_RECEIVED) is an answer the panel shows, not an error: the tax authority
 * accepted it and the outbox retries. Every other code is an error with its details.
 */
export const submitCommercialApproval = tenantProcedure('inbound.approve')
  .input(ZSubmitCommercialApprovalInput)
  .output(ZSubmitCommercialApprovalOutput)
  .mutation(async ({ ctx, input }) => {
    const clientFor = ctx.documents.taxauthClientFor;
    if (clientFor === undefined)
      throw new AppError('SERVICE_UNAVAILABLE', 'The portal has no tax authority address configured.');
    try {
      const result = await submitCommercialApprovalUseCase({
        database: ctx.database,
        tenant: await getTenant({ database: ctx.database, reference: ctx.tenant.id }),
        environment: input.environment,
        inboundDocumentId: input.inboundDocumentId,
        request: {
          decision: input.decision,
          approvalDate: input.approvalDate,
          ...(input.decision === 'reject' && input.rejectionReason !== undefined
            ? { rejectionReason: input.rejectionReason }
            : {}),
        },
        xsd: await ctx.documents.loadXsd(),
        clientFor,
        enqueue: ctx.documents.enqueue,
        keyring: ctx.certificateKeyring(),
        now: ctx.now,
      });
      return {
        status: result.httpStatus,
        replayed: result.replayed,
        commercialApproval: result.commercialApproval,
      };
    } catch (error) {
      if (error instanceof AppError && error.code === 'ACECF_DISPATCH_NOT_RECEIVED')
        return {
          status: 502 as const,
          replayed: false,
          commercialApproval: error.body['commercialApproval'] as TCommercialApprovalView,
        };
      throw error;
    }
  });
