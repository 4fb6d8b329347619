import { z } from 'zod';
import { ZCommercialApprovalDispatchError, ZCommercialApprovalReconciliation } from '@ecf/contract';
import { ZEnvironment } from '../api-keys/api-key.schema.ts';
import { ZUuid } from '../../../lib/schemas.ts';

/**
 * `DetalleMotivoRechazo` of the ACECF: at most 250 characters (its XSD; the services' rule is the
 * same). Written here because this file is client-safe: the panel imports it, @ecf/services is server-only.
 */
const REJECTION_REASON_MAX_LENGTH = 250;

export { ZEnvironment };

/** The dispatch statuses of an approval (the API's `commercialApproval.dispatch.status`). */
export const DISPATCH_STATUSES = [
  'pending',
  'sending',
  'retry_scheduled',
  'sent',
  'not_received',
  'uncertain',
  'dispatch_failed',
  'not_applicable',
] as const;

/** A commercial approval as the panel shows it (the API's `commercialApproval`). */
export const ZCommercialApprovalPanelView = z.object({
  id: z.uuid(),
  decision: z.enum(['accept', 'reject']),
  approvalDate: z.string(),
  rejectionReason: z.string().nullable(),
  status: z.literal('signed'),
  targetSource: z.enum(['directory', 'request', 'not_applicable', 'none']),
  targetUrl: z.string().nullable(),
  createdAt: z.string(),
  supersededAt: z.string().nullable(),
  taxauth: z.object({
    status: z.enum(['pending', 'accepted', 'rejected', 'uncertain', 'not_applicable']),
    codigo: z.string().nullable(),
    estado: z.string().nullable(),
    mensajes: z.array(z.string()),
  }),
  dispatch: z.object({
    status: z.enum(DISPATCH_STATUSES),
    attempts: z.number().int(),
    httpStatus: z.number().int().nullable(),
    body: z.string().nullable(),
    responseTruncated: z.boolean(),
    responseBytes: z.number().int().nullable(),
    nextAttemptAt: z.string().nullable(),
    error: ZCommercialApprovalDispatchError,
  }),
  reconciliation: ZCommercialApprovalReconciliation,
});
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
  evidence: z
    .string()
    .trim()
    .max(32 * 1024)
    .optional(),
  note: z.string().trim().max(4000).optional(),
});
export const ZReconcileCommercialApprovalOutput = z.object({
  replayed: z.boolean(),
  commercialApproval: ZCommercialApprovalPanelView,
});
