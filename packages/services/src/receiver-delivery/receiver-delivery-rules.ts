/**
 * The rules of receiver delivery: which e-CF go to the buyer, the retry schedules, the event types
 * and final statuses, and who the parties of a delivery are.
 */
import type { TDispatchStatus } from '@ecf/contract';
import { leafOf, readSignedEcfTree } from '../shared/signed-ecf-tree.ts';

/**
 * Types exchanged between taxpayers, hence delivered to the buyer: 31 (crédito fiscal), 33 (debit
 * note), 34 (credit note), 44 (regímenes especiales). The tax authority's own emitter-receiver
 * services refuse 32, 41, 43, 45, 46 and 47: "no aplican para ser enviados a otro contribuyente"
 * (Descripción técnica, emisioncomprobantes and fe/recepcion/api/ecf; FACTS §2). 45 (gubernamental)
 * is in that list although it carries a buyer RNC.
 */
export const RECEIVER_DELIVERY_TYPES: readonly number[] = [31, 33, 34, 44];

export function isDeliveredToReceiver(type: number): boolean {
  return RECEIVER_DELIVERY_TYPES.includes(type);
}

/** Attempts in all: the first one and 5 retries (spec Limits: "5 retries before uncertain"). */
export const RECEIVER_DELIVERY_MAX_ATTEMPTS = 6;

/** Wait after failed attempt `attempt` (1-based): 1, 2, 4, 8, 16 minutes. */
export function receiverRetryWaitSeconds(attempt: number): number {
  return 60 * 2 ** Math.max(0, Math.min(attempt - 1, 4));
}

/** Wait before looking the buyer up again after the directory or the certificate failed: 1, 2, 4... up to 30 minutes. */
export function directoryRetryWaitSeconds(failures: number): number {
  return Math.min(1800, 60 * 2 ** Math.max(0, Math.min(failures - 1, 10)));
}

/** Why there is nothing to deliver (`reason` of `receiver_delivery_not_applicable`; final). */
export const RECEIVER_DELIVERY_NOT_APPLICABLE_REASONS = [
  'type_not_exchanged',
  'no_directory_in_certecf',
  'no_buyer_rnc',
  'not_in_directory',
  'no_reception_url',
] as const;

export type TReceiverNotApplicableReason = (typeof RECEIVER_DELIVERY_NOT_APPLICABLE_REASONS)[number];

/** Event types receiver delivery appends to a document's log. */
export const RECEIVER_DELIVERY_EVENT_TYPES = {
  /** Committed before the e-CF leaves toward the buyer: `{ attempt, targetUrl, at }`. */
  ATTEMPT: 'receiver_delivery_attempt',
  /** What became of an attempt: `{ attempt, outcome, status, ... }` (`status` is the delivery's new status). */
  OUTCOME: 'receiver_delivery_outcome',
  /** Nothing to deliver: `{ reason }` (`type_not_exchanged`, `not_in_directory`, `no_directory_in_certecf`, `no_buyer_rnc`, `no_reception_url`). */
  NOT_APPLICABLE: 'receiver_delivery_not_applicable',
  /** The directory or the account's certificate was not usable; nothing was sent: `{ code, reason, nextAttemptAt }`. */
  DEFERRED: 'receiver_delivery_deferred',
  /** An `uncertain` delivery fixed by `POST .../entrega-receptor/reconciliar`: `{ outcome, artifactId?, note? }`. */
  RECONCILED: 'receiver_delivery_reconciled',
} as const;

/** Delivery statuses after which nothing happens automatically. */
export const RECEIVER_DELIVERY_FINAL_STATUSES = [
  'sent',
  'not_received',
  'uncertain',
  'dispatch_failed',
  'not_applicable',
] as const satisfies readonly TDispatchStatus[];

/** Issuer, buyer and eNCF of a delivery, and the signed XML that is sent. */
export type TDeliveryParties = { rncEmisor: string; rncComprador: string; encf: string; xml: string };

/** Issuer, buyer and eNCF as the signed XML says (what the buyer receives), and the XML itself. */
export function partiesOfSignedXml(
  xml: string,
  document: { id: string; encf: string; tenant: { rnc: string } },
): TDeliveryParties {
  const tree = readSignedEcfTree(xml);
  if (tree === undefined) throw new Error(`document ${document.id}: the signed e-CF cannot be read back`);
  const header = tree.ECF['Encabezado'];
  return {
    xml,
    rncEmisor: leafOf(header, ['Emisor', 'RNCEmisor']) ?? document.tenant.rnc,
    rncComprador: leafOf(header, ['Comprador', 'RNCComprador']) ?? '',
    encf: leafOf(header, ['IdDoc', 'eNCF']) ?? document.encf,
  };
}
