import { z } from 'zod';
import { DOCUMENT_STATUSES } from '@ecf/services';
import { ENVIRONMENTS } from '../../../lib/environments.ts';

export const ZEnvironment = z.enum(ENVIRONMENTS, { error: 'Ambiente no válido.' });

const ZDocumentStatus = z.enum(DOCUMENT_STATUSES);

/** An item of the issued list, as the REST API lists it (`IssuedDocument`). */
export const ZIssuedDocument = z.object({
  documentId: z.uuid(),
  encf: z.string(),
  type: z.string(),
  status: ZDocumentStatus,
  format: z.enum(['taxauth_json', 'simplified']),
  issueDate: z.string(),
  /** Decimal text, two decimals (never a float). */
  totalAmount: z.string(),
  buyerRnc: z.string().nullable(),
  trackId: z.string().nullable(),
  securityCode: z.string().nullable(),
  printingStatus: z.string(),
  submittedAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

/** Pick the list's members the portal uses out of `toIssuedDocument`'s answer. */
export function issuedDocumentOf(item: z.input<typeof ZIssuedDocument>): z.infer<typeof ZIssuedDocument> {
  return ZIssuedDocument.parse(item);
}
