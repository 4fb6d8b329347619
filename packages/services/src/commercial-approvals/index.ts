/** Sending a commercial approval (ACECF) for a received e-CF: submit, state, dispatch outbox, reconciliation. */
export {
  APPROVAL_DATE_FUTURE_TOLERANCE_MS,
  checkApprovalDate,
  DISPATCH_KEPT_BODY_BYTES,
  DISPATCH_MAX_ATTEMPTS,
  parseApprovalDate,
  type TCommercialApprovalView,
} from './commercial-approval-rules.ts';
export {
  dispatchCommercialApproval,
  type TCommercialApprovalDispatchReport,
  type TDispatchCommercialApprovalOptions,
} from './dispatch-commercial-approval.ts';
export { getCommercialApproval } from './get-commercial-approval.ts';
export { reconcileCommercialApproval } from './reconcile-commercial-approval.ts';
export {
  submitCommercialApproval,
  type TSubmitCommercialApprovalOptions,
  type TSubmitCommercialApprovalResult,
} from './submit-commercial-approval.ts';
export { taxauthOutcomeOf, type TTaxauthOutcome } from './taxauth-outcome.ts';
