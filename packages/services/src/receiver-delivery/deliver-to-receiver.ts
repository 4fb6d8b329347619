/**
 * Delivers an accepted e-CF to its buyer (FACTS §2, issuer flow IT §8): looks the buyer up in the
 * tax authority's directory of electronic receivers with the issuer's token, POSTs the stored
 * signed XML to `{urlRecepcion}/fe/recepcion/api/ecf` (multipart `xml`, `{RNCEmisor}{eNCF}.xml`,
 * real Content-Length), authenticating first at the receiver when the directory declares an
 * authentication host, and keeps the signed ARECF the buyer answers. Says what comes next; the job
 * handler only schedules it.
 *
 * Outcomes: a verified ARECF `Estado` 0 → `sent`, `Estado` 1 → `not_received` (its
 * `CodigoMotivoNoRecibido` kept); no answer, timeout, 408/429/5xx, an answer that is not a verified
 * ARECF of this document → `retry_scheduled` (1, 2, 4, 8, 16 minutes), and when the 5th retry
 * fails too → `uncertain` (never re-sent automatically; reconciled by the API). A definite refusal
 * (3xx, other 4xx without an ARECF, receiver authentication refused, unusable reception URL) →
 * `dispatch_failed`. Not an exchanged type, CerteCF (no directory there), or a buyer absent from the
 * directory → `not_applicable`. Every attempt and outcome is a document event.
 *
 * Never twice at once: the claim (`sending`, `attempts + 1`, lease in `nextAttemptAt`, attempt
 * event) is committed before the request leaves and guarded by the attempts count; a `sending`
 * delivery whose lease expired (crash) counts as a failed attempt of unknown outcome.
 */
import { sqlPoolOf, type Environment, type TDatabase } from '@ecf/db';
import type { TXsdValidators } from '@ecf/fiscal-core';
import {
  authenticationBaseOf,
  createReceiverClient,
  isTaxauthError,
  receptionUrlOf,
  type TReceiver,
  type TTaxauthClient,
} from '@ecf/taxauth-client';
import { resolveDocumentCertificate, type TCertificateSource } from '../accounts/index.ts';
import { changeDelivery, ensureReceiverDelivery, loadDeliveryDocument } from '../persistence/index.ts';
import { ACKNOWLEDGEMENT_MAX_BYTES } from './check-acknowledgement.ts';
import {
  defer,
  definiteFailure,
  notApplicable,
  settleFailedAttempt,
  type TDeliveryStep,
  type TReceiverDeliveryReport,
} from './delivery-outcomes.ts';
import {
  isDeliveredToReceiver,
  partiesOfSignedXml,
  RECEIVER_DELIVERY_EVENT_TYPES,
  RECEIVER_DELIVERY_FINAL_STATUSES,
} from './receiver-delivery-rules.ts';
import { sendToReceiver } from './send-to-receiver.ts';

/** Options of {@link deliverToReceiver}. */
export type TDeliverToReceiverOptions = TCertificateSource & {
  /** The tax authority client of an environment (directory look-up with the issuer's token). */
  clientFor: (environment: Environment) => TTaxauthClient;
  /** ARECF schema check of the answers. */
  xsdValidators: TXsdValidators;
  /** Clock; every stored time and schedule reads it. */
  now?: () => Date;
  /** HTTP client (tests); default the global fetch. */
  fetch?: typeof fetch;
  /** Per exchange with the receiver (connect, upload, whole answer); default 30 s. */
  timeoutMs?: number;
  /** How long a claimed attempt may still be running elsewhere; default: 4 timeouts (authentication + send) and a minute. */
  inFlightMs?: number;
};

const DEFAULT_TIMEOUT_MS = 30_000;
const DELIVERABLE_DOCUMENT_STATUSES = ['accepted', 'accepted_conditional'];

/** Runs one step of the delivery of `documentId`. Idempotent: final deliveries are left as they are. */
export async function deliverToReceiver(
  options: TDeliverToReceiverOptions & { database: TDatabase; documentId: string },
): Promise<TReceiverDeliveryReport> {
  const { database, documentId } = options;
  const now = options.now ?? (() => new Date());
  const document = await loadDeliveryDocument(database, documentId);
  if (!document) return { documentId, next: 'done', status: 'not_found', outcome: 'not_found' };
  if (!DELIVERABLE_DOCUMENT_STATUSES.includes(document.status))
    return { documentId, next: 'done', status: 'not_accepted', outcome: `document_${document.status}` };

  const delivery = document.delivery ?? (await ensureReceiverDelivery(database, document));
  const stepOf = (): TDeliveryStep => ({ database, document, delivery, at: now() });
  if ((RECEIVER_DELIVERY_FINAL_STATUSES as readonly string[]).includes(delivery.status)) {
    return { documentId, next: 'done', status: delivery.status, outcome: 'already_final' };
  }
  if (!isDeliveredToReceiver(document.type)) return notApplicable(stepOf(), 'type_not_exchanged');
  if (document.environment === 'CerteCF') return notApplicable(stepOf(), 'no_directory_in_certecf');

  const waitMs = (delivery.nextAttemptAt?.getTime() ?? 0) - now().getTime();
  if ((delivery.status === 'retry_scheduled' || delivery.status === 'sending') && waitMs > 0) {
    // Too early (a duplicate job), or an attempt that may still be running in another worker.
    return {
      documentId,
      next: 'retry',
      afterSeconds: Math.ceil(waitMs / 1000),
      status: delivery.status,
      outcome: delivery.status === 'sending' ? 'attempt_in_flight' : 'not_yet',
    };
  }
  if (delivery.status === 'sending') {
    // The lease of the last attempt expired without an outcome (the worker died): a failed attempt.
    return settleFailedAttempt(stepOf(), {
      outcome: 'unknown',
      reason: 'interrupted',
      message: 'The attempt ended without a recorded outcome.',
    });
  }

  if (document.signedXml === null)
    throw new Error(`document ${document.id} is ${document.status} but has no signed_xml artifact`);
  const parties = partiesOfSignedXml(document.signedXml, document);
  if (parties.rncComprador === '') return notApplicable(stepOf(), 'no_buyer_rnc');

  const resolved = await resolveDocumentCertificate({
    ...options,
    tenantId: document.tenantId,
    active: document.activeCertificate,
    step: 'deliverToReceiver',
  });
  if (!resolved.ok)
    return defer(stepOf(), {
      code: resolved.code,
      reason: 'certificate_not_active',
      message: resolved.message,
    });
  const { certificate } = resolved;

  let receiver: TReceiver;
  try {
    const taxpayer = options
      .clientFor(document.environment)
      .forTaxpayer({ cacheKey: document.tenantId, certificate });
    receiver = await taxpayer.getReceiver({ rnc: parties.rncComprador });
  } catch (error) {
    if (!isTaxauthError(error)) throw error;
    if (error.reason === 'not_found') return notApplicable(stepOf(), 'not_in_directory');
    const code = error.isTransient ? 'DIRECTORY_UNAVAILABLE' : 'DIRECTORY_TAXAUTH_AUTH_FAILED';
    return defer(stepOf(), {
      code,
      reason: error.reason,
      message: error.message,
      ...(error.status === undefined ? {} : { httpStatus: error.status }),
    });
  }
  if (receiver.urlRecepcion === undefined || receiver.urlRecepcion.trim() === '')
    return notApplicable(stepOf(), 'no_reception_url');
  const receptionUrl = receptionUrlOf(receiver.urlRecepcion);
  if (receptionUrl === undefined) {
    return definiteFailure(stepOf(), {
      code: 'RECEIVER_URL_INVALID',
      reason: 'url_invalid',
      message: `The directory's reception URL is not usable: ${receiver.urlRecepcion}`,
    });
  }
  const authenticationUrl =
    receiver.urlOpcional === undefined || receiver.urlOpcional.trim() === ''
      ? undefined
      : authenticationBaseOf(receiver.urlOpcional);

  // The claim, committed before the e-CF leaves.
  const attempt = delivery.attempts + 1;
  const claimedAt = now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const leaseMs = options.inFlightMs ?? timeoutMs * 4 + 60_000;
  const claimed = await changeDelivery(sqlPoolOf(database), {
    documentId,
    from: { status: delivery.status, attempts: delivery.attempts },
    set: {
      status: 'sending',
      attempts: attempt,
      target_url: receptionUrl.toString(),
      next_attempt_at: new Date(claimedAt.getTime() + leaseMs),
    },
    events: [
      {
        type: RECEIVER_DELIVERY_EVENT_TYPES.ATTEMPT,
        data: {
          attempt,
          targetUrl: receptionUrl.toString(),
          authenticated: authenticationUrl !== undefined,
          at: claimedAt.toISOString(),
        },
        at: claimedAt,
      },
    ],
  });
  if (!claimed)
    return { documentId, next: 'retry', afterSeconds: 1, status: delivery.status, outcome: 'claim_lost' };

  return sendToReceiver({
    database,
    document,
    delivery: { ...delivery, status: 'sending', attempts: attempt },
    parties,
    receiver: createReceiverClient({
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      timeoutMs,
      maxAnswerBytes: ACKNOWLEDGEMENT_MAX_BYTES,
    }),
    receptionUrl,
    authenticationUrl,
    certificate,
    xsdValidators: options.xsdValidators,
    now,
  });
}
