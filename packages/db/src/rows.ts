/**
 * Rows read with plain SQL, shaped as Prisma would give them, so use-cases can mix the two.
 */
import { Prisma, type Document } from './generated/prisma/client.ts';

/** A document without its submitted JSON (the one large column, read only where it is used). */
export type TDocumentState = Omit<Document, 'submittedPayload'>;

/**
 * The select list of {@link documentStateOf}, for a `documents` row aliased `d`. Dates and
 * decimals are read as text: node-postgres would read a `date` in the process's time zone and a
 * numeric as a float-prone string.
 */
export const DOCUMENT_STATE_COLUMNS = `d.id, d.tenant_id, d.environment::text AS environment, d.type, d.encf, d.status::text AS status,
  d.format::text AS format, d.issue_date::text AS issue_date, d.total_amount::text AS total_amount, d.buyer_rnc, d.track_id,
  d.security_code, d.qr_url, d.signature_date, d.last_error, d.taxauth_messages, d.contingency_since, d.attempts,
  d.last_deferred_at, d.submitted_at, d.updated_at`;

export type TDocumentStateRow = {
  id: string;
  tenant_id: string;
  environment: string;
  type: number;
  encf: string;
  status: string;
  format: string;
  issue_date: string;
  total_amount: string;
  buyer_rnc: string | null;
  track_id: string | null;
  security_code: string | null;
  qr_url: string | null;
  signature_date: Date | null;
  last_error: Prisma.JsonValue | null;
  taxauth_messages: Prisma.JsonValue | null;
  contingency_since: Date | null;
  attempts: number;
  last_deferred_at: Date | null;
  submitted_at: Date;
  updated_at: Date;
};

/** A row selected with {@link DOCUMENT_STATE_COLUMNS}, as Prisma types it. */
export function documentStateOf(row: TDocumentStateRow): TDocumentState {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    environment: row.environment as Document['environment'],
    type: row.type,
    encf: row.encf,
    status: row.status as Document['status'],
    format: row.format as Document['format'],
    issueDate: new Date(`${row.issue_date}T00:00:00Z`),
    totalAmount: new Prisma.Decimal(row.total_amount),
    buyerRnc: row.buyer_rnc,
    trackId: row.track_id,
    securityCode: row.security_code,
    qrUrl: row.qr_url,
    signatureDate: row.signature_date,
    lastError: row.last_error,
    taxauthMessages: row.taxauth_messages,
    contingencySince: row.contingency_since,
    attempts: row.attempts,
    lastDeferredAt: row.last_deferred_at,
    submittedAt: row.submitted_at,
    updatedAt: row.updated_at,
  };
}
