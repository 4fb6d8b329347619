/**
 * THE declared errors of every operation of the OpenAPI document (issue 26 §4): the error codes each
 * route's own code answers, keyed by the contracts' route names (a new route in @ecf/contract's direct-api.ts or
 * partner-api.ts does not compile without its line, as in route-limits.ts). The codes every
 * route of a kind shares (the HTTP layer, a JSON body, the API key, the Partner key and account) are
 * not repeated: {@link edgeErrorsOf} derives them from the route's contract. A code's status is the
 * registry's (ERROR_STATUS, error-codes.ts) unless the line gives `[code, status]` (the codes the
 * spec gives two statuses: AppError's `status` override).
 *
 * The API's openapi.ts documents exactly these codes per status (`x-error-codes`, and the enum of
 * `error.code`);  the API's route-errors.test.ts proves both directions against the code: every code the
 * route's code can throw (a TypeScript scan from where the route is registered, through the
 * use-cases) is declared here, and every code declared here is thrown on some path of the route.
 */
import { ROUTES, type TRouteContract } from './direct-api.ts';
import { CERTIFICATE_CHECK_ERRORS, ERROR_MESSAGES, ERROR_STATUS, type TErrorCode } from './error-codes.ts';
import { PARTNER_ROUTES, PARTNER_UPLOAD_PREFLIGHT_ROUTE, PARTNER_UPLOAD_ROUTE } from './partner-api.ts';

/** A code at its registry status, or `[code, status]` where the spec gives the code another status on this route. */
export type TDeclaredError = TErrorCode | readonly [TErrorCode, number];

/** The name of every operation of the document (route-limits.ts names the same routes). */
export type TDocumentedRouteName =
  keyof typeof ROUTES | keyof typeof PARTNER_ROUTES | 'uploadCertificate' | 'uploadCertificatePreflight';

/** Refusals any request can get before or around its route (client-errors.ts, app.ts guards, error-handler.ts). */
export const GLOBAL_ERRORS = [
  'INVALID_REQUEST',
  'REQUEST_HEADERS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
] as const satisfies readonly TErrorCode[];
/** A route that reads a JSON body (plugins/json-body.ts, body-limits.ts). */
export const JSON_BODY_ERRORS = [
  'INVALID_JSON',
  'BODY_TOO_LARGE',
  'UNSUPPORTED_CONTENT_TYPE',
] as const satisfies readonly TErrorCode[];
/** A direct route with scopes (plugins/authentication.ts, the rate limit; an unknown environment segment). */
export const API_KEY_ERRORS = [
  'API_KEY_MISSING',
  'API_KEY_INVALID',
  'INSUFFICIENT_SCOPE',
  'ROUTE_NOT_FOUND',
  'RATE_LIMIT_EXCEEDED',
] as const satisfies readonly TErrorCode[];
/** A Partner route with a permission (partner-auth.ts: key, permission, rate limits, closed payloads). */
export const PARTNER_KEY_ERRORS = [
  'PARTNER_KEY_MISSING',
  'PARTNER_KEY_INVALID',
  'INSUFFICIENT_SCOPE',
  'PARTNER_INACTIVE',
  'RATE_LIMIT_EXCEEDED',
  'INVALID_PARTNER_PAYLOAD',
] as const satisfies readonly TErrorCode[];
/** A Partner route that names a fiscal account (`{id}`). */
export const PARTNER_ACCOUNT_ERRORS = ['FISCAL_ACCOUNT_NOT_FOUND'] as const satisfies readonly TErrorCode[];

/** The codes a route shares with every route of its kind, read from its contract. */
export function edgeErrorsOf(route: TRouteContract): TErrorCode[] {
  return [
    ...GLOBAL_ERRORS,
    ...(route.body ? JSON_BODY_ERRORS : []),
    ...(route.scopes ? API_KEY_ERRORS : []),
    ...('permission' in route ? PARTNER_KEY_ERRORS : []),
    ...('account' in route && route.account === true ? PARTNER_ACCOUNT_ERRORS : []),
  ];
}

/** Each operation's own codes. */
export const ROUTE_ERRORS: Record<TDocumentedRouteName, readonly TDeclaredError[]> = {
  health: [],
  readiness: [],
  metrics: [],
  openapi: [],
  receptionSeed: ['RATE_LIMIT_EXCEEDED'],
  receptionCertificateValidation: ['BODY_TOO_LARGE', 'UNSUPPORTED_CONTENT_TYPE', 'RATE_LIMIT_EXCEEDED'],
  receptionEcf: [
    'BODY_TOO_LARGE',
    'UNSUPPORTED_CONTENT_TYPE',
    'RECEPTION_AUTHENTICATION_REQUIRED',
    'RATE_LIMIT_EXCEEDED',
  ],
  receptionCommercialApproval: [
    'BODY_TOO_LARGE',
    'UNSUPPORTED_CONTENT_TYPE',
    'RECEPTION_AUTHENTICATION_REQUIRED',
    'RATE_LIMIT_EXCEEDED',
  ],
  submitDocument: [
    'PAYMENT_REQUIRED',
    'ENCF_CONFLICT',
    'VALIDATION_FAILED',
    'PRODUCTION_NOT_ACTIVE',
    'PLAN_LIMIT_EXCEEDED',
    'ENCF_ANNULLED',
  ],
  listDocuments: ['INVALID_ISSUED_DOCUMENTS_QUERY', 'PRODUCTION_NOT_ACTIVE'],
  statusBatch: [],
  documentXml: ['INVALID_DOCUMENT_REFERENCE', 'NOT_ACCEPTABLE', 'NOT_FOUND', 'DOCUMENT_NOT_SIGNED'],
  documentPdf: [
    'INVALID_DOCUMENT_REFERENCE',
    'NOT_ACCEPTABLE',
    'NOT_FOUND',
    'DOCUMENT_NOT_SIGNED',
    'RI_AWAITING_TAXAUTH_RESPONSE',
    'RI_NOT_DELIVERABLE_REJECTED',
    'RI_NOT_DELIVERABLE_NOT_TRANSMITTED',
    'RI_NOT_DELIVERABLE_CANCELLED',
  ],
  printedLink: ['RI_LINK_INVALID', 'RI_NOT_DELIVERABLE', 'RI_LINK_EXPIRED'],
  webhookInbox: ['NOT_FOUND'],
  contingency: [],
  reconcileReceiverDelivery: [
    'NOT_FOUND',
    'RECEIVER_DELIVERY_NOT_UNCERTAIN',
    'RECEIVER_DELIVERY_OUTCOME_CONFLICT',
    'RECEIVER_DELIVERY_EVIDENCE_INVALID',
  ],
  listSequences: [],
  registerSequence: ['SEQUENCE_RANGE_INVALID', 'SEQUENCE_RANGE_OVERLAP', 'PRODUCTION_NOT_ACTIVE'],
  prevalidateAnnulment: ['ANECF_INVALID', 'ANECF_NOT_AVAILABLE_IN_CERTECF', 'ANECF_DOCUMENT_CONFLICT'],
  sendAnnulment: [
    'ANECF_IDEMPOTENCY_CONFLICT',
    'ANECF_RANGE_RESERVED',
    ['ANECF_DOCUMENT_CONFLICT', 409],
    'PRODUCTION_NOT_ACTIVE',
    'ANECF_IDEMPOTENCY_KEY_REQUIRED',
    'ANECF_INVALID',
    'ANECF_NOT_AVAILABLE_IN_CERTECF',
    'ANECF_DOCUMENT_CONFLICT',
    'CERTIFICATE_NOT_ACTIVE',
  ],
  listAnnulments: [],
  getAnnulment: ['NOT_FOUND'],
  reconcileAnnulment: ['NOT_FOUND', 'ANECF_NOT_UNCERTAIN', 'ANECF_RECONCILIATION_CONFLICT'],
  listReceivedDocuments: ['INVALID_RECEIVED_DOCUMENTS_QUERY', 'PRODUCTION_NOT_ACTIVE'],
  getReceivedDocument: ['RECEIVED_DOCUMENT_NOT_FOUND', 'PRODUCTION_NOT_ACTIVE'],
  getReceivedDocumentXml: [
    'NOT_ACCEPTABLE',
    'RECEIVED_DOCUMENT_NOT_FOUND',
    'RECEIVED_DOCUMENT_XML_NOT_AVAILABLE',
    'PRODUCTION_NOT_ACTIVE',
    'RECEIVED_DOCUMENT_XML_INTEGRITY_FAILED',
  ],
  listReceivedApprovals: ['INVALID_RECEIVED_DOCUMENTS_QUERY', 'PRODUCTION_NOT_ACTIVE'],
  getReceivedApproval: ['RECEIVED_COMMERCIAL_APPROVAL_NOT_FOUND', 'PRODUCTION_NOT_ACTIVE'],
  getReceivedApprovalXml: [
    'NOT_ACCEPTABLE',
    'RECEIVED_COMMERCIAL_APPROVAL_NOT_FOUND',
    'RECEIVED_COMMERCIAL_APPROVAL_XML_NOT_AVAILABLE',
    'PRODUCTION_NOT_ACTIVE',
    'RECEIVED_DOCUMENT_XML_INTEGRITY_FAILED',
  ],
  getCommercialApproval: ['RECEIVED_DOCUMENT_NOT_FOUND'],
  submitCommercialApproval: [
    'RECEIVED_DOCUMENT_NOT_FOUND',
    'COMMERCIAL_APPROVAL_DECISION_CONFLICT',
    'ACECF_TAXAUTH_SUBMISSION_UNCERTAIN',
    'RECEIVED_ECF_NOT_VALID_IN_TAXAUTH',
    'COMMERCIAL_APPROVAL_DATE_INVALID',
    'ACECF_TARGET_URL_NOT_ALLOWED',
    'ACECF_TAXAUTH_REJECTED',
    'ACECF_DISPATCH_NOT_RECEIVED',
    ['ACECF_TAXAUTH_SUBMISSION_UNCERTAIN', 502],
    'ACECF_TAXAUTH_CERTIFICATE_UNAVAILABLE',
    'DIRECTORY_TAXAUTH_AUTH_FAILED',
    'DIRECTORY_ACCESS_TOKEN_MISSING',
    'ACECF_SIGNING_FAILED',
  ],
  reconcileCommercialApproval: ['RECEIVED_DOCUMENT_NOT_FOUND', 'COMMERCIAL_APPROVAL_NOT_UNCERTAIN'],
  getCertificationCase: ['CERTIFICATION_ENVIRONMENT_REQUIRED'],
  prevalidateCertification: [
    'INVALID_CERTIFICATION_REQUEST',
    'CERTIFICATION_OWN_SET_REQUIRED',
    'CERTIFICATION_SIMULATION_NOT_READY',
    'CERTIFICATION_ENVIRONMENT_REQUIRED',
    'CERTIFICATION_SET_INVALID',
    'CERTIFICATION_SET_ISSUER_MISMATCH',
  ],
  startCertificationRun: [
    'INVALID_CERTIFICATION_REQUEST',
    'CERTIFICATE_NOT_ACTIVE',
    'CERTIFICATION_OWN_SET_REQUIRED',
    'CERTIFICATION_SET_ALREADY_USED',
    'CERTIFICATION_RUN_IN_PROGRESS',
    'CERTIFICATION_SIMULATION_NOT_READY',
    'CERTIFICATION_APPROVED',
    'CERTIFICATION_ENVIRONMENT_REQUIRED',
    'CERTIFICATION_SET_INVALID',
    'CERTIFICATION_SET_ISSUER_MISMATCH',
    'CERTIFICATION_MANAGED_BY_PARTNER',
  ],
  getCertificationApprovals: ['CERTIFICATION_ENVIRONMENT_REQUIRED'],
  sendCertificationApprovals: [
    'COMMERCIAL_APPROVAL_SET_REQUIRED',
    'CERTIFICATION_DATA_TESTS_PENDING',
    'CERTIFICATE_NOT_ACTIVE',
    'COMMERCIAL_APPROVALS_IN_PROGRESS',
    'CERTIFICATION_ENVIRONMENT_REQUIRED',
    'CERTIFICATION_MANAGED_BY_PARTNER',
    'CERTIFICATION_APPROVED',
    'COMMERCIAL_APPROVAL_SET_INVALID',
    'COMMERCIAL_APPROVAL_SET_OTHER_TAXPAYER',
  ],
  restartCertification: [
    'CERTIFICATION_PART_INVALID',
    'CERTIFICATION_ENVIRONMENT_REQUIRED',
    'CERTIFICATION_APPROVED',
    'CERTIFICATION_MANAGED_BY_PARTNER',
  ],
  recordCertificationAttestation: [
    'INVALID_CERTIFICATION_REQUEST',
    'CERTIFICATION_PREREQUISITES_MISSING',
    'CERTIFICATION_ENVIRONMENT_REQUIRED',
    'CERTIFICATION_MANAGED_BY_PARTNER',
  ],
  resendCertificationDocument: [
    'NOT_FOUND',
    'CERTIFICATION_DOCUMENT_NOT_RESENDABLE',
    'CERTIFICATION_ENVIRONMENT_REQUIRED',
    'CERTIFICATION_MANAGED_BY_PARTNER',
  ],
  getCertificationRun: ['NOT_FOUND', 'CERTIFICATION_ENVIRONMENT_REQUIRED'],
  getCertificationEvidence: ['NOT_FOUND', 'CERTIFICATION_ENVIRONMENT_REQUIRED'],
  linkFiscalAccount: [
    'RNC_NOT_AVAILABLE',
    'ACCOUNT_LINK_CONFLICT',
    'RNC_NOT_IN_TAXAUTH_REGISTRY',
    'RNC_NOT_ACTIVE_IN_TAXAUTH',
  ],
  listFiscalAccounts: [],
  getFiscalAccount: [],
  getFiscalAccountStatus: [],
  updateFiscalAccountProfile: ['RNC_CHANGE_REQUIRES_RECERTIFICATION'],
  createCertificateUploadSession: ['INVALID_BROWSER_ORIGIN', 'BROWSER_ORIGIN_NOT_ALLOWED'],
  createCertificateRotationRequest: [
    'INVALID_BROWSER_ORIGIN',
    'CERTIFICATE_NOT_ACTIVE',
    'BROWSER_ORIGIN_NOT_ALLOWED',
  ],
  getCertificate: [],
  getProduction: [],
  submitProductionDocument: [
    'PAYMENT_REQUIRED',
    'ENCF_CONFLICT',
    'ENCF_ANNULLED',
    'VALIDATION_FAILED',
    'PRODUCTION_NOT_ACTIVE',
    'PLAN_LIMIT_EXCEEDED',
  ],
  productionDocumentStatusBatch: [],
  getProductionDocument: ['NOT_FOUND'],
  productionDocumentXml: ['NOT_FOUND', 'DOCUMENT_NOT_SIGNED', 'NOT_ACCEPTABLE'],
  productionDocumentPdf: [
    'NOT_FOUND',
    'DOCUMENT_NOT_SIGNED',
    'RI_AWAITING_TAXAUTH_RESPONSE',
    'NOT_ACCEPTABLE',
    'RI_NOT_DELIVERABLE_REJECTED',
    'RI_NOT_DELIVERABLE_NOT_TRANSMITTED',
    'RI_NOT_DELIVERABLE_CANCELLED',
  ],
  prevalidateProductionAnnulment: ['ANECF_INVALID', 'ANECF_DOCUMENT_CONFLICT'],
  sendProductionAnnulment: [
    'IDEMPOTENCY_CONFLICT',
    'ANECF_RANGE_RESERVED',
    ['ANECF_DOCUMENT_CONFLICT', 409],
    'PRODUCTION_NOT_ACTIVE',
    'ANECF_IDEMPOTENCY_KEY_REQUIRED',
    'ANECF_INVALID',
    'ANECF_DOCUMENT_CONFLICT',
    'CERTIFICATE_NOT_ACTIVE',
  ],
  listProductionAnnulments: [],
  getProductionAnnulment: ['NOT_FOUND'],
  listProductionSequences: [],
  registerProductionSequence: ['SEQUENCE_RANGE_OVERLAP', 'PRODUCTION_NOT_ACTIVE', 'SEQUENCE_RANGE_INVALID'],
  listProductionInboundDocuments: ['PRODUCTION_NOT_ACTIVE', 'INVALID_RECEIVED_DOCUMENTS_QUERY'],
  submitProductionCommercialApproval: [
    'RECEIVED_DOCUMENT_NOT_FOUND',
    'COMMERCIAL_APPROVAL_DECISION_CONFLICT',
    'RECEIVED_ECF_NOT_VALID_IN_TAXAUTH',
    'ACECF_TAXAUTH_SUBMISSION_UNCERTAIN',
    'COMMERCIAL_APPROVAL_DATE_INVALID',
    'ACECF_TARGET_URL_NOT_ALLOWED',
    'ACECF_TAXAUTH_REJECTED',
    'ACECF_DISPATCH_NOT_RECEIVED',
    ['ACECF_TAXAUTH_SUBMISSION_UNCERTAIN', 502],
    'ACECF_TAXAUTH_CERTIFICATE_UNAVAILABLE',
    'DIRECTORY_TAXAUTH_AUTH_FAILED',
    'DIRECTORY_ACCESS_TOKEN_MISSING',
    'ACECF_SIGNING_FAILED',
  ],
  submitTestecfDocument: ['ENCF_CONFLICT', 'ENCF_ANNULLED', 'VALIDATION_FAILED'],
  testecfDocumentStatusBatch: [],
  getTestecfDocument: ['NOT_FOUND'],
  testecfDocumentXml: ['NOT_FOUND', 'DOCUMENT_NOT_SIGNED', 'NOT_ACCEPTABLE'],
  testecfDocumentPdf: [
    'NOT_FOUND',
    'DOCUMENT_NOT_SIGNED',
    'RI_AWAITING_TAXAUTH_RESPONSE',
    'NOT_ACCEPTABLE',
    'RI_NOT_DELIVERABLE_REJECTED',
    'RI_NOT_DELIVERABLE_NOT_TRANSMITTED',
    'RI_NOT_DELIVERABLE_CANCELLED',
  ],
  getBillingUsage: [],
  listWebhookEndpoints: [],
  createWebhookEndpoint: [],
  updateWebhookEndpoint: ['NOT_FOUND', 'WEBHOOK_ENDPOINT_RETIRED'],
  retireWebhookEndpoint: ['NOT_FOUND'],
  testWebhookEndpoint: ['NOT_FOUND', 'FISCAL_ACCOUNT_NOT_FOUND', 'WEBHOOK_ENDPOINT_RETIRED'],
  rotateWebhookSecret: ['NOT_FOUND', 'WEBHOOK_ROTATION_IN_PROGRESS', 'WEBHOOK_ENDPOINT_RETIRED'],
  listWebhookDeliveries: [],
  getWebhookDelivery: ['NOT_FOUND'],
  replayWebhookDelivery: ['NOT_FOUND', 'WEBHOOK_REPLAY_NOT_ALLOWED'],
  getTaxauthRegistration: [],
  signCertificationXml: ['CERTIFICATE_NOT_ACTIVE', 'CERTIFICATION_XML_INVALID'],
  uploadCertificationTestSet: ['CERTIFICATION_SET_INVALID', 'CERTIFICATION_SET_ISSUER_MISMATCH'],
  listCertificationTestSets: [],
  listOfficialSets: [],
  createCertificationCase: ['NOT_FOUND', 'CERTIFICATION_CASE_ALREADY_OPEN'],
  partnerGetCertificationCase: ['NOT_FOUND'],
  partnerRecordCertificationAttestation: ['NOT_FOUND', 'CERTIFICATION_PREREQUISITES_MISSING'],
  partnerStartCertificationRun: [
    'NOT_FOUND',
    'IDEMPOTENCY_CONFLICT',
    'CERTIFICATE_NOT_ACTIVE',
    'CERTIFICATION_OWN_SET_REQUIRED',
    'CERTIFICATION_SET_ALREADY_USED',
    'CERTIFICATION_RUN_IN_PROGRESS',
    'CERTIFICATION_SIMULATION_NOT_READY',
    'CERTIFICATION_APPROVED',
    ['CERTIFICATION_OWN_SET_REQUIRED', 422],
    'CERTIFICATION_SET_INVALID',
    'CERTIFICATION_SET_ISSUER_MISMATCH',
    'IDEMPOTENCY_KEY_REQUIRED',
  ],
  listCertificationRuns: ['NOT_FOUND'],
  partnerGetCertificationRun: ['NOT_FOUND'],
  partnerGetCertificationEvidence: ['NOT_FOUND'],
  getCertificationPrintedPdfs: ['NOT_FOUND'],
  getCertificationConsumerInvoices: ['NOT_FOUND'],
  getCertificationConsumerSummaries: ['NOT_FOUND'],
  changeCertificationOfficialSet: [
    'NOT_FOUND',
    'CERTIFICATION_RUN_IN_PROGRESS',
    'COMMERCIAL_APPROVALS_IN_PROGRESS',
    'CERTIFICATION_APPROVED',
  ],
  partnerRestartCertification: ['NOT_FOUND', 'CERTIFICATION_APPROVED'],
  partnerSendCertificationApprovals: [
    'NOT_FOUND',
    'IDEMPOTENCY_CONFLICT',
    'CERTIFICATION_DATA_TESTS_PENDING',
    'CERTIFICATE_NOT_ACTIVE',
    'COMMERCIAL_APPROVALS_IN_PROGRESS',
    'CERTIFICATION_APPROVED',
    'COMMERCIAL_APPROVAL_SET_INVALID',
    'COMMERCIAL_APPROVAL_SET_OTHER_TAXPAYER',
    'IDEMPOTENCY_KEY_REQUIRED',
  ],
  partnerGetCertificationApprovals: ['NOT_FOUND'],
  partnerResendCertificationDocument: ['NOT_FOUND', 'CERTIFICATION_DOCUMENT_NOT_RESENDABLE'],
  closeCertificationCase: [
    'NOT_FOUND',
    'CERTIFICATION_RUN_IN_PROGRESS',
    'COMMERCIAL_APPROVALS_IN_PROGRESS',
    'CERTIFICATION_APPROVED',
  ],
  createCertificationSession: ['INVALID_BROWSER_ORIGIN', 'BROWSER_ORIGIN_NOT_ALLOWED'],
  requestProductionActivation: ['CERTIFICATION_NOT_APPROVED', 'PRODUCTION_STATE_CONFLICT'],
  uploadCertificate: [
    'INVALID_PARTNER_PAYLOAD',
    'BODY_TOO_LARGE',
    'PARTNER_INACTIVE',
    'UPLOAD_SESSION_INVALID',
    'UPLOAD_ORIGIN_MISMATCH',
    'UPLOAD_SESSION_EXHAUSTED',
    'UPLOAD_SESSION_EXPIRED',
    ...CERTIFICATE_CHECK_ERRORS,
  ],
  uploadCertificatePreflight: ['INVALID_PARTNER_PAYLOAD'],
};

/** The declared codes of a route by status (edge and own), each list sorted. */
export function declaredErrorsOf(
  name: TDocumentedRouteName,
  route: TRouteContract,
): Map<number, TErrorCode[]> {
  const byStatus = new Map<number, Set<TErrorCode>>();
  const add = (code: TErrorCode, status: number) => {
    const codes = byStatus.get(status) ?? new Set<TErrorCode>();
    codes.add(code);
    byStatus.set(status, codes);
  };
  for (const code of edgeErrorsOf(route)) add(code, ERROR_STATUS[code]);
  for (const declared of ROUTE_ERRORS[name]) {
    if (typeof declared === 'string') add(declared, ERROR_STATUS[declared]);
    else add(declared[0], declared[1]);
  }
  return new Map(
    [...byStatus.entries()].sort(([a], [b]) => a - b).map(([status, codes]) => [status, [...codes].sort()]),
  );
}

/** A row of the error code registry: the code, its status, what it means, the operations that may answer it. */
export type TErrorCodeEntry = {
  code: TErrorCode;
  status: number;
  message: string;
  /** The operations (`operationId`) that declare it, sorted; empty for a code only the portal answers. */
  operations: string[];
};

/**
 * The error code registry as one list, in the table's order: the operations of both APIs that
 * declare each code (the edge codes each operation's kind shares included, and the codes every
 * request may get). A code no operation declares is one only the portal answers.
 */
export function errorCodeRegistry(): TErrorCodeEntry[] {
  const routes: Record<TDocumentedRouteName, TRouteContract> = {
    ...ROUTES,
    ...PARTNER_ROUTES,
    uploadCertificate: PARTNER_UPLOAD_ROUTE,
    uploadCertificatePreflight: PARTNER_UPLOAD_PREFLIGHT_ROUTE,
  };
  const operations = new Map<TErrorCode, Set<string>>();
  for (const [name, route] of Object.entries(routes) as [TDocumentedRouteName, TRouteContract][]) {
    for (const codes of declaredErrorsOf(name, route).values())
      for (const code of codes) operations.set(code, (operations.get(code) ?? new Set()).add(name));
  }
  return (Object.keys(ERROR_STATUS) as TErrorCode[]).map((code) => ({
    code,
    status: ERROR_STATUS[code],
    message: ERROR_MESSAGES[code],
    operations: [...(operations.get(code) ?? [])].sort(),
  }));
}
