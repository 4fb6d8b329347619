/**
 * Pure rules of transmission to the tax authority: the retry schedules, how a failure is
 * classified into what the document's `lastError` says, and which channel a document goes by. No
 * I/O and no clock: times come in as arguments.
 */
import { isConsumerInvoiceBelowThreshold } from '@ecf/fiscal-core';
import { toTaxauthMessages, type TaxauthError, type TTaxauthMessage } from '@ecf/taxauth-client';

/** Codes a transmission leaves in `lastError` (documented in apps/worker/README.md "Transmission"). */
export const TRANSMISSION_ERROR_CODES = {
  /** The tax authority gave no answer, timed out, answered 5xx or its authentication was down: contingency, retried. */
  TAXAUTH_UNAVAILABLE: 'TAXAUTH_UNAVAILABLE',
  /** The tax authority refused the document (reception refusal or result "Rechazado"); `taxauthMessages` says why. */
  TAXAUTH_RECEPTION_REJECTED: 'TAXAUTH_RECEPTION_REJECTED',
  /** The certificate's holder is not delegated for the issuer's RNC at the tax authority; `hint` says what to do. */
  TAXAUTH_CERTIFICATE_NOT_DELEGATED: 'TAXAUTH_CERTIFICATE_NOT_DELEGATED',
  /** A definite failure other than a rejection (authentication refused, 4xx): `transmission_failed`, not retried. */
  TAXAUTH_TRANSMISSION_FAILED: 'TAXAUTH_TRANSMISSION_FAILED',
  /** The account has no usable signing certificate to authenticate with: `transmission_failed`. */
  CERTIFICATE_NOT_ACTIVE: 'CERTIFICATE_NOT_ACTIVE',
} as const;
export type TTransmissionErrorCode = (typeof TRANSMISSION_ERROR_CODES)[keyof typeof TRANSMISSION_ERROR_CODES];

/** What `lastError` holds after a transmission step that did not end well. */
export type TTransmissionError = {
  code: TTransmissionErrorCode;
  message: string;
  /** Whether the service keeps trying on its own. */
  retrying: boolean;
  hint?: string;
  taxauthMessages?: TTaxauthMessage[];
  /** The client's failure reason (`timeout`, `http_5xx`, `connection`, `auth_unavailable`, `rejected`...). */
  reason?: string;
  httpStatus?: number;
  /** Consecutive failures without reaching the tax authority (contingency only). */
  failures?: number;
  nextAttemptAt?: string;
  /** True when an earlier send's outcome could not be established before this failure. */
  submissionUncertain?: boolean;
};

/** The hint given with `TAXAUTH_CERTIFICATE_NOT_DELEGATED`. */
export const NOT_DELEGATED_HINT =
  "In the tax authority's Oficina Virtual, delegate the certificate holder (its cédula or RNC) as authorized signer for the issuer's RNC, or install a certificate of an authorized person; then issue again.";

const MINUTE = 60;
/** Contingency: first wait 5 minutes, doubling, at most 30 minutes (interface spec, Limits). */
export const CONTINGENCY_FIRST_WAIT_SECONDS = 5 * MINUTE;
export const CONTINGENCY_MAX_WAIT_SECONDS = 30 * MINUTE;
/** At 72 hours without reaching the tax authority an operator is notified (retries go on). */
export const OPERATOR_NOTIFICATION_AFTER_MS = 72 * 3600_000;
export const CONTINGENCY_OPERATOR_NOTIFICATION_KIND = 'taxauth_contingency_72h';

/** Wait before the next try after the `failures`-th consecutive failure (1-based): 5, 10, 20, 30, 30... minutes. */
export function contingencyWaitSeconds(failures: number): number {
  const exponent = Math.max(0, Math.min(failures - 1, 10));
  return Math.min(CONTINGENCY_MAX_WAIT_SECONDS, CONTINGENCY_FIRST_WAIT_SECONDS * 2 ** exponent);
}

/**
 * Wait before asking again for the result of a trackId still "En Proceso" (the tax authority
 * validates in about 200 ms): 1 s at first, then half the time already waited, at most 5 minutes.
 */
export function pollWaitSeconds(elapsedMs: number): number {
  return Math.min(300, Math.max(1, Math.ceil(elapsedMs / 2000)));
}

/** Wait before asking again after the result query itself failed transiently: 1 to 30 minutes, growing with the wait so far. */
export function pollFailureWaitSeconds(elapsedMs: number): number {
  return Math.min(CONTINGENCY_MAX_WAIT_SECONDS, Math.max(MINUTE, Math.ceil(elapsedMs / 2000)));
}

/** The code of the episode a transient failure opens. */
export function episodeCodeOf(error: TaxauthError): string {
  if (error.reason === 'timeout') return 'TAXAUTH_TIMEOUT';
  if (error.reason === 'auth_unavailable') return 'TAXAUTH_AUTH_UNAVAILABLE';
  return TRANSMISSION_ERROR_CODES.TAXAUTH_UNAVAILABLE;
}

/** Whether the text the tax authority sent says the signer is not delegated for the RNC. */
export function mentionsDelegation(messages: readonly TTaxauthMessage[] | undefined, body?: string): boolean {
  if (body !== undefined && /delegad[oa]/i.test(body)) return true;
  return (messages ?? []).some(
    (message) => typeof message.valor === 'string' && /delegad[oa]/i.test(message.valor),
  );
}

/** `mensajes` as kept on the document: normalised to `{ codigo, valor }`, empty placeholders dropped. */
export function keptMessages(items: Parameters<typeof toTaxauthMessages>[0] | undefined): TTaxauthMessage[] {
  return toTaxauthMessages(items ?? []).filter(
    (message) => typeof message.valor === 'string' && message.valor.trim() !== '',
  );
}

/** A definite failure (the tax authority answered, or the request cannot be made) → the document's end state. */
export function definiteOutcomeOf(error: TaxauthError): {
  status: 'rejected' | 'transmission_failed';
  lastError: TTransmissionError;
} {
  const taxauthMessages = error.messages === undefined ? undefined : keptMessages(error.messages);
  const common = {
    retrying: false,
    reason: error.reason,
    ...(error.status === undefined ? {} : { httpStatus: error.status }),
    ...(taxauthMessages === undefined || taxauthMessages.length === 0 ? {} : { taxauthMessages }),
  };
  if (error.reason === 'not_delegated') {
    return {
      status: 'transmission_failed',
      lastError: {
        code: 'TAXAUTH_CERTIFICATE_NOT_DELEGATED',
        message: `The tax authority refused the certificate for this issuer: ${error.message}`,
        hint: NOT_DELEGATED_HINT,
        ...common,
      },
    };
  }
  if (error.reason === 'rejected' && error.service !== 'autenticacion') {
    return {
      status: 'rejected',
      lastError: {
        code: 'TAXAUTH_RECEPTION_REJECTED',
        message: `The tax authority refused the document: ${error.message}`,
        ...common,
      },
    };
  }
  return {
    status: 'transmission_failed',
    lastError: {
      code: 'TAXAUTH_TRANSMISSION_FAILED',
      message: `Transmission failed definitely: ${error.message}`,
      ...common,
    },
  };
}

/** The lastError of a final "Rechazado": why, with the messages (a not-delegated signer gets its hint). */
export function rejectionErrorOf(messages: TTaxauthMessage[]): TTransmissionError {
  if (mentionsDelegation(messages)) {
    return {
      code: 'TAXAUTH_CERTIFICATE_NOT_DELEGATED',
      message: 'The tax authority rejected the document: the certificate is not delegated for the issuer.',
      retrying: false,
      hint: NOT_DELEGATED_HINT,
      taxauthMessages: messages,
    };
  }
  const summary = messages
    .map((message) => message.valor)
    .filter(Boolean)
    .join(' | ');
  return {
    code: 'TAXAUTH_RECEPTION_REJECTED',
    message:
      summary === ''
        ? 'The tax authority rejected the document.'
        : `The tax authority rejected the document: ${summary}`,
    retrying: false,
    taxauthMessages: messages,
  };
}

/** How a signed document goes to the tax authority: an E32 below RD$250,000 as its RFCE summary, anything else as the e-CF. */
/** The reception service a channel sends through: the one whose outage an episode records. */
export function receptionServiceOf(channel: 'ecf' | 'rfce'): 'recepcion' | 'recepcionfc' {
  return channel === 'ecf' ? 'recepcion' : 'recepcionfc';
}

export function transmissionChannelOf(document: {
  encf: string;
  totalAmount: { toFixed(digits: number): string };
}): 'ecf' | 'rfce' {
  return isConsumerInvoiceBelowThreshold(document.encf, document.totalAmount.toFixed(2)) ? 'rfce' : 'ecf';
}
