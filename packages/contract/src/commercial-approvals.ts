/**
 * Commercial approvals (ACECF): the request that sends one, the reconciliation of an uncertain one,
 * and the parts of its view the direct API, the Partner API and the portal's panel show alike.
 */
import { z } from 'zod';

/** How an uncertain dispatch was settled, and the evidence kept with it; null until then. */
export const ZCommercialApprovalReconciliation = z
  .object({
    outcome: z.string(),
    note: z.string().nullable(),
    reconciledAt: z.string(),
    evidence: z.object({ artifactId: z.uuid(), sha256: z.string(), contentType: z.string() }).nullable(),
  })
  .nullable();

/**
 * The states of a dispatch to the other party: of a commercial approval to its issuer
 * (`commercialApproval.dispatch.status`) and of an issued e-CF to its buyer (`receiverDelivery`).
 */
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
export type TDispatchStatus = (typeof DISPATCH_STATUSES)[number];

/** Why the last dispatch attempt failed (`reason`, `message`); null when it did not. */
export const ZCommercialApprovalDispatchError = z
  .object({ reason: z.string(), message: z.string() })
  .nullable();

/** `DetalleMotivoRechazo` is at most 250 characters (ACECF XSD). */
export const REJECTION_REASON_MAX_LENGTH = 250;

/** `CommercialApprovalRequest`: a strict object (an unknown property is 400 INVALID_REQUEST). */
export const ZCommercialApprovalRequest = z
  .strictObject({
    decision: z.enum(['accept', 'reject']).describe('`accept` is Estado 1, `reject` Estado 2'),
    approvalDate: z
      .string()
      .min(1)
      .max(64)
      .describe(
        '`FechaHoraAprobacionComercial`: ISO 8601 (`2026-04-02T10:30:00-04:00`; without an offset it is Dominican Republic time), or `dd-MM-yyyy HH:mm:ss` (Dominican Republic time); not before the e-CF `FechaEmision`, not later than now + 5 minutes',
      ),
    rejectionReason: z
      .string()
      .trim()
      .min(1)
      .max(REJECTION_REASON_MAX_LENGTH)
      .optional()
      .describe(
        '`DetalleMotivoRechazo`: required with `reject`, not allowed with `accept`; at most 250 characters',
      ),
    targetUrl: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional()
      .describe(
        "the issuer's commercial approval URL, only when the issuer is not in the tax authority's directory or in CerteCF",
      ),
  })
  .superRefine((value, context) => {
    if (value.decision === 'reject' && value.rejectionReason === undefined)
      context.addIssue({
        code: 'custom',
        path: ['rejectionReason'],
        message: 'A rejection needs its reason (DetalleMotivoRechazo).',
      });
    if (value.decision === 'accept' && value.rejectionReason !== undefined)
      context.addIssue({
        code: 'custom',
        path: ['rejectionReason'],
        message: 'An acceptance carries no rejection reason.',
      });
  });

export type TCommercialApprovalRequest = z.infer<typeof ZCommercialApprovalRequest>;

/** Longest evidence text accepted (the whole request stays within the API's default 64 KiB body limit). */
export const APPROVAL_EVIDENCE_MAX_LENGTH = 32 * 1024;

/**
 * `FiscalReconciliationRequest` of an uncertain approval. The issuer dispatch: `sent` (it received
 * it) or `dispatch_failed` (it did not). The tax authority's side (a submission without answer):
 * `taxauth_accepted` (the dispatch to the issuer starts) or `taxauth_rejected` (set aside; a
 * corrected approval may be sent).
 */
export const ZCommercialApprovalReconciliationRequest = z
  .strictObject({
    outcome: z
      .enum(['sent', 'dispatch_failed', 'taxauth_accepted', 'taxauth_rejected'])
      .describe(
        '`sent` / `dispatch_failed`: what became of an `uncertain` dispatch to the issuer; `taxauth_accepted` / `taxauth_rejected`: what the tax authority decided of a submission without answer',
      ),
    evidence: z
      .strictObject({
        content: z
          .string()
          .min(1)
          .max(APPROVAL_EVIDENCE_MAX_LENGTH)
          .describe("the answer as obtained (the issuer's, or the tax authority's)"),
        contentType: z
          .enum(['application/json', 'application/xml', 'text/plain'])
          .optional()
          .describe('default text/plain'),
      })
      .optional()
      .describe('stored as a write-once artifact (kept 10 years)'),
    note: z.string().trim().min(1).max(4000).optional(),
  })
  .describe('FiscalReconciliationRequest of an uncertain commercial approval');

export type TCommercialApprovalReconciliationRequest = z.infer<
  typeof ZCommercialApprovalReconciliationRequest
>;
