/**
 * The one read a signing or transmission step starts from: the document's columns (without its
 * submitted JSON), its account's RNC, buyer e-mail setting and active certificate, and when it
 * last became `sent`, in one plain-SQL round trip.
 */
import {
  batchOrEach,
  coalescerPerKey,
  createCoalescer,
  DOCUMENT_STATE_COLUMNS,
  documentStateOf,
  prepared,
  sqlPoolOf,
  type TDatabase,
  type TDocumentState,
  type TDocumentStateRow,
  type TSql,
} from '@ecf/db';
import type { TActiveCertificateRef } from './certificate-store.ts';

export type TTransmissionDocument = TDocumentState & {
  tenant: { rnc: string };
  /** When the document last became `sent` (start of its result polling); undefined if never. */
  sentAt: Date | undefined;
  /** Whether the account e-mails buyers in the document's environment (read with the document). */
  buyerEmailEnabled: boolean;
  /** The account's active certificate row (null: none), for `loadActiveCertificate`. */
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

export async function loadTransmissionDocument(
  database: TDatabase,
  documentId: string,
): Promise<TTransmissionDocument | undefined> {
  const row = await readTransmissionRow(database, documentId);
  return row === undefined ? undefined : transmissionDocumentOf(row);
}

const readTransmissionRow = readByIdCoalesced<TTransmissionDocumentRow>(
  `SELECT ${TRANSMISSION_DOCUMENT_COLUMNS} FROM documents d JOIN tenants t ON t.id = d.tenant_id WHERE d.id = ANY($1::uuid[])`,
);

/**
 * A read of one row by document id whose concurrent calls go to PostgreSQL as one query (see
 * `createCoalescer`): `text` selects rows with an `id` column `WHERE d.id = ANY($1::uuid[])`.
 */
export function readByIdCoalesced<TRow extends { id: string }>(
  text: string,
): (database: TDatabase, documentId: string) => Promise<TRow | undefined> {
  const readMany = async (pool: TSql, ids: string[]): Promise<Map<string, TRow>> => {
    const { rows } = await pool.query<TRow>(prepared(text, [[...new Set(ids)]]));
    return new Map(rows.map((row) => [row.id.toLowerCase(), row]));
  };
  // A malformed id fails the whole query: batchOrEach then reads each alone, so only its caller sees the error.
  const perPool = coalescerPerKey((pool: TSql) =>
    createCoalescer(
      batchOrEach(async (ids: string[]) => {
        const byId = await readMany(pool, ids);
        return ids.map((id) => byId.get(id.toLowerCase()));
      }),
    ),
  );
  return (database, documentId) => perPool(sqlPoolOf(database))(documentId);
}
