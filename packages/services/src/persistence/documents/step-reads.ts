/**
 * The reads the pipeline's steps start from: each step begins with ONE round trip for its document
 * (its columns without the submitted JSON, its account's RNC, buyer e-mail setting and active
 * certificate, when it last became `sent`, and what the step also needs), and the concurrent steps
 * of a job fetch share one query (group commit, see `createCoalescer`).
 */
import {
  batchOrEach,
  coalescerPerKey,
  createCoalescer,
  prepared,
  sqlPoolOf,
  type Prisma,
  type ReceiverDeliveryStatus,
  type TDatabase,
  type TSql,
} from '@ecf/db';
import {
  TRANSMISSION_DOCUMENT_COLUMNS,
  transmissionDocumentOf,
  type TTransmissionDocument,
  type TTransmissionDocumentRow,
} from './document-rows.ts';
import type { TDeliveryRow } from '../receiver-delivery/receiver-deliveries.ts';

/**
 * A read of one row by document id whose concurrent calls go to PostgreSQL as one query: `text`
 * selects rows with an `id` column `WHERE d.id = ANY($1::uuid[])`.
 */
function readByIdCoalesced<TRow extends { id: string }>(
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

const readTransmissionRow = readByIdCoalesced<TTransmissionDocumentRow>(
  `SELECT ${TRANSMISSION_DOCUMENT_COLUMNS} FROM documents d JOIN tenants t ON t.id = d.tenant_id WHERE d.id = ANY($1::uuid[])`,
);

/** The document as a transmission or polling step starts from it; undefined when there is none. */
export async function loadTransmissionDocument(
  database: TDatabase,
  documentId: string,
): Promise<TTransmissionDocument | undefined> {
  const row = await readTransmissionRow(database, documentId);
  return row === undefined ? undefined : transmissionDocumentOf(row);
}

const readQueuedRow = readByIdCoalesced<TTransmissionDocumentRow & { stored: unknown }>(
  `SELECT ${TRANSMISSION_DOCUMENT_COLUMNS},
     (SELECT e.data -> 'document' FROM document_events e WHERE e.document_id = d.id AND e.type = 'submitted' ORDER BY e.id LIMIT 1) AS stored
   FROM documents d JOIN tenants t ON t.id = d.tenant_id WHERE d.id = ANY($1::uuid[])`,
);

/** The document as signing starts from it, and the e-CF tree its `submitted` event kept (if any). */
export async function loadQueuedDocument(
  database: TDatabase,
  documentId: string,
): Promise<{ document: TTransmissionDocument; stored: unknown } | undefined> {
  const row = await readQueuedRow(database, documentId);
  return row === undefined ? undefined : { document: transmissionDocumentOf(row), stored: row.stored };
}

const readDeliveryRow = readByIdCoalesced<
  TTransmissionDocumentRow & {
    delivery_status: ReceiverDeliveryStatus | null;
    delivery_attempts: number | null;
    delivery_next_attempt_at: Date | null;
    delivery_last_error: Prisma.JsonValue | null;
    signed_xml: string | null;
  }
>(
  `SELECT ${TRANSMISSION_DOCUMENT_COLUMNS}, r.status::text AS delivery_status, r.attempts AS delivery_attempts,
     r.next_attempt_at AS delivery_next_attempt_at, r.last_error AS delivery_last_error,
     (SELECT convert_from(a.content, 'UTF8') FROM artifacts a WHERE a.document_id = d.id AND a.kind = 'signed_xml' ORDER BY a.created_at DESC LIMIT 1) AS signed_xml
   FROM documents d JOIN tenants t ON t.id = d.tenant_id LEFT JOIN receiver_deliveries r ON r.document_id = d.id
   WHERE d.id = ANY($1::uuid[])`,
);

/** A document as receiver delivery starts from it: its delivery row (null: none yet) and its signed XML. */
export type TDeliveryDocument = TTransmissionDocument & {
  delivery: TDeliveryRow | null;
  signedXml: string | null;
};

/** The document, its account's RNC and certificate, its delivery row and its signed XML, in one round trip. */
export async function loadDeliveryDocument(
  database: TDatabase,
  documentId: string,
): Promise<TDeliveryDocument | undefined> {
  const row = await readDeliveryRow(database, documentId);
  if (row === undefined) return undefined;
  const delivery =
    row.delivery_status === null
      ? null
      : {
          status: row.delivery_status,
          attempts: row.delivery_attempts ?? 0,
          nextAttemptAt: row.delivery_next_attempt_at,
          lastError: row.delivery_last_error,
        };
  return { ...transmissionDocumentOf(row), delivery, signedXml: row.signed_xml };
}

/** The newest signed XML of a document; undefined when it has none. */
export async function readSignedXml(database: TDatabase, documentId: string): Promise<string | undefined> {
  const { rows } = await sqlPoolOf(database).query<{ content: Buffer }>(
    prepared(
      `SELECT content FROM artifacts WHERE document_id = $1::uuid AND kind = 'signed_xml' ORDER BY created_at DESC LIMIT 1`,
      [documentId],
    ),
  );
  return rows[0]?.content.toString('utf8');
}

/**
 * The submission as the client sent it: the jsonb of `submitted_payload` as text (it keeps the
 * spelling of numbers, `1.10`), or the text itself when the payload is a JSON string.
 */
export async function readSubmittedPayloadText(database: TDatabase, documentId: string): Promise<string> {
  const { rows } = await sqlPoolOf(database).query<{ text: string }>(
    `SELECT CASE WHEN jsonb_typeof(submitted_payload) = 'string' THEN submitted_payload #>> '{}' ELSE submitted_payload::text END AS text
     FROM documents WHERE id = $1::uuid`,
    [documentId],
  );
  return rows[0]?.text ?? '';
}

/** The last two events of the given types of a document, newest first (the last attempt and its outcome). */
export async function findLastEventsOfTypes(
  database: TDatabase,
  input: { documentId: string; types: string[] },
): Promise<Array<{ type: string; data: Record<string, unknown> | null; createdAt: Date }>> {
  const { rows } = await sqlPoolOf(database).query<{
    type: string;
    data: Record<string, unknown> | null;
    created_at: Date;
  }>(
    prepared(
      `SELECT type, data, created_at FROM document_events WHERE document_id = $1::uuid AND type = ANY($2::text[]) ORDER BY id DESC LIMIT 2`,
      [input.documentId, input.types],
    ),
  );
  return rows.map((row) => ({ type: row.type, data: row.data, createdAt: row.created_at }));
}
