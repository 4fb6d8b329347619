/**
 * Parts of a commercial approval's view (ACECF) that the direct API and the portal's panel show
 * alike: its reconciliation (a person's answer to an uncertain dispatch, with its evidence).
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

/** Why the last dispatch attempt failed (`reason`, `message`); null when it did not. */
export const ZCommercialApprovalDispatchError = z
  .object({ reason: z.string(), message: z.string() })
  .nullable();
