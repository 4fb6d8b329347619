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
