import { randomUUID } from 'node:crypto';
import type { Document, Environment, Prisma, TDatabase, TEnqueue } from '@ecf/db';
import { computeSubmissionFingerprint } from '@ecf/fiscal-core';
import { assertProductionActive } from '../accounts/index.ts';
// The file, not partners/index.ts: that index reaches certification, whose runs issue through here.
import { assertAccountMayEmit, type TPartnerPlans } from '../partners/assert-partner-may-emit.ts';
import {
  documentStateOf,
  findStoredSubmission,
  insertSubmittedDocument,
  isEncfTaken,
  isUniqueViolation,
  RESERVED_ENCF_SQLSTATE,
  reservingAnnulmentOf,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { ENCF_PATTERN } from '../shared/references.ts';
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
 * with the emissions that arrive at the same moment: group commit, see `insertSubmittedDocument`).
 *
 * - The same eNCF with the same JSON (any stored fingerprint algorithm) is a replay: the original
 *   document, never a second one. The same eNCF with other content is 409 `ENCF_CONFLICT`. The
 *   stored eNCF is found by the insert itself (the unique key), so a new eNCF costs no look-up.
 * - Two identical submissions racing each other: the unique (tenant, environment, eNCF) lets one
 *   insert; the other rolls back and resolves as a replay.
 * - A failed validation is 422 `VALIDATION_FAILED` with `errors` and `warnings`; nothing is stored
 *   (unless the body is a replay of a stored document: the replay is answered).
 * - In `eCF` the account's production authorization must be active (423 `PRODUCTION_NOT_ACTIVE`),
 *   then, for an account a Partner manages, the Partner's plan must be paid (402
 *   `PAYMENT_REQUIRED`) and its monthly quota not used up (429 `PLAN_LIMIT_EXCEEDED`): here, so
 *   every route (direct key, Partner API, portal) meets the same rule (`assertAccountMayEmit`).
 *   Both come before validation, as the Partner API always answered them.
 * - An eNCF inside a range an annulment reserved or annulled is 409 `ENCF_ANNULLED` (the insert's
 *   trigger decides under the range's advisory lock: the emission ⇄ annulment race has one winner).
 */
export async function issueDocument(
  options: TSubmissionContext & {
    rawBody: string;
    body: unknown;
    /** Enqueues the `document.sign` job in the document's transaction. */
    enqueue: TEnqueue;
    /** The plans' quotas and grace: required for an `eCF` emission of a Partner's account. */
    plans?: TPartnerPlans | undefined;
  },
): Promise<TIssueOutcome> {
  const { database, tenant, environment } = options;
  assertProductionActive({ environment, productionState: tenant.productionState });
  await assertAccountMayEmit({
    database,
    tenantId: tenant.id,
    environment,
    plans: options.plans,
    now: options.now,
  });

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
    const row = await insertSubmittedDocument(database, {
      id: randomUUID(),
      tenantId: tenant.id,
      environment,
      type: Number(data.type),
      encf: data.encf,
      format: data.format,
      issueDate: data.issueDate,
      totalAmount: data.totalAmount,
      buyerRnc: data.buyerRnc,
      buyerName: buyerNameOf(data.document),
      payloadText: options.rawBody,
      fingerprint: { algorithm, value },
      // The validated tree is what the signer signs: re-validating later could fill
      // placeholders with another date.
      eventDataText: JSON.stringify({ format: data.format, warnings, document: data.document }),
      enqueue: options.enqueue,
    });
    // The payload is not read back: it is the body just parsed, as Prisma would return it.
    const document = {
      ...documentStateOf(row),
      submittedPayload: options.body as Prisma.JsonValue,
    } satisfies Document;
    return { outcome: 'created', document, warnings };
  } catch (error) {
    const annulmentId = reservingAnnulmentOf(error, RESERVED_ENCF_SQLSTATE.insert);
    if (annulmentId !== null) {
      // The eNCF is in a range an annulment holds (the insert trigger, under the range's lock): a
      // replay of a document stored before the reservation is still answered.
      const replay = await findReplay(database, tenant.id, environment, data.encf, options.rawBody);
      if (replay) return replay;
      throw new AppError(
        'ENCF_ANNULLED',
        `The eNCF ${data.encf} is in a range reserved or annulled by an annulment.`,
        {
          details: { encf: data.encf, annulmentId },
        },
      );
    }
    if (!isUniqueViolation(error)) throw error;
    // The eNCF is taken (a replay, a conflict, or a race with the same eNCF): the stored document decides.
    const replay = await findReplay(database, tenant.id, environment, data.encf, options.rawBody);
    if (replay) return replay;
    throw error;
  }
}

/** `RazonSocialComprador` of the validated tree (either input format), or null: the portal's name search. */
function buyerNameOf(document: unknown): string | null {
  const ecf = (document as { ECF?: { Encabezado?: { Comprador?: { RazonSocialComprador?: unknown } } } }).ECF;
  const name = ecf?.Encabezado?.Comprador?.RazonSocialComprador;
  return typeof name === 'string' && name.trim() !== '' ? name : null;
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
  if (!(await isEncfTaken(database, { tenantId, environment, encf }))) return null;
  const stored = await findStoredSubmission(database, { tenantId, environment, encf });
  if (!stored) return null;
  const { document } = stored;
  const matches = stored.fingerprints.some(
    (fingerprint) => FINGERPRINTERS[fingerprint.algorithm]?.(rawBody) === fingerprint.value,
  );
  if (!matches) {
    throw new AppError('ENCF_CONFLICT', `The eNCF ${encf} was already submitted with other content.`, {
      details: {
        conflicts: [
          {
            encf,
            documentId: document.id,
            status: document.status,
            reason: 'encf_already_used_with_other_content',
          },
        ],
      },
    });
  }
  const submitted = stored.submittedData as { warnings?: TSubmissionIssue[] } | undefined;
  return { outcome: 'replayed', document, warnings: submitted?.warnings ?? [] };
}
