/**
 * Transmission: a signed e-CF (or the RFCE of an E32 below RD$250,000) sent to the tax authority
 * and followed to its final answer, never twice and never lost (contingency, unknown outcomes
 * resolved by asking before any resend, outage episodes, the 72-hour operator notification).
 */
export { transmitSignedDocument } from './transmit-signed-document.ts';
export { pollDocumentStatus } from './poll-document-status.ts';
export type { TTransmissionNext, TTransmissionOptions, TTransmissionReport } from './transmission-options.ts';
export { TRANSMISSION_EVENT_TYPES, type TAttemptOutcome } from './transmission-events.ts';
export {
  CONTINGENCY_OPERATOR_NOTIFICATION_KIND,
  contingencyWaitSeconds,
  NOT_DELEGATED_HINT,
  TRANSMISSION_ERROR_CODES,
  transmissionChannelOf,
  type TTransmissionError,
  type TTransmissionErrorCode,
} from './transmission-rules.ts';
export type { TOperatorNotification } from '../persistence/index.ts';
