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
import { sqlPoolOf, type TDatabase, type TEnqueue } from '@ecf/db';
import {
  parseSignatureDateTime,
  signEcfDocument,
  timbreUrlOf,
  type TSigningCertificate,
  type TXsdDocumentKind,
  type TXsdValidators,
} from '@ecf/fiscal-core';
import { loadActiveCertificate, type TCertificateKeyring } from '../accounts/index.ts';
import {
  artifactInput,
  changeDocument,
  loadQueuedDocument,
  RESERVED_ENCF_SQLSTATE,
  reservingAnnulmentOf,
  type TDocumentState,
  type TTransmissionDocument,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { TRANSMISSION_EVENT_TYPES, transmissionChannelOf } from '../transmission/index.ts';
import type { TSigningError, TSignQueuedDocumentResult } from './signing-results.ts';
import { ecfTreeOf, idDocOf } from './stored-ecf-tree.ts';

/**
 * Signs one `queued_for_signing` document; anything else is left as it is (idempotent). `now` is
 * the signing time (`FechaHoraFirma` unless the client sent `signatureDate`). With `xsdValidators`
 * the signed XML is checked against the official schema before it is stored.
 */
export async function signQueuedDocument(options: {
  database: TDatabase;
  documentId: string;
  keyring: TCertificateKeyring;
  now?: Date;
  xsdValidators?: TXsdValidators;
  /** Enqueues `document.transmit` in the signing transaction (the worker passes pg-boss). */
  enqueue?: TEnqueue;
  /**
   * The caller sends the document right after (the worker's signing job): the signature also
   * records the transmission claim (`attempts` + 1 and its `transmission_attempt` event), as
   * `transmitSignedDocument` would before sending; pass the result's `claimed` to it. Only for an
   * e-CF sent as such (an E32 below the threshold goes as its RFCE summary and claims itself).
   */
  claimTransmission?: boolean;
  /** The worker process's lease, recorded on the claimed attempt (see `TTransmissionOptions.workerInstanceId`). */
  workerInstanceId?: string;
}): Promise<TSignQueuedDocumentResult> {
  const { database, documentId } = options;
  const now = options.now ?? new Date();
  const loaded = await loadQueuedDocument(database, documentId);
  if (!loaded) return { outcome: 'skipped', documentId, reason: 'not_found' };
  const { document } = loaded;
  if (document.status !== 'queued_for_signing')
    return { outcome: 'skipped', documentId, reason: 'not_queued', status: document.status };

  const tree = await ecfTreeOf(database, document, loaded.stored);
  if (!tree.success) return recordFailure(database, document, now, 'failed', tree.error);
  const identity = idDocOf(tree.tree);
  if (identity.encf !== document.encf || Number(identity.type) !== document.type) {
    return recordFailure(database, document, now, 'failed', {
      code: 'SIGNING_PAYLOAD_INVALID',
      message: `The stored e-CF is ${String(identity.encf)}, not the document's ${document.encf}.`,
      retrying: false,
    });
  }

  let certificate: TSigningCertificate;
  try {
    certificate = await loadActiveCertificate({
      database,
      tenantId: document.tenantId,
      keyring: options.keyring,
      active: document.activeCertificate,
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const code =
      error.code === 'CERTIFICATE_NOT_ACTIVE' ? 'CERTIFICATE_NOT_ACTIVE' : 'SIGNING_CERTIFICATE_UNAVAILABLE';
    const message =
      code === 'CERTIFICATE_NOT_ACTIVE'
        ? 'The account has no active signing certificate; the document is signed as soon as one is installed.'
        : 'The signing certificate cannot be used right now (service configuration); signing is retried.';
    return recordFailure(database, document, now, 'deferred', { code, message, retrying: true });
  }
  if (certificate.validTo.getTime() < now.getTime() || certificate.validFrom.getTime() > now.getTime()) {
    const expired = certificate.validTo.getTime() < now.getTime();
    return recordFailure(database, document, now, 'deferred', {
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
    return recordFailure(database, document, now, 'failed', {
      code: 'SIGNING_XML_INVALID',
      message: 'The e-CF could not be written as XML.',
      retrying: false,
      details: { issues: signed.issues.slice(0, 20) },
    });
  }
  if (options.xsdValidators) {
    // The kind is known (checked against the stored tree above): no look-up of TipoeCF in the parse.
    const checked = options.xsdValidators.validateXml(
      signed.data.xml,
      `ECF${document.type}` as TXsdDocumentKind,
    );
    if (!checked.success) {
      return recordFailure(database, document, now, 'failed', {
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
  const claimWanted =
    options.claimTransmission === true && transmissionChannelOf(document) === 'ecf'
      ? { attempt: document.attempts + 1, channel: 'ecf' as const }
      : undefined;
  // The guard: only the run that moves the document out of the queue writes anything.
  const changeOf = (claim: typeof claimWanted) => ({
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
              data: {
                attempt: claim.attempt,
                channel: claim.channel,
                at: now.toISOString(),
                ...(options.workerInstanceId === undefined ? {} : { worker: options.workerInstanceId }),
              },
              at: now,
            },
          ]),
    ],
  });
  // With `enqueue`, the next step exists exactly when the signature commits: never a signed document without it.
  const write = (claim: typeof claimWanted) =>
    changeDocument(sqlPoolOf(database), {
      ...changeOf(claim),
      ...(options.enqueue === undefined
        ? {}
        : {
            followUp: {
              jobs: [{ name: 'document.transmit' as const, payload: { documentId: document.id } }],
              enqueue: options.enqueue,
            },
          }),
    });
  let claim = claimWanted;
  let moved: boolean;
  try {
    ({ moved } = await write(claim));
  } catch (error) {
    // An annulment holds the eNCF's range (migration 0013's send-claim trigger): signed without
    // the claim; the transmit step waits for the annulment's answer.
    if (claim === undefined || reservingAnnulmentOf(error, RESERVED_ENCF_SQLSTATE.sendClaim) === null)
      throw error;
    claim = undefined;
    ({ moved } = await write(claim));
  }
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
  at: Date,
  outcome: 'deferred' | 'failed',
  error: TSigningError,
): Promise<TSignQueuedDocumentResult> {
  await changeDocument(sqlPoolOf(database), {
    documentId: document.id,
    from: ['queued_for_signing'],
    set: { last_error: error },
    eventsUnlessLastErrorCode: error.code,
    events: [
      {
        type: outcome === 'deferred' ? 'signing_deferred' : 'signing_failed',
        data: { code: error.code, message: error.message, retrying: error.retrying },
        at,
      },
    ],
  });
  return { outcome, documentId: document.id, error };
}
