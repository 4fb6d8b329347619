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
import type { Prisma } from '@ecf/db';
import { inSqlTransaction, jobExecutorOfSql, sqlPoolOf, type TDatabase, type TDocumentState } from '@ecf/db';
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
import {
  readByIdCoalesced,
  TRANSMISSION_DOCUMENT_COLUMNS,
  transmissionDocumentOf,
  type TTransmissionDocument,
  type TTransmissionDocumentRow,
} from './document-state.ts';
import { artifactInput, changeDocument } from './document-writes.ts';
import type { TEnqueueJob } from './job-executor.ts';
import { TRANSMISSION_EVENT_TYPES } from './transmission-records.ts';
import { transmissionChannelOf } from './transmission-rules.ts';

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
export type TSigningError = {
  code: TSigningErrorCode;
  message: string;
  retrying: boolean;
  details?: Record<string, unknown>;
};

export type TSignQueuedDocumentResult =
  | {
      outcome: 'signed';
      documentId: string;
      securityCode: string;
      qrUrl: string;
      signatureDate: Date;
      sha256: string;
      artifactId: string;
      /** The signed XML as stored, and the document as this step left it: the next step needs no read. */
      xml: string;
      document: TTransmissionDocument;
      /** The transmission claim recorded with the signature (`claimTransmission`). */
      claimed?: { attempt: number; channel: 'ecf' };
    }
  | { outcome: 'skipped'; documentId: string; reason: 'not_found' | 'not_queued'; status?: string }
  /** A certificate problem: the document stays queued; try again later (the job retries). */
  | { outcome: 'deferred'; documentId: string; error: TSigningError }
  /** Deterministic failure: the document stays queued; retrying does not help. */
  | { outcome: 'failed'; documentId: string; error: TSigningError };

/**
 * The e-CF tree to sign. Emission stores the validated tree in the document's `submitted` event
 * (`data.document`, read with the document): that exact tree is signed, so placeholders filled
 * with the submission date stay as the client was told. Documents without it (fixtures, older
 * rows) are validated again from `submittedPayload` with the submission time as "now"; its jsonb
 * text keeps the spelling of numbers (`1.10`), and a JSON string payload is taken as the body text itself.
 */
async function ecfTreeOf(
  database: TDatabase,
  document: TDocumentState,
  stored: unknown,
): Promise<{ success: true; tree: TEcfDocument } | { success: false; error: TSigningError }> {
  if (isEcfDocument(stored)) return { success: true, tree: stored };

  const tenant = await database.tenant.findUniqueOrThrow({ where: { id: document.tenantId } });
  const [payload] = await database.$queryRaw<{ text: string }[]>`
    SELECT CASE WHEN jsonb_typeof(submitted_payload) = 'string' THEN submitted_payload #>> '{}' ELSE submitted_payload::text END AS text
    FROM documents WHERE id = ${document.id}::uuid`;
  const validated = await validateSubmission(payload?.text ?? '', {
    now: document.submittedAt,
    account: accountDataOf(tenant),
  });
  if (validated.success) return { success: true, tree: validated.data.document };
  return {
    success: false,
    error: {
      code: 'SIGNING_PAYLOAD_INVALID',
      message: 'The stored submission no longer validates; it cannot be signed.',
      retrying: false,
      details: {
        errors: validated.errors.slice(0, 20).map(({ path, code, message }) => ({ path, code, message })),
      },
    },
  };
}

/** The document (with what transmission needs) and the tree its `submitted` event kept, in one round trip. */
async function loadQueuedDocument(
  database: TDatabase,
  documentId: string,
): Promise<{ document: TTransmissionDocument; stored: unknown } | undefined> {
  const row = await readQueuedRow(database, documentId);
  return row === undefined ? undefined : { document: transmissionDocumentOf(row), stored: row.stored };
}

const readQueuedRow = readByIdCoalesced<TTransmissionDocumentRow & { stored: unknown }>(
  `SELECT ${TRANSMISSION_DOCUMENT_COLUMNS},
     (SELECT e.data -> 'document' FROM document_events e WHERE e.document_id = d.id AND e.type = 'submitted' ORDER BY e.id LIMIT 1) AS stored
   FROM documents d JOIN tenants t ON t.id = d.tenant_id WHERE d.id = ANY($1::uuid[])`,
);

function isEcfDocument(value: unknown): value is TEcfDocument {
  const root = (value as { ECF?: unknown } | null | undefined)?.ECF;
  return typeof root === 'object' && root !== null && !Array.isArray(root);
}

function idDocOf(tree: TEcfDocument): { encf: unknown; type: unknown } {
  const idDoc = ((tree.ECF['Encabezado'] as TEcfTree | undefined)?.['IdDoc'] ?? {}) as TEcfTree;
  return { encf: idDoc['eNCF'], type: idDoc['TipoeCF'] };
}

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
    /**
     * The caller sends the document right after (the worker's signing job): the signature also
     * records the transmission claim (`attempts` + 1 and its `transmission_attempt` event), as
     * `transmitSignedDocument` would before sending; pass the result's `claimed` to it. Only for an
     * e-CF sent as such (an E32 below the threshold goes as its RFCE summary and claims itself).
     */
    claimTransmission?: boolean;
  },
): Promise<TSignQueuedDocumentResult> {
  const now = options.now ?? new Date();
  const loaded = await loadQueuedDocument(database, documentId);
  if (!loaded) return { outcome: 'skipped', documentId, reason: 'not_found' };
  const { document } = loaded;
  if (document.status !== 'queued_for_signing')
    return { outcome: 'skipped', documentId, reason: 'not_queued', status: document.status };

  const tree = await ecfTreeOf(database, document, loaded.stored);
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
    certificate = await loadActiveCertificate(
      database,
      document.tenantId,
      options.keyring,
      document.activeCertificate,
    );
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const code =
      error.code === 'CERTIFICATE_NOT_ACTIVE' ? 'CERTIFICATE_NOT_ACTIVE' : 'SIGNING_CERTIFICATE_UNAVAILABLE';
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
  if (!signatureDate.success)
    throw new Error(`signEcfDocument wrote an unreadable FechaHoraFirma for document ${document.id}`);
  const qrUrl = timbreUrlOf(tree.tree, signed.data, document.environment);
  const artifact = artifactInput({
    tenantId: document.tenantId,
    documentId: document.id,
    kind: 'signed_xml',
    contentType: 'application/xml',
    content: signed.data.xml,
  });
  const { sha256 } = artifact;
  const claim =
    options.claimTransmission === true && transmissionChannelOf(document) === 'ecf'
      ? { attempt: document.attempts + 1, channel: 'ecf' as const }
      : undefined;
  // The guard: only the run that moves the document out of the queue writes anything.
  const change = {
    documentId: document.id,
    from: ['queued_for_signing' as const],
    ...(claim === undefined ? {} : { attempts: document.attempts }),
    set: {
      status: 'signed' as const,
      security_code: signed.data.securityCode,
      qr_url: qrUrl,
      signature_date: signatureDate.data,
      last_error: null,
      ...(claim === undefined ? {} : { attempts: claim.attempt }),
    },
    artifacts: [artifact],
    events: [
      {
        type: 'signed',
        fromStatus: 'queued_for_signing' as const,
        toStatus: 'signed' as const,
        data: {
          artifactId: artifact.id,
          sha256,
          securityCode: signed.data.securityCode,
          signedAt: signed.data.signedAt,
          certificateSerialNumber: certificate.certificateSerialNumber,
        },
        at: now,
      },
      ...(claim === undefined
        ? []
        : [
            {
              type: TRANSMISSION_EVENT_TYPES.ATTEMPT,
              data: { attempt: claim.attempt, channel: claim.channel, at: now.toISOString() },
              at: now,
            },
          ]),
    ],
  };
  const enqueue = options.enqueue;
  const { moved } =
    enqueue === undefined
      ? await changeDocument(sqlPoolOf(database), change)
      : // The next step exists exactly when the signature commits: never a signed document without it.
        await inSqlTransaction(database, async (transaction) => {
          const result = await changeDocument(transaction, change);
          if (result.moved)
            await enqueue('document.transmit', { documentId: document.id }, jobExecutorOfSql(transaction));
          return result;
        });
  if (!moved) return { outcome: 'skipped', documentId: document.id, reason: 'not_queued' };
  const after: TTransmissionDocument = {
    ...document,
    status: 'signed',
    securityCode: signed.data.securityCode,
    qrUrl,
    signatureDate: signatureDate.data,
    lastError: null,
    attempts: claim?.attempt ?? document.attempts,
    updatedAt: new Date(),
  };
  return {
    outcome: 'signed',
    documentId: document.id,
    securityCode: signed.data.securityCode,
    qrUrl,
    signatureDate: signatureDate.data,
    sha256,
    artifactId: artifact.id,
    xml: signed.data.xml,
    document: after,
    ...(claim === undefined ? {} : { claimed: claim }),
  };
}

/**
 * Leaves the document queued with `lastError` and appends a `signing_deferred` or
 * `signing_failed` event, once per distinct code (retries of the same problem add nothing).
 */
async function recordFailure(
  database: TDatabase,
  document: TDocumentState,
  outcome: 'deferred' | 'failed',
  error: TSigningError,
): Promise<TSignQueuedDocumentResult> {
  await database.$transaction(async (transaction) => {
    const [current] = await transaction.$queryRaw<{ status: string; last_error: Prisma.JsonValue }[]>`
      SELECT status::text AS status, last_error FROM documents WHERE id = ${document.id}::uuid FOR UPDATE`;
    if (current?.status !== 'queued_for_signing') return;
    const previousCode = (current.last_error as { code?: unknown } | null)?.code;
    await transaction.document.update({
      where: { id: document.id },
      data: { lastError: error as unknown as Prisma.InputJsonValue },
    });
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
