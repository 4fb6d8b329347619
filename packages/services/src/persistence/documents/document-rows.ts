/**
 * Document rows read with plain SQL, shaped as Prisma gives them (the types use-cases work with).
 */
import { Prisma, type Document } from '@ecf/db';

/** A document without its submitted JSON (the one large column, read only where it is used). */
export type TDocumentState = Omit<Document, 'submittedPayload'>;

/**
 * The select list of {@link documentStateOf}, for a `documents` row aliased `d`. Dates and
 * decimals are read as text: node-postgres would read a `date` in the process's time zone and a
 * numeric as a float-prone string.
 */
export const DOCUMENT_STATE_COLUMNS = `d.id, d.tenant_id, d.environment::text AS environment, d.type, d.encf, d.status::text AS status,
  d.format::text AS format, d.issue_date::text AS issue_date, d.total_amount::text AS total_amount, d.buyer_rnc, d.buyer_name, d.track_id,
  d.security_code, d.qr_url, d.signature_date, d.last_error, d.taxauth_messages, d.contingency_since, d.attempts,
  d.last_deferred_at, d.submitted_at, d.updated_at, d.replaced_at`;

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
  buyer_name: string | null;
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
  replaced_at: Date | null;
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
    buyerName: row.buyer_name,
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
    replacedAt: row.replaced_at,
  };
}

/** The account's active certificate row (null: none), read with a document for `loadActiveCertificate`. */
export type TActiveCertificateRef = { id: string; keyId: string } | null;

/** A document as a pipeline step starts from it: {@link TDocumentState} and what the step also needs. */
export type TTransmissionDocument = TDocumentState & {
  tenant: { rnc: string };
  /** When the document last became `sent` (start of its result polling); undefined if never. */
  sentAt: Date | undefined;
  /** Whether the account e-mails buyers in the document's environment (read with the document). */
  buyerEmailEnabled: boolean;
  /** The account's active certificate row (null: none). */
  activeCertificate: TActiveCertificateRef;
};

/** The select list of {@link transmissionDocumentOf}, for `documents d JOIN tenants t`. */
export const TRANSMISSION_DOCUMENT_COLUMNS = `${DOCUMENT_STATE_COLUMNS}, t.rnc AS tenant_rnc,
  d.environment = ANY(t.buyer_email_environments) AS buyer_email_enabled,
  (SELECT e.created_at FROM document_events e WHERE e.document_id = d.id AND e.to_status = 'sent' ORDER BY e.id DESC LIMIT 1) AS sent_at,
  (SELECT json_build_object('id', c.id, 'keyId', c.key_id) FROM tenant_certificates c
    WHERE c.tenant_id = d.tenant_id AND c.active AND c.revoked_at IS NULL ORDER BY c.created_at DESC LIMIT 1) AS active_certificate`;

export type TTransmissionDocumentRow = TDocumentStateRow & {
  tenant_rnc: string;
  buyer_email_enabled: boolean;
  sent_at: Date | null;
  active_certificate: TActiveCertificateRef;
};

export function transmissionDocumentOf(row: TTransmissionDocumentRow): TTransmissionDocument {
  return {
    ...documentStateOf(row),
    tenant: { rnc: row.tenant_rnc },
    sentAt: row.sent_at ?? undefined,
    buyerEmailEnabled: row.buyer_email_enabled,
    activeCertificate: row.active_certificate,
  };
}
