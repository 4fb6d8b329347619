/**
 * @ecf/services: the use-cases shared by the API, the worker and the portal. One use-case per
 * file, verb first; each takes one options object carrying the database and the tenant.
 */
export { AppError, ERROR_STATUS, type TErrorCode } from './errors.ts';
export { authenticateApiKey, type TApiKeyPrincipal } from './authenticate-api-key.ts';
export { createTenant, ZCreateTenantInput, type TCreateTenantInput } from './create-tenant.ts';
export { createApiKey, revokeApiKey, findApiKeys, findTenants, getTenant } from './api-key-admin.ts';
export { findContingencyDocuments } from './find-contingency-documents.ts';
export { findDocumentStatuses, toStatusResult, printingStatusOf } from './find-document-statuses.ts';
export { readEnvironment } from './read-environment.ts';
export {
  createCertificateKeyring,
  masterKeyIdOf,
  storeTenantCertificate,
  loadActiveCertificate,
  findTenantCertificates,
  reencryptTenantCertificates,
  type TCertificateKeyring,
  type TTenantCertificateMetadata,
} from './certificate-store.ts';
export { accountDataOf } from './account-data.ts';
export {
  signQueuedDocument,
  SIGNING_ERROR_CODES,
  type TSignQueuedDocumentResult,
  type TSigningError,
  type TSigningErrorCode,
} from './sign-document.ts';
export { getDocument, isPrintable, printingOf, ENCF_PATTERN } from './document-references.ts';
export {
  validateDocumentSubmission,
  type TSubmissionContext,
  type TSubmissionIssue,
  type TSubmissionValidation,
} from './validate-document-submission.ts';
export { preflightDocument } from './preflight-document.ts';
export { issueDocument, type TIssueOutcome } from './issue-document.ts';
export {
  findIssuedDocuments,
  toIssuedDocument,
  encodeCursor,
  type TIssuedDocumentFilters,
} from './find-issued-documents.ts';
export { getSignedDocumentXml } from './get-signed-document-xml.ts';
export { getDocumentPdf } from './get-document-pdf.ts';
export {
  transmitSignedDocument,
  type TTransmissionOptions,
  type TTransmissionNext,
  type TTransmissionReport,
} from './transmit-document.ts';
export { pollDocumentStatus } from './poll-document-status.ts';
export {
  TRANSMISSION_ERROR_CODES,
  NOT_DELEGATED_HINT,
  CONTINGENCY_OPERATOR_NOTIFICATION_KIND,
  contingencyWaitSeconds,
  type TTransmissionError,
  type TTransmissionErrorCode,
} from './transmission-rules.ts';
export { TRANSMISSION_EVENT_TYPES, type TOperatorNotification } from './transmission-records.ts';
export {
  authenticateApiRequest,
  RATE_LIMIT_WINDOW_SECONDS,
  type TApiRequestPrincipal,
  type TTenantProfile,
} from './authenticate-api-request.ts';
export { loadXsdValidators, resolveXsdDirectory } from './load-xsd-validators.ts';
export {
  enqueueJobsOf,
  executorOf,
  type TEnqueueJob,
  type TEnqueueJobs,
  type TJobExecutor,
} from './job-executor.ts';
export {
  sweepDocuments,
  nextContingencyAttemptAt,
  SWEEP_EVENT_TYPE,
  DEFAULT_SWEEP_STALE_SECONDS,
  type TSweepDocumentsOptions,
  type TSweptDocument,
  type TSweepReason,
} from './sweep-documents.ts';
export {
  deliverToReceiver,
  type TDeliverToReceiverOptions,
  type TReceiverDeliveryReport,
} from './deliver-to-receiver.ts';
export {
  reconcileReceiverDelivery,
  type TReceiverDeliveryReconciliation,
  type TReceiverDeliveryReconciliationRequest,
  type TReconcileReceiverDeliveryInput,
} from './reconcile-receiver-delivery.ts';
export {
  RECEIVER_DELIVERY_TYPES,
  RECEIVER_DELIVERY_MAX_ATTEMPTS,
  RECEIVER_DELIVERY_EVENT_TYPES,
  isDeliveredToReceiver,
  receiverRetryWaitSeconds,
} from './receiver-delivery-records.ts';
export {
  checkAcknowledgement,
  type TVerifiedAcknowledgement,
  type TAcknowledgementProblem,
} from './receiver-acknowledgement.ts';
export { type TPollOptions } from './poll-document-status.ts';
export { assertPrintable } from './get-document-pdf.ts';
export { renderDocumentPdf, type TPrintedPdf } from './printed-representation.ts';
export {
  createRiLinkToken,
  checkRiLinkToken,
  getPdfByRiLink,
  RI_LINK_MAX_LENGTH,
  RI_LINK_VALIDITY_SECONDS,
  type TRiLinkCheck,
  type TRiLinkPayload,
} from './ri-link.ts';
export {
  sendBuyerEmail,
  composeBuyerEmail,
  isBuyerEmailEnabled,
  scheduleBuyerEmail,
  applyWithBuyerEmail,
  BUYER_EMAIL_EVENT_TYPES,
  BUYER_EMAIL_STATUSES,
  type TBuyerEmailOptions,
  type TBuyerEmailOutcome,
  type TBuyerEmailReport,
} from './email-buyer.ts';
