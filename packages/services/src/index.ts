/**
 * @ecf/services: the use-cases shared by the API, the worker and the portal, grouped by domain
 * (`src/<domain>/`, each with an `index.ts` that is its surface; one use-case per file, verb first,
 * one options object carrying the database and the tenant). Every statement they run lives in
 * `src/persistence/`. This file is the package's public surface: only what other workspaces use.
 */
export { AppError, type TErrorCode } from './shared/errors.ts';
export { ZPageCursorText, ZPageLimitText } from './shared/page-query.ts';
export { isIssuerPhone } from '@ecf/fiscal-core';
export {
  ACCOUNT_PROFILE_LIMITS,
  getAccountSettings,
  MAX_PAYMENT_TERM_DAYS,
  updateAccountProfile,
  updateAccountSettings,
  type TAccountSettings,
} from './accounts/index.ts';
export {
  API_KEY_NAME_MAX_LENGTH,
  CERTIFICATE_FILE_MAX_BYTES,
  type TApiKeyRow,
  type TTenantCertificateMetadata,
} from './accounts/index.ts';
export {
  CERTIFICATE_WARNING_DAYS,
  summarizeDocuments,
  SUMMARY_DAYS,
  type TDocumentSummary,
} from './documents/index.ts';
export {
  accountDataOf,
  assertProductionActive,
  authenticateApiRequest,
  createApiKey,
  createCertificateKeyring,
  createTenant,
  enableBuyerEmail,
  findApiKeys,
  findTenantCertificates,
  findTenants,
  getTenant,
  loadActiveCertificate,
  reencryptTenantCertificates,
  revokeApiKey,
  storeTenantCertificate,
  type TApiRequestPrincipal,
  type TCertificateKeyring,
} from './accounts/index.ts';
export {
  assertSubmissionWithinLimits,
  issueDocument,
  preflightDocument,
  takeCpuTurn,
  type TSubmissionContext,
  type TSubmissionIssue,
} from './emission/index.ts';
export { signQueuedDocument } from './signing/index.ts';
export { listSequenceRanges, registerSequenceRange, type TSequenceRange } from './sequences/index.ts';
export {
  ANNULMENT_CONFLICT_REASONS,
  ANNULMENT_IDEMPOTENCY_KEY_MAX_LENGTH,
  getAnnulment,
  listAnnulments,
  prevalidateAnnulment,
  reconcileAnnulment,
  recoverAnnulments,
  sendAnnulment,
  type TAnnulmentConflict,
  type TAnnulmentPage,
  type TAnnulmentSummary,
  type TAnnulmentPrevalidation,
  type TAnnulmentRequest,
  type TAnnulmentView,
  type TSendAnnulmentResult,
} from './annulments/index.ts';
// Received e-CF and received commercial approvals (issue 18, task L).
export {
  announceCommercialApprovalsDue,
  checkReceivedValidity,
  commercialApprovalDeadlineOf,
  findReceivedApprovals,
  findReceivedDocuments,
  getReceivedApproval,
  getReceivedApprovalXml,
  getReceivedDocument,
  getReceivedDocumentXml,
  parseReceivedQuery,
  RECEIVED_GROUPS,
  TAXAUTH_VALIDITY_STATUSES,
  ZReceivedApprovalListQuery,
  ZReceivedListQuery,
  type TReceivedApproval,
  type TReceivedDocument,
  type TReceivedGroup,
  type TTaxauthValidityStatus,
} from './inbound/received.ts';
export {
  pollDocumentStatus,
  transmitSignedDocument,
  type TTransmissionOptions,
  type TTransmissionReport,
} from './transmission/index.ts';
export {
  deliverToReceiver,
  reconcileReceiverDelivery,
  type TReceiverDeliveryReport,
} from './receiver-delivery/index.ts';
export {
  BUYER_EMAIL_EVENT_TYPES,
  createHttpMessageLookup,
  sendBuyerEmail,
  type TBuyerEmailOptions,
} from './buyer-email/index.ts';
export {
  checkRiLinkToken,
  createRiLinkToken,
  findContingencyDocuments,
  findDocumentStatuses,
  DOCUMENT_STATUSES,
  FINAL_DOCUMENT_STATUSES,
  findIssuedDocuments,
  getDocument,
  getDocumentDetails,
  ISSUED_LIST_DEFAULT_LIMIT,
  type TDocumentDetails,
  ZDocumentStatus,
  ZIssuedListQuery,
  getDocumentPdf,
  getPdfByRiLink,
  buildEvidenceBundle,
  getSignedDocumentXml,
  isPrintable,
  printingOf,
  printingStatusOf,
} from './documents/index.ts';
export {
  acceptInvitation,
  addMember,
  assertCapability,
  CAPABILITIES,
  capabilitiesOf,
  changeMemberRole,
  completePasswordReset,
  createInvitation,
  createUser,
  DEFAULT_SESSION_TTL_SECONDS,
  DEFAULT_SIGN_IN_POLICY,
  findMembers,
  findPendingInvitations,
  getInvitation,
  getMember,
  grantableScopes,
  hashPassword,
  hasCapability,
  MEMBER_ROLES,
  normalizeEmail,
  PASSWORD_MAX_LENGTH,
  removeMember,
  requestPasswordReset,
  revokeAllPortalSessions,
  revokeInvitation,
  revokePortalSession,
  setUserPassword,
  signIn,
  SUPPORT_ACTIONS,
  SUPPORT_READS,
  switchActiveTenant,
  validatePortalSession,
  verifyPassword,
  type TCapability,
  type TInvitationPreview,
  type TInvitationRow,
  type TMemberRow,
  type TPortalActor,
  type TPortalMail,
  type TPortalSession,
  type TPrincipal,
  type TSignedIn,
  type TSignInPolicy,
  type TUserTenantRow,
} from './identity/index.ts';
export {
  appendAuditEntry,
  AUDIT_ACTIONS,
  findAuditEntries,
  recordSupportView,
  type TAuditAction,
  type TAuditEntry,
} from './audit/index.ts';
export {
  acknowledgeOperatorNotification,
  findContingencyAcrossTenants,
  findOperatorNotifications,
  findOutageEpisodes,
  findUncertainDeliveries,
  getDocumentScope,
  reconcileDeliveryForSupport,
  type TOperatorNotificationView,
} from './support/index.ts';
export type { TSmtpSettings } from './shared/smtp.ts';
export {
  purgeExpiredRecords,
  registerWorkerInstance,
  renewWorkerInstance,
  requeueLostDocuments,
  SWEEP_EVENT_TYPE,
  sweepDocuments,
} from './maintenance/index.ts';
export {
  assertWebhookTarget,
  createWebhookEndpoint,
  DIRECT_WEBHOOK_EVENT_TYPES,
  findWebhookDeliveries,
  findWebhookEndpoints,
  getWebhookEndpoint,
  replayWebhookDelivery,
  retireWebhookEndpoint,
  rotateWebhookSecret,
  sendTestWebhook,
  updateWebhookEndpoint,
  WEBHOOK_DELIVERIES_MAX_LIMIT,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_NAME_MAX_LENGTH,
  WEBHOOK_OVERLAP_MAX_SECONDS,
  WEBHOOK_URL_MAX_LENGTH,
  type TWebhookDelivery,
  type TWebhookEndpoint,
  type TWebhookEndpointPatch,
  type TWebhookEventType,
  type TWebhookTargetRefusal,
} from './webhooks/index.ts';
// The webhook signer and sender (the example receiver's test, the bench).
export { deliverWebhook, signWebhookBody, webhookRequestHeaders } from './webhooks/index.ts';
// The webhook engine (worker, docs, bench).
export {
  buildDirectWebhookPayload,
  buildPartnerWebhookPayload,
  closeWebhookConnections,
  fanOutWebhookEvents,
  generateWebhookSecret,
  runWebhookDelivery,
  sealWebhookSecret,
  sweepWebhookDeliveries,
  WEBHOOK_EVENT_TYPES,
  ZDirectWebhookPayload,
  ZPartnerWebhookPayload,
  type TDirectWebhookPayload,
  type TPartnerWebhookPayload,
  type TRunWebhookDeliveryResult,
} from './webhooks/index.ts';
// Sending a commercial approval (ACECF) for a received e-CF (issue 18: API, worker, portal).
export {
  APPROVAL_EVIDENCE_MAX_LENGTH,
  dispatchCommercialApproval,
  DISPATCH_KEPT_BODY_BYTES,
  DISPATCH_MAX_ATTEMPTS,
  getCommercialApproval,
  reconcileCommercialApproval,
  REJECTION_REASON_MAX_LENGTH,
  submitCommercialApproval,
  ZCommercialApprovalReconciliationRequest,
  ZCommercialApprovalRequest,
  type TCommercialApprovalDispatchReport,
  type TCommercialApprovalReconciliationRequest,
  type TCommercialApprovalRequest,
  type TCommercialApprovalView,
  type TSubmitCommercialApprovalResult,
} from './commercial-approvals/index.ts';
// The public reception routes (issue 18, task R): seed authentication, e-CF reception with its ARECF, received ACECF.
export {
  issueReceptionSeed,
  MAX_XML_DEPTH,
  NEVER_EXCHANGED_TYPES,
  RECEPTION_RETENTION_YEARS,
  RECEPTION_SEED_TTL_MS,
  RECEPTION_TOKEN_TTL_MS,
  receiveCommercialApproval,
  receiveEcf,
  receptionTokenSha256,
  validateReceptionCertificate,
  type TApprovalCorrespondence,
  type TReceiveCommercialApprovalResult,
  type TReceiveEcfResult,
} from './receiving/index.ts';
// The Partner API (issue 20): partners, keys and their permission table, accounts, plans; the taxpayer registry.
export * from './partners/index.ts';
export {
  importTaxpayerRegistry,
  isActiveTaxpayerStatus,
  lookUpTaxpayer,
  parseRegistryLine,
  type TRegistryImportReport,
  type TTaxpayer,
} from './taxpayer-registry/index.ts';
export {
  createPartnerWebhookEndpoint,
  findPartnerWebhookDeliveries,
  findPartnerWebhookEndpoints,
  getPartnerWebhookDelivery,
  PARTNER_WEBHOOK_EVENT_TYPES,
  replayPartnerWebhookDelivery,
  retirePartnerWebhookEndpoint,
  rotatePartnerWebhookSecret,
  sendPartnerTestWebhook,
  updatePartnerWebhookEndpoint,
  type TPartnerWebhookEndpoint,
} from './webhooks/index.ts';
