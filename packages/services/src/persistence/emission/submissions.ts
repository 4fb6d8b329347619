/**
 * What emission stores and looks up: the submitted documents (with their fingerprints, `submitted`
 * events and `document.sign` jobs), the stored document of an eNCF (replays and conflicts) and the
 * original a note references (rule 20).
 */
import {
  batchOrEach,
  coalescerPerKey,
  createCoalescer,
  currentCorrelationId,
  inPoolTransaction,
  jobExecutorOfSql,
  prepared,
  runWithCorrelationId,
  runWithoutCorrelationId,
  sqlPoolOf,
  type Document,
  type DocumentStatus,
  type Environment,
  type TDatabase,
  type TEnqueue,
  type TSqlPool,
} from '@ecf/db';
import { DOCUMENT_STATE_COLUMNS, type TDocumentStateRow } from '../documents/document-rows.ts';

/** A validated submission to store, as emission hands it over. */
export type TSubmittedDocument = {
  id: string;
  tenantId: string;
  environment: Environment;
  type: number;
  encf: string;
  format: string;
  /** `YYYY-MM-DD`. */
  issueDate: string;
  /** Decimal text. */
  totalAmount: string;
  buyerRnc: string | null;
  /** `RazonSocialComprador` of the validated tree, or null (the portal's name search). */
  buyerName?: string | null | undefined;
  /** The body text as received: jsonb from it keeps a number's text (`1.10` stays `1.10`). */
  payloadText: string;
  fingerprint: { algorithm: string; value: string };
  /** Data of the `submitted` event (JSON text): the validated tree the signer signs, the warnings. */
  eventDataText: string;
  enqueue: TEnqueue;
};

/**
 * The documents, their fingerprints and their `submitted` events in ONE statement (a plain-SQL
 * round trip for a whole batch instead of four Prisma queries per document at about 1 ms of CPU
 * each: emission's hot path). Each column comes as an array; fingerprints and events take the
 * document ids from the input, whose foreign keys are checked at the end of the statement. The
 * bodies and the event data, already JSON texts, travel as one JSON array each (joined, not
 * escaped: a text array escaped every quote of every body, 5 % of the API's CPU per emission).
 * `updated_at` is Prisma's client-side @updatedAt, so it is set here.
 */
const INSERT_SUBMITTED_DOCUMENTS = `
  WITH input AS (
    SELECT i.*, p.payload, e.event_data
      FROM unnest($1::uuid[], $2::uuid[], $3::"Environment"[], $4::smallint[], $5::text[], $6::"SubmissionFormat"[], $7::date[],
        $8::numeric[], $9::text[], $11::text[], $12::text[], $14::text[])
        WITH ORDINALITY AS i(id, tenant_id, environment, type, encf, format, issue_date, total_amount, buyer_rnc, algorithm, value, buyer_name, ord)
      JOIN jsonb_array_elements($10::jsonb) WITH ORDINALITY AS p(payload, ord) ON p.ord = i.ord
      JOIN jsonb_array_elements($13::jsonb) WITH ORDINALITY AS e(event_data, ord) ON e.ord = i.ord
  ), d AS (
    INSERT INTO documents AS d (id, tenant_id, environment, type, encf, status, format, issue_date, total_amount, buyer_rnc, buyer_name, submitted_payload, updated_at)
    SELECT id, tenant_id, environment, type, encf, 'queued_for_signing', format, issue_date, total_amount, buyer_rnc, buyer_name, payload::jsonb, now() FROM input
    RETURNING ${DOCUMENT_STATE_COLUMNS}
  ), fingerprint AS (
    INSERT INTO document_fingerprints (document_id, algorithm, value) SELECT id, algorithm, value FROM input
  ), event AS (
    INSERT INTO document_events (document_id, tenant_id, type, to_status, data)
    SELECT id, tenant_id, 'submitted', 'queued_for_signing', event_data::jsonb FROM input
  )
  SELECT * FROM d`;

/** The parameters ($10, $13) that are one JSON array for the batch rather than a column array. */
const PAYLOAD_COLUMN = 9;
const EVENT_DATA_COLUMN = 12;

function columnsOf(document: TSubmittedDocument): unknown[] {
  return [
    document.id,
    document.tenantId,
    document.environment,
    document.type,
    document.encf,
    document.format,
    document.issueDate,
    document.totalAmount,
    document.buyerRnc,
    document.payloadText,
    document.fingerprint.algorithm,
    document.fingerprint.value,
    document.eventDataText,
    document.buyerName ?? null,
  ];
}

/** A submission as the coalescer holds it: with the correlation id of the request that sent it. */
type TQueuedSubmission = TSubmittedDocument & { correlationId: string | null };

/**
 * The `ecf.queued` outbox rows (written by the documents trigger with the connection's correlation
 * id, the batch's first request's) get each their own request's (migration 0019).
 */
const SET_QUEUED_EVENT_CORRELATION = `
  UPDATE webhook_events e SET correlation_id = v.correlation_id
    FROM unnest($1::uuid[], $2::text[]) AS v(document_id, correlation_id)
   WHERE e.document_id = v.document_id AND e.correlation_id IS DISTINCT FROM v.correlation_id`;

async function insertSubmissions(
  pool: TSqlPool,
  documents: TQueuedSubmission[],
): Promise<TDocumentStateRow[]> {
  // The batch runs in whichever request's context flushed it: it names its first request, and the
  // others' outbox rows are corrected in the same transaction (only when the batch mixes requests).
  const first = documents[0]?.correlationId ?? null;
  const transaction = () => insertSubmissionsOnce(pool, documents, first);
  return first === null ? runWithoutCorrelationId(transaction) : runWithCorrelationId(first, transaction);
}

async function insertSubmissionsOnce(
  pool: TSqlPool,
  documents: TQueuedSubmission[],
  first: string | null,
): Promise<TDocumentStateRow[]> {
  return inPoolTransaction(pool, async (sql) => {
    // Column-wise arrays for unnest: one statement text whatever the batch size (prepared once).
    const rowsOf = documents.map(columnsOf);
    const columns: unknown[] = (rowsOf[0] ?? []).map((_, column) => rowsOf.map((row) => row[column] ?? null));
    columns[PAYLOAD_COLUMN] = `[${documents.map((document) => document.payloadText).join(',')}]`;
    columns[EVENT_DATA_COLUMN] = `[${documents.map((document) => document.eventDataText).join(',')}]`;
    const { rows } = await sql.query<TDocumentStateRow>(prepared(INSERT_SUBMITTED_DOCUMENTS, columns));
    const byId = new Map(rows.map((row) => [row.id, row]));
    const inserted = documents.map((document) => byId.get(document.id));
    if (inserted.some((row) => row === undefined))
      throw new Error('insertSubmittedDocument: the document insert did not return every row');
    const others = documents.filter((document) => document.correlationId !== first);
    if (others.length > 0)
      await sql.query(
        prepared(SET_QUEUED_EVENT_CORRELATION, [
          others.map((document) => document.id),
          others.map((document) => document.correlationId),
        ]),
      );
    const executor = jobExecutorOfSql(sql);
    const byEnqueuer = new Map<TEnqueue, Array<{ name: 'document.sign'; payload: { documentId: string } }>>();
    for (const document of documents) {
      byEnqueuer.set(document.enqueue, [
        ...(byEnqueuer.get(document.enqueue) ?? []),
        { name: 'document.sign', payload: { documentId: document.id } },
      ]);
    }
    for (const [enqueue, jobs] of byEnqueuer) await enqueue(jobs, { executor });
    return inserted as TDocumentStateRow[];
  });
}

/**
 * Group commit of emissions: the requests that arrive while the event loop is busy are stored in
 * ONE transaction (one insert statement for all their documents, fingerprints and events, one
 * pg-boss insert per enqueuer for their `document.sign` jobs) instead of one transaction each. A
 * batch that fails (an eNCF already taken) is retried one emission per transaction, so each
 * request gets its own answer and its document and job commit together or not at all.
 */
const insertCoalesced = coalescerPerKey((pool: TSqlPool) =>
  createCoalescer(
    batchOrEach(
      (documents: TQueuedSubmission[]) => insertSubmissions(pool, documents),
      // The same eNCF twice in one batch would fail it for everyone: tenant, environment, eNCF.
      (document) => [document.tenantId, document.environment, document.encf].join(':'),
    ),
  ),
);

/**
 * Stores a submitted document `queued_for_signing` with its fingerprint, its `submitted` event and
 * its `document.sign` job, all or nothing. A taken eNCF fails with PostgreSQL's unique violation
 * (see {@link isUniqueViolation}).
 */
export async function insertSubmittedDocument(
  database: TDatabase,
  document: TSubmittedDocument,
): Promise<TDocumentStateRow> {
  // The caller's request, read now: the batch may be written in another request's context.
  return insertCoalesced(sqlPoolOf(database))({ ...document, correlationId: currentCorrelationId() ?? null });
}

/** PostgreSQL's unique_violation: here the (tenant, environment, eNCF) key of `documents`. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** Whether the tenant has a document with this eNCF in the environment (one indexed query). */
export async function isEncfTaken(
  database: TDatabase,
  input: { tenantId: string; environment: Environment; encf: string },
): Promise<boolean> {
  const { rowCount } = await sqlPoolOf(database).query(
    prepared(
      'SELECT 1 FROM documents WHERE tenant_id = $1::uuid AND environment = $2::"Environment" AND encf = $3',
      [input.tenantId, input.environment, input.encf],
    ),
  );
  return (rowCount ?? 0) > 0;
}

/** The stored document of an eNCF with its fingerprints and the data of its `submitted` event; null when free. */
export async function findStoredSubmission(
  database: TDatabase,
  input: { tenantId: string; environment: Environment; encf: string },
): Promise<{
  document: Document;
  fingerprints: Array<{ algorithm: string; value: string }>;
  submittedData: unknown;
} | null> {
  const existing = await database.document.findUnique({
    where: { tenantId_environment_encf: input },
    include: {
      fingerprints: true,
      events: { where: { type: 'submitted' }, take: 1, select: { data: true } },
    },
  });
  if (!existing) return null;
  const { fingerprints, events, ...document } = existing;
  return { document, fingerprints, submittedData: events[0]?.data };
}

/** The original a note references, as rule 20 needs it, with the credit notes already issued on it. */
export async function findReferencedDocument(
  database: TDatabase,
  input: { tenantId: string; environment: Environment; encf: string },
): Promise<{
  status: DocumentStatus;
  buyerRnc: string | null;
  issueDate: Date;
  totalAmount: string;
  creditNotesTotal: string;
} | null> {
  const original = await database.document.findUnique({
    where: { tenantId_environment_encf: input },
    select: { status: true, buyerRnc: true, issueDate: true, totalAmount: true },
  });
  if (!original) return null;
  // Credit notes (E34) already issued on it, read from the submitted payload of either format.
  const [sum] = await database.$queryRaw<Array<{ total: string | null }>>`
    SELECT COALESCE(SUM(total_amount), 0)::text AS total FROM documents
    WHERE tenant_id = ${input.tenantId}::uuid AND environment = ${input.environment}::"Environment" AND type = 34
      AND status NOT IN ('rejected', 'cancelled')
      AND (submitted_payload #>> '{reference,encf}' = ${input.encf}
        OR submitted_payload #>> '{ECF,InformacionReferencia,NCFModificado}' = ${input.encf})`;
  return {
    status: original.status,
    buyerRnc: original.buyerRnc,
    issueDate: original.issueDate,
    totalAmount: original.totalAmount.toFixed(2),
    creditNotesTotal: sum?.total ?? '0',
  };
}
