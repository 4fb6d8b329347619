/**
 * Annulments (ANECF) and their range reservations. The reservation is the annulment side of the
 * emission ⇄ annulment race (packages/services/README.md, "Sequences and annulments"): in ONE
 * transaction it takes the EXCLUSIVE advisory lock of every prefix of the request (sorted), reads
 * the documents of the ranges (each statement a fresh snapshot: every emission or send claim that
 * held the SHARED lock has committed), and inserts the annulment and its active ranges. The
 * emission's insert and the worker's send claim take the same lock in a trigger (migration 0013).
 */
import {
  inPoolTransaction,
  sqlPoolOf,
  type AnnulmentState,
  type DocumentStatus,
  type Environment,
  type Prisma,
  type TDatabase,
  type TSql,
} from '@ecf/db';
import { createHash } from 'node:crypto';
import { ENCF_NUMBER } from '../statements.ts';

/** One range of a request, parsed. */
export type TReservedRange = {
  type: number;
  prefix: string;
  firstEncf: string;
  lastEncf: string;
  firstNumber: number;
  lastNumber: number;
};

/** A document of an annulled range, as the classification reads it. */
export type TCoveredDocumentRow = {
  id: string;
  encf: string;
  status: DocumentStatus;
  attempts: number;
  updatedAt: Date;
  /** A receiver delivery that may have reached the buyer. */
  delivered: boolean;
};

export type TAnnulmentRow = {
  id: string;
  tenantId: string;
  environment: Environment;
  idempotencyKey: string;
  requestFingerprint: string;
  request: Prisma.JsonValue;
  state: AnnulmentState;
  signedXml: string | null;
  taxauthAnswer: Prisma.JsonValue;
  coveredDocuments: Prisma.JsonValue;
  coveredSettledAt: Date | null;
  reconciliation: Prisma.JsonValue;
  reconciliationArtifactId: string | null;
  createdAt: Date;
  updatedAt: Date;
  answeredAt: Date | null;
  ranges: TReservedRange[];
};

type TAnnulmentRecord = {
  id: string;
  tenant_id: string;
  environment: Environment;
  idempotency_key: string;
  request_fingerprint: string;
  request: Prisma.JsonValue;
  state: AnnulmentState;
  signed_xml: string | null;
  taxauth_answer: Prisma.JsonValue;
  covered_documents: Prisma.JsonValue;
  covered_settled_at: Date | null;
  reconciliation: Prisma.JsonValue;
  reconciliation_artifact_id: string | null;
  created_at: Date;
  updated_at: Date;
  answered_at: Date | null;
  ranges: Array<{
    type: number;
    prefix: string;
    first_encf: string;
    last_encf: string;
    first_number: number | string;
    last_number: number | string;
  }> | null;
};

const ANNULMENT_SELECT = `
  SELECT a.id, a.tenant_id, a.environment, a.idempotency_key, a.request_fingerprint, a.request, a.state, a.signed_xml,
    a.taxauth_answer, a.covered_documents, a.covered_settled_at, a.reconciliation, a.reconciliation_artifact_id,
    a.created_at, a.updated_at, a.answered_at,
    (SELECT json_agg(json_build_object('type', r.type, 'prefix', r.prefix, 'first_encf', r.first_encf, 'last_encf', r.last_encf,
        'first_number', r.first_number, 'last_number', r.last_number) ORDER BY r.id)
       FROM annulment_ranges r WHERE r.annulment_id = a.id) AS ranges
  FROM annulments a`;

function annulmentOf(record: TAnnulmentRecord): TAnnulmentRow {
  return {
    id: record.id,
    tenantId: record.tenant_id,
    environment: record.environment,
    idempotencyKey: record.idempotency_key,
    requestFingerprint: record.request_fingerprint.trim(),
    request: record.request,
    state: record.state,
    signedXml: record.signed_xml,
    taxauthAnswer: record.taxauth_answer,
    coveredDocuments: record.covered_documents,
    coveredSettledAt: record.covered_settled_at,
    reconciliation: record.reconciliation,
    reconciliationArtifactId: record.reconciliation_artifact_id,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    answeredAt: record.answered_at,
    ranges: (record.ranges ?? []).map((range) => ({
      type: range.type,
      prefix: range.prefix,
      firstEncf: range.first_encf,
      lastEncf: range.last_encf,
      firstNumber: Number(range.first_number),
      lastNumber: Number(range.last_number),
    })),
  };
}

/** SQLSTATEs raised by the migration-0013 triggers: an insert or a send claim inside an active range. */
export const RESERVED_ENCF_SQLSTATE = { insert: 'EC409', sendClaim: 'EC410' } as const;

/** The annulment id of a trigger's refusal (`EC409`/`EC410`), or null for any other error. */
export function reservingAnnulmentOf(error: unknown, sqlState: string): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, detail } = error as { code?: unknown; detail?: unknown };
  return code === sqlState && typeof detail === 'string' ? detail : null;
}

const DELIVERED_STATUSES = [
  'sending',
  'retry_scheduled',
  'sent',
  'not_received',
  'uncertain',
  'dispatch_failed',
];

/** Documents of this tenant whose eNCF falls inside one of the ranges (uses the (tenant, environment, eNCF) key). */
async function documentsInRanges(
  sql: TSql,
  input: { tenantId: string; environment: Environment; ranges: readonly TReservedRange[] },
): Promise<TCoveredDocumentRow[]> {
  const { rows } = await sql.query<{
    id: string;
    encf: string;
    status: DocumentStatus;
    attempts: number;
    updated_at: Date;
    delivered: boolean;
  }>(
    `SELECT d.id, d.encf, d.status::text AS status, d.attempts, d.updated_at,
       EXISTS (SELECT 1 FROM receiver_deliveries rd WHERE rd.document_id = d.id AND rd.status::text = ANY($5::text[])) AS delivered
     FROM unnest($3::text[], $4::text[]) AS r(first_encf, last_encf)
     JOIN documents d ON d.tenant_id = $1::uuid AND d.environment = $2::"Environment"
       AND d.encf >= r.first_encf AND d.encf <= r.last_encf AND length(d.encf) = 13
     ORDER BY d.encf`,
    [
      input.tenantId,
      input.environment,
      input.ranges.map((range) => range.firstEncf),
      input.ranges.map((range) => range.lastEncf),
      DELIVERED_STATUSES,
    ],
  );
  return rows.map((row) => ({
    id: row.id,
    encf: row.encf,
    status: row.status,
    attempts: row.attempts,
    updatedAt: row.updated_at,
    delivered: row.delivered,
  }));
}

/** Documents of the ranges, read without locks (prevalidation: the reservation reads them again under the lock). */
export async function findDocumentsInRanges(
  database: TDatabase,
  input: { tenantId: string; environment: Environment; ranges: readonly TReservedRange[] },
): Promise<TCoveredDocumentRow[]> {
  return documentsInRanges(sqlPoolOf(database), input);
}

/** An active range of another annulment overlapping one of the ranges. */
async function overlappingActiveRange(
  sql: TSql,
  input: { tenantId: string; environment: Environment; ranges: readonly TReservedRange[] },
): Promise<{ annulmentId: string; from: string; to: string } | null> {
  const { rows } = await sql.query<{ annulment_id: string; first_encf: string; last_encf: string }>(
    `SELECT a.annulment_id, a.first_encf, a.last_encf
     FROM unnest($3::text[], $4::bigint[], $5::bigint[]) AS r(prefix, first_number, last_number)
     JOIN annulment_ranges a ON a.tenant_id = $1::uuid AND a.environment = $2::"Environment" AND a.active
       AND a.prefix = r.prefix AND a.first_number <= r.last_number AND a.last_number >= r.first_number
     LIMIT 1`,
    [
      input.tenantId,
      input.environment,
      input.ranges.map((range) => range.prefix),
      input.ranges.map((range) => range.firstNumber),
      input.ranges.map((range) => range.lastNumber),
    ],
  );
  const row = rows[0];
  return row === undefined
    ? null
    : { annulmentId: row.annulment_id, from: row.first_encf, to: row.last_encf };
}

/** Takes the exclusive lock of every prefix, one statement each in sorted order (no deadlock between annulments). */
async function lockPrefixes(
  sql: TSql,
  input: { tenantId: string; environment: Environment; prefixes: readonly string[] },
): Promise<void> {
  for (const prefix of [...new Set(input.prefixes)].sort()) {
    await sql.query('SELECT pg_advisory_xact_lock(encf_lock_key($1::uuid, $2::"Environment", $3::text))', [
      input.tenantId,
      input.environment,
      prefix,
    ]);
  }
}

async function annulmentByKey(
  sql: TSql,
  input: { tenantId: string; environment: Environment; idempotencyKey: string },
): Promise<TAnnulmentRow | null> {
  const { rows } = await sql.query<TAnnulmentRecord>(
    `${ANNULMENT_SELECT} WHERE a.tenant_id = $1::uuid AND a.environment = $2::"Environment" AND a.idempotency_key = $3`,
    [input.tenantId, input.environment, input.idempotencyKey],
  );
  return rows[0] === undefined ? null : annulmentOf(rows[0]);
}

/** What a reservation attempt found. */
export type TReservation =
  | { kind: 'reserved'; annulment: TAnnulmentRow; documents: TCoveredDocumentRow[] }
  | { kind: 'existing'; annulment: TAnnulmentRow }
  | { kind: 'range_reserved'; annulmentId: string; from: string; to: string }
  | { kind: 'blocked'; documents: TCoveredDocumentRow[] };

/**
 * The reservation (see the file comment). `isBlocking` decides, on the documents read under the
 * lock, whether the annulment may hold the ranges; when it may, the annulment is stored
 * `built` with its signed ANECF and its ranges active, all in the lock's transaction.
 * An annulment with the same key is answered as `existing` (replay or conflict: the caller compares).
 */
export async function reserveAnnulment(
  database: TDatabase,
  input: {
    id: string;
    tenantId: string;
    environment: Environment;
    idempotencyKey: string;
    requestFingerprint: string;
    request: unknown;
    signedXml: string;
    ranges: readonly TReservedRange[];
    now: Date;
    /** Decides on the documents read under the lock (may be async: tests hold the lock with it). */
    isBlocking: (documents: TCoveredDocumentRow[]) => boolean | Promise<boolean>;
  },
): Promise<TReservation> {
  // A group-committed emission batch of several prefixes takes their shared locks in row order:
  // against an annulment of the same prefixes PostgreSQL may detect a deadlock and abort one side
  // (an aborted emission batch is retried one document at a time; an aborted reservation here).
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await reserveOnce(database, input);
    } catch (error) {
      if (attempt >= 3 || (error as { code?: unknown }).code !== '40P01') throw error;
    }
  }
}

async function reserveOnce(
  database: TDatabase,
  input: Parameters<typeof reserveAnnulment>[1],
): Promise<TReservation> {
  return inPoolTransaction(sqlPoolOf(database), async (sql) => {
    const scope = { tenantId: input.tenantId, environment: input.environment };
    await lockPrefixes(sql, { ...scope, prefixes: input.ranges.map((range) => range.prefix) });
    const existing = await annulmentByKey(sql, { ...scope, idempotencyKey: input.idempotencyKey });
    if (existing) return { kind: 'existing', annulment: existing };
    const overlap = await overlappingActiveRange(sql, { ...scope, ranges: input.ranges });
    if (overlap) return { kind: 'range_reserved', ...overlap };
    const documents = await documentsInRanges(sql, { ...scope, ranges: input.ranges });
    if (await input.isBlocking(documents)) return { kind: 'blocked', documents };
    await sql.query(
      `INSERT INTO annulments (id, tenant_id, environment, idempotency_key, request_fingerprint, request, state, signed_xml,
         created_at, updated_at)
       VALUES ($1::uuid, $2::uuid, $3::"Environment", $4, $5, $6::jsonb, 'built', $7, $8::timestamptz, $8::timestamptz)`,
      [
        input.id,
        input.tenantId,
        input.environment,
        input.idempotencyKey,
        input.requestFingerprint,
        JSON.stringify(input.request),
        input.signedXml,
        input.now,
      ],
    );
    await sql.query(
      `INSERT INTO annulment_ranges (annulment_id, tenant_id, environment, type, prefix, first_encf, last_encf, first_number, last_number)
       SELECT $1::uuid, $2::uuid, $3::"Environment", r.type, r.prefix, r.first_encf, r.last_encf, r.first_number, r.last_number
       FROM unnest($4::smallint[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::bigint[])
         AS r(type, prefix, first_encf, last_encf, first_number, last_number)`,
      [
        input.id,
        input.tenantId,
        input.environment,
        input.ranges.map((range) => range.type),
        input.ranges.map((range) => range.prefix),
        input.ranges.map((range) => range.firstEncf),
        input.ranges.map((range) => range.lastEncf),
        input.ranges.map((range) => range.firstNumber),
        input.ranges.map((range) => range.lastNumber),
      ],
    );
    const stored = await annulmentByKey(sql, { ...scope, idempotencyKey: input.idempotencyKey });
    if (!stored) throw new Error('reserveAnnulment: the annulment just inserted is not readable');
    return { kind: 'reserved', annulment: stored, documents };
  });
}

/** The annulment with this key (replays), or null. */
export async function findAnnulmentByKey(
  database: TDatabase,
  input: { tenantId: string; environment: Environment; idempotencyKey: string },
): Promise<TAnnulmentRow | null> {
  return annulmentByKey(sqlPoolOf(database), input);
}

/** This tenant's annulment in the environment, or null (another tenant's id included). */
export async function findAnnulment(
  database: TDatabase,
  input: { tenantId: string; environment: Environment; annulmentId: string },
): Promise<TAnnulmentRow | null> {
  const { rows } = await sqlPoolOf(database).query<TAnnulmentRecord>(
    `${ANNULMENT_SELECT} WHERE a.id = $1::uuid AND a.tenant_id = $2::uuid AND a.environment = $3::"Environment"`,
    [input.annulmentId, input.tenantId, input.environment],
  );
  return rows[0] === undefined ? null : annulmentOf(rows[0]);
}

/**
 * The answer of the tax authority (or its absence) on an annulment still `sending`: `accepted`
 * (covered documents settled afterwards by {@link settleCoveredDocuments}), `rejected` (its ranges
 * freed in the same transaction) or `uncertain` (ranges kept). False when it was no longer `sending`.
 */
export async function recordAnnulmentAnswer(
  database: TDatabase,
  input: {
    annulmentId: string;
    /** `built` again: the request provably never reached the tax authority (sent again by a replay). */
    state: 'accepted' | 'rejected' | 'uncertain' | 'built';
    answer: unknown;
    at: Date;
    from?: AnnulmentState[];
  },
): Promise<boolean> {
  return inPoolTransaction(sqlPoolOf(database), async (sql) => {
    const { rowCount } = await sql.query(
      `UPDATE annulments SET state = $2::"AnnulmentState", taxauth_answer = $3::jsonb, answered_at = $4::timestamptz,
         updated_at = $4::timestamptz
       WHERE id = $1::uuid AND state::text = ANY($5::text[])`,
      [input.annulmentId, input.state, JSON.stringify(input.answer), input.at, input.from ?? ['sending']],
    );
    if ((rowCount ?? 0) === 0) return false;
    if (input.state === 'rejected')
      await sql.query('UPDATE annulment_ranges SET active = false WHERE annulment_id = $1::uuid', [
        input.annulmentId,
      ]);
    return true;
  });
}

/** `built` → `sending`, right before the ANECF leaves; false when another request already took it. */
export async function markAnnulmentSending(
  database: TDatabase,
  input: { annulmentId: string; at: Date },
): Promise<boolean> {
  const { rowCount } = await sqlPoolOf(database).query(
    `UPDATE annulments SET state = 'sending', updated_at = $2::timestamptz WHERE id = $1::uuid AND state = 'built'`,
    [input.annulmentId, input.at],
  );
  return (rowCount ?? 0) > 0;
}

/** The covered documents of an accepted annulment, as stored once settled. */
export type TCoveredDocuments = {
  cancelled: Array<{ documentId: string; encf: string }>;
  skipped: Array<{ documentId: string; encf: string; status: string; reason: string }>;
};

/**
 * The local side of an accepted annulment, idempotent: the documents of its ranges that never left
 * become `cancelled` (event `cancelled_by_annulment`), their pending jobs are cancelled, and the
 * lists are stored with `covered_settled_at`. `classify` names the reason of a document that may
 * have left (skipped), or null for one that may be cancelled. A settled annulment answers its
 * stored lists. Runs again safely after a crash (the SIGKILL recovery calls it).
 */
export async function settleCoveredDocuments(
  database: TDatabase,
  input: {
    annulmentId: string;
    at: Date;
    classify: (document: TCoveredDocumentRow) => string | null;
  },
): Promise<TCoveredDocuments | null> {
  const pool = sqlPoolOf(database);
  const { rows: jobTable } = await pool.query<{ present: boolean }>(
    "SELECT to_regclass('pgboss.job') IS NOT NULL AS present",
  );
  return inPoolTransaction(pool, async (sql) => {
    const { rows } = await sql.query<TAnnulmentRecord>(
      `${ANNULMENT_SELECT} WHERE a.id = $1::uuid FOR UPDATE OF a`,
      [input.annulmentId],
    );
    const record = rows[0];
    if (record === undefined || record.state !== 'accepted') return null;
    const annulment = annulmentOf(record);
    if (annulment.coveredSettledAt !== null) return annulment.coveredDocuments as TCoveredDocuments;
    const documents = await documentsInRanges(sql, {
      tenantId: annulment.tenantId,
      environment: annulment.environment,
      ranges: annulment.ranges,
    });
    const covered: TCoveredDocuments = { cancelled: [], skipped: [] };
    const toCancel: TCoveredDocumentRow[] = [];
    for (const document of documents) {
      if (document.status === 'cancelled') {
        covered.cancelled.push({ documentId: document.id, encf: document.encf });
        continue;
      }
      const reason = input.classify(document);
      if (reason === null) toCancel.push(document);
      else
        covered.skipped.push({
          documentId: document.id,
          encf: document.encf,
          status: document.status,
          reason,
        });
    }
    if (toCancel.length > 0) {
      // Guarded: only a document still unsent is cancelled (the send-claim trigger keeps it so).
      const { rows: cancelled } = await sql.query<{ id: string; encf: string; from_status: DocumentStatus }>(
        `WITH target AS (
           SELECT id, status AS from_status FROM documents
           WHERE id = ANY($1::uuid[]) AND status IN ('queued_for_signing', 'signed') AND attempts = 0
           FOR UPDATE
         ), changed AS (
           UPDATE documents d SET status = 'cancelled', updated_at = $2::timestamptz
           FROM target t WHERE d.id = t.id
           RETURNING d.id, d.tenant_id, d.encf, t.from_status
         ), event AS (
           INSERT INTO document_events (document_id, tenant_id, type, from_status, to_status, data, created_at)
           SELECT id, tenant_id, 'cancelled_by_annulment', from_status, 'cancelled',
             jsonb_build_object('annulmentId', $3::text), $2::timestamptz FROM changed
         )
         SELECT id, encf, from_status::text AS from_status FROM changed`,
        [toCancel.map((document) => document.id), input.at, input.annulmentId],
      );
      const done = new Set(cancelled.map((row) => row.id));
      for (const document of toCancel) {
        if (done.has(document.id)) covered.cancelled.push({ documentId: document.id, encf: document.encf });
        else
          covered.skipped.push({
            documentId: document.id,
            encf: document.encf,
            status: document.status,
            reason: 'document_taxauth_submission_in_progress',
          });
      }
      if (jobTable[0]?.present === true && done.size > 0) {
        await sql.query(
          `UPDATE pgboss.job SET state = 'cancelled', completed_on = now()
           WHERE name LIKE 'document.%' AND state IN ('created', 'retry') AND (data->>'documentId') = ANY($1::text[])`,
          [[...done]],
        );
      }
    }
    covered.cancelled.sort((a, b) => a.encf.localeCompare(b.encf));
    await sql.query(
      `UPDATE annulments SET covered_documents = $2::jsonb, covered_settled_at = $3::timestamptz, updated_at = $3::timestamptz
       WHERE id = $1::uuid`,
      [input.annulmentId, JSON.stringify(covered), input.at],
    );
    return covered;
  });
}

/** Annulments a recovery must finish: accepted but not settled, and `sending` since before `staleBefore`. */
export async function findAnnulmentsToRecover(
  database: TDatabase,
  input: { staleBefore: Date; limit: number },
): Promise<Array<{ id: string; state: AnnulmentState }>> {
  const { rows } = await sqlPoolOf(database).query<{ id: string; state: AnnulmentState }>(
    `SELECT id, state::text AS state FROM annulments
     WHERE (state = 'accepted' AND covered_settled_at IS NULL)
        OR (state = 'sending' AND updated_at < $1::timestamptz)
     ORDER BY updated_at LIMIT $2::int`,
    [input.staleBefore, input.limit],
  );
  return rows;
}

/**
 * `built` annulments untouched since `before` (their send never reached the tax authority and
 * nobody sent them again with their key) become `failed`, their ranges freed, in one statement.
 * Answers the ids changed.
 */
export async function failStaleBuiltAnnulments(
  database: TDatabase,
  input: { before: Date; at: Date; limit: number },
): Promise<string[]> {
  return inPoolTransaction(sqlPoolOf(database), async (sql) => {
    const { rows } = await sql.query<{ id: string }>(
      `WITH stale AS (
         SELECT id FROM annulments WHERE state = 'built' AND updated_at < $1::timestamptz
         ORDER BY updated_at LIMIT $3::int FOR UPDATE SKIP LOCKED
       )
       UPDATE annulments a SET state = 'failed', updated_at = $2::timestamptz,
         taxauth_answer = COALESCE(a.taxauth_answer, '{}'::jsonb) || jsonb_build_object('failedCause', 'not_sent_expired')
       FROM stale WHERE a.id = stale.id AND a.state = 'built'
       RETURNING a.id`,
      [input.before, input.at, input.limit],
    );
    const ids = rows.map((row) => row.id);
    if (ids.length > 0)
      await sql.query('UPDATE annulment_ranges SET active = false WHERE annulment_id = ANY($1::uuid[])', [
        ids,
      ]);
    return ids;
  });
}

/** A page of the tenant's annulments in the environment, newest first (keyset on `created_at`, `id`). */
export async function findAnnulmentPage(
  database: TDatabase,
  input: {
    tenantId: string;
    environment: Environment;
    status?: AnnulmentState | undefined;
    after?: { createdAt: Date; id: string } | undefined;
    limit: number;
  },
): Promise<TAnnulmentRow[]> {
  const { rows } = await sqlPoolOf(database).query<TAnnulmentRecord>(
    `${ANNULMENT_SELECT}
     WHERE a.tenant_id = $1::uuid AND a.environment = $2::"Environment"
       AND ($3::text IS NULL OR a.state::text = $3::text)
       AND ($4::timestamptz IS NULL OR (a.created_at, a.id) < ($4::timestamptz, $5::uuid))
     ORDER BY a.created_at DESC, a.id DESC LIMIT $6::int`,
    [
      input.tenantId,
      input.environment,
      input.status ?? null,
      input.after?.createdAt ?? null,
      input.after?.id ?? null,
      input.limit,
    ],
  );
  return rows.map(annulmentOf);
}

/**
 * The portal's search of annulments (issue 27): ranges that hold an e-NCF starting with a prefix,
 * as the range's series-and-type pattern (`E3%`, `E31`) and the numbers the prefix spans.
 */
export type TAnnulmentEncfSearch = { prefixPattern: string; lowNumber: bigint; highNumber: bigint };

const ANNULMENT_SEARCH_WHERE = `
     WHERE a.tenant_id = $1::uuid AND a.environment = $2::"Environment"
       AND ($3::text IS NULL OR a.state::text = $3::text)
       AND ($4::text IS NULL OR EXISTS (
             SELECT 1 FROM annulment_ranges r
              WHERE r.annulment_id = a.id AND r.prefix LIKE $4::text
                AND r.first_number <= $6::bigint AND r.last_number >= $5::bigint))`;

function annulmentSearchParameters(input: {
  tenantId: string;
  environment: Environment;
  status?: AnnulmentState | undefined;
  encf?: TAnnulmentEncfSearch | undefined;
}): unknown[] {
  return [
    input.tenantId,
    input.environment,
    input.status ?? null,
    input.encf?.prefixPattern ?? null,
    (input.encf?.lowNumber ?? 0n).toString(),
    (input.encf?.highNumber ?? 0n).toString(),
  ];
}

/**
 * A page of the tenant's annulments for the portal's search: newest first after `after`, or the
 * ones newer than `before` OLDEST first (the caller reverses them); keyset on (`created_at`, `id`).
 */
export async function findAnnulmentSearchPage(
  database: TDatabase,
  input: {
    tenantId: string;
    environment: Environment;
    status?: AnnulmentState | undefined;
    encf?: TAnnulmentEncfSearch | undefined;
    after?: { createdAt: Date; id: string } | undefined;
    before?: { createdAt: Date; id: string } | undefined;
    limit: number;
  },
): Promise<TAnnulmentRow[]> {
  const position = input.after ?? input.before;
  const direction = input.before === undefined ? 'DESC' : 'ASC';
  const comparison = input.before === undefined ? '<' : '>';
  const { rows } = await sqlPoolOf(database).query<TAnnulmentRecord>(
    `${ANNULMENT_SELECT} ${ANNULMENT_SEARCH_WHERE}
       AND ($7::timestamptz IS NULL OR (a.created_at, a.id) ${comparison} ($7::timestamptz, $8::uuid))
     ORDER BY a.created_at ${direction}, a.id ${direction} LIMIT $9::int`,
    [...annulmentSearchParameters(input), position?.createdAt ?? null, position?.id ?? null, input.limit],
  );
  return rows.map(annulmentOf);
}

/** How many annulments the search matches, counting at most `cap` + 1 (past it: "más de N"). */
export async function countAnnulments(
  database: TDatabase,
  input: {
    tenantId: string;
    environment: Environment;
    status?: AnnulmentState | undefined;
    encf?: TAnnulmentEncfSearch | undefined;
    cap: number;
  },
): Promise<{ count: number; capped: boolean }> {
  const { rows } = await sqlPoolOf(database).query<{ count: number }>(
    `SELECT count(*)::int AS count FROM (SELECT 1 FROM annulments a ${ANNULMENT_SEARCH_WHERE} LIMIT $7::int) matched`,
    [...annulmentSearchParameters(input), input.cap + 1],
  );
  const count = rows[0]?.count ?? 0;
  return count > input.cap ? { count: input.cap, capped: true } : { count, capped: false };
}

/**
 * Reconciliation of an `uncertain` annulment: the evidence as a write-once artifact, the outcome
 * fixed (`rejected` frees the ranges), in one transaction. Answers the annulment as it was when
 * it was no longer `uncertain` (the caller decides replay or conflict).
 */
export async function reconcileUncertainAnnulment(
  database: TDatabase,
  input: {
    annulmentId: string;
    tenantId: string;
    outcome: 'accepted' | 'rejected';
    evidence: { content: string; contentType: string };
    note: string | null;
    at: Date;
  },
): Promise<{ changed: boolean }> {
  return inPoolTransaction(sqlPoolOf(database), async (sql) => {
    const { rows } = await sql.query<{ state: AnnulmentState }>(
      'SELECT state::text AS state FROM annulments WHERE id = $1::uuid AND tenant_id = $2::uuid FOR UPDATE',
      [input.annulmentId, input.tenantId],
    );
    if (rows[0]?.state !== 'uncertain') return { changed: false };
    const content = Buffer.from(input.evidence.content, 'utf8');
    const sha256 = createHash('sha256').update(content).digest('hex');
    const { rows: artifact } = await sql.query<{ id: string }>(
      `INSERT INTO artifacts (id, tenant_id, document_id, kind, content_type, content, sha256, size_bytes)
       VALUES (gen_random_uuid(), $1::uuid, NULL, 'evidence', $2, $3, $4, $5) RETURNING id`,
      [input.tenantId, input.evidence.contentType, content, sha256, content.length],
    );
    await sql.query(
      `UPDATE annulments SET state = $2::"AnnulmentState", reconciliation = $3::jsonb, reconciliation_artifact_id = $4::uuid,
         updated_at = $5::timestamptz, answered_at = COALESCE(answered_at, $5::timestamptz)
       WHERE id = $1::uuid`,
      [
        input.annulmentId,
        input.outcome,
        JSON.stringify({
          outcome: input.outcome,
          evidenceSha256: sha256,
          note: input.note,
          reconciledAt: input.at.toISOString(),
        }),
        artifact[0]?.id,
        input.at,
      ],
    );
    if (input.outcome === 'rejected')
      await sql.query('UPDATE annulment_ranges SET active = false WHERE annulment_id = $1::uuid', [
        input.annulmentId,
      ]);
    return { changed: true };
  });
}

/** Whether an accepted annulment covers the eNCF (rule 20: a note on an annulled original). */
export async function isEncfAnnulled(
  database: TDatabase,
  input: { tenantId: string; environment: Environment; encf: string },
): Promise<boolean> {
  if (!/^[A-Z][0-9]{12}$/.test(input.encf)) return false;
  const { rowCount } = await sqlPoolOf(database).query(
    `SELECT 1 FROM annulment_ranges r JOIN annulments a ON a.id = r.annulment_id
     WHERE r.tenant_id = $1::uuid AND r.environment = $2::"Environment" AND r.active AND a.state = 'accepted'
       AND r.prefix = substr($3::text, 1, 3)
       AND r.first_number <= ${ENCF_NUMBER('$3::text')} AND r.last_number >= ${ENCF_NUMBER('$3::text')}
     LIMIT 1`,
    [input.tenantId, input.environment, input.encf],
  );
  return (rowCount ?? 0) > 0;
}
