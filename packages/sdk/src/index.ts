// @ecf/sdk: the e-CF service's API for ERPs, POS systems and Partners (README.md).
export { EcfClient, PartnerClient, type TEnvironment } from './clients.ts';
export type { TClientOptions, TRequestOptions, TCertificateUpload } from './client-core.ts';
export { retryAfterSecondsOf } from './client-core.ts';
export { EcfDownload } from './download.ts';
export * from './errors.ts';
export * from './webhooks.ts';
export {
  OPERATIONS,
  type TInputs,
  type TOutputs,
  type TOperationId,
  type TItemOf,
} from './generated/operations.ts';
export type { components, operations, paths } from './generated/openapi.ts';
