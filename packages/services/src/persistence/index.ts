/**
 * The persistence seam of the services: EVERY statement the use-cases run lives in this folder, in
 * one write style (a guarded update as one statement of data-modifying CTEs, group-committed on the
 * pool: `guarded-write.ts`) with typed rows in and out. Use-cases hold no SQL and no Prisma query of
 * their own (a lint rule keeps it so: eslint.config.js, "persistence seam").
 */
export {
  DOCUMENT_STATE_COLUMNS,
  documentStateOf,
  transmissionDocumentOf,
  type TActiveCertificateRef,
  type TDocumentState,
  type TDocumentStateRow,
  type TTransmissionDocument,
} from './documents/document-rows.ts';
export { artifactInput, type TArtifactInput, type TEventInput } from './statements.ts';
export { isRetryableConflict, retryOnConflict, type TRetryOnConflictOptions } from './retry-on-conflict.ts';
export type { TFollowUpJobs, TWriteResult } from './guarded-write.ts';
export {
  appendDocumentEvents,
  changeDocument,
  type TDocumentChange,
  type TDocumentColumns,
} from './documents/change-document.ts';
export {
  changeDelivery,
  ensureReceiverDelivery,
  findDocumentWithDelivery,
  getReceiverDelivery,
  type TDeliveryChange,
  type TDeliveryColumns,
  type TDeliveryRow,
  type TReceiverDelivery,
} from './receiver-delivery/receiver-deliveries.ts';
export {
  findLastEventsOfTypes,
  loadDeliveryDocument,
  loadQueuedDocument,
  loadTransmissionDocument,
  readSignedXml,
  readSubmittedPayloadText,
  type TDeliveryDocument,
} from './documents/step-reads.ts';
export {
  findReferencedDocument,
  findStoredSubmission,
  insertSubmittedDocument,
  isEncfTaken,
  isUniqueViolation,
  type TSubmittedDocument,
} from './emission/submissions.ts';
export {
  countIssuedDocuments,
  findDocumentById,
  findDocumentsByReferences,
  type TDocumentStatusRow,
  findDocumentsInContingency,
  findIssuedByReference,
  findIssuedDocumentsPage,
  findScopedDocument,
  findSignedXmlArtifact,
  type TIssuedFilters,
} from './documents/document-queries.ts';
export {
  findDocumentArtifactRows,
  findDocumentDeliveryRow,
  findDocumentEventRows,
  type TArtifactListRow,
  type TDeliveryListRow,
  type TDocumentEventRow,
} from './documents/document-details.ts';
export {
  closeEpisode,
  openEpisode,
  type TEpisodeClose,
  type TReceptionService,
} from './transmission/episodes.ts';
export {
  findUnsentOperatorNotification,
  markOperatorNotificationSent,
  recordOperatorNotification,
  type TOperatorNotification,
} from './support/operator-notifications.ts';
export {
  inSweepTransaction,
  type TStalledDocument,
  type TSweepReason,
  type TSweepTransaction,
} from './maintenance/sweep.ts';
export {
  addBuyerEmailEnvironment,
  findAllTenants,
  searchTenantRows,
  findTenant,
  findTenantApiKey,
  findTenantApiKeys,
  insertApiKey,
  insertTenant,
  lookUpAndCountApiKey,
  markApiKeyRevoked,
  touchApiKey,
  type TKeyLookup,
  type TKeyLookupRow,
} from './accounts/accounts.ts';
export {
  findApiKeyRows,
  insertAuditedApiKey,
  revokeAuditedApiKey,
  type TApiKeyRow,
} from './accounts/api-keys.ts';
export {
  findActiveCertificateRow,
  findCertificatesOfTenant,
  findCertificatesSealedWithOtherKeys,
  insertActiveCertificate,
  markCertificatesExpiring,
  readSealedCertificate,
  resealCertificate,
  type TSealedCertificate,
  type TTenantCertificateMetadata,
} from './accounts/certificates.ts';
export {
  claimBuyerEmailAttempt,
  loadBuyerEmailDocument,
  type TBuyerEmailDocument,
} from './buyer-email/buyer-email.ts';
export { deleteExpiredRecords } from './maintenance/maintenance.ts';
export {
  deleteRecoveredWorkerInstances,
  findDeadWorkerInstances,
  findWorkerInstanceFate,
  insertWorkerInstance,
  markWorkerInstancesRecovered,
  touchWorkerInstance,
} from './maintenance/worker-instances.ts';
export {
  clearUserSignInFailures,
  findUserByEmail,
  findUserById,
  insertUser,
  recordUserSignInFailure,
  updateUserPassword,
  type TUserRow,
} from './identity/users.ts';
export {
  countSignInAttempt,
  findPhantomSignInFailures,
  recordPhantomSignInFailure,
} from './identity/sign-in-counters.ts';
export {
  insertPortalSession,
  loadPortalSession,
  revokePortalSessionRow,
  revokeUserSessionRows,
  setSessionActiveTenant,
  touchPortalSession,
  type TSessionRow,
} from './identity/portal-sessions.ts';
export {
  changeMembershipRole,
  deleteMembership,
  findTenantMemberRow,
  findTenantMemberRows,
  findUserTenantRows,
  insertMembership,
  isTenantMemberEmail,
  type TMemberRow,
  type TMembershipChange,
  type TMembershipRemoval,
  type TUserTenantRow,
} from './identity/memberships.ts';
export {
  acceptInvitationRow,
  findInvitationByTokenHash,
  findPendingInvitationRows,
  insertInvitation,
  revokeInvitationRow,
  type TAcceptingUser,
  type TInvitationAcceptance,
  type TInvitationRow,
} from './identity/invitations.ts';
export { consumePasswordReset, findPasswordReset, insertPasswordReset } from './identity/password-resets.ts';
export {
  appendAuditEntryRow,
  appendAuditEntryUnlessRecent,
  findTenantAuditEntries,
  insertAuditEntry,
  type TAuditEntry,
  type TAuditEntryInput,
} from './audit/portal-audit.ts';
export {
  changeAccountRow,
  findAccountRow,
  type TAccountChanges,
  type TAccountRow,
} from './accounts/account-settings.ts';
export { findDocumentSummary, type TDocumentSummaryRow } from './documents/document-summary.ts';
export { findFirstStepsRow, type TFirstStepsRow } from './accounts/first-steps.ts';
export {
  findContingencyDocumentsOfAllTenants,
  findDocumentRefs,
  findDocumentScope,
  findOperatorNotificationRow,
  findOperatorNotificationRows,
  findTaxauthEpisodeRows,
  findTenantRefs,
  findUncertainDeliveryRows,
  findUserRefs,
  markOperatorNotificationAcknowledged,
  type TEpisodeRow,
  type TOperatorNotificationRow,
  type TSupportTenantRef,
  type TUncertainDeliveryRow,
} from './support/support.ts';
export { loadDocumentEvidence, type TEvidenceArtifact, type TEvidenceEvent } from './documents/evidence.ts';
export {
  findWebhookDeliveryRows,
  findWebhookEndpointRow,
  findWebhookEndpointRows,
  insertAuditedWebhookEndpoint,
  insertWebhookTest,
  findWebhookDeliveryRow,
  replayWebhookDeliveryRow,
  retireWebhookEndpointRow,
  retryAuditedWebhookDeliveryNow,
  rotateWebhookSecretRow,
  updateWebhookEndpointRow,
  type TEndpointAuditEntry,
  type TEndpointChanges,
  type TEndpointRowOf,
  type TPartnerWebhookEndpointRow,
  type TSealedSecret,
  type TWebhookEndpointOwner,
  type TWebhookAttemptRow,
  type TWebhookDeliveryRow,
  type TWebhookDeliveryStatus,
  type TWebhookEndpointRow,
  type TWebhookEndpointStatus,
} from './webhooks/webhook-endpoints.ts';
export {
  deleteExpiredWebhookInboxRequests,
  findWebhookInboxOfEndpoint,
  findWebhookInboxRequestRows,
  insertWebhookInboxRequest,
  WEBHOOK_INBOX_KEEP_DAYS,
  WEBHOOK_INBOX_KEEP_REQUESTS,
  type TWebhookInboxRequestRow,
  type TWebhookInboxRow,
} from './webhooks/webhook-inboxes.ts';
export {
  findOverlappingSequenceRange,
  findSequenceRangeOfEncf,
  insertSequenceRange,
  isExclusionViolation,
  listSequenceRangesWithCounts,
  type TSequenceRangeRow,
  type TSequenceRangeWithCounts,
} from './sequences/sequences.ts';
export {
  findAnnulment,
  findAnnulmentByKey,
  failStaleBuiltAnnulments,
  findAnnulmentPage,
  findAnnulmentSearchPage,
  countAnnulments,
  type TAnnulmentEncfSearch,
  findAnnulmentsToRecover,
  findDocumentsInRanges,
  isEncfAnnulled,
  markAnnulmentSending,
  reconcileUncertainAnnulment,
  recordAnnulmentAnswer,
  reserveAnnulment,
  reservingAnnulmentOf,
  RESERVED_ENCF_SQLSTATE,
  settleCoveredDocuments,
  type TAnnulmentRow,
  type TCoveredDocumentRow,
  type TCoveredDocuments,
  type TReservation,
  type TReservedRange,
} from './annulments/annulments.ts';
export {
  changeCommercialApproval,
  findActiveCommercialApproval,
  findArtifactContent,
  findInboundForApproval,
  findLatestCommercialApproval,
  insertCommercialApproval,
  loadCommercialApprovalForDispatch,
  reconcileCommercialApprovalRow,
  type TCommercialApprovalColumns,
  type TCommercialApprovalGuard,
  type TCommercialApprovalRow,
  type TInboundEcfForApproval,
} from './commercial-approvals/commercial-approvals.ts';
// Task L (issue 18): reads of received documents, the validity check's write, the due sweep.
export {
  findInboundArtifact,
  findInboundForValidityCheck,
  findInboundItem,
  countInboundDocuments,
  findInboundPage,
  findReceivedByEncf,
  markCommercialApprovalsDue,
  recordInboundValidity,
  type TInboundRow,
  type TReceivedFilters,
} from './inbound/inbound-queries.ts';
// Task R (issue 18): the public reception routes' writes (received e-CF and ACECF, seeds, tokens).
export {
  claimInboundRefusalSlot,
  deleteExpiredInboundRefusals,
  findIssuedDocumentForApproval,
  findReceivedInboundId,
  findReceivingTenant,
  recordInboundDocument,
  recordInboundRefusal,
  type TInboundRefusalInsert,
  type TInboundArtifact,
  type TInboundInsert,
  type TInboundRecorded,
  type TIssuedDocumentForApproval,
  type TReceivingTenant,
} from './inbound/inbound-documents.ts';
export {
  consumeReceptionSeed,
  deleteExpiredReceptionCredentials,
  findReceptionToken,
  insertReceptionSeed,
  insertReceptionToken,
} from './receiving/reception-auth.ts';
// Certification (issue 19): cases, completions, attestations, sets; runs and their items; the
// commercial approvals sends of the tests; the job chains that drive runs and sends.
export {
  changeCertificationCase,
  changeProductionState,
  ensureOpenCertificationCase,
  findCertificationAttestations,
  findCertificationCase,
  findCertificationSet,
  findCertificationSets,
  findCertificationSummaryRows,
  findHighestSequencePerType,
  findManagingPartnerId,
  findOpenCertificationCase,
  findCasesToSync,
  findReceptionsInCerteCF,
  findStepCompletions,
  findTakenEncfs,
  inCertificationTransaction,
  insertCertificationAttestation,
  readCertificationSetContent,
  storeCertificationSet,
  type TAttestationRow,
  type TCaseToSync,
  type TCertificationCaseRow,
  type TCertificationSetRow,
  type TStepCompletionRow,
} from './certification/certification-cases.ts';
export {
  findOfficialSetRow,
  findOfficialSetRows,
  insertOfficialSet,
  readOfficialSetContent,
  retireOfficialSetRow,
  type TOfficialSetRow,
} from './certification/certification-official-sets.ts';
export {
  changeApprovalItem,
  changeCertificationItems,
  claimChainStep,
  continueChain,
  findActiveCertificationRun,
  findApprovalItems,
  findApprovalSend,
  findApprovalSendByKey,
  findCertificationItemOfDocument,
  findCertificationItems,
  findCertificationRun,
  findCertificationRunByKey,
  findCertificationRunsOfCase,
  findLatestApprovalSend,
  findPendingItemDocuments,
  findStalledChains,
  finishApprovalSend,
  finishCertificationRun,
  insertApprovalSend,
  insertCertificationRun,
  isIdempotencyKeyTaken,
  readArtifactContent,
  replaceCertificationPart,
  resumeChain,
  storeRunEvidence,
  type TApprovalItemRow,
  type TApprovalSendRow,
  type TCertificationItemRow,
  type TCertificationItemView,
  type TCertificationRunRow,
  type TNewCertificationItem,
} from './certification/certification-runs.ts';
// Issue 20: the Partner API (partners, keys, origins, accounts, usage) and the taxpayer registry.
export {
  authenticatePartnerRow,
  deletePartnerBrowserOrigin,
  findPartnerAccountPage,
  findPartnerAccountRow,
  findPartnerBrowserOriginRows,
  findPartnerKeyRows,
  findPartnerRow,
  findPartnerRowOfTenant,
  findPartnerRows,
  findPartnerUsageRows,
  findPartnerUserRow,
  insertPartnerUser,
  type TPartnerUserRow,
  insertPartner,
  insertPartnerBrowserOrigin,
  insertPartnerKey,
  linkPartnerAccount,
  revokePartnerKeyRow,
  sumPartnerUsage,
  touchPartnerKey,
  updatePartnerAccountRow,
  updatePartnerRow,
  type TBrowserOriginRow,
  type TPartnerAccountChanges,
  type TPartnerAccountRecord,
  type TPartnerAuthRow,
  type TPartnerChanges,
  type TPartnerKeyRow,
  type TPartnerRow,
  type TRncHolder,
} from './partners/partners.ts';
export {
  completeRegistryImport,
  copyRegistryEntries,
  discardRegistryImport,
  findCurrentRegistryImport,
  findRegistryEntry,
  insertRegistryImport,
} from './taxpayer-registry/taxpayer-registry.ts';
export {
  findPartnerWebhookEndpointRows,
  insertPartnerWebhookEndpoint,
} from './webhooks/partner-webhook-endpoints.ts';
export {
  completeUploadSession,
  findUploadSession,
  insertUploadSession,
  useUploadAttempt,
  type TUploadSessionRow,
} from './accounts/certificate-upload-sessions.ts';
export {
  completePortalExport,
  countAuditEntriesInRange,
  deleteExpiredPortalExports,
  failPortalExport,
  findArtifactContents,
  findAuditEntriesInRange,
  findPortalExport,
  findPortalExportContent,
  findPortalExportForJob,
  findSignedXmlByDocument,
  insertPortalExport,
  updatePortalExportProgress,
  type TAuditExportRow,
  type TPortalExportRow,
  type TPortalExportStatus,
} from './exports/portal-exports.ts';
