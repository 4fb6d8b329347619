/**
 * @ecf/services: the use-cases shared by the API, the worker and the portal, grouped by domain
 * (`src/<domain>/`, each with an `index.ts` that is its surface; one use-case per file, verb first,
 * one options object carrying the database and the tenant). Every statement they run lives in
 * `src/persistence/`. This file is the package's public surface: only what other workspaces use.
 */
export { AppError, type TErrorCode } from './shared/errors.ts';
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
  type TSubmissionIssue,
} from './emission/index.ts';
export { signQueuedDocument } from './signing/index.ts';
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
  findIssuedDocuments,
  getDocument,
  getDocumentPdf,
  getPdfByRiLink,
  getSignedDocumentXml,
  isPrintable,
  printingOf,
  printingStatusOf,
} from './documents/index.ts';
export {
  purgeExpiredRecords,
  registerWorkerInstance,
  renewWorkerInstance,
  requeueLostDocuments,
  SWEEP_EVENT_TYPE,
  sweepDocuments,
} from './maintenance/index.ts';
