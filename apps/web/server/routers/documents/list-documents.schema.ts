import { z } from 'zod';
import { ZIssuedListQuery } from '@ecf/services';
import { ZEnvironment, ZIssuedDocument } from './document.schema.ts';

/** The issued list: the environment of the page and EXACTLY the REST API's query (filters, limit, cursor). */
export const ZListDocumentsInput = z.object({ environment: ZEnvironment, query: ZIssuedListQuery });

export const ZListDocumentsOutput = z.object({
  items: z.array(ZIssuedDocument),
  nextCursor: z.string().nullable(),
});
