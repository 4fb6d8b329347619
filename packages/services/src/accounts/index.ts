/**
 * Accounts: tenants (taxpayer accounts), their API keys and the authentication of a request, and
 * their signing certificates (encrypted at rest under a rotating master keyring).
 */
export { accountDataOf } from './account-data.ts';
export type { TAccountDataSource } from './account-data.ts';
export { assertAccountProductionActive, assertProductionActive } from './assert-production-active.ts';
export { isEnvironmentOpen } from './assert-production-active.ts';
export { accountSettingsOf, getAccountSettings, type TAccountSettings } from './get-account-settings.ts';
export {
  ACCOUNT_PROFILE_LIMITS,
  updateAccountProfile,
  ZAccountProfileInput,
  type TAccountProfileInput,
} from './update-account-profile.ts';
export {
  MAX_PAYMENT_TERM_DAYS,
  updateAccountSettings,
  ZAccountSettingsInput,
  type TAccountSettingsInput,
} from './update-account-settings.ts';
export { createTenant, ZCreateTenantInput, type TCreateTenantInput } from './create-tenant.ts';
export { findTenants } from './find-tenants.ts';
export { searchTenants } from './search-tenants.ts';
export { getTenant } from './get-tenant.ts';
export { getFirstSteps, type TFirstSteps, type TFirstStepState } from './get-first-steps.ts';
export { enableBuyerEmail } from './enable-buyer-email.ts';
export { API_KEY_NAME_MAX_LENGTH, createApiKey } from './create-api-key.ts';
export { revokeApiKey } from './revoke-api-key.ts';
export { findApiKeys } from './find-api-keys.ts';
export {
  authenticateApiRequest,
  RATE_LIMIT_WINDOW_SECONDS,
  type TApiKeyPrincipal,
  type TApiRequestPrincipal,
  type TTenantProfile,
} from './authenticate-api-request.ts';
export { createCertificateKeyring, masterKeyIdOf, type TCertificateKeyring } from './certificate-keyring.ts';
export {
  CERTIFICATE_FILE_MAX_BYTES,
  previewTenantCertificate,
  storeTenantCertificate,
  type TCertificatePreview,
} from './store-tenant-certificate.ts';
export { loadActiveCertificate } from './load-active-certificate.ts';
export { findTenantCertificates } from './find-tenant-certificates.ts';
export { reencryptTenantCertificates } from './reencrypt-tenant-certificates.ts';
export {
  resolveDocumentCertificate,
  type TCertificateSource,
  type TDocumentCertificate,
} from './resolve-document-certificate.ts';
export type { TApiKeyRow, TTenantCertificateMetadata } from '../persistence/index.ts';
