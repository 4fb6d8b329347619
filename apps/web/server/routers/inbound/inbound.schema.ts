/**
 * The received documents' procedures' schemas (issue 18, task L): the page's environment plus
 * EXACTLY the REST API's queries (one schema, @ecf/services), and the items as the API shows them.
 */
import { z } from 'zod';
import { ZReceivedSearchQuery } from '@ecf/services';
import {
  ZReceivedApproval,
  ZReceivedApprovalListQuery,
  ZReceivedDocument,
  ZReceivedListQuery,
} from '@ecf/contract';
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

/** A received e-CF as the REST API lists it (the contract's `ReceivedDocument`). */
export const ZReceivedDocumentItem = ZReceivedDocument;
export type TReceivedDocumentItem = z.infer<typeof ZReceivedDocumentItem>;

/** A received ACECF as the REST API lists it (the contract's `ReceivedApproval`). */
export const ZReceivedApprovalItem = ZReceivedApproval;
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
