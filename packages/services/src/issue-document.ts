import { randomUUID } from 'node:crypto';
import {
  DOCUMENT_STATE_COLUMNS,
  documentStateOf,
  inSqlTransaction,
  jobExecutorOfSql,
  prepared,
  sqlPoolOf,
  type Document,
  type Environment,
  type Prisma,
  type TDatabase,
  type TDocumentStateRow,
} from '@ecf/db';
import { computeSubmissionFingerprint } from '@ecf/fiscal-core';
import { AppError } from './errors.ts';
import type { TEnqueueJob } from './job-executor.ts';
import { ENCF_PATTERN } from './document-references.ts';
import { validateDocumentSubmission, type TSubmissionContext, type TSubmissionIssue } from './validate-document-submission.ts';

export type TIssueOutcome = {
  /** `created`: stored now; `replayed`: the same eNCF and JSON were stored before. */
  outcome: 'created' | 'replayed';
  document: Document;
  warnings: TSubmissionIssue[];
};

/**
 * Emission (`POST /{environment}/documentos-ecf`): replay check, validation (as preflight), then the
 * document, its fingerprint, its `submitted` event and its `document.sign` job in ONE transaction.
 *
 * - The same eNCF with the same JSON (any stored fingerprint algorithm) is a replay: the original
 *   document, never a second one. The same eNCF with other content is 409 `ENCF_CONFLICT`.
 * - Two identical submissions racing each other: the unique (tenant, environment, eNCF) lets one
 *   insert; the other rolls back and resolves as a replay.
 * - A failed validation is 422 `VALIDATION_FAILED` with `errors` and `warnings`; nothing is stored.
 * - In `eCF` the account's production authorization must be active (423 `PRODUCTION_NOT_ACTIVE`).
 */
export async function issueDocument(
  options: TSubmissionContext & { rawBody: string; body: unknown; enqueue: TEnqueueJob },
): Promise<TIssueOutcome> {
  const { database, tenant, environment } = options;
  if (environment === 'eCF' && tenant.productionState !== 'active') {
    throw new AppError('PRODUCTION_NOT_ACTIVE', 'Emission in eCF needs an active production authorization for this account.', {
      details: { productionState: tenant.productionState },
    });
  }
  const encf = encfOf(options.body);
  if (encf) {
    const replay = await findReplay(database, tenant.id, environment, encf, options.rawBody);
    if (replay) return replay;
  }

  const validation = await validateDocumentSubmission(options);
  if (!validation.success) {
    throw new AppError('VALIDATION_FAILED', `The document has ${validation.errors.length} error(s); nothing was stored and the eNCF stays free.`, {
      details: { errorCount: validation.errors.length },
      body: { errors: validation.errors, warnings: validation.warnings },
    });
  }
  const { data, warnings } = validation;
  const [algorithm, value] = splitFingerprint(data.fingerprint);
  try {
    const document = await inSqlTransaction(database, async (sql) => {
      const { rows } = await sql.query<TDocumentStateRow>(
        prepared(INSERT_SUBMITTED_DOCUMENT, [
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
        ]),
      );
      const row = rows[0];
      if (row === undefined) throw new Error('issueDocument: the document insert returned no row');
      await options.enqueue('document.sign', { documentId: row.id }, jobExecutorOfSql(sql));
      // The payload is not read back: it is the body just parsed, as Prisma would return it.
      return { ...documentStateOf(row), submittedPayload: options.body as Prisma.JsonValue } satisfies Document;
    });
    return { outcome: 'created', document, warnings };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Lost a race with the same eNCF: the winner's document decides (replay or conflict).
    const replay = await findReplay(database, tenant.id, environment, data.encf, options.rawBody);
    if (replay) return replay;
    throw error;
  }
}

/**
 * The document, its fingerprint and its `submitted` event in ONE statement (a plain-SQL round trip
 * instead of four Prisma queries at about 1 ms of CPU each: emission's hot path). The fingerprint
 * and the event take the document's id from its insert, whose foreign keys are checked at the end
 * of the statement. `updated_at` is Prisma's client-side @updatedAt, so it is set here.
 */
const INSERT_SUBMITTED_DOCUMENT = `
  WITH d AS (
    INSERT INTO documents AS d (id, tenant_id, environment, type, encf, status, format, issue_date, total_amount, buyer_rnc, submitted_payload, updated_at)
    VALUES ($1::uuid, $2::uuid, $3::"Environment", $4::smallint, $5, 'queued_for_signing', $6::"SubmissionFormat", $7::date, $8::numeric, $9, $10::jsonb, now())
    RETURNING ${DOCUMENT_STATE_COLUMNS}
  ), fingerprint AS (
    INSERT INTO document_fingerprints (document_id, algorithm, value) SELECT d.id, $11::text, $12::text FROM d
  ), event AS (
    INSERT INTO document_events (document_id, tenant_id, type, to_status, data)
    SELECT d.id, d.tenant_id, 'submitted', 'queued_for_signing', $13::jsonb FROM d
  )
  SELECT * FROM d`;

/** PostgreSQL's unique_violation: here the (tenant, environment, eNCF) key of `documents`. */
const UNIQUE_VIOLATION = '23505';

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === UNIQUE_VIOLATION;
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
async function findReplay(database: TDatabase, tenantId: string, environment: Environment, encf: string, rawBody: string): Promise<TIssueOutcome | null> {
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
    include: { fingerprints: true, events: { where: { type: 'submitted' }, take: 1, select: { data: true } } },
  });
  if (!existing) return null;
  const matches = existing.fingerprints.some((stored) => FINGERPRINTERS[stored.algorithm]?.(rawBody) === stored.value);
  if (!matches) {
    throw new AppError('ENCF_CONFLICT', `The eNCF ${encf} was already submitted with other content.`, {
      details: { conflicts: [{ encf, documentId: existing.id, status: existing.status, reason: 'encf_already_used_with_other_content' }] },
    });
  }
  const { fingerprints: _fingerprints, events, ...document } = existing;
  const submitted = events[0]?.data as { warnings?: TSubmissionIssue[] } | undefined;
  return { outcome: 'replayed', document, warnings: submitted?.warnings ?? [] };
}
