import { z } from 'zod';
import { ZIssuedSearchQuery } from '@ecf/services';
import { ZIssuedListQuery } from '@ecf/contract';
import { ZEnvironment, ZIssuedDocument } from './document.schema.ts';

/**
 * The issued list: the environment of the page, EXACTLY the REST API's query (filters, limit,
 * cursor) and, apart, the portal's search (issue 27: e-NCF prefix, TrackId or RNC, amount range,
 * the previous page's `before`).
 */
export const ZListDocumentsInput = z.object({
  environment: ZEnvironment,
  query: ZIssuedListQuery,
  search: ZIssuedSearchQuery.optional(),
});

export const ZListDocumentsOutput = z.object({
  items: z.array(ZIssuedDocument),
  nextCursor: z.string().nullable(),
  previousCursor: z.string().nullable(),
  /** How many match; `capped` when there are more than `count` (the count stops there). */
  total: z.object({ count: z.number().int().nonnegative(), capped: z.boolean() }),
});
