/**
 * Receiver delivery: an accepted e-CF of a type exchanged between taxpayers delivered to its buyer's
 * reception service (the directory's URL), the signed ARECF kept as evidence; an `uncertain`
 * delivery reconciled by hand through the API.
 */
export { deliverToReceiver, type TDeliverToReceiverOptions } from './deliver-to-receiver.ts';
export type { TReceiverDeliveryReport } from './delivery-outcomes.ts';
export {
  reconcileReceiverDelivery,
  type TReceiverDeliveryReconciliation,
  type TReceiverDeliveryReconciliationRequest,
  type TReconcileReceiverDeliveryInput,
} from './reconcile-receiver-delivery.ts';
export {
  checkAcknowledgement,
  type TAcknowledgementProblem,
  type TVerifiedAcknowledgement,
} from './check-acknowledgement.ts';
export {
  isDeliveredToReceiver,
  RECEIVER_DELIVERY_EVENT_TYPES,
  RECEIVER_DELIVERY_MAX_ATTEMPTS,
  RECEIVER_DELIVERY_NOT_APPLICABLE_REASONS,
  RECEIVER_DELIVERY_TYPES,
  receiverRetryWaitSeconds,
} from './receiver-delivery-rules.ts';
