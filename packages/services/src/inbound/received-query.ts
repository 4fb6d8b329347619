/**
 * The queries of the received lists (`GET /{environment}/documentos-recibidos` and
 * `GET /{environment}/aprobaciones-comerciales-recibidas`): ONE zod schema each for the REST API
 * (its contract and OpenAPI document) and the portal's "Recibidos" pages, so both accept exactly the
 * same filters and cursors. Values are query-string text.
 *
 * `from` / `to` are calendar dates of RECEPTION in Dominican Republic time (UTC-4, no DST): the
 * lists are ordered by reception, a supplier may deliver an e-CF weeks after its `FechaEmision`, and
 * a refused delivery whose XML could not be read has no `FechaEmision` at all (docs/received-documents.md).
 */
import { z } from 'zod';
import { ECF_TYPES } from '@ecf/fiscal-core';
import { AppError } from '../shared/errors.ts';
import { ZPageCursorText, ZPageLimitText } from '../shared/page-query.ts';

/**
 * The commercial situation of a received e-CF (`group` of an item and of the list's filter):
 * `pending_approval` received and not yet answered (no active ACECF), `accepted` / `rejected` the
 * active ACECF's decision, `not_received` refused at reception (ARECF Estado 1).
 */
export const RECEIVED_GROUPS = ['pending_approval', 'accepted', 'rejected', 'not_received'] as const;
export type TReceivedGroup = (typeof RECEIVED_GROUPS)[number];

/** Default page of the received lists (1 to 100). */
export const RECEIVED_LIST_DEFAULT_LIMIT = 50;

const ZIsoDate = z.iso.date().describe('YYYY-MM-DD, a Dominican Republic calendar date of reception');
const ZRnc = z.string().regex(/^(\d{9}|\d{11})$/, 'an RNC (9 digits) or a cédula (11 digits)');
const ZEncfText = z.string().regex(/^E\d{12}$/, 'an eNCF: E, the two-digit type and ten digits');
const ECF_TYPE_PATTERN = new RegExp(`^E?(${ECF_TYPES.join('|')})$`);

function datesInOrder(query: { from?: string | undefined; to?: string | undefined }): boolean {
  return !query.from || !query.to || query.from <= query.to;
}

export const ZReceivedListQuery = z
  .strictObject({
    group: z.enum(RECEIVED_GROUPS).optional().describe(RECEIVED_GROUPS.join(' | ')),
    type: z
      .string()
      .regex(ECF_TYPE_PATTERN, 'an e-CF type: E31 or 31, ...')
      .transform((type) => Number(type.replace('E', '')))
      .optional()
      .describe('e-CF type: E31 or 31, ...'),
    encf: ZEncfText.optional(),
    issuerRnc: ZRnc.optional().describe("the supplier's RNC (RNCEmisor)"),
    from: ZIsoDate.optional().describe('received on or after (YYYY-MM-DD, Dominican Republic time)'),
    to: ZIsoDate.optional().describe('received on or before (YYYY-MM-DD, Dominican Republic time)'),
    limit: ZPageLimitText,
    cursor: ZPageCursorText,
  })
  .refine(datesInOrder, { message: 'from must not be after to', path: ['from'] });

export const ZReceivedApprovalListQuery = z
  .strictObject({
    encf: ZEncfText.optional(),
    buyerRnc: ZRnc.optional().describe("the customer's RNC (RNCComprador of the ACECF)"),
    from: ZIsoDate.optional().describe('received on or after (YYYY-MM-DD, Dominican Republic time)'),
    to: ZIsoDate.optional().describe('received on or before (YYYY-MM-DD, Dominican Republic time)'),
    limit: ZPageLimitText,
    cursor: ZPageCursorText,
  })
  .refine(datesInOrder, { message: 'from must not be after to', path: ['from'] });

export type TReceivedListQuery = z.output<typeof ZReceivedListQuery>;
export type TReceivedApprovalListQuery = z.output<typeof ZReceivedApprovalListQuery>;

/**
 * Parses a received list's query; a bad filter, limit or unknown parameter is 400
 * `INVALID_RECEIVED_DOCUMENTS_QUERY` with `details.issues[] { path, code, message }`.
 */
export function parseReceivedQuery<TSchema extends z.ZodType>(
  schema: TSchema,
  query: unknown,
): z.output<TSchema> {
  const parsed = schema.safeParse(query ?? {});
  if (parsed.success) return parsed.data;
  throw new AppError(
    'INVALID_RECEIVED_DOCUMENTS_QUERY',
    parsed.error.issues.map((issue) => `${issue.path.join('.') || 'query'}: ${issue.message}`).join('; '),
    {
      details: {
        issues: parsed.error.issues.map((issue) => ({
          path: issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(',') : ''),
          code: issue.code,
          message: issue.message,
        })),
      },
    },
  );
}
