/**
 * Operations of the service that `@ecf/sdk` does not offer, and why. The SDK's generator skips
 * them (apps/api/test/sdk-generation.ts) and e2e/specs/sdk.spec.ts checks that the SDK's methods
 * plus these are exactly the operations of the served OpenAPI document.
 */
export const NOT_IN_SDK: Readonly<Record<string, string>> = {
  receptionSeed: "the tax authority's reception protocol, called by other taxpayers' e-CF software",
  receptionCertificateValidation: "the tax authority's reception protocol (its authentication)",
  receptionEcf: "the tax authority's reception protocol: a supplier's e-CF delivered to our customer",
  receptionCommercialApproval:
    "the tax authority's reception protocol: a buyer's ACECF delivered to our customer",
  webhookInbox: 'the test inbox receives the service’s own webhooks; nobody calls it as a client',
  uploadCertificatePreflight:
    "the browser's CORS preflight of uploadCertificate; browsers send it themselves",
};
