import { randomUUID } from 'node:crypto';
import {
  batchOrEach,
  coalescerPerKey,
  createCoalescer,
  DOCUMENT_STATE_COLUMNS,
  documentStateOf,
  inPoolTransaction,
  jobExecutorOfSql,
  prepared,
  sqlPoolOf,
  type TSqlPool,
  type Document,
  type Environment,
  type Prisma,
  type TDatabase,
  type TDocumentStateRow,
} from '@ecf/db';
import { computeSubmissionFingerprint } from '@ecf/fiscal-core';
import { AppError } from './errors.ts';
import { enqueueJobsOf, type TEnqueueJob, type TEnqueueJobs } from './job-executor.ts';
import { ENCF_PATTERN } from './document-references.ts';
import {
  validateDocumentSubmission,
  type TSubmissionContext,
  type TSubmissionIssue,
} from './validate-document-submission.ts';

export type TIssueOutcome = {
  /** `created`: stored now; `replayed`: the same eNCF and JSON were stored before. */
  outcome: 'created' | 'replayed';
  document: Document;
  warnings: TSubmissionIssue[];
};

/**
 * Emission (`POST /{environment}/documentos-ecf`): validation (as preflight), then the document,
 * its fingerprint, its `submitted` event and its `document.sign` job in ONE transaction (shared
 * with the emissions that arrive at the same moment: group commit, see `insertCoalesced`).
 *
 * - The same eNCF with the same JSON (any stored fingerprint algorithm) is a replay: the original
 *   document, never a second one. The same eNCF with other content is 409 `ENCF_CONFLICT`. The
 *   stored eNCF is found by the insert itself (the unique key), so a new eNCF costs no look-up.
 * - Two identical submissions racing each other: the unique (tenant, environment, eNCF) lets one
 *   insert; the other rolls back and resolves as a replay.
 * - A failed validation is 422 `VALIDATION_FAILED` with `errors` and `warnings`; nothing is stored
 *   (unless the body is a replay of a stored document: the replay is answered).
 * - In `eCF` the account's production authorization must be active (423 `PRODUCTION_NOT_ACTIVE`).
 */
export async function issueDocument(
  options: TSubmissionContext & {
    rawBody: string;
    body: unknown;
    enqueue: TEnqueueJob;
    enqueueJobs?: TEnqueueJobs;
  },
): Promise<TIssueOutcome> {
  const { database, tenant, environment } = options;
  if (environment === 'eCF' && tenant.productionState !== 'active') {
    throw new AppError(
      'PRODUCTION_NOT_ACTIVE',
      'Emission in eCF needs an active production authorization for this account.',
      {
        details: { productionState: tenant.productionState },
      },
    );
  }

  const validation = await validateDocumentSubmission(options);
  if (!validation.success) {
    // A replay is answered even if its body would not validate today (date windows move).
    const encf = encfOf(options.body);
    const replay =
      encf === null ? null : await findReplay(database, tenant.id, environment, encf, options.rawBody);
    if (replay) return replay;
    throw new AppError(
      'VALIDATION_FAILED',
      `The document has ${validation.errors.length} error(s); nothing was stored and the eNCF stays free.`,
      {
        details: { errorCount: validation.errors.length },
        body: { errors: validation.errors, warnings: validation.warnings },
      },
    );
  }
  const { data, warnings } = validation;
  const [algorithm, value] = splitFingerprint(data.fingerprint);
  try {
    const row = await insertCoalesced(sqlPoolOf(database))({
      values: [
        randomUUID(),
        tenant.id,
        environment,
        Number(data.type),
        data.encf,
        data.format,
        data.issueDate,
        data.totalAmount,
        data.buyerRnc,
        // jsonb from the text as received keeps a number's text (`1.10` stays `1.10`); the parsed body would not.
        options.rawBody,
        algorithm,
        value,
        // The validated tree is what the signer signs: re-validating later could fill
        // placeholders with another date.
        JSON.stringify({ format: data.format, warnings, document: data.document }),
      ],
      enqueueJobs: options.enqueueJobs ?? enqueueJobsOf(options.enqueue),
    });
    // The payload is not read back: it is the body just parsed, as Prisma would return it.
    const document = {
      ...documentStateOf(row),
      submittedPayload: options.body as Prisma.JsonValue,
    } satisfies Document;
    return { outcome: 'created', document, warnings };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // The eNCF is taken (a replay, a conflict, or a race with the same eNCF): the stored document decides.
    const replay = await findReplay(database, tenant.id, environment, data.encf, options.rawBody);
    if (replay) return replay;
    throw error;
  }
}

type TEmission = { values: unknown[]; enqueueJobs: TEnqueueJobs };

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
      (emissions: TEmission[]) => insertEmissions(pool, emissions),
      // The same eNCF twice in one batch would fail it for everyone: tenant, environment, eNCF.
      (emission) => [emission.values[1], emission.values[2], emission.values[4]].join(':'),
    ),
  ),
);

async function insertEmissions(pool: TSqlPool, emissions: TEmission[]): Promise<TDocumentStateRow[]> {
  return inPoolTransaction(pool, async (sql) => {
    // Column-wise arrays for unnest: one statement text whatever the batch size (prepared once).
    const columns = (emissions[0]?.values ?? []).map((_, column) =>
      emissions.map((emission) => emission.values[column] ?? null),
    );
    const { rows } = await sql.query<TDocumentStateRow>(prepared(INSERT_SUBMITTED_DOCUMENTS, columns));
    const byId = new Map(rows.map((row) => [row.id, row]));
    const inserted = emissions.map((emission) => byId.get(emission.values[0] as string));
    if (inserted.some((row) => row === undefined))
      throw new Error('issueDocument: the document insert did not return every row');
    const executor = jobExecutorOfSql(sql);
    const enqueuers = new Map<TEnqueueJobs, Array<{ documentId: string }>>();
    emissions.forEach((emission, index) => {
      enqueuers.set(emission.enqueueJobs, [
        ...(enqueuers.get(emission.enqueueJobs) ?? []),
        { documentId: (inserted[index] as TDocumentStateRow).id },
      ]);
    });
    for (const [enqueueJobs, payloads] of enqueuers) await enqueueJobs('document.sign', payloads, executor);
    return inserted as TDocumentStateRow[];
  });
}

/**
 * The documents, their fingerprints and their `submitted` events in ONE statement (a plain-SQL
 * round trip for a whole batch instead of four Prisma queries per document at about 1 ms of CPU
 * each: emission's hot path). Each column comes as an array; fingerprints and events take the
 * document ids from the input, whose foreign keys are checked at the end of the statement.
 * `updated_at` is Prisma's client-side @updatedAt, so it is set here.
 */
const INSERT_SUBMITTED_DOCUMENTS = `
  WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::"Environment"[], $4::smallint[], $5::text[], $6::"SubmissionFormat"[], $7::date[],
      $8::numeric[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[])
      AS i(id, tenant_id, environment, type, encf, format, issue_date, total_amount, buyer_rnc, payload, algorithm, value, event_data)
  ), d AS (
    INSERT INTO documents AS d (id, tenant_id, environment, type, encf, status, format, issue_date, total_amount, buyer_rnc, submitted_payload, updated_at)
    SELECT id, tenant_id, environment, type, encf, 'queued_for_signing', format, issue_date, total_amount, buyer_rnc, payload::jsonb, now() FROM input
    RETURNING ${DOCUMENT_STATE_COLUMNS}
  ), fingerprint AS (
    INSERT INTO document_fingerprints (document_id, algorithm, value) SELECT id, algorithm, value FROM input
  ), event AS (
    INSERT INTO document_events (document_id, tenant_id, type, to_status, data)
    SELECT id, tenant_id, 'submitted', 'queued_for_signing', event_data::jsonb FROM input
  )
  SELECT * FROM d`;

/** PostgreSQL's unique_violation: here the (tenant, environment, eNCF) key of `documents`. */
const UNIQUE_VIOLATION = '23505';

function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === UNIQUE_VIOLATION
  );
}

/** The eNCF of either format, read before validation so a replay is answered without re-validating. */
function encfOf(body: unknown): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const record = body as Record<string, unknown>;
  const ecf = record['ECF'] as { Encabezado?: { IdDoc?: { eNCF?: unknown } } } | undefined;
  const candidate = ecf && typeof ecf === 'object' ? ecf.Encabezado?.IdDoc?.eNCF : record['encf'];
  return typeof candidate === 'string' && ENCF_PATTERN.test(candidate) ? candidate : null;
}

function splitFingerprint(fingerprint: string): [string, string] {
  const separator = fingerprint.indexOf(':');
  return [fingerprint.slice(0, separator), fingerprint.slice(separator + 1)];
}

/**
 * Fingerprint algorithms this version computes. Each stored fingerprint is compared with the one of
 * its own algorithm, so after a new algorithm is added documents stored under the old one still
 * replay (versioning rule 6).
 */
const FINGERPRINTERS: Record<string, (rawBody: string) => string | null> = {
  v1: (rawBody) => {
    const result = computeSubmissionFingerprint(rawBody);
    return result.success ? splitFingerprint(result.fingerprint)[1] : null;
  },
};

/**
 * The existing document with this eNCF: a replay when the body matches one of its fingerprints,
 * 409 `ENCF_CONFLICT` when it does not, null when the eNCF is free.
 */
async function findReplay(
  database: TDatabase,
  tenantId: string,
  environment: Environment,
  encf: string,
  rawBody: string,
): Promise<TIssueOutcome | null> {
  // The common case (a new eNCF) costs one indexed plain-SQL query; a taken eNCF is rare enough for Prisma.
  const { rowCount } = await sqlPoolOf(database).query(
    prepared(
      'SELECT 1 FROM documents WHERE tenant_id = $1::uuid AND environment = $2::"Environment" AND encf = $3',
      [tenantId, environment, encf],
    ),
  );
  if (!rowCount) return null;
  const existing = await database.document.findUnique({
    where: { tenantId_environment_encf: { tenantId, environment, encf } },
    include: {
      fingerprints: true,
      events: { where: { type: 'submitted' }, take: 1, select: { data: true } },
    },
  });
  if (!existing) return null;
  const matches = existing.fingerprints.some(
    (stored) => FINGERPRINTERS[stored.algorithm]?.(rawBody) === stored.value,
  );
  if (!matches) {
    throw new AppError('ENCF_CONFLICT', `The eNCF ${encf} was already submitted with other content.`, {
      details: {
        conflicts: [
          {
            encf,
            documentId: existing.id,
            status: existing.status,
            reason: 'encf_already_used_with_other_content',
          },
        ],
      },
    });
  }
  const { fingerprints: _fingerprints, events, ...document } = existing;
  const submitted = events[0]?.data as { warnings?: TSubmissionIssue[] } | undefined;
  return { outcome: 'replayed', document, warnings: submitted?.warnings ?? [] };
}
