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
import { Prisma, sqlPoolOf, type Document, type TDatabase } from '@ecf/db';
import { signForeignXml, type TSigningCertificate, type TXsdValidators } from '@ecf/fiscal-core';
import { buildXmlMultipart, isTaxauthError, type TReceiver, type TTaxauthClient } from '@ecf/taxauth-client';
import { loadActiveCertificate, type TCertificateKeyring } from './certificate-store.ts';
import { AppError } from './errors.ts';
import {
  ACKNOWLEDGEMENT_MAX_BYTES,
  checkAcknowledgement,
  type TVerifiedAcknowledgement,
} from './receiver-acknowledgement.ts';
import {
  authenticationBaseOf,
  directoryRetryWaitSeconds,
  isDeliveredToReceiver,
  partiesOfSignedXml,
  RECEIVER_DELIVERY_EVENT_TYPES,
  RECEIVER_DELIVERY_FINAL_STATUSES,
  RECEIVER_DELIVERY_MAX_ATTEMPTS,
  receiverRetryWaitSeconds,
  receptionUrlOf,
  storeAcknowledgement,
} from './receiver-delivery-records.ts';
import {
  readByIdCoalesced,
  TRANSMISSION_DOCUMENT_COLUMNS,
  transmissionDocumentOf,
  type TTransmissionDocument,
  type TTransmissionDocumentRow,
} from './document-state.ts';
import { changeDelivery } from './document-writes.ts';
import { appendEvent } from './transmission-records.ts';

type TTransaction = Prisma.TransactionClient;
/** What a step reads of the delivery row. */
type ReceiverDelivery = Pick<
  Prisma.ReceiverDeliveryModel,
  'status' | 'attempts' | 'nextAttemptAt' | 'lastError'
>;
type TDeliveryStatus = ReceiverDelivery['status'];

/** Options of {@link deliverToReceiver}. */
export type TDeliverToReceiverOptions = {
  /** The tax authority client of an environment (directory look-up with the issuer's token). */
  clientFor: (environment: Document['environment']) => TTaxauthClient;
  /** Master keys to open the tenant's certificate with. */
  keyring?: TCertificateKeyring;
  /** Overrides how the tenant's certificate is obtained (tests). */
  loadCertificate?: (tenantId: string) => Promise<TSigningCertificate>;
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

/** What the caller should do next (`afterSeconds` from now). */
export type TReceiverDeliveryReport =
  | {
      documentId: string;
      next: 'done';
      status: TDeliveryStatus | 'not_found' | 'not_accepted' | 'moved_elsewhere';
      outcome: string;
    }
  | { documentId: string; next: 'retry'; afterSeconds: number; status: TDeliveryStatus; outcome: string };

const DEFAULT_TIMEOUT_MS = 30_000;
/** At most this much of a refusal's body is kept in `lastError` (spec: 4 KB for ACECF dispatch). */
const KEPT_BODY_BYTES = 4096;
const DELIVERABLE_DOCUMENT_STATUSES: ReadonlyArray<Document['status']> = ['accepted', 'accepted_conditional'];

type TLoaded = TTransmissionDocument & { delivery: ReceiverDelivery | null; signedXml: string | null };

/** The document, its account's RNC and certificate, its delivery row and its signed XML, in one round trip. */
async function loadDelivery(database: TDatabase, documentId: string): Promise<TLoaded | undefined> {
  const row = await readDeliveryRow(database, documentId);
  if (row === undefined) return undefined;
  const delivery =
    row.delivery_status === null
      ? null
      : {
          status: row.delivery_status,
          attempts: row.delivery_attempts ?? 0,
          nextAttemptAt: row.delivery_next_attempt_at,
          lastError: row.delivery_last_error,
        };
  return { ...transmissionDocumentOf(row), delivery, signedXml: row.signed_xml };
}

const readDeliveryRow = readByIdCoalesced<
  TTransmissionDocumentRow & {
    delivery_status: TDeliveryStatus | null;
    delivery_attempts: number | null;
    delivery_next_attempt_at: Date | null;
    delivery_last_error: Prisma.JsonValue | null;
    signed_xml: string | null;
  }
>(
  `SELECT ${TRANSMISSION_DOCUMENT_COLUMNS}, r.status::text AS delivery_status, r.attempts AS delivery_attempts,
     r.next_attempt_at AS delivery_next_attempt_at, r.last_error AS delivery_last_error,
     (SELECT convert_from(a.content, 'UTF8') FROM artifacts a WHERE a.document_id = d.id AND a.kind = 'signed_xml' ORDER BY a.created_at DESC LIMIT 1) AS signed_xml
   FROM documents d JOIN tenants t ON t.id = d.tenant_id LEFT JOIN receiver_deliveries r ON r.document_id = d.id
   WHERE d.id = ANY($1::uuid[])`,
);

/** Runs one step of the delivery of `documentId`. Idempotent: final deliveries are left as they are. */
export async function deliverToReceiver(
  database: TDatabase,
  documentId: string,
  options: TDeliverToReceiverOptions,
): Promise<TReceiverDeliveryReport> {
  const now = options.now ?? (() => new Date());
  const document = await loadDelivery(database, documentId);
  if (!document) return { documentId, next: 'done', status: 'not_found', outcome: 'not_found' };
  if (!DELIVERABLE_DOCUMENT_STATUSES.includes(document.status))
    return { documentId, next: 'done', status: 'not_accepted', outcome: `document_${document.status}` };

  const delivery = document.delivery ?? (await ensureDelivery(database, document));
  if ((RECEIVER_DELIVERY_FINAL_STATUSES as readonly string[]).includes(delivery.status)) {
    return { documentId, next: 'done', status: delivery.status, outcome: 'already_final' };
  }
  if (!isDeliveredToReceiver(document.type))
    return notApplicable(database, document, delivery, 'type_not_exchanged', now());
  if (document.environment === 'CerteCF')
    return notApplicable(database, document, delivery, 'no_directory_in_certecf', now());

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
    return settleFailedAttempt(
      database,
      document,
      delivery,
      { outcome: 'unknown', reason: 'interrupted', message: 'The attempt ended without a recorded outcome.' },
      now(),
    );
  }

  if (document.signedXml === null)
    throw new Error(`document ${document.id} is ${document.status} but has no signed_xml artifact`);
  const parties = partiesOfSignedXml(document.signedXml, document);
  if (parties.rncComprador === '') return notApplicable(database, document, delivery, 'no_buyer_rnc', now());

  let certificate: TSigningCertificate;
  try {
    certificate = options.loadCertificate
      ? await options.loadCertificate(document.tenantId)
      : await loadActiveCertificate(
          database,
          document.tenantId,
          requireKeyring(options),
          document.activeCertificate,
        );
  } catch (error) {
    if (error instanceof AppError && error.code === 'CERTIFICATE_NOT_ACTIVE')
      return defer(
        database,
        document,
        delivery,
        { code: 'CERTIFICATE_NOT_ACTIVE', reason: 'certificate_not_active', message: error.message },
        now(),
      );
    throw error;
  }

  let receiver: TReceiver;
  try {
    const taxpayer = options
      .clientFor(document.environment)
      .forTaxpayer({ cacheKey: document.tenantId, certificate });
    receiver = await taxpayer.getReceiver({ rnc: parties.rncComprador });
  } catch (error) {
    if (!isTaxauthError(error)) throw error;
    if (error.reason === 'not_found')
      return notApplicable(database, document, delivery, 'not_in_directory', now());
    const code = error.isTransient ? 'DIRECTORY_UNAVAILABLE' : 'DIRECTORY_TAXAUTH_AUTH_FAILED';
    return defer(
      database,
      document,
      delivery,
      {
        code,
        reason: error.reason,
        message: error.message,
        ...(error.status === undefined ? {} : { httpStatus: error.status }),
      },
      now(),
    );
  }
  const receptionUrl =
    receiver.urlRecepcion === undefined || receiver.urlRecepcion.trim() === ''
      ? undefined
      : receptionUrlOf(receiver.urlRecepcion);
  if (receiver.urlRecepcion === undefined || receiver.urlRecepcion.trim() === '')
    return notApplicable(database, document, delivery, 'no_reception_url', now());
  if (receptionUrl === undefined) {
    return definiteFailure(
      database,
      document,
      delivery,
      undefined,
      {
        code: 'RECEIVER_URL_INVALID',
        reason: 'url_invalid',
        message: `The directory's reception URL is not usable: ${receiver.urlRecepcion}`,
      },
      now(),
    );
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
  const current: ReceiverDelivery = { ...delivery, status: 'sending', attempts: attempt };
  const http = { fetch: options.fetch ?? fetch, timeoutMs };

  let token: string | undefined;
  if (authenticationUrl !== undefined) {
    const authenticated = await authenticateAtReceiver(authenticationUrl, certificate, http);
    if (!authenticated.ok) {
      if (authenticated.transient)
        return settleFailedAttempt(
          database,
          document,
          current,
          { outcome: 'failed', ...authenticated.failure },
          now(),
        );
      return definiteFailure(
        database,
        document,
        current,
        attempt,
        { code: 'RECEIVER_AUTHENTICATION_FAILED', ...authenticated.failure },
        now(),
      );
    }
    token = authenticated.token;
  }

  const multipart = buildXmlMultipart(parties.xml, `${parties.rncEmisor}${parties.encf}.xml`);
  const headers: Record<string, string> = {
    'content-type': multipart.contentType,
    'content-length': multipart.contentLength,
    accept: 'application/xml',
  };
  if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
  const answer = await exchange(http, receptionUrl, { method: 'POST', headers, body: multipart.body });
  if (!answer.ok)
    return settleFailedAttempt(
      database,
      document,
      current,
      { outcome: 'unknown', reason: answer.reason, message: answer.message },
      now(),
    );
  const { status, body } = answer;
  if (status === 408 || status === 429 || status >= 500) {
    return settleFailedAttempt(
      database,
      document,
      current,
      {
        outcome: 'failed',
        reason: `http_${status}`,
        httpStatus: status,
        message: `The receiver answered HTTP ${status}.`,
        body: excerpt(body),
      },
      now(),
    );
  }
  const checked =
    status >= 200 && status < 500
      ? checkAcknowledgement(body, parties, { xsdValidators: options.xsdValidators, now: now() })
      : undefined;
  if (checked?.success === true)
    return acknowledge(database, document, current, body, checked.data, status, now());
  if (status >= 200 && status < 300) {
    const problem =
      checked === undefined
        ? { reason: 'invalid_answer', message: 'No ARECF in the answer.' }
        : { reason: `arecf_${checked.reason}`, message: checked.message };
    return settleFailedAttempt(
      database,
      document,
      current,
      { outcome: 'invalid_answer', ...problem, httpStatus: status, body: excerpt(body) },
      now(),
    );
  }
  return definiteFailure(
    database,
    document,
    current,
    attempt,
    {
      code: 'RECEIVER_REFUSED',
      reason: `http_${status}`,
      httpStatus: status,
      message: `The receiver refused the e-CF with HTTP ${status}${checked?.success === false ? ` (${checked.reason})` : ''}.`,
      body: excerpt(body),
    },
    now(),
  );
}

// ---------------------------------------------------------------------------------------------
// Reading what is sent

async function ensureDelivery(database: TDatabase, document: TLoaded): Promise<ReceiverDelivery> {
  await database.receiverDelivery.createMany({
    data: [{ documentId: document.id, tenantId: document.tenantId, status: 'pending' }],
    skipDuplicates: true,
  });
  return database.receiverDelivery.findUniqueOrThrow({
    where: { documentId: document.id },
    select: { status: true, attempts: true, nextAttemptAt: true, lastError: true },
  });
}

function requireKeyring(options: TDeliverToReceiverOptions): TCertificateKeyring {
  if (!options.keyring) throw new TypeError('deliverToReceiver: give keyring or loadCertificate');
  return options.keyring;
}

// ---------------------------------------------------------------------------------------------
// HTTP with the receiver

type THttp = { fetch: typeof fetch; timeoutMs: number };
type TExchange =
  | { ok: true; status: number; body: string }
  | { ok: false; reason: 'timeout' | 'connection' | 'answer_too_large'; message: string };

async function exchange(
  http: THttp,
  url: URL,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: Buffer },
): Promise<TExchange> {
  const signal = AbortSignal.timeout(http.timeoutMs);
  try {
    const response = await http.fetch(url, {
      method: init.method,
      headers: init.headers,
      signal,
      redirect: 'manual',
      ...(init.body === undefined ? {} : { body: init.body }),
    });
    const body = await readLimited(response);
    if (body === undefined)
      return {
        ok: false,
        reason: 'answer_too_large',
        message: `The answer exceeds ${ACKNOWLEDGEMENT_MAX_BYTES} bytes.`,
      };
    return { ok: true, status: response.status, body };
  } catch (error) {
    if (signal.aborted)
      return { ok: false, reason: 'timeout', message: `No answer within ${http.timeoutMs} ms.` };
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const code =
      typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined;
    return {
      ok: false,
      reason: 'connection',
      message: `${init.method} ${url.host}${url.pathname} failed${code === undefined ? '' : ` (${code})`}.`,
    };
  }
}

/** The body as text, or undefined past the size limit (read in chunks: a huge answer is not buffered). */
async function readLimited(response: Response): Promise<string | undefined> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = (await reader.read()) as { done: boolean; value?: Uint8Array };
    if (done || value === undefined) break;
    size += value.byteLength;
    if (size > ACKNOWLEDGEMENT_MAX_BYTES) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

type TFailure = { reason: string; message: string; httpStatus?: number; body?: string };
type TAuthentication = { ok: true; token: string } | { ok: false; transient: boolean; failure: TFailure };

/** Seed from `{base}/semilla`, signed with the issuer's certificate, validated at `{base}/validacioncertificado` (FACTS §2). */
async function authenticateAtReceiver(
  base: URL,
  certificate: TSigningCertificate,
  http: THttp,
): Promise<TAuthentication> {
  const seedAnswer = await exchange(http, new URL(`${base.pathname}/semilla`, base), {
    method: 'GET',
    headers: { accept: 'application/xml' },
  });
  const seed = authenticationStep(seedAnswer, 'seed');
  if (!seed.ok) return seed;
  const signed = signForeignXml(seed.body, certificate);
  if (!signed.success)
    return {
      ok: false,
      transient: true,
      failure: {
        reason: 'seed_malformed',
        message: signed.issues
          .map((issue) => issue.message)
          .join('; ')
          .slice(0, 300),
      },
    };
  const multipart = buildXmlMultipart(signed.data.xml, 'semilla.xml');
  const validation = authenticationStep(
    await exchange(http, new URL(`${base.pathname}/validacioncertificado`, base), {
      method: 'POST',
      headers: {
        'content-type': multipart.contentType,
        'content-length': multipart.contentLength,
        accept: 'application/json',
      },
      body: multipart.body,
    }),
    'validation',
  );
  if (!validation.ok) return validation;
  const token = tokenOf(validation.body);
  if (token === undefined)
    return {
      ok: false,
      transient: true,
      failure: {
        reason: 'token_malformed',
        message: 'The receiver answered its certificate validation without a token.',
      },
    };
  return { ok: true, token };
}

function authenticationStep(
  answer: TExchange,
  step: 'seed' | 'validation',
): { ok: true; body: string } | { ok: false; transient: boolean; failure: TFailure } {
  if (!answer.ok)
    return {
      ok: false,
      transient: true,
      failure: { reason: `authentication_${answer.reason}`, message: answer.message },
    };
  const { status, body } = answer;
  if (status >= 200 && status < 300) return { ok: true, body };
  const failure = {
    reason: `authentication_${step}_http_${status}`,
    httpStatus: status,
    message: `The receiver's authentication (${step}) answered HTTP ${status}.`,
    body: excerpt(body),
  };
  return { ok: false, transient: status === 408 || status === 429 || status >= 500, failure };
}

function tokenOf(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null) {
      const entry = Object.entries(parsed).find(([name]) => name.toLowerCase() === 'token');
      if (typeof entry?.[1] === 'string' && entry[1] !== '') return entry[1];
    }
  } catch {
    // An XML answer (Accept is only a preference).
  }
  const match = /<token>([^<]+)<\/token>/i.exec(body);
  return match?.[1]?.trim() || undefined;
}

function excerpt(body: string): string {
  const bytes = Buffer.from(body, 'utf8');
  return bytes.length <= KEPT_BODY_BYTES ? body : bytes.subarray(0, KEPT_BODY_BYTES).toString('utf8');
}

// ---------------------------------------------------------------------------------------------
// Writing outcomes: guarded updates, each with its event, in one transaction

async function notApplicable(
  database: TDatabase,
  document: TLoaded,
  delivery: ReceiverDelivery,
  reason: string,
  at: Date,
): Promise<TReceiverDeliveryReport> {
  const moved = await changeDelivery(sqlPoolOf(database), {
    documentId: document.id,
    from: { status: delivery.status, attempts: delivery.attempts },
    set: {
      status: 'not_applicable',
      next_attempt_at: null,
      last_error: { code: 'RECEIVER_DELIVERY_NOT_APPLICABLE', reason },
    },
    events: [
      { type: RECEIVER_DELIVERY_EVENT_TYPES.NOT_APPLICABLE, data: { reason, at: at.toISOString() }, at },
    ],
  });
  return moved
    ? { documentId: document.id, next: 'done', status: 'not_applicable', outcome: reason }
    : movedElsewhere(document.id);
}

/** Nothing was sent (directory or certificate not usable): look again later, no attempt counted. */
async function defer(
  database: TDatabase,
  document: TLoaded,
  delivery: ReceiverDelivery,
  problem: TFailure & { code: string },
  at: Date,
): Promise<TReceiverDeliveryReport> {
  const previous = delivery.lastError as { code?: unknown; failures?: unknown } | null;
  const failures =
    (previous?.code === problem.code && typeof previous.failures === 'number' ? previous.failures : 0) + 1;
  const afterSeconds = directoryRetryWaitSeconds(failures);
  const nextAttemptAt = new Date(at.getTime() + afterSeconds * 1000);
  const status: TDeliveryStatus =
    delivery.attempts > 0
      ? 'retry_scheduled'
      : delivery.status === 'retry_scheduled'
        ? 'retry_scheduled'
        : 'pending';
  const lastError = { ...problem, failures, retrying: true, nextAttemptAt: nextAttemptAt.toISOString() };
  const moved = await database.$transaction(async (transaction) => {
    const updated = await transaction.receiverDelivery.updateMany({
      where: { documentId: document.id, status: delivery.status, attempts: delivery.attempts },
      data: { status, nextAttemptAt, lastError },
    });
    if (updated.count === 0) return false;
    await appendEvent(transaction, document, {
      type: RECEIVER_DELIVERY_EVENT_TYPES.DEFERRED,
      data: { ...lastError, at: at.toISOString() },
      at,
    });
    return true;
  });
  return moved
    ? { documentId: document.id, next: 'retry', afterSeconds, status, outcome: `deferred_${problem.reason}` }
    : movedElsewhere(document.id);
}

/** A failed attempt: retried on the schedule, or `uncertain` once the retries are used up. */
async function settleFailedAttempt(
  database: TDatabase,
  document: TLoaded,
  delivery: ReceiverDelivery,
  failure: TFailure & { outcome: 'failed' | 'unknown' | 'invalid_answer' },
  at: Date,
): Promise<TReceiverDeliveryReport> {
  const attempt = delivery.attempts;
  const exhausted = attempt >= RECEIVER_DELIVERY_MAX_ATTEMPTS;
  const afterSeconds = receiverRetryWaitSeconds(attempt);
  const nextAttemptAt = exhausted ? null : new Date(at.getTime() + afterSeconds * 1000);
  const status: TDeliveryStatus = exhausted ? 'uncertain' : 'retry_scheduled';
  const { outcome, ...problem } = failure;
  const lastError = {
    code: exhausted ? 'RECEIVER_DELIVERY_UNCERTAIN' : 'RECEIVER_UNAVAILABLE',
    ...problem,
    attempts: attempt,
    retrying: !exhausted,
    ...(nextAttemptAt === null ? {} : { nextAttemptAt: nextAttemptAt.toISOString() }),
  };
  const moved = await database.$transaction(async (transaction) => {
    const updated = await transaction.receiverDelivery.updateMany({
      where: { documentId: document.id, status: 'sending', attempts: attempt },
      data: { status, nextAttemptAt, lastError },
    });
    if (updated.count === 0) return false;
    await appendOutcome(
      transaction,
      document,
      {
        attempt,
        outcome,
        status,
        ...problem,
        ...(nextAttemptAt === null ? {} : { nextAttemptAt: nextAttemptAt.toISOString() }),
      },
      at,
    );
    return true;
  });
  if (!moved) return movedElsewhere(document.id);
  return exhausted
    ? { documentId: document.id, next: 'done', status, outcome: 'uncertain' }
    : { documentId: document.id, next: 'retry', afterSeconds, status, outcome };
}

/** A definite refusal: `dispatch_failed`, not retried. `attempt` undefined: nothing was sent. */
async function definiteFailure(
  database: TDatabase,
  document: TLoaded,
  delivery: ReceiverDelivery,
  attempt: number | undefined,
  problem: TFailure & { code: string },
  at: Date,
): Promise<TReceiverDeliveryReport> {
  const moved = await database.$transaction(async (transaction) => {
    const updated = await transaction.receiverDelivery.updateMany({
      where: { documentId: document.id, status: delivery.status, attempts: delivery.attempts },
      data: { status: 'dispatch_failed', nextAttemptAt: null, lastError: { ...problem, retrying: false } },
    });
    if (updated.count === 0) return false;
    await appendOutcome(
      transaction,
      document,
      { attempt: attempt ?? null, outcome: 'refused', status: 'dispatch_failed', ...problem },
      at,
    );
    return true;
  });
  return moved
    ? { documentId: document.id, next: 'done', status: 'dispatch_failed', outcome: problem.code }
    : movedElsewhere(document.id);
}

/** A verified ARECF: stored, and the delivery is `sent` (Estado 0) or `not_received` (Estado 1). */
async function acknowledge(
  database: TDatabase,
  document: TLoaded,
  delivery: ReceiverDelivery,
  xml: string,
  acknowledgement: TVerifiedAcknowledgement,
  httpStatus: number,
  at: Date,
): Promise<TReceiverDeliveryReport> {
  const status: TDeliveryStatus = acknowledgement.received ? 'sent' : 'not_received';
  const attempt = delivery.attempts;
  const moved = await database
    .$transaction(async (transaction) => {
      const artifact = await storeAcknowledgement(transaction, document, xml, at);
      const updated = await transaction.receiverDelivery.updateMany({
        where: { documentId: document.id, status: 'sending', attempts: attempt },
        data: {
          status,
          nextAttemptAt: null,
          arecfArtifactId: artifact.id,
          lastError: acknowledgement.received
            ? Prisma.DbNull
            : {
                code: 'RECEIVER_NOT_RECEIVED',
                reason: 'not_received',
                codigoMotivoNoRecibido: acknowledgement.notReceivedReason,
                message: `The buyer acknowledged the e-CF as not received (CodigoMotivoNoRecibido ${acknowledgement.notReceivedReason ?? '?'}).`,
              },
        },
      });
      if (updated.count === 0) throw new MovedElsewhere();
      await appendOutcome(
        transaction,
        document,
        {
          attempt,
          outcome: acknowledgement.received ? 'received' : 'not_received',
          status,
          httpStatus,
          artifactId: artifact.id,
          estado: acknowledgement.estado,
          codigoMotivoNoRecibido: acknowledgement.notReceivedReason,
          acknowledgedAt: acknowledgement.acknowledgedAt,
          signer: acknowledgement.signer,
        },
        at,
      );
      return true;
    })
    .catch((error: unknown) => {
      // The artifact insert rolls back with the lost race.
      if (error instanceof MovedElsewhere) return false;
      throw error;
    });
  return moved
    ? {
        documentId: document.id,
        next: 'done',
        status,
        outcome: acknowledgement.received ? 'received' : 'not_received',
      }
    : movedElsewhere(document.id);
}

class MovedElsewhere extends Error {}

async function appendOutcome(
  transaction: TTransaction,
  document: TLoaded,
  data: Record<string, unknown>,
  at: Date,
): Promise<void> {
  await appendEvent(transaction, document, {
    type: RECEIVER_DELIVERY_EVENT_TYPES.OUTCOME,
    data: { ...data, at: at.toISOString() },
    at,
  });
}

function movedElsewhere(documentId: string): TReceiverDeliveryReport {
  return { documentId, next: 'done', status: 'moved_elsewhere', outcome: 'moved_elsewhere' };
}
