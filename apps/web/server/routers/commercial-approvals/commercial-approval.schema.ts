import { z } from 'zod';
import {
  APPROVAL_EVIDENCE_MAX_LENGTH,
  REJECTION_REASON_MAX_LENGTH,
  ZCommercialApprovalView,
} from '@ecf/contract';
import { ZEnvironment } from '../api-keys/api-key.schema.ts';
import { ZUuid } from '../../../lib/schemas.ts';

export { ZEnvironment };

/** A commercial approval as the panel shows it: the API's `commercialApproval`, the contract's view. */
export const ZCommercialApprovalPanelView = ZCommercialApprovalView;
export type TCommercialApprovalPanelView = z.infer<typeof ZCommercialApprovalPanelView>;

export const ZGetCommercialApprovalInput = z.object({ environment: ZEnvironment, inboundDocumentId: ZUuid });
export const ZGetCommercialApprovalOutput = z.object({
  commercialApproval: ZCommercialApprovalPanelView.nullable(),
  canApprove: z.boolean(),
});

/** The panel's form: the date is the `datetime-local` value (Dominican Republic time) or ISO 8601. */
export const ZSubmitCommercialApprovalInput = z
  .object({
    environment: ZEnvironment,
    inboundDocumentId: ZUuid,
    decision: z.enum(['accept', 'reject'], { error: 'Elija aceptar o rechazar.' }),
    approvalDate: z.string().trim().min(1, 'Indique la fecha de la aprobación.').max(64),
    rejectionReason: z
      .string()
      .trim()
      .max(
        REJECTION_REASON_MAX_LENGTH,
        `El motivo tiene como máximo ${REJECTION_REASON_MAX_LENGTH} caracteres.`,
      )
      .optional(),
  })
  .superRefine((value, context) => {
    const reason = value.rejectionReason ?? '';
    if (value.decision === 'reject' && reason === '')
      context.addIssue({
        code: 'custom',
        path: ['rejectionReason'],
        message: 'Indique el motivo del rechazo.',
      });
  });
/**
 * `status` 202 (received by the issuer), 200 (without dispatch, or the same decision again), or
 * 502 with `notReceived` (the tax authority accepted it; the issuer did not receive it yet).
 */
export const ZSubmitCommercialApprovalOutput = z.object({
  status: z.union([z.literal(200), z.literal(202), z.literal(502)]),
  replayed: z.boolean(),
  commercialApproval: ZCommercialApprovalPanelView,
});

export const ZReconcileCommercialApprovalInput = z.object({
  environment: ZEnvironment,
  inboundDocumentId: ZUuid,
  outcome: z.enum(['sent', 'dispatch_failed', 'taxauth_accepted', 'taxauth_rejected'], {
    error: 'Elija el resultado.',
  }),
  evidence: z.string().trim().max(APPROVAL_EVIDENCE_MAX_LENGTH).optional(),
  note: z.string().trim().max(4000).optional(),
});
export const ZReconcileCommercialApprovalOutput = z.object({
  replayed: z.boolean(),
  commercialApproval: ZCommercialApprovalPanelView,
});
