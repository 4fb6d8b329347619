/**
 * The lists of documents: the paging members every list query shares (clarification 6), the issued
 * list's query (`GET /{environment}/documentos-ecf`) and the received lists' (`GET
 * /{environment}/documentos-recibidos`, `GET /{environment}/aprobaciones-comerciales-recibidas`).
 * ONE zod schema each for the REST API (its contract and OpenAPI document), the Partner API and the
 * portal's pages, so all accept exactly the same filters and cursors. Values are query-string text;
 * the schemas turn them into the filters the services take (a type as its two digits, a limit as a
 * number).
 *
 * Received lists' `from` / `to` are calendar dates of RECEPTION in Dominican Republic time (UTC-4,
 * no DST): they are ordered by reception, a supplier may deliver an e-CF weeks after its
 * `FechaEmision`, and a refused delivery whose XML could not be read has no `FechaEmision` at all
 * (docs/received-documents.md).
 */
import { z } from 'zod';
import { ECF_TYPES } from './ecf-types.ts';

/** `limit`: query text, 1 to 100 (default 50, applied by each list). */
export const ZPageLimitText = z
  .string()
  .regex(/^\d{1,3}$/, 'an integer from 1 to 100')
  .transform(Number)
  .pipe(z.number().int().min(1).max(100))
  .optional()
  .describe('1 to 100, default 50');

/** `cursor`: the previous page's `nextCursor`. */
export const ZPageCursorText = z
  .string()
  .min(1)
  .max(512)
  .optional()
  .describe('nextCursor of the previous page, unmodified; filters must stay the same');

const ECF_TYPE_PATTERN = new RegExp(`^E?(${ECF_TYPES.join('|')})$`);

/** An e-CF type as a filter: `E31` or `31`, turned into the number 31. */
const ZEcfTypeText = z
  .string()
  .regex(ECF_TYPE_PATTERN, 'an e-CF type: E31 or 31, ...')
  .transform((type) => Number(type.replace('E', '')));

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

const ZIssueDate = z.iso.date().describe('YYYY-MM-DD, a Dominican Republic calendar date');

/** Default and largest page of the issued list. */
export const ISSUED_LIST_DEFAULT_LIMIT = 50;

export const ZIssuedListQuery = z
  .strictObject({
    issueDateFrom: ZIssueDate.optional().describe('FechaEmision on or after (YYYY-MM-DD)'),
    issueDateTo: ZIssueDate.optional().describe('FechaEmision on or before (YYYY-MM-DD)'),
    type: ZEcfTypeText.optional(),
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

/**
 * What Consulta Estado said of a received e-CF (`taxauthValidity`, docs/received-documents.md):
 * `valid` (Aceptado, codigo 1), `valid_conditional` (Aceptado Condicional, type 32), `rejected`
 * (codigo 2), `not_found` (codigo 0), `in_process` (asked again later), `unknown` (an answer we
 * cannot read), `not_applicable` (CerteCF: the service is not published there), `check_failed` (a
 * definite refusal of the question itself, e.g. the certificate is not delegated; `reason`).
 */
export const TAXAUTH_VALIDITY_STATUSES = [
  'valid',
  'valid_conditional',
  'rejected',
  'not_found',
  'in_process',
  'unknown',
  'not_applicable',
  'check_failed',
] as const;
export type TTaxauthValidityStatus = (typeof TAXAUTH_VALIDITY_STATUSES)[number];

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

function datesInOrder(query: { from?: string | undefined; to?: string | undefined }): boolean {
  return !query.from || !query.to || query.from <= query.to;
}

export const ZReceivedListQuery = z
  .strictObject({
    group: z.enum(RECEIVED_GROUPS).optional().describe(RECEIVED_GROUPS.join(' | ')),
    type: ZEcfTypeText.optional().describe('e-CF type: E31 or 31, ...'),
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
