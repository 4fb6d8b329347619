/**
 * The received documents' procedures' schemas (issue 18, task L): the page's environment plus
 * EXACTLY the REST API's queries (one schema, @ecf/services), and the items as the API shows them.
 */
import { z } from 'zod';
import {
  RECEIVED_GROUPS,
  TAXAUTH_VALIDITY_STATUSES,
  ZReceivedApprovalListQuery,
  ZReceivedListQuery,
  ZReceivedSearchQuery,
} from '@ecf/services';
import { ZEnvironment } from '../documents/document.schema.ts';

/** The page's environment, EXACTLY the REST API's query and, apart, the portal's search (issue 27). */
export const ZListReceivedDocumentsInput = z.object({
  environment: ZEnvironment,
  query: ZReceivedListQuery,
  search: ZReceivedSearchQuery.optional(),
});
export const ZListReceivedApprovalsInput = z.object({
  environment: ZEnvironment,
  query: ZReceivedApprovalListQuery,
});
export const ZGetReceivedInput = z.object({
  environment: ZEnvironment,
  inboundDocumentId: z.string().max(100),
});

export const ZReceivedDocumentItem = z.object({
  inboundDocumentId: z.uuid(),
  environment: ZEnvironment,
  encf: z.string(),
  type: z.string(),
  issuerRnc: z.string(),
  issuerName: z.string().nullable(),
  buyerRnc: z.string().nullable(),
  issueDate: z.string().nullable(),
  /** Decimal text, two decimals (never a float). */
  totalAmount: z.string().nullable(),
  status: z.enum(['received', 'not_received']),
  notReceived: z.object({ code: z.number().int(), reason: z.string() }).nullable(),
  receivedAt: z.iso.datetime(),
  signer: z.record(z.string(), z.unknown()).nullable(),
  taxauthValidity: z
    .looseObject({
      status: z.enum(TAXAUTH_VALIDITY_STATUSES),
      codigo: z.number().int().nullable(),
      estado: z.string().nullable(),
      checkedAt: z.string(),
    })
    .nullable(),
  commercialApproval: z
    .object({
      commercialApprovalId: z.uuid(),
      decision: z.enum(['accept', 'reject']),
      approvalDate: z.string(),
      rejectionReason: z.string().nullable(),
      taxauthStatus: z.string(),
      dispatchStatus: z.string(),
      createdAt: z.string(),
    })
    .nullable(),
  commercialApprovalDeadline: z.string().nullable(),
  group: z.enum(RECEIVED_GROUPS),
  view: z.string(),
  links: z.object({ xml: z.string().nullable() }),
});
export type TReceivedDocumentItem = z.infer<typeof ZReceivedDocumentItem>;

export const ZReceivedApprovalItem = z.object({
  inboundDocumentId: z.uuid(),
  environment: ZEnvironment,
  encf: z.string(),
  issuerRnc: z.string(),
  buyerRnc: z.string().nullable(),
  documentId: z.uuid().nullable(),
  status: z.enum(['received', 'rejected', 'duplicate']),
  notReceived: z.object({ reason: z.string() }).nullable(),
  decision: z.enum(['accepted', 'rejected']).nullable(),
  decisionReason: z.string().nullable(),
  approvedAt: z.string().nullable(),
  correspondence: z.record(z.string(), z.unknown()).nullable(),
  receivedAt: z.iso.datetime(),
  view: z.string(),
  links: z.object({ xml: z.string().nullable() }),
});
export type TReceivedApprovalItem = z.infer<typeof ZReceivedApprovalItem>;

export const ZListReceivedDocumentsOutput = z.object({
  items: z.array(ZReceivedDocumentItem),
  nextCursor: z.string().nullable(),
  previousCursor: z.string().nullable(),
  /** How many match; `capped` when there are more than `count` (the count stops there). */
  total: z.object({ count: z.number().int().nonnegative(), capped: z.boolean() }),
});
export const ZListReceivedApprovalsOutput = z.object({
  items: z.array(ZReceivedApprovalItem),
  nextCursor: z.string().nullable(),
});
