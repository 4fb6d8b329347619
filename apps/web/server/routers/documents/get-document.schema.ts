import { z } from 'zod';
import { DISPATCH_STATUSES, DOCUMENT_STATUSES } from '@ecf/contract';
import { ZUuid } from '../../../lib/schemas.ts';
import { ZEnvironment, ZIssuedDocument } from './document.schema.ts';

export const ZGetDocumentInput = z.object({ environment: ZEnvironment, documentId: ZUuid });

const ZStatus = z.enum(DOCUMENT_STATUSES);
const ZTaxauthMessage = z.object({ code: z.string(), message: z.string() });

export const ZTimelineEntry = z.object({
  id: z.string(),
  type: z.string(),
  fromStatus: ZStatus.nullable(),
  toStatus: ZStatus.nullable(),
  at: z.iso.datetime(),
  taxauthMessages: z.array(ZTaxauthMessage),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});

export const ZDocumentDetails = z.object({
  document: ZIssuedDocument.extend({
    environment: ZEnvironment,
    qrUrl: z.string().nullable(),
    signatureDate: z.iso.datetime().nullable(),
    attempts: z.number().int(),
    contingencySince: z.iso.datetime().nullable(),
    taxauthMessages: z.array(ZTaxauthMessage),
    lastError: z.object({ code: z.string(), message: z.string() }).nullable(),
    isSigned: z.boolean(),
    /** The printed representation can be handed out now (rule 22). */
    isPrintable: z.boolean(),
  }),
  timeline: z.array(ZTimelineEntry),
  artifacts: z.array(
    z.object({
      id: z.uuid(),
      kind: z.enum(['signed_xml', 'taxauth_response', 'receiver_acknowledgement', 'evidence']),
      contentType: z.string(),
      sha256: z.string(),
      sizeBytes: z.number().int(),
      createdAt: z.iso.datetime(),
    }),
  ),
  receiverDelivery: z
    .object({
      status: z.enum(DISPATCH_STATUSES),
      targetUrl: z.string().nullable(),
      attempts: z.number().int(),
      lastError: z.string().nullable(),
      nextAttemptAt: z.iso.datetime().nullable(),
      reconciledAt: z.iso.datetime().nullable(),
      updatedAt: z.iso.datetime(),
      arecf: z.object({ artifactId: z.uuid(), sha256: z.string(), receivedAt: z.iso.datetime() }).nullable(),
    })
    .nullable(),
  buyerEmailAttempts: z.array(
    z.object({
      attempt: z.number().int(),
      to: z.string().nullable(),
      startedAt: z.iso.datetime(),
      outcome: z.enum(['pending', 'sent', 'failed', 'uncertain']),
      outcomeAt: z.iso.datetime().nullable(),
      error: z.string().nullable(),
    }),
  ),
});

export const ZGetDocumentOutput = ZDocumentDetails;
