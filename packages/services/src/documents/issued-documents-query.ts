/**
 * The issued list's query (`GET /{environment}/documentos-ecf`): ONE zod schema for the REST API
 * (its contract and OpenAPI document) and the portal's documents page, so both accept exactly the
 * same filters and cursors. Values are query-string text; the schema turns them into the filters
 * `findIssuedDocuments` takes (the type as its two digits, the limit as a number).
 */
import { z } from 'zod';
import { ZPageCursorText, ZPageLimitText } from '../shared/page-query.ts';
import { ECF_TYPES } from '@ecf/fiscal-core';

/** Every status of an issued document, in the order of its life (the contract's DocumentStatus). */
export const DOCUMENT_STATUSES = [
  'queued_for_signing',
  'signed',
  'sent',
  'contingency',
  'accepted',
  'accepted_conditional',
  'rejected',
  'cancelled',
  'transmission_failed',
] as const;

/** Statuses no later step changes (an annulment aside): Try it stops watching there. */
export const FINAL_DOCUMENT_STATUSES = [
  'accepted',
  'accepted_conditional',
  'rejected',
  'cancelled',
  'transmission_failed',
] as const satisfies readonly (typeof DOCUMENT_STATUSES)[number][];

export const ZDocumentStatus = z.enum(DOCUMENT_STATUSES);

const ZIsoDate = z.iso.date().describe('YYYY-MM-DD, a Dominican Republic calendar date');
const ECF_TYPE_PATTERN = new RegExp(`^E?(${ECF_TYPES.join('|')})$`);

/** Default and largest page of the issued list. */
export const ISSUED_LIST_DEFAULT_LIMIT = 50;

export const ZIssuedListQuery = z
  .strictObject({
    issueDateFrom: ZIsoDate.optional().describe('FechaEmision on or after (YYYY-MM-DD)'),
    issueDateTo: ZIsoDate.optional().describe('FechaEmision on or before (YYYY-MM-DD)'),
    type: z
      .string()
      .regex(ECF_TYPE_PATTERN, 'an e-CF type: E31 or 31, ...')
      .transform((type) => Number(type.replace('E', '')))
      .optional(),
    status: ZDocumentStatus.optional(),
    limit: ZPageLimitText,
    cursor: ZPageCursorText,
  })
  .refine((query) => !query.issueDateFrom || !query.issueDateTo || query.issueDateFrom <= query.issueDateTo, {
    message: 'issueDateFrom must not be after issueDateTo',
    path: ['issueDateFrom'],
  });

/** The query as sent (text values), before the schema's transforms. */
export type TIssuedListQueryText = z.input<typeof ZIssuedListQuery>;
