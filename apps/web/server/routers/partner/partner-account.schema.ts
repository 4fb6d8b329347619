import { z } from 'zod';
import { ZUuid } from '../../../lib/schemas.ts';
import { ZWebhookDelivery } from '../webhooks/webhook.schema.ts';

/** One Partner account (`/partner/accounts/{id}`). */
export const ZPartnerAccountInput = z.object({ accountId: ZUuid });
export const ZPartnerAccountOutput = z.object({
  account: z.object({
    id: ZUuid,
    externalTenantId: z.string(),
    rnc: z.string(),
    legalName: z.string(),
    tradeName: z.string().nullable(),
    productionState: z.enum(['not_requested', 'pending', 'active', 'suspended']),
    createdAt: z.date(),
  }),
  /** The active signing certificate (null: none installed). */
  certificate: z
    .object({
      subject: z.string(),
      serialNumber: z.string(),
      validFrom: z.date(),
      validTo: z.date(),
      /** Whole days until `validTo` (negative once expired). */
      daysLeft: z.number().int(),
    })
    .nullable(),
  certification: z.object({
    caseId: z.string().nullable(),
    state: z.string(),
    /** 1 to 15: the step the case stands at. */
    stepNumber: z.number().int(),
    stepTitle: z.string(),
    /** Null once approved. */
    nextAction: z.string().nullable(),
    completedSteps: z.number().int(),
  }),
});

/** The origin a link or upload session is bound to (one of the Partner's registered origins). */
export const ZPartnerAccountSessionInput = z.object({
  accountId: ZUuid,
  browserOrigin: z.string().trim().min(1, 'Elija un origen registrado.').max(255),
});
export const ZCertificationLinkOutput = z.object({
  url: z.string(),
  browserOrigin: z.string(),
  expiresAt: z.iso.datetime(),
});
export const ZUploadSessionOutput = z.object({
  uploadId: ZUuid,
  /** Shown once: only its SHA-256 is kept. */
  uploadToken: z.string(),
  /** Where the Partner's page PUTs the PKCS#12 (`Authorization: Upload <uploadToken>`). */
  uploadUrl: z.string(),
  browserOrigin: z.string(),
  maxAttempts: z.number().int(),
  expiresAt: z.iso.datetime(),
});

/** One delivery to one of the Partner's endpoints, with every attempt. */
export const ZPartnerDeliveryInput = z.object({ deliveryId: ZUuid });
export const ZPartnerDeliveryOutput = z.object({
  delivery: ZWebhookDelivery.extend({ endpointId: ZUuid }),
  endpoint: z.object({ id: ZUuid, name: z.string(), url: z.string(), status: z.string() }).nullable(),
});
