/**
 * Annulments (ANECF): prevalidate, send (Idempotency-Key, range reservation, the tax authority's
 * answer, covered documents cancelled or skipped), get, reconcile an uncertain one, and the
 * worker's recovery after a crash. The race with emission: packages/services/README.md.
 */
export {
  ANNULMENT_CONFLICT_REASONS,
  type TAnnulmentConflict,
  type TAnnulmentConflictReason,
  type TAnnulmentRequest,
  type TAnnulmentView,
} from './annulment-model.ts';
export { prevalidateAnnulment, type TAnnulmentPrevalidation } from './prevalidate-annulment.ts';
export {
  ANNULMENT_IDEMPOTENCY_KEY_MAX_LENGTH,
  sendAnnulment,
  type TSendAnnulmentResult,
} from './send-annulment.ts';
export { getAnnulment } from './get-annulment.ts';
export { reconcileAnnulment } from './reconcile-annulment.ts';
export { settleAcceptedAnnulment } from './settle-accepted-annulment.ts';
export {
  ANNULMENT_BUILT_EXPIRY_MS,
  ANNULMENT_SENDING_STALE_MS,
  recoverAnnulments,
} from './recover-annulments.ts';
export { listAnnulments, type TAnnulmentPage, type TAnnulmentSummary } from './list-annulments.ts';
export {
  annulmentEncfSearchOf,
  searchAnnulments,
  ZAnnulmentSearchQuery,
  type TAnnulmentSearchQuery,
} from './search-annulments.ts';
