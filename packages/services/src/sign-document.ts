/**
 * The first asynchronous step after a 202: sign a stored e-CF with its tenant's certificate.
 *
 * The e-CF signed is the tree emission validated and kept in the document's `submitted` event (or,
 * without one, the stored submission validated again with the submission time as "now"), so it is
 * the document the client was told was valid. The signed XML, the document's new status and its event are written
 * in one transaction, guarded by `status = 'queued_for_signing'`: redelivered or concurrent jobs
 * sign a document once.
 *
 * Certificate problems (none installed, expired, master key not configured) keep the document
 * `queued_for_signing` with `lastError.retrying = true`: the document is valid and its eNCF
 * recorded, and it gets signed as soon as the account has a usable certificate. A stored
 * submission that no longer validates or builds keeps it queued with `retrying = false`: retrying
 * cannot help, an operator has to look.
 */
import { artifactData, Prisma, type Document, type Tenant, type TDatabase } from '@ecf/db';
import {
  parseSignatureDateTime,
  signEcfDocument,
  timbreUrlOf,
  validateSubmission,
  type TEcfDocument,
  type TEcfTree,
  type TSigningCertificate,
  type TXsdValidators,
} from '@ecf/fiscal-core';
import { loadActiveCertificate, type TCertificateKeyring } from './certificate-store.ts';
import { accountDataOf } from './account-data.ts';
import { AppError } from './errors.ts';
import { executorOf, type TEnqueueJob } from './job-executor.ts';

/** Codes a signing attempt leaves in `lastError` (besides the certificate codes of AppError). */
export const SIGNING_ERROR_CODES = {
  /** No active certificate: install one; the document is signed then. */
  CERTIFICATE_NOT_ACTIVE: 'CERTIFICATE_NOT_ACTIVE',
  /** The active certificate's validity ended (or has not started): install a valid one. */
  CERTIFICATE_EXPIRED: 'CERTIFICATE_EXPIRED',
  CERTIFICATE_NOT_YET_VALID: 'CERTIFICATE_NOT_YET_VALID',
  /** The active certificate cannot be decrypted or read (service configuration). */
  SIGNING_CERTIFICATE_UNAVAILABLE: 'SIGNING_CERTIFICATE_UNAVAILABLE',
  /** The stored submission no longer validates, or is not the document's eNCF. */
  SIGNING_PAYLOAD_INVALID: 'SIGNING_PAYLOAD_INVALID',
  /** The e-CF could not be written as XML, or the signed XML failed the official XSD. */
  SIGNING_XML_INVALID: 'SIGNING_XML_INVALID',
} as const;
export type TSigningErrorCode = (typeof SIGNING_ERROR_CODES)[keyof typeof SIGNING_ERROR_CODES];

/** What `lastError` holds after a signing attempt that did not sign. */
export type TSigningError = { code: TSigningErrorCode; message: string; retrying: boolean; details?: Record<string, unknown> };

export type TSignQueuedDocumentResult =
  | { outcome: 'signed'; documentId: string; securityCode: string; qrUrl: string; signatureDate: Date; sha256: string; artifactId: string }
  | { outcome: 'skipped'; documentId: string; reason: 'not_found' | 'not_queued'; status?: string }
  /** A certificate problem: the document stays queued; try again later (the job retries). */
  | { outcome: 'deferred'; documentId: string; error: TSigningError }
  /** Deterministic failure: the document stays queued; retrying does not help. */
  | { outcome: 'failed'; documentId: string; error: TSigningError };

/**
 * The e-CF tree to sign. Emission stores the validated tree in the document's `submitted` event
 * (`data.document`): that exact tree is signed, so placeholders filled with the submission date
 * stay as the client was told. Documents without it (fixtures, older rows) are validated again
 * from `submittedPayload` with the submission time as "now"; its jsonb text keeps the spelling of
 * numbers (`1.10`), and a JSON string payload is taken as the body text itself.
 */
async function ecfTreeOf(
  database: TDatabase,
  document: Document & { tenant: Tenant },
): Promise<{ success: true; tree: TEcfDocument } | { success: false; error: TSigningError }> {
  const submitted = await database.documentEvent.findFirst({
    where: { documentId: document.id, type: 'submitted' },
    orderBy: { id: 'asc' },
    select: { data: true },
  });
  const stored = (submitted?.data as { document?: unknown } | null | undefined)?.document;
  if (isEcfDocument(stored)) return { success: true, tree: stored };

  const [payload] = await database.$queryRaw<{ text: string }[]>`
    SELECT CASE WHEN jsonb_typeof(submitted_payload) = 'string' THEN submitted_payload #>> '{}' ELSE submitted_payload::text END AS text
    FROM documents WHERE id = ${document.id}::uuid`;
  const validated = await validateSubmission(payload?.text ?? '', { now: document.submittedAt, account: accountDataOf(document.tenant) });
  if (validated.success) return { success: true, tree: validated.data.document };
  return {
    success: false,
    error: {
      code: 'SIGNING_PAYLOAD_INVALID',
      message: 'The stored submission no longer validates; it cannot be signed.',
      retrying: false,
      details: { errors: validated.errors.slice(0, 20).map(({ path, code, message }) => ({ path, code, message })) },
    },
  };
}

function isEcfDocument(value: unknown): value is TEcfDocument {
  const root = (value as { ECF?: unknown } | null | undefined)?.ECF;
  return typeof root === 'object' && root !== null && !Array.isArray(root);
}

function idDocOf(tree: TEcfDocument): { encf: unknown; type: unknown } {
  const idDoc = ((tree.ECF['Encabezado'] as TEcfTree | undefined)?.['IdDoc'] ?? {}) as TEcfTree;
  return { encf: idDoc['eNCF'], type: idDoc['TipoeCF'] };
}

/** Thrown inside the signing transaction when another run signed first; rolls back the artifact. */
class SignedElsewhere extends Error {}

/**
 * Signs one `queued_for_signing` document; anything else is left as it is (idempotent). `now` is
 * the signing time (`FechaHoraFirma` unless the client sent `signatureDate`). With `xsdValidators`
 * the signed XML is checked against the official schema before it is stored.
 */
export async function signQueuedDocument(
  database: TDatabase,
  documentId: string,
  options: {
    keyring: TCertificateKeyring;
    now?: Date;
    xsdValidators?: TXsdValidators;
    /** Enqueues `document.transmit` in the signing transaction (the worker passes pg-boss). */
    enqueue?: TEnqueueJob;
  },
): Promise<TSignQueuedDocumentResult> {
  const now = options.now ?? new Date();
  const document = await database.document.findUnique({ where: { id: documentId }, include: { tenant: true } });
  if (!document) return { outcome: 'skipped', documentId, reason: 'not_found' };
  if (document.status !== 'queued_for_signing') return { outcome: 'skipped', documentId, reason: 'not_queued', status: document.status };

  const tree = await ecfTreeOf(database, document);
  if (!tree.success) return recordFailure(database, document, 'failed', tree.error);
  const identity = idDocOf(tree.tree);
  if (identity.encf !== document.encf || Number(identity.type) !== document.type) {
    return recordFailure(database, document, 'failed', {
      code: 'SIGNING_PAYLOAD_INVALID',
      message: `The stored e-CF is ${String(identity.encf)}, not the document's ${document.encf}.`,
      retrying: false,
    });
  }

  let certificate: TSigningCertificate;
  try {
    certificate = await loadActiveCertificate(database, document.tenantId, options.keyring);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const code = error.code === 'CERTIFICATE_NOT_ACTIVE' ? 'CERTIFICATE_NOT_ACTIVE' : 'SIGNING_CERTIFICATE_UNAVAILABLE';
    const message =
      code === 'CERTIFICATE_NOT_ACTIVE'
        ? 'The account has no active signing certificate; the document is signed as soon as one is installed.'
        : 'The signing certificate cannot be used right now (service configuration); signing is retried.';
    return recordFailure(database, document, 'deferred', { code, message, retrying: true });
  }
  if (certificate.validTo.getTime() < now.getTime() || certificate.validFrom.getTime() > now.getTime()) {
    const expired = certificate.validTo.getTime() < now.getTime();
    return recordFailure(database, document, 'deferred', {
      code: expired ? 'CERTIFICATE_EXPIRED' : 'CERTIFICATE_NOT_YET_VALID',
      message: expired
        ? `The account's signing certificate expired on ${certificate.validTo.toISOString()}; install a valid one and the document is signed.`
        : `The account's signing certificate is valid from ${certificate.validFrom.toISOString()}.`,
      retrying: true,
      details: { validFrom: certificate.validFrom.toISOString(), validTo: certificate.validTo.toISOString() },
    });
  }

  const signed = signEcfDocument(tree.tree, certificate, now);
  if (!signed.success) {
    return recordFailure(database, document, 'failed', {
      code: 'SIGNING_XML_INVALID',
      message: 'The e-CF could not be written as XML.',
      retrying: false,
      details: { issues: signed.issues.slice(0, 20) },
    });
  }
  if (options.xsdValidators) {
    const checked = options.xsdValidators.validateXml(signed.data.xml);
    if (!checked.success) {
      return recordFailure(database, document, 'failed', {
        code: 'SIGNING_XML_INVALID',
        message: 'The signed XML does not satisfy the official XSD.',
        retrying: false,
        details: { issues: checked.issues.slice(0, 20) },
      });
    }
  }
  const signatureDate = parseSignatureDateTime(signed.data.signedAt);
  if (!signatureDate.success) throw new Error(`signEcfDocument wrote an unreadable FechaHoraFirma for document ${document.id}`);
  const qrUrl = timbreUrlOf(tree.tree, signed.data, document.environment);
  const artifact = artifactData({ tenantId: document.tenantId, documentId: document.id, kind: 'signed_xml', contentType: 'application/xml', content: signed.data.xml });
  const { sha256 } = artifact;

  try {
    const artifactId = await database.$transaction(async (transaction) => {
      // The guard: only the run that moves the document out of the queue writes anything.
      const moved = await transaction.document.updateMany({
        where: { id: document.id, status: 'queued_for_signing' },
        data: { status: 'signed', securityCode: signed.data.securityCode, qrUrl, signatureDate: signatureDate.data, lastError: Prisma.DbNull },
      });
      if (moved.count === 0) throw new SignedElsewhere();
      const stored = await transaction.artifact.create({ data: artifact, select: { id: true } });
      await transaction.documentEvent.create({
        data: {
          documentId: document.id,
          tenantId: document.tenantId,
          type: 'signed',
          fromStatus: 'queued_for_signing',
          toStatus: 'signed',
          data: {
            artifactId: stored.id,
            sha256,
            securityCode: signed.data.securityCode,
            signedAt: signed.data.signedAt,
            certificateSerialNumber: certificate.certificateSerialNumber,
          },
        },
      });
      // The next step exists exactly when the signature commits: never a signed document without it.
      if (options.enqueue) await options.enqueue('document.transmit', { documentId: document.id }, executorOf(transaction));
      return stored.id;
    });
    return { outcome: 'signed', documentId: document.id, securityCode: signed.data.securityCode, qrUrl, signatureDate: signatureDate.data, sha256, artifactId };
  } catch (error) {
    if (error instanceof SignedElsewhere) return { outcome: 'skipped', documentId: document.id, reason: 'not_queued' };
    throw error;
  }
}

/**
 * Leaves the document queued with `lastError` and appends a `signing_deferred` or
 * `signing_failed` event, once per distinct code (retries of the same problem add nothing).
 */
async function recordFailure(
  database: TDatabase,
  document: Document,
  outcome: 'deferred' | 'failed',
  error: TSigningError,
): Promise<TSignQueuedDocumentResult> {
  await database.$transaction(async (transaction) => {
    const [current] = await transaction.$queryRaw<{ status: string; last_error: Prisma.JsonValue }[]>`
      SELECT status::text AS status, last_error FROM documents WHERE id = ${document.id}::uuid FOR UPDATE`;
    if (current?.status !== 'queued_for_signing') return;
    const previousCode = (current.last_error as { code?: unknown } | null)?.code;
    await transaction.document.update({ where: { id: document.id }, data: { lastError: error as unknown as Prisma.InputJsonValue } });
    if (previousCode === error.code) return;
    await transaction.documentEvent.create({
      data: {
        documentId: document.id,
        tenantId: document.tenantId,
        type: outcome === 'deferred' ? 'signing_deferred' : 'signing_failed',
        data: { code: error.code, message: error.message, retrying: error.retrying },
      },
    });
  });
  return { outcome, documentId: document.id, error };
}
