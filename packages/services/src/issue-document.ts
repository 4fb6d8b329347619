import { isPrismaError, PRISMA_ERROR, type Document, type Environment, type Prisma, type TDatabase } from '@ecf/db';
import { computeSubmissionFingerprint } from '@ecf/fiscal-core';
import { AppError } from './errors.ts';
import { executorOf, type TEnqueueJob } from './job-executor.ts';
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
  try {
    const document = await database.$transaction(async (tx) => {
      const created = await tx.document.create({
        data: {
          tenantId: tenant.id,
          environment,
          type: Number(data.type),
          encf: data.encf,
          status: 'queued_for_signing',
          format: data.format,
          issueDate: new Date(`${data.issueDate}T00:00:00Z`),
          totalAmount: data.totalAmount,
          buyerRnc: data.buyerRnc,
          submittedPayload: options.body as Prisma.InputJsonValue,
        },
      });
      // jsonb keeps a number's text (`1.10` stays `1.10`), which JSON.parse above did not.
      await tx.$executeRaw`UPDATE documents SET submitted_payload = ${options.rawBody}::jsonb WHERE id = ${created.id}::uuid`;
      const [algorithm, value] = splitFingerprint(data.fingerprint);
      await tx.documentFingerprint.create({ data: { documentId: created.id, algorithm, value } });
      await tx.documentEvent.create({
        data: {
          documentId: created.id,
          tenantId: tenant.id,
          type: 'submitted',
          toStatus: 'queued_for_signing',
          // The validated tree is what the signer signs: re-validating later could fill
          // placeholders with another date.
          data: { format: data.format, warnings, document: data.document } as unknown as Prisma.InputJsonValue,
        },
      });
      await options.enqueue('document.sign', { documentId: created.id }, executorOf(tx));
      return created;
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

function isUniqueViolation(error: unknown): boolean {
  return isPrismaError(error, PRISMA_ERROR.uniqueConstraintViolation);
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
  // The common case (a new eNCF) costs one indexed raw query.
  const [taken] = await database.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM documents WHERE tenant_id = ${tenantId}::uuid AND environment = ${environment}::"Environment" AND encf = ${encf}`;
  if (!taken) return null;
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
