/**
 * Partners (the Partner API, issue 20): software vendors that manage the fiscal accounts of their
 * customers through `/partner/v1`. Partners, their keys with permission profiles (THE permission
 * table), browser origins, authentication with the shared rate limits, fiscal accounts linked by the
 * Partner's own id (checked against the taxpayer registry), plans and billing usage.
 */
export {
  dominicanMonthOf,
  exactBrowserOrigin,
  fiscalAccountOf,
  generatePartnerKey,
  hashPartnerKey,
  PARTNER_ENVIRONMENT_OF,
  partnerPayloadError,
  type TFiscalAccount,
  type TPartner,
  type TPartnerEnvironment,
} from './partner-rules.ts';
export {
  authenticatePartnerRequest,
  PARTNER_RATE_LIMITS,
  PARTNER_RATE_WINDOW_SECONDS,
  type TPartnerPrincipal,
  type TPartnerRateLimits,
} from './authenticate-partner-request.ts';
export { createPartner, ZCreatePartnerInput, type TCreatePartnerInput } from './create-partner.ts';
export { updatePartner, ZUpdatePartnerInput, type TUpdatePartnerInput } from './update-partner.ts';
export { getPartner } from './get-partner.ts';
export { findPartners } from './find-partners.ts';
export { createPartnerKey, PARTNER_KEY_NAME_MAX_LENGTH } from './create-partner-key.ts';
export { revokePartnerKey } from './revoke-partner-key.ts';
export { findPartnerKeys } from './find-partner-keys.ts';
export { addBrowserOrigin } from './add-browser-origin.ts';
export { removeBrowserOrigin } from './remove-browser-origin.ts';
export { findBrowserOrigins } from './find-browser-origins.ts';
export {
  buyerEmailEnvironmentsOf,
  linkFiscalAccount,
  type TFiscalAccountInput,
} from './link-fiscal-account.ts';
export { findFiscalAccounts } from './find-fiscal-accounts.ts';
export {
  updateFiscalAccountProfile,
  type TFiscalAccountProfilePatch,
} from './update-fiscal-account-profile.ts';
export {
  assertAccountMayEmit,
  assertPartnerMayEmit,
  type TPartnerBilling,
  type TPartnerPlans,
} from './assert-partner-may-emit.ts';
export { getBillingUsage } from './get-billing-usage.ts';
export type { TBrowserOriginRow, TPartnerKeyRow } from '../persistence/index.ts';
export {
  createCertificateUploadSession,
  UPLOAD_SESSION_ATTEMPTS,
  UPLOAD_SESSION_TTL_SECONDS,
} from './create-certificate-upload-session.ts';
export { openUploadSession, uploadCertificateWithSession } from './upload-certificate-with-session.ts';
export { getFiscalAccount } from './get-fiscal-account.ts';
export { findUploadSessionOrigin } from './find-upload-session-origin.ts';
export { addPartnerUser } from './add-partner-user.ts';
export { CERTIFICATE_EXPIRING_WITHIN_DAYS, scanCertificateExpiry } from './scan-certificate-expiry.ts';
export { createCertificationSession } from './create-certification-session.ts';
