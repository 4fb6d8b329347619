/**
 * One claimed delivery attempt on the wire: authentication at the receiver when its directory entry
 * declares it, the POST of the signed e-CF, and what its answer means (the receiver protocol itself
 * is `createReceiverClient` of `@ecf/taxauth-client`: the tax authority's own, spoken to taxpayers).
 */
import type { TDatabase } from '@ecf/db';
import type { TSigningCertificate, TXsdValidators } from '@ecf/fiscal-core';
import { excerpt, type TReceiverClient } from '@ecf/taxauth-client';
import type { TDeliveryRow } from '../persistence/index.ts';
import { checkAcknowledgement } from './check-acknowledgement.ts';
import {
  acknowledge,
  definiteFailure,
  settleFailedAttempt,
  type TDeliveryStep,
  type TReceiverDeliveryReport,
} from './delivery-outcomes.ts';
import type { TDeliveryParties } from './receiver-delivery-rules.ts';

/**
 * Sends the attempt `delivery` claimed and settles it: a verified ARECF → `sent`/`not_received`;
 * no answer, 408/429/5xx, a 2xx that is not a verified ARECF of this document, or a transient
 * authentication failure → retried; a 3xx or other 4xx, or a refused authentication → `dispatch_failed`.
 */
export async function sendToReceiver(attempt: {
  database: TDatabase;
  document: { id: string; tenantId: string };
  delivery: TDeliveryRow;
  parties: TDeliveryParties;
  receiver: TReceiverClient;
  receptionUrl: URL;
  authenticationUrl: URL | undefined;
  certificate: TSigningCertificate;
  xsdValidators: TXsdValidators;
  now: () => Date;
}): Promise<TReceiverDeliveryReport> {
  const { database, document, delivery, parties, receiver, now } = attempt;
  const stepOf = (): TDeliveryStep => ({ database, document, delivery, at: now() });
  let token: string | undefined;
  if (attempt.authenticationUrl !== undefined) {
    const authenticated = await receiver.authenticate({
      base: attempt.authenticationUrl,
      certificate: attempt.certificate,
    });
    if (!authenticated.ok) {
      if (authenticated.transient)
        return settleFailedAttempt(stepOf(), { outcome: 'failed', ...authenticated.failure });
      return definiteFailure(
        stepOf(),
        { code: 'RECEIVER_AUTHENTICATION_FAILED', ...authenticated.failure },
        delivery.attempts,
      );
    }
    token = authenticated.token;
  }

  const answer = await receiver.sendEcf({
    url: attempt.receptionUrl,
    xml: parties.xml,
    fileName: `${parties.rncEmisor}${parties.encf}.xml`,
    ...(token === undefined ? {} : { token }),
  });
  if (!answer.ok)
    return settleFailedAttempt(stepOf(), {
      outcome: 'unknown',
      reason: answer.reason,
      message: answer.message,
    });
  const { status, body } = answer;
  if (status === 408 || status === 429 || status >= 500) {
    return settleFailedAttempt(stepOf(), {
      outcome: 'failed',
      reason: `http_${status}`,
      httpStatus: status,
      message: `The receiver answered HTTP ${status}.`,
      body: excerpt(body),
    });
  }
  const checked =
    status >= 200 && status < 500
      ? checkAcknowledgement(body, parties, { xsdValidators: attempt.xsdValidators, now: now() })
      : undefined;
  if (checked?.success === true)
    return acknowledge(stepOf(), { xml: body, acknowledgement: checked.data, httpStatus: status });
  if (status >= 200 && status < 300) {
    const problem =
      checked === undefined
        ? { reason: 'invalid_answer', message: 'No ARECF in the answer.' }
        : { reason: `arecf_${checked.reason}`, message: checked.message };
    return settleFailedAttempt(stepOf(), {
      outcome: 'invalid_answer',
      ...problem,
      httpStatus: status,
      body: excerpt(body),
    });
  }
  return definiteFailure(
    stepOf(),
    {
      code: 'RECEIVER_REFUSED',
      reason: `http_${status}`,
      httpStatus: status,
      message: `The receiver refused the e-CF with HTTP ${status}${checked?.success === false ? ` (${checked.reason})` : ''}.`,
      body: excerpt(body),
    },
    delivery.attempts,
  );
}
