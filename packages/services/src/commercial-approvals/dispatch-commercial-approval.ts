/**
 * One dispatch attempt of a signed commercial approval (ACECF) to the issuer's `urlAceptacion`
 * (`{url}/fe/aprobacioncomercial/api/ecf`, multipart `xml`, file `{RNCComprador}{eNCF}.xml`),
 * authenticating first with the issuer's seed flow when its directory entry declared `urlOpcional`
 * (the receiver protocol of `createReceiverClient`, the same the e-CF delivery speaks).
 *
 * Outcomes (spec "States and transitions", ACECF rows):
 * - 2xx → `sent`.
 * - Transient (408, 429, 5xx, a connection that was never made, a transient authentication failure)
 *   → `retry_scheduled` with `nextAttemptAt` (`dispatchRetryWaitSeconds`); the 5th failed attempt → `dispatch_failed`.
 * - Authentication refused (the seed flow refused, or 401/403 on the POST), any other 3xx/4xx →
 *   `dispatch_failed` (definite; repeating the same decision resends).
 * - The POST may have arrived but no answer came (timeout, connection reset, an unreadable answer),
 *   or a claimed attempt whose lease lapsed (the worker died mid-POST) → `uncertain`: never retried,
 *   reconciled with `.../aprobacion-comercial/reconciliar`.
 *
 * Never twice at once: the claim (`sending`, `attempts + 1`, a lease in `nextAttemptAt`) is a
 * guarded update committed before the ACECF leaves; a second runner finds `sending` and waits for
 * the lease. The issuer's answer is kept as at most 4 KB of its body, never its headers.
 */
import type { ReceiverDeliveryStatus, TDatabase } from '@ecf/db';
import { createReceiverClient, type TReceiverExchange } from '@ecf/taxauth-client';
import { resolveDocumentCertificate, type TCertificateSource } from '../accounts/index.ts';
import {
  changeCommercialApproval,
  loadCommercialApprovalForDispatch,
  type TCommercialApprovalRow,
} from '../persistence/index.ts';
import {
  DISPATCH_MAX_ANSWER_BYTES,
  DISPATCH_MAX_ATTEMPTS,
  dispatchRetryWaitSeconds,
  keptBodyOf,
} from './commercial-approval-rules.ts';

/** Statuses a dispatch never leaves by itself. */
const DISPATCH_FINAL_STATUSES: readonly ReceiverDeliveryStatus[] = [
  'sent',
  'dispatch_failed',
  'uncertain',
  'not_applicable',
  'not_received',
];

/** The issuer's answer as kept in `last_response`: at most 4 KB of its body, never its headers. */
type TDispatchResponse = {
  httpStatus: number | null;
  body: string | null;
  responseTruncated: boolean;
  responseBytes: number | null;
  reason?: string;
  message?: string;
  attempt?: number;
};

/** Options of {@link dispatchCommercialApproval}. */
export type TDispatchCommercialApprovalOptions = TCertificateSource & {
  database: TDatabase;
  commercialApprovalId: string;
  now?: () => Date;
  /** HTTP client (tests); default the global fetch. */
  fetch?: typeof fetch;
  /** Per exchange with the issuer (connect, upload, whole answer); default 30 s. */
  timeoutMs?: number;
  /** How long a claimed attempt may still be running elsewhere; default 3 timeouts and a minute. */
  inFlightMs?: number;
};

/** What the caller (the job) does next. */
export type TCommercialApprovalDispatchReport =
  | {
      commercialApprovalId: string;
      next: 'done';
      status: ReceiverDeliveryStatus | 'not_found';
      outcome: string;
    }
  | {
      commercialApprovalId: string;
      next: 'retry';
      afterSeconds: number;
      status: ReceiverDeliveryStatus;
      outcome: string;
    };

const DEFAULT_TIMEOUT_MS = 30_000;
/** Socket errors raised before a byte of the request could be sent: nothing reached the issuer. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Runs one dispatch step of an approval. Idempotent: a final dispatch is left as it is. */
export async function dispatchCommercialApproval(
  options: TDispatchCommercialApprovalOptions,
): Promise<TCommercialApprovalDispatchReport> {
  const { database, commercialApprovalId: id } = options;
  const now = options.now ?? (() => new Date());
  const approval = await loadCommercialApprovalForDispatch(database, id);
  if (approval === null)
    return { commercialApprovalId: id, next: 'done', status: 'not_found', outcome: 'not_found' };
  const done = (
    outcome: string,
    status: ReceiverDeliveryStatus = approval.dispatchStatus,
  ): TCommercialApprovalDispatchReport => ({
    commercialApprovalId: id,
    next: 'done',
    status,
    outcome,
  });
  if (approval.supersededAt !== null) return done('superseded');
  if (approval.taxauthStatus !== 'accepted') return done(`taxauth_${approval.taxauthStatus}`);
  if (DISPATCH_FINAL_STATUSES.includes(approval.dispatchStatus)) return done('already_final');
  if (approval.targetUrl === null) return done('no_target');

  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const leaseMs = options.inFlightMs ?? timeoutMs * 3 + 60_000;
  const waitMs = (approval.nextAttemptAt?.getTime() ?? 0) - now().getTime();
  if ((approval.dispatchStatus === 'retry_scheduled' || approval.dispatchStatus === 'sending') && waitMs > 0)
    return {
      commercialApprovalId: id,
      next: 'retry',
      afterSeconds: Math.ceil(waitMs / 1000),
      status: approval.dispatchStatus,
      outcome: approval.dispatchStatus === 'sending' ? 'attempt_in_flight' : 'not_yet',
    };
  if (approval.dispatchStatus === 'sending') {
    // The lease lapsed without an outcome: the process died while the ACECF may have been on the wire.
    return settle(options, approval, 'uncertain', {
      httpStatus: null,
      body: null,
      responseTruncated: false,
      responseBytes: null,
      reason: 'interrupted',
      message: 'The attempt ended without a recorded outcome (the process stopped while dispatching).',
      attempt: approval.dispatchAttempts,
    });
  }
  if (approval.acecfXml === null) throw new Error(`commercial approval ${id} has no signed ACECF artifact`);

  // The claim, committed before the ACECF leaves.
  const attempt = approval.dispatchAttempts + 1;
  const claimed = await changeCommercialApproval(database, {
    id,
    from: {
      dispatchStatus: approval.dispatchStatus,
      dispatchAttempts: approval.dispatchAttempts,
      active: true,
    },
    set: {
      dispatch_status: 'sending',
      dispatch_attempts: attempt,
      next_attempt_at: new Date(now().getTime() + leaseMs),
    },
    at: now(),
  });
  if (claimed === null)
    return {
      commercialApprovalId: id,
      next: 'retry',
      afterSeconds: 1,
      status: approval.dispatchStatus,
      outcome: 'claim_lost',
    };

  const receiver = createReceiverClient({
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    timeoutMs,
    maxAnswerBytes: DISPATCH_MAX_ANSWER_BYTES,
  });
  let token: string | undefined;
  if (approval.authenticationUrl !== null) {
    const resolved = await resolveDocumentCertificate({
      ...options,
      tenantId: approval.tenantId,
      step: 'dispatchCommercialApproval',
    });
    if (!resolved.ok)
      return settle(options, claimed, 'dispatch_failed', {
        ...emptyResponse(attempt),
        reason: 'certificate_not_active',
        message: resolved.message,
      });
    const authenticated = await receiver.authenticate({
      base: new URL(approval.authenticationUrl),
      certificate: resolved.certificate,
    });
    if (!authenticated.ok) {
      const { failure } = authenticated;
      const response: TDispatchResponse = {
        ...emptyResponse(attempt),
        ...(failure.httpStatus === undefined ? {} : { httpStatus: failure.httpStatus }),
        ...(failure.body === undefined ? {} : keptBodyOf(failure.body)),
        reason: failure.reason,
        message: failure.message,
      };
      return authenticated.transient
        ? failedAttempt(options, claimed, response)
        : settle(options, claimed, 'dispatch_failed', {
            ...response,
            reason: `authentication_refused:${failure.reason}`,
          });
    }
    token = authenticated.token;
  }

  const answer = await receiver.postDocument({
    url: new URL(approval.targetUrl),
    xml: approval.acecfXml,
    fileName: `${approval.tenantRnc}${approval.encf}.xml`,
    ...(token === undefined ? {} : { token }),
  });
  return settleAnswer(options, claimed, answer, attempt);
}

function emptyResponse(attempt: number): TDispatchResponse {
  return { httpStatus: null, body: null, responseTruncated: false, responseBytes: null, attempt };
}

async function settleAnswer(
  options: TDispatchCommercialApprovalOptions,
  claimed: TCommercialApprovalRow,
  answer: TReceiverExchange,
  attempt: number,
): Promise<TCommercialApprovalDispatchReport> {
  if (!answer.ok) {
    const response = {
      ...emptyResponse(attempt),
      reason: answer.code ?? answer.reason,
      message: answer.message,
    };
    if (answer.reason === 'connection' && answer.code !== undefined && NEVER_CONNECTED.has(answer.code))
      return failedAttempt(options, claimed, response);
    // The ACECF may have arrived: no automatic resend.
    return settle(options, claimed, 'uncertain', response);
  }
  const response: TDispatchResponse = {
    httpStatus: answer.status,
    ...keptBodyOf(answer.body),
    attempt,
    reason: `http_${answer.status}`,
  };
  if (answer.status >= 200 && answer.status < 300) return settle(options, claimed, 'sent', response);
  if (answer.status === 408 || answer.status === 429 || answer.status >= 500)
    return failedAttempt(options, claimed, {
      ...response,
      message: `The issuer answered HTTP ${answer.status}.`,
    });
  if (answer.status === 401 || answer.status === 403)
    return settle(options, claimed, 'dispatch_failed', {
      ...response,
      reason: `authentication_refused:http_${answer.status}`,
      message: `The issuer refused the authentication with HTTP ${answer.status}.`,
    });
  return settle(options, claimed, 'dispatch_failed', {
    ...response,
    message: `The issuer refused the ACECF with HTTP ${answer.status}.`,
  });
}

/** A transient failure: retried on the schedule, `dispatch_failed` once the 5 attempts are used. */
async function failedAttempt(
  options: TDispatchCommercialApprovalOptions,
  claimed: TCommercialApprovalRow,
  response: TDispatchResponse,
): Promise<TCommercialApprovalDispatchReport> {
  const exhausted = claimed.dispatchAttempts >= DISPATCH_MAX_ATTEMPTS;
  if (exhausted)
    return settle(options, claimed, 'dispatch_failed', {
      ...response,
      message: `${response.message ?? 'The attempt failed.'} ${DISPATCH_MAX_ATTEMPTS} attempts made.`,
    });
  const afterSeconds = dispatchRetryWaitSeconds(claimed.dispatchAttempts);
  return settle(options, claimed, 'retry_scheduled', response, afterSeconds);
}

/** The guarded end of a claimed attempt (from `sending` with its attempts count). */
async function settle(
  options: TDispatchCommercialApprovalOptions,
  claimed: TCommercialApprovalRow,
  status: ReceiverDeliveryStatus,
  response: TDispatchResponse,
  afterSeconds?: number,
): Promise<TCommercialApprovalDispatchReport> {
  const now = options.now ?? (() => new Date());
  const at = now();
  const nextAttemptAt = afterSeconds === undefined ? null : new Date(at.getTime() + afterSeconds * 1000);
  const moved = await changeCommercialApproval(options.database, {
    id: claimed.id,
    from: { dispatchStatus: 'sending', dispatchAttempts: claimed.dispatchAttempts },
    set: {
      dispatch_status: status,
      next_attempt_at: nextAttemptAt,
      last_response: { ...response, at: at.toISOString() },
    },
    at,
  });
  if (moved === null)
    return {
      commercialApprovalId: claimed.id,
      next: 'done',
      status: claimed.dispatchStatus,
      outcome: 'moved_elsewhere',
    };
  return afterSeconds === undefined
    ? { commercialApprovalId: claimed.id, next: 'done', status, outcome: response.reason ?? status }
    : {
        commercialApprovalId: claimed.id,
        next: 'retry',
        afterSeconds,
        status,
        outcome: response.reason ?? status,
      };
}
