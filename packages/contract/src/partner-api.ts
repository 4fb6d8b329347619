// The Partner API's part of the REST contract (`/partner/v1`, issue 20; docs/partner-api.md):
// every route's method, path, parameters, body, responses and THE permission it needs. The API
// registers these routes (only when PSFE_PARTNER_API_ENABLED), `/openapi.json` documents them, and
// the permission test generates a case for every route × key profile from this table and the
// permission table (partner-key-profiles.ts). Certification routes are added here as rows when built.
import { z } from 'zod';
import {
  ATTESTABLE_STEPS,
  CERTIFICATION_RUN_ITEM_FIELDS,
  CERTIFICATION_RUN_STATES,
  CERTIFICATION_RUN_TIMES,
  CERTIFICATION_XML_KINDS,
  WORKBOOK_BASE64_MAX_CHARACTERS,
  ZCertificationStepView,
} from './certification.ts';
import { RECEIVED_GROUPS } from './document-lists.ts';
import { type TPartnerPermission } from './partner-key-profiles.ts';
import { PARTNER_WEBHOOK_EVENT_TYPES, WEBHOOK_DELIVERY_STATUSES } from './webhook-event-types.ts';
import { WEBHOOK_DELIVERY_FIELDS } from './webhook-payloads.ts';
import {
  ZAnnulment,
  ZAnnulmentPrevalidation,
  ZAnnulmentRequest,
  ZAnnulmentSummary,
  ZCommercialApprovalRequestBody,
  ZCommercialApprovalSubmitResponse,
  ZCommercialApprovalErrorResponse,
  ZErrorResponse,
  ZReceivedDocument,
  ZSequenceRange,
  ZSequenceRangeRequest,
  ZStatusResult,
  ZSubmitResponse,
  ZSubmitValidationError,
  ZXmlDownloadHeaders,
  ZPdfDownloadHeaders,
  type TRouteContract,
} from './direct-api.ts';

/** The Partner API's base path (Versioning 2: versioned in its path). */
export const PARTNER_BASE = '/partner/v1';

/** A page of the fiscal accounts' listing: default and largest. */
export const FISCAL_ACCOUNTS_DEFAULT_LIMIT = 50;
export const FISCAL_ACCOUNTS_MAX_LIMIT = 100;

/** Text limits of Partner payloads (spec Limits, "Partner text limits"). */
export const PARTNER_TEXT_LIMITS = {
  idempotencyKey: 200,
  correlationId: 200,
  actorRef: 200,
  notes: 4000,
  evidenceRefs: 50,
  evidenceRef: 500,
  webhookName: 200,
  webhookUrl: 2048,
  externalTenantId: 200,
} as const;

/** Certification inputs (for the certification routes' rows): the spec's text limits. */
export const ZActorRef = z.string().min(1).max(PARTNER_TEXT_LIMITS.actorRef);
export const ZNotes = z.string().max(PARTNER_TEXT_LIMITS.notes);
export const ZEvidenceRefs = z
  .array(z.string().min(1).max(PARTNER_TEXT_LIMITS.evidenceRef))
  .max(PARTNER_TEXT_LIMITS.evidenceRefs);

export const ZPartnerEnvironment = z
  .enum(['production', 'testecf', 'certecf'])
  .describe('production is eCF, testecf TesteCF, certecf CerteCF');

const ZId = z.uuid().describe('opaque UUID');
export const ZAccountParams = z.strictObject({ id: ZId.describe('fiscal account id (UUID)') });
export const ZExternalIdParams = z.strictObject({
  externalTenantId: z
    .string()
    .min(1)
    .max(PARTNER_TEXT_LIMITS.externalTenantId)
    .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
    .describe("the Partner's own id of its customer (1 to 200 printable ASCII characters)"),
});

const ZRnc = z.string().regex(/^(\d{9}|\d{11})$/, 'an RNC has 9 digits (or a cédula 11)');
const ZPrintedRepresentationEmail = z
  .strictObject({ production: z.boolean().optional(), testecf: z.boolean().optional() })
  .describe('buyer e-mail with the link to the PDF, per environment (production: eCF, testecf: TesteCF)');
const PROFILE_FIELDS = {
  legalName: z.string().trim().min(1).max(150).optional().describe('default: the registry name'),
  tradeName: z.string().trim().min(1).max(150).optional(),
  fiscalEmail: z.email().max(80).optional(),
  phone: z
    .string()
    .regex(/^\d{3}-\d{3}-\d{4}$/, 'NNN-NNN-NNNN')
    .optional(),
  address: z.string().trim().min(1).max(100).optional(),
  provinceCode: z
    .string()
    .regex(/^\d{6}$/, 'six digits of the tax authority territorial table')
    .optional(),
  municipalityCode: z
    .string()
    .regex(/^\d{6}$/, 'six digits of the tax authority territorial table')
    .optional(),
  printedRepresentationEmail: ZPrintedRepresentationEmail.optional(),
};
export const ZFiscalAccountRequest = z
  .strictObject({ rnc: ZRnc, ...PROFILE_FIELDS })
  .describe('the account to create (profile); for an existing link only rnc is compared');
export const ZFiscalAccountProfilePatch = z
  .strictObject({
    rnc: ZRnc.optional().describe('only the account’s own RNC: it cannot change'),
    ...PROFILE_FIELDS,
  })
  .describe('at least one field');

export const ZFiscalAccount = z.object({
  id: z.uuid(),
  externalTenantId: z.string(),
  rnc: z.string(),
  profile: z.object({
    legalName: z.string(),
    tradeName: z.string().nullable(),
    fiscalEmail: z.string().nullable(),
    phone: z.string().nullable(),
    address: z.string().nullable(),
    provinceCode: z.string().nullable(),
    municipalityCode: z.string().nullable(),
    printedRepresentationEmail: z.object({ production: z.boolean(), testecf: z.boolean() }),
  }),
  productionState: z.enum(['not_requested', 'pending', 'active', 'suspended']),
  certification: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      'the current certification case: caseId, state, step, testSetRef, officialSetRef, approvedAt, updatedAt (null: none yet)',
    ),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const ok = <T extends z.ZodRawShape>(shape: T) =>
  z.object({ ok: z.literal(true), ...shape, correlationId: z.string().min(1) });
export const ZFiscalAccountResponse = ok({ fiscalAccount: ZFiscalAccount });
export const ZFiscalAccountListResponse = ok({
  items: z.array(ZFiscalAccount),
  total: z.number().int().nonnegative(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export const ZFiscalAccountListQuery = z.strictObject({
  limit: z
    .string()
    .regex(/^\d{1,3}$/)
    .optional()
    .describe(`1 to ${FISCAL_ACCOUNTS_MAX_LIMIT}, default 50`),
  offset: z
    .string()
    .regex(/^\d{1,9}$/)
    .optional()
    .describe('default 0'),
});
export const ZProductionState = ok({
  fiscalAccountId: z.uuid(),
  environment: z.literal('production'),
  state: z.enum(['not_requested', 'pending', 'active', 'suspended']),
  canEmit: z.boolean().describe('state active: eCF emission is authorized'),
});
export const ZFiscalAccountStatus = ok({
  fiscalAccountId: z.uuid(),
  certecf: z.object({
    certification: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe(
        'the certification case: caseId, state, step (one of the fifteen), testSetRef, approvedAt (null: none yet)',
      ),
  }),
  production: z.object({
    state: z.enum(['not_requested', 'pending', 'active', 'suspended']),
    canEmit: z.boolean(),
  }),
  certificate: z
    .object({ validTo: z.string(), expired: z.boolean() })
    .nullable()
    .describe('the active signing certificate, null when none is installed'),
});
export const ZBillingUsageQuery = z.strictObject({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'YYYY-MM')
    .optional()
    .describe('a calendar month in Dominican Republic time; default: the current one'),
});
export const ZBillingUsage = ok({
  month: z.string(),
  timeZone: z.literal('America/Santo_Domingo'),
  plan: z.string(),
  quota: z.number().int().nonnegative(),
  accepted: z.number().int().nonnegative(),
  remaining: z.number().int().nonnegative(),
  accounts: z.array(
    z.object({
      fiscalAccountId: z.uuid(),
      externalTenantId: z.string().nullable(),
      accepted: z.number().int(),
    }),
  ),
});

// Documents, annulments, sequences, inbound: the direct routes' shapes with the Partner naming.
const ZDocumentParams = ZAccountParams.extend({ documentId: ZId.describe('documentId (UUID)') });
const ZAnnulmentParams = ZAccountParams.extend({ annulmentId: ZId.describe('annulmentId (UUID)') });
const ZInboundParams = ZAccountParams.extend({ inboundDocumentId: ZId.describe('inboundDocumentId (UUID)') });
export const ZPartnerSubmitQuery = z.strictObject({
  validate: z
    .enum(['true', 'false'])
    .optional()
    .describe('true: preflight (documents:validate), nothing stored'),
});
export const ZPartnerSubmitHeaders = z.object({
  prefer: z.string().optional().describe('wait=N, N from 1 to 15 seconds (anything else is 400)'),
});
export const ZPartnerDocumentRequest = z
  .strictObject({
    document: z
      .looseObject({})
      .describe('one of the two submission formats (as POST /{environment}/documentos-ecf takes it)'),
  })
  .describe('reads only `document`');
const partnerNaming = { fiscalAccountId: z.uuid(), environment: ZPartnerEnvironment };
export const ZPartnerSubmitResponse = ZSubmitResponse.extend(partnerNaming);
export const ZPartnerStatusBatchRequest = z
  .strictObject({
    documentIds: z.array(ZId).min(1).max(100).optional(),
    encfs: z
      .array(z.string().regex(/^E\d{12}$/))
      .min(1)
      .max(100)
      .optional(),
  })
  .refine(
    (body) => (body.documentIds?.length ?? 0) + (body.encfs?.length ?? 0) > 0,
    'send documentIds or encfs',
  )
  .refine(
    (body) => (body.documentIds?.length ?? 0) + (body.encfs?.length ?? 0) <= 100,
    'at most 100 references per request',
  );
export const ZPartnerStatusBatchResponse = ok({
  ...partnerNaming,
  found: z.array(ZStatusResult),
  unfound: z.array(z.string()),
});
export const ZPartnerDocumentResponse = ok({ ...partnerNaming, document: ZStatusResult });
export const ZPartnerAnnulment = ZAnnulment.extend(partnerNaming);
export const ZPartnerAnnulmentPrevalidation = ZAnnulmentPrevalidation.extend(partnerNaming);
export const ZPartnerAnnulmentList = ok({
  ...partnerNaming,
  items: z.array(ZAnnulmentSummary.extend({ environment: ZPartnerEnvironment })),
  nextCursor: z.string().nullable(),
});
export const ZPartnerAnnulmentListQuery = z.strictObject({
  status: z.enum(['built', 'sending', 'accepted', 'rejected', 'uncertain', 'failed']).optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/)
    .optional(),
  cursor: z.string().max(500).optional(),
});
export const ZIdempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .optional()
    .describe(
      'required (428 ANECF_IDEMPOTENCY_KEY_REQUIRED without it); 1 to 200 printable ASCII characters. The same key and body replays the first answer; the same key with another body is 409 IDEMPOTENCY_CONFLICT (details.directCode ANECF_IDEMPOTENCY_CONFLICT, the direct API’s name)',
    ),
});
export const ZPartnerSequenceList = ok({ ...partnerNaming, items: z.array(ZSequenceRange) });
export const ZPartnerSequence = ok({ ...partnerNaming, sequence: ZSequenceRange });
export const ZPartnerInboundQuery = z.strictObject({
  group: z.enum(RECEIVED_GROUPS).optional(),
  documentType: z
    .string()
    .regex(/^E?(31|32|33|34|41|43|44|45|46|47)$/)
    .optional()
    .describe('e-CF type: E31 or 31, ...'),
  encf: z
    .string()
    .regex(/^E\d{12}$/)
    .optional(),
  issuerRnc: ZRnc.optional(),
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .describe('received on or after (YYYY-MM-DD, Dominican time)'),
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/)
    .optional()
    .describe('1 to 100, default 50'),
  cursor: z.string().max(1000).optional(),
});
export const ZPartnerInboundList = ok({
  ...partnerNaming,
  items: z.array(ZReceivedDocument.extend({ environment: ZPartnerEnvironment })),
  nextCursor: z.string().nullable(),
});
export const ZPartnerCommercialApprovalResponse = ZCommercialApprovalSubmitResponse.extend(partnerNaming);

// Certificates.
export const ZUploadSessionRequest = z.strictObject({
  browserOrigin: z
    .string()
    .max(255)
    .describe('the exact HTTPS origin of the page that uploads (among the Partner’s registered origins)'),
});
export const ZUploadSession = ok({
  fiscalAccountId: z.uuid(),
  uploadId: z.uuid(),
  uploadToken: z.string().describe('shown once: send it as Authorization: Upload <uploadToken>'),
  uploadUrl: z.string(),
  browserOrigin: z.string(),
  purpose: z.enum(['upload', 'rotation']),
  maxAttempts: z.number().int(),
  expiresAt: z.string(),
});
export const ZUploadParams = z.strictObject({ uploadId: ZId.describe('uploadId (UUID)') });
export const ZCertificateMetadata = z.object({
  id: z.uuid(),
  holderId: z.string().nullable(),
  subject: z.string(),
  serialNumber: z.string(),
  validFrom: z.string(),
  validTo: z.string(),
  keyUsage: z.array(z.string()),
  active: z.boolean(),
  installedAt: z.string(),
});
export const ZCertificateResponse = ok({
  fiscalAccountId: z.uuid(),
  certificate: ZCertificateMetadata.nullable().describe('never the private key; null when none is installed'),
});
export const ZUploadResult = ok({
  fiscalAccountId: z.uuid(),
  uploadId: z.uuid(),
  certificate: ZCertificateMetadata,
});
export const ZCertificateUploadError = ZErrorResponse.describe(
  'certificate 422 codes carry details.attemptsRemaining',
);

// Webhooks (Partner system).
export const PARTNER_WEBHOOK_EVENT_TYPES_DESCRIPTION = PARTNER_WEBHOOK_EVENT_TYPES.join(', ');
export const ZWebhookEndpointRequest = z.strictObject({
  name: z.string().min(1).max(PARTNER_TEXT_LIMITS.webhookName),
  url: z.string().min(1).max(PARTNER_TEXT_LIMITS.webhookUrl).describe('public HTTPS URL'),
  eventTypes: z
    .array(z.string().min(1).max(64))
    .min(1)
    .max(50)
    .optional()
    .describe(
      `omit for every event type that exists now; else a non-empty list of: ${PARTNER_WEBHOOK_EVENT_TYPES_DESCRIPTION}`,
    ),
});
export const ZWebhookEndpointPatch = z.strictObject({
  status: z.enum(['active', 'paused']).optional(),
  name: z.string().min(1).max(PARTNER_TEXT_LIMITS.webhookName).optional(),
  url: z.string().min(1).max(PARTNER_TEXT_LIMITS.webhookUrl).optional(),
  eventTypes: z.array(z.string().min(1).max(64)).min(1).max(50).optional(),
});
export const ZWebhookEndpointParams = z.strictObject({ endpointId: ZId.describe('endpointId (UUID)') });
export const ZWebhookDeliveryParams = z.strictObject({ deliveryId: ZId.describe('deliveryId (UUID)') });
export const ZWebhookEndpoint = z.object({
  id: z.uuid(),
  name: z.string(),
  url: z.string(),
  eventTypes: z.array(z.string()),
  status: z.enum(['active', 'paused', 'retired']),
  overlapSeconds: z.number().int().nullable().describe('seconds left of a secret rotation, null when none'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const ZWebhookEndpointResponse = ok({
  endpoint: ZWebhookEndpoint,
  signingSecret: z.string().optional().describe('only on creation (and rotation): shown once'),
  replayed: z.boolean().optional().describe('true: the same URL was created before; no secret'),
});
export const ZWebhookEndpointList = ok({ items: z.array(ZWebhookEndpoint) });
export const ZWebhookTestRequest = z.strictObject({
  fiscalAccountId: ZId,
  environment: ZPartnerEnvironment,
});
export const ZWebhookRotateRequest = z.strictObject({
  overlapSeconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .optional()
    .describe('how long the previous secret still signs (default 86400)'),
});
export const ZWebhookDelivery = z.object({
  deliveryId: z.uuid(),
  endpointId: z.uuid(),
  ...WEBHOOK_DELIVERY_FIELDS,
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  attemptLog: z.array(z.record(z.string(), z.unknown())),
});
export const ZWebhookDeliveryQuery = z.strictObject({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/)
    .optional()
    .describe('1 to 100, default 25'),
  cursor: z.string().max(500).optional().describe('nextCursor of the previous page, unmodified'),
});
export const ZWebhookDeliveryList = ok({
  items: z.array(ZWebhookDelivery),
  nextCursor: z.string().nullable(),
});
export const ZWebhookDeliveryResponse = ok({ delivery: ZWebhookDelivery });
export const ZWebhookTestResponse = ok({ eventId: z.uuid(), deliveryId: z.uuid() });

/** A Partner route: a contract route with THE permission it needs. */
export type TPartnerRouteContract = TRouteContract & {
  permission: TPartnerPermission;
  /** A query value that makes the same route need another permission (preflight: `validate=true`). */
  permissionWhen?: { query: Record<string, string>; permission: TPartnerPermission };
  /** The route names a fiscal account in its path (`{id}`): checked to be the Partner's (404 otherwise). */
  account: boolean;
};

const error = (description: string) => ({ description, schema: ZErrorResponse });
const PAYLOAD_400 = error(
  'INVALID_PARTNER_PAYLOAD: unknown property, wrong type, text over its limit or an identifier that is not a UUID (details.path, details.issues[]); INVALID_JSON, BODY_TOO_LARGE, UNSUPPORTED_CONTENT_TYPE; the request edge (route-limits.ts): INVALID_REQUEST with details.reason unsupported_character (U+0000 or a lone surrogate; details.path, codePoint), string_too_long or array_too_long (details.path, limit); REQUEST_TIMEOUT (details.reason body_timeout: the body did not arrive within the route time)',
);
const PARTNER_ERRORS = {
  400: PAYLOAD_400,
  401: error('PARTNER_KEY_MISSING, PARTNER_KEY_INVALID (unknown or revoked X-PARTNER-KEY)'),
  403: error(
    'INSUFFICIENT_SCOPE: the key profile lacks the permission (details.reason missing_permission, details.requiredPermission); PARTNER_INACTIVE: the Partner is suspended',
  ),
  429: {
    description:
      'RATE_LIMIT_EXCEEDED (details.scope ip, partner, fiscal_account or permission; fixed 60-second windows shared by every instance); Retry-After in seconds',
    schema: ZErrorResponse,
    headers: { 'Retry-After': 'seconds' },
  },
  500: error('INTERNAL_ERROR: the answer reveals only the correlationId'),
};
const ACCOUNT_404 = {
  404: error(
    "FISCAL_ACCOUNT_NOT_FOUND: no such account for this Partner (another Partner's account answers exactly the same)",
  ),
};

const P = PARTNER_BASE;
const A = `${P}/fiscal-accounts/:id`;

/** The document routes of one family (production = eCF, testecf = TesteCF). */
function documentFamily(family: 'production' | 'testecf') {
  const base = `${A}/${family}/documents`;
  const production = family === 'production';
  const emission409 = error('ENCF_CONFLICT (details.conflicts[]), ENCF_ANNULLED');
  const common: TRouteContract['responses'] = {
    200: { description: 'preflight passed', schema: ZPartnerSubmitResponse },
    201: { description: 'printable (Prefer: wait)', schema: ZPartnerSubmitResponse },
    202: {
      description: 'stored and queued',
      schema: ZPartnerSubmitResponse,
      headers: { 'Retry-After': 'seconds' },
    },
    ...PARTNER_ERRORS,
    ...ACCOUNT_404,
    409: emission409,
    422: { description: 'VALIDATION_FAILED (errors[], warnings[])', schema: ZSubmitValidationError },
  };
  const productionOnly: TRouteContract['responses'] = {
    402: error(
      'PAYMENT_REQUIRED: the plan is not paid or overdue after the grace period (details.billingUrl)',
    ),
    423: error('PRODUCTION_NOT_ACTIVE'),
    429: {
      description:
        'PLAN_LIMIT_EXCEEDED (the month’s quota of accepted e-CF across all accounts: details.plan, quota, used, month); RATE_LIMIT_EXCEEDED; Retry-After',
      schema: ZErrorResponse,
      headers: { 'Retry-After': 'seconds' },
    },
  };
  const submit: TPartnerRouteContract = {
    method: 'POST',
    path: base,
    summary: production
      ? 'Preflight (validate=true) or issue an e-CF in eCF'
      : 'Preflight or issue an e-CF in TesteCF',
    description:
      (production
        ? 'Validates like preflight (422 registers nothing), stores, signs and queues; reads only `document`. eCF emission needs active production (423 PRODUCTION_NOT_ACTIVE), a paid plan (402 PAYMENT_REQUIRED with details.billingUrl) and quota left this month (429 PLAN_LIMIT_EXCEEDED). '
        : 'The same operation in TesteCF: needs no active production or plan and is not counted in the plan. ') +
      'Prefer: wait=N (N from 1 to 15) answers 201 with printing data when the tax authority answers in time, else 202. The same eNCF with the same JSON is a replay; with other content 409. Needs documents:create, or documents:validate with validate=true.',
    permission: 'documents:create',
    permissionWhen: { query: { validate: 'true' }, permission: 'documents:validate' },
    account: true,
    params: ZAccountParams,
    query: ZPartnerSubmitQuery,
    headers: ZPartnerSubmitHeaders,
    body: ZPartnerDocumentRequest,
    responses: production ? { ...common, ...productionOnly } : common,
  };
  const batch = {
    method: 'POST',
    path: `${base}/status/batch`,
    summary: `Status of up to 100 documents (${family})`,
    permission: 'documents:read',
    account: true,
    params: ZAccountParams,
    body: ZPartnerStatusBatchRequest,
    responses: {
      200: { description: 'found and unfound', schema: ZPartnerStatusBatchResponse },
      ...PARTNER_ERRORS,
      ...ACCOUNT_404,
    },
  } as const satisfies TPartnerRouteContract;
  const get = {
    method: 'GET',
    path: `${base}/:documentId`,
    summary: `Status of one document (${family})`,
    permission: 'documents:read',
    account: true,
    params: ZDocumentParams,
    responses: {
      200: { description: 'the document', schema: ZPartnerDocumentResponse },
      ...PARTNER_ERRORS,
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND: no such document in this account and environment'),
    },
  } as const satisfies TPartnerRouteContract;
  const xml = {
    method: 'GET',
    path: `${base}/:documentId/xml`,
    summary: `Signed XML (${family})`,
    permission: 'documents:read',
    account: true,
    params: ZDocumentParams,
    headers: ZXmlDownloadHeaders,
    responses: {
      200: { description: 'the signed XML', contentType: 'application/xml' },
      ...PARTNER_ERRORS,
      400: error(
        `${PAYLOAD_400.description}; NOT_ACCEPTABLE (Accept allows neither application/xml, text/xml nor a wildcard of them; details.accepted)`,
      ),
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND'),
      409: error('DOCUMENT_NOT_SIGNED'),
    },
  } as const satisfies TPartnerRouteContract;
  const pdf = {
    method: 'GET',
    path: `${base}/:documentId/pdf`,
    summary: `Printed representation, letter size (${family})`,
    permission: 'documents:read',
    account: true,
    params: ZDocumentParams,
    headers: ZPdfDownloadHeaders,
    responses: {
      200: { description: 'the PDF', contentType: 'application/pdf' },
      ...PARTNER_ERRORS,
      400: error(
        `${PAYLOAD_400.description}; NOT_ACCEPTABLE (Accept lists neither application/pdf, application/* nor */*; details.accepted)`,
      ),
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND'),
      409: error(
        'DOCUMENT_NOT_SIGNED, RI_AWAITING_TAXAUTH_RESPONSE, RI_NOT_DELIVERABLE_REJECTED, RI_NOT_DELIVERABLE_NOT_TRANSMITTED, RI_NOT_DELIVERABLE_CANCELLED',
      ),
    },
  } as const satisfies TPartnerRouteContract;
  return {
    submit: submit as typeof submit & {
      body: typeof ZPartnerDocumentRequest;
      query: typeof ZPartnerSubmitQuery;
    },
    batch,
    get,
    xml,
    pdf,
  };
}

const PRODUCTION_DOCUMENTS = documentFamily('production');
const TESTECF_DOCUMENTS = documentFamily('testecf');

// ---------------------------------------------------------------------------------------------
// Certification (issue 20 over the issue-19 engine; docs/certification.md, docs/partner-api.md).

const ZCaseParams = ZAccountParams.extend({ caseId: ZId.describe('caseId (UUID)') });
const ZRunParams = ZCaseParams.extend({ runId: ZId.describe('runId (UUID)') });
const ZCaseDocumentParams = ZCaseParams.extend({ documentId: ZId.describe('documentId (UUID)') });
const ZWorkbookBase64 = z
  .string()
  .min(1)
  .max(WORKBOOK_BASE64_MAX_CHARACTERS)
  .describe("the tax authority's workbook (xlsx), base64, at most 700 KB of text");
const ZSetRows = z.array(z.record(z.string(), z.string())).max(1000);
export const ZPartnerTestSetRequest = z
  .strictObject({
    workbookBase64: ZWorkbookBase64.optional(),
    set: z
      .strictObject({ ecf: ZSetRows, rfce: ZSetRows.optional() })
      .optional()
      .describe('the JSON form of the same rows: every value a string exactly as in the workbook'),
  })
  .refine((body) => (body.workbookBase64 === undefined) !== (body.set === undefined), {
    message: 'send workbookBase64 or set, one of them',
  })
  .describe('a test set: the spreadsheet as is, or its rows as JSON');
const ZTestSet = z.object({
  testSetRef: z.uuid(),
  source: z.enum(['workbook', 'json', 'taxauth_model']),
  issuerRnc: z.string(),
  rows: z.number().int(),
  sha256: z.string(),
  createdAt: z.string(),
});
export const ZPartnerTestSetResponse = ok({ fiscalAccountId: z.uuid(), testSet: ZTestSet });
export const ZPartnerTestSetList = ok({ fiscalAccountId: z.uuid(), items: z.array(ZTestSet) });
export const ZOfficialSets = ok({
  items: z.array(z.object({ ref: z.string(), name: z.string(), description: z.string() })),
  defaultRef: z.string().nullable().describe('null when the catalogue has none'),
});
export const ZPartnerCaseRequest = z
  .strictObject({
    testSetRef: ZId.optional().describe('a set uploaded with certification-test-sets'),
    officialSetRef: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('a set of GET /certification/official-sets (not together with testSetRef)'),
    ecfTypes: z
      .array(z.string().regex(/^E?(31|32|33|34|41|43|44|45|46|47)$/))
      .max(20)
      .optional()
      .describe('the e-CF types the account will issue (`31` or `E31`); kept as `31`, sorted, once each'),
    b2bSimulation: z.boolean().optional().describe('kept with the case as declared'),
    notes: ZNotes.optional().describe('kept with the case'),
    actorRef: ZActorRef.optional().describe('who created the case, kept with it'),
  })
  .describe('a certification case: its set and what the Partner declares (kept and shown with the case)');
const ZCaseStep = ZCertificationStepView;
const ZPartnerCase = z.object({
  caseId: z.uuid(),
  state: z.enum(['in_progress', 'failed', 'approved', 'closed']),
  step: z.string(),
  testSetRef: z.uuid().nullable(),
  officialSetRef: z.string().nullable(),
  ecfTypes: z.array(z.string()).describe('as declared at creation (empty when not)'),
  b2bSimulation: z.boolean().nullable().describe('as declared at creation (null when not)'),
  notes: z.string().nullable(),
  actorRef: z.string().nullable(),
  checklist: z.array(ZCaseStep).describe('the fifteen steps of the tax authority portal'),
  nextAction: z.object({ step: z.string(), completedBy: z.string(), action: z.string() }).nullable(),
  production: z.object({ state: z.enum(['not_requested', 'pending', 'active', 'suspended']) }),
  createdAt: z.string().nullable(),
  approvedAt: z.string().nullable(),
});
export const ZPartnerCaseResponse = ok({ fiscalAccountId: z.uuid(), case: ZPartnerCase });
export const ZPartnerAttestationRequest = z
  .strictObject({
    step: z.enum(ATTESTABLE_STEPS).describe('the step a person did at the tax authority portal'),
    occurredAt: z.iso.datetime({ offset: true }).optional(),
    actorRef: ZActorRef.optional(),
    notes: ZNotes.optional(),
    evidenceRefs: ZEvidenceRefs.optional(),
  })
  .describe('an attestation');
export const ZPartnerAttestationResponse = ok({
  fiscalAccountId: z.uuid(),
  attestation: z.object({
    id: z.uuid(),
    step: z.string(),
    occurredAt: z.string(),
    actorRef: z.string().nullable(),
    notes: z.string().nullable(),
    evidenceRefs: z.array(z.string()),
  }),
  case: ZPartnerCase,
});
export const ZPartnerRunRequest = z
  .strictObject({
    part: z.enum(['data', 'simulation']).optional(),
    taxauthModel: z.boolean().optional().describe('the simulation with the tax authority model, new eNCFs'),
  })
  .describe("the case's test set is run unless taxauthModel");
const ZPartnerRunItem = z.object({
  ...CERTIFICATION_RUN_ITEM_FIELDS,
  state: z.string(),
  taxauthMessages: z.unknown(),
  lastError: z.unknown(),
  detail: z.unknown(),
});
const ZPartnerRun = z.object({
  runId: z.uuid(),
  caseId: z.uuid(),
  part: z.enum(['data', 'simulation']),
  source: z.string(),
  setId: z.uuid().nullable(),
  state: z.enum(CERTIFICATION_RUN_STATES),
  ...CERTIFICATION_RUN_TIMES,
  totals: z.record(z.string(), z.number().int()),
  failure: z.unknown(),
  items: z.array(ZPartnerRunItem).optional(),
});
export const ZPartnerRunResponse = ok({
  fiscalAccountId: z.uuid(),
  environment: z.literal('certecf'),
  run: ZPartnerRun,
});
export const ZPartnerRunList = ok({ fiscalAccountId: z.uuid(), items: z.array(ZPartnerRun) });
export const ZPartnerEvidenceResponse = ok({
  fiscalAccountId: z.uuid(),
  runId: z.uuid(),
  fileName: z.string(),
  contentType: z.literal('application/zip'),
  content: z.string().describe('the ZIP, base64'),
  sha256: z.string(),
  size: z.number().int(),
  final: z.boolean(),
});
export const ZPartnerZipQuery = z.strictObject({
  encf: z
    .string()
    .regex(/^E\d{12}$/)
    .optional()
    .describe('one document: its XML instead of the ZIP'),
});
export const ZPartnerOfficialSetRequest = z.strictObject({ officialSetRef: z.string().min(1).max(200) });
export const ZPartnerRestartRequest = z.strictObject({ part: z.enum(['data', 'simulation']) });
export const ZPartnerRestartResponse = ok({
  fiscalAccountId: z.uuid(),
  part: z.enum(['data', 'simulation']),
  stoppedRunId: z.uuid().nullable(),
  stoppedApprovalSendId: z.uuid().nullable(),
  replacedDocuments: z.number().int(),
  case: ZPartnerCase,
});
export const ZPartnerApprovalsRequest = z.strictObject({ workbookBase64: ZWorkbookBase64 });
export const ZPartnerApprovalsResponse = ok({
  fiscalAccountId: z.uuid(),
  environment: z.literal('certecf'),
  commercialApprovals: z.record(z.string(), z.unknown()).nullable().describe('null when none was sent yet'),
});
export const ZPartnerResendResponse = ok({
  fiscalAccountId: z.uuid(),
  documentId: z.uuid(),
  encf: z.string(),
  status: z.string(),
  action: z.enum(['signing', 'resent', 'status_queried']),
});
export const ZPartnerCertificationSessionRequest = z.strictObject({
  browserOrigin: z
    .string()
    .min(1)
    .max(2048)
    .describe('the exact HTTPS origin of the page that frames the link'),
});
export const ZPartnerCertificationSession = ok({
  fiscalAccountId: z.uuid(),
  url: z
    .string()
    .describe('the embedded certification page (valid 15 minutes; 410 CERTIFICATION_EMBED_EXPIRED after)'),
  browserOrigin: z.string(),
  expiresAt: z.string(),
});
export const ZPartnerXmlSignatureRequest = z.strictObject({
  kind: z.enum(CERTIFICATION_XML_KINDS),
  xml: z.string().min(1).describe('the XML the tax authority portal generated (Generar archivo)'),
});
export const ZPartnerXmlSignatureResponse = ok({
  fiscalAccountId: z.uuid(),
  kind: z.enum(CERTIFICATION_XML_KINDS),
  signedXml: z.string(),
  sha256: z.string(),
  signedAt: z.string(),
});
export const ZPartnerTaxauthRegistration = ok({
  fiscalAccountId: z.uuid(),
  registration: z.record(z.string(), z.unknown()),
});
export const ZPartnerActivationResponse = ok({
  fiscalAccountId: z.uuid(),
  productionState: z.enum(['not_requested', 'pending', 'active', 'suspended']),
  checking: z.boolean().describe('the tax authority directory is being asked now'),
});
export const ZPartnerIdempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .optional()
    .describe(
      'required (428 IDEMPOTENCY_KEY_REQUIRED); 1 to 200 printable ASCII characters; the same key and body replays, another body is 409 IDEMPOTENCY_CONFLICT',
    ),
});

export const PARTNER_ROUTES = {
  linkFiscalAccount: {
    method: 'PUT',
    path: `${P}/fiscal-accounts/by-external-id/:externalTenantId`,
    summary: "Create (201) or retrieve (200) the account of the Partner's customer",
    description:
      'A new RNC must be ACTIVE in the tax authority’s taxpayer registry (422 RNC_NOT_IN_TAXAUTH_REGISTRY, RNC_NOT_ACTIVE_IN_TAXAUTH with details.status) and held by no other account (409 RNC_NOT_AVAILABLE); the same externalTenantId with another RNC is 409 ACCOUNT_LINK_CONFLICT.',
    permission: 'fiscal-accounts:manage',
    account: false,
    params: ZExternalIdParams,
    body: ZFiscalAccountRequest,
    responses: {
      200: { description: 'the existing account', schema: ZFiscalAccountResponse },
      201: { description: 'created', schema: ZFiscalAccountResponse },
      ...PARTNER_ERRORS,
      409: error('RNC_NOT_AVAILABLE, ACCOUNT_LINK_CONFLICT (details.fiscalAccountId, details.rnc)'),
      422: error('RNC_NOT_IN_TAXAUTH_REGISTRY, RNC_NOT_ACTIVE_IN_TAXAUTH (details.status)'),
      503: error('SERVICE_UNAVAILABLE (details.reason taxpayer_registry_not_loaded)'),
    },
  },
  listFiscalAccounts: {
    method: 'GET',
    path: `${P}/fiscal-accounts`,
    summary: "The Partner's accounts, paginated by limit and offset",
    permission: 'fiscal-accounts:manage',
    account: false,
    query: ZFiscalAccountListQuery,
    responses: { 200: { description: 'a page', schema: ZFiscalAccountListResponse }, ...PARTNER_ERRORS },
  },
  getFiscalAccount: {
    method: 'GET',
    path: A,
    summary: 'An account with its current certification',
    permission: 'fiscal-accounts:manage',
    account: true,
    params: ZAccountParams,
    responses: {
      200: { description: 'the account', schema: ZFiscalAccountResponse },
      ...PARTNER_ERRORS,
      ...ACCOUNT_404,
    },
  },
  getFiscalAccountStatus: {
    method: 'GET',
    path: `${A}/status`,
    summary: 'Consolidated CerteCF and eCF status',
    permission: 'fiscal-accounts:manage',
    account: true,
    params: ZAccountParams,
    responses: {
      200: { description: 'the status', schema: ZFiscalAccountStatus },
      ...PARTNER_ERRORS,
      ...ACCOUNT_404,
    },
  },
  updateFiscalAccountProfile: {
    method: 'PATCH',
    path: `${A}/profile`,
    summary: 'Change the profile (at least one field; the RNC cannot change)',
    description:
      'printedRepresentationEmail { production, testecf } turns the buyer e-mail on or off per environment. An rnc other than the account’s is 409 RNC_CHANGE_REQUIRES_RECERTIFICATION.',
    permission: 'fiscal-accounts:manage',
    account: true,
    params: ZAccountParams,
    body: ZFiscalAccountProfilePatch,
    responses: {
      200: { description: 'the account', schema: ZFiscalAccountResponse },
      ...PARTNER_ERRORS,
      ...ACCOUNT_404,
      409: error('RNC_CHANGE_REQUIRES_RECERTIFICATION'),
    },
  },
  createCertificateUploadSession: {
    method: 'POST',
    path: `${A}/certificate-upload-sessions`,
    summary: 'An upload session for a browser page of browserOrigin',
    permission: 'certificates:manage',
    account: true,
    params: ZAccountParams,
    body: ZUploadSessionRequest,
    responses: {
      201: { description: 'the session; uploadToken shown once', schema: ZUploadSession },
      ...PARTNER_ERRORS,
      400: error('INVALID_BROWSER_ORIGIN (not an exact HTTPS origin); INVALID_PARTNER_PAYLOAD'),
      ...ACCOUNT_404,
      422: error('BROWSER_ORIGIN_NOT_ALLOWED: not among the Partner’s registered origins'),
    },
  },
  createCertificateRotationRequest: {
    method: 'POST',
    path: `${A}/certificate-rotation-requests`,
    summary: 'A session to replace the installed certificate',
    permission: 'certificates:manage',
    account: true,
    params: ZAccountParams,
    body: ZUploadSessionRequest,
    responses: {
      201: { description: 'the session; uploadToken shown once', schema: ZUploadSession },
      ...PARTNER_ERRORS,
      400: error('INVALID_BROWSER_ORIGIN; INVALID_PARTNER_PAYLOAD'),
      ...ACCOUNT_404,
      409: error('CERTIFICATE_NOT_ACTIVE: nothing to rotate, open an upload session'),
      422: error('BROWSER_ORIGIN_NOT_ALLOWED'),
    },
  },
  getCertificate: {
    method: 'GET',
    path: `${A}/certificate`,
    summary: 'Certificate metadata (never the private key)',
    permission: 'certificates:manage',
    account: true,
    params: ZAccountParams,
    responses: {
      200: { description: 'metadata', schema: ZCertificateResponse },
      ...PARTNER_ERRORS,
      ...ACCOUNT_404,
    },
  },
  getProduction: {
    method: 'GET',
    path: `${A}/production`,
    summary: 'The real state of eCF authorization',
    permission: 'production:read',
    account: true,
    params: ZAccountParams,
    responses: {
      200: { description: 'the state', schema: ZProductionState },
      ...PARTNER_ERRORS,
      ...ACCOUNT_404,
    },
  },
  submitProductionDocument: PRODUCTION_DOCUMENTS.submit,
  productionDocumentStatusBatch: PRODUCTION_DOCUMENTS.batch,
  getProductionDocument: PRODUCTION_DOCUMENTS.get,
  productionDocumentXml: PRODUCTION_DOCUMENTS.xml,
  productionDocumentPdf: PRODUCTION_DOCUMENTS.pdf,
  prevalidateProductionAnnulment: {
    method: 'POST',
    path: `${A}/production/annulments/prevalidate`,
    summary: 'Build and check an ANECF without sending it',
    permission: 'documents:validate',
    account: true,
    params: ZAccountParams,
    body: ZAnnulmentRequest,
    responses: {
      200: {
        description:
          'would be sent as is (no fiscal effect: answered before production is active too, like a document preflight)',
        schema: ZPartnerAnnulmentPrevalidation,
      },
      ...PARTNER_ERRORS,
      400: error('INVALID_PARTNER_PAYLOAD; ANECF_INVALID; ANECF_DOCUMENT_CONFLICT (details.conflicts[])'),
      ...ACCOUNT_404,
    },
  },
  sendProductionAnnulment: {
    method: 'POST',
    path: `${A}/production/annulments`,
    summary: 'Annul unused eNCF ranges (ANECF); needs Idempotency-Key',
    permission: 'documents:create',
    account: true,
    params: ZAccountParams,
    headers: ZIdempotencyHeaders,
    body: ZAnnulmentRequest,
    responses: {
      200: { description: 'replay of the first answer with this key', schema: ZPartnerAnnulment },
      202: { description: 'accepted by the tax authority', schema: ZPartnerAnnulment },
      ...PARTNER_ERRORS,
      ...ACCOUNT_404,
      400: error(
        `${PAYLOAD_400.description}; ANECF_INVALID (details.errors[]); ANECF_DOCUMENT_CONFLICT (details.conflicts[])`,
      ),
      409: error(
        'IDEMPOTENCY_CONFLICT (the key with another body; details.directCode ANECF_IDEMPOTENCY_CONFLICT), ANECF_RANGE_RESERVED, ANECF_DOCUMENT_CONFLICT, CERTIFICATE_NOT_ACTIVE (no active signing certificate: nothing was sent)',
      ),
      422: { description: 'rejected by the tax authority (definitive)', schema: ZPartnerAnnulment },
      423: error(
        'PRODUCTION_NOT_ACTIVE: production is not active for the account (the tax authority annuls only authorized sequences of an authorized issuer); nothing built or sent',
      ),
      428: error('ANECF_IDEMPOTENCY_KEY_REQUIRED'),
      502: { description: 'uncertain: do not resend, reconcile', schema: ZPartnerAnnulment },
    },
  },
  listProductionAnnulments: {
    method: 'GET',
    path: `${A}/production/annulments`,
    summary: 'Annulments, newest first',
    permission: 'documents:read',
    account: true,
    params: ZAccountParams,
    query: ZPartnerAnnulmentListQuery,
    responses: {
      200: { description: 'a page', schema: ZPartnerAnnulmentList },
      ...PARTNER_ERRORS,
      ...ACCOUNT_404,
    },
  },
  getProductionAnnulment: {
    method: 'GET',
    path: `${A}/production/annulments/:annulmentId`,
    summary: 'An annulment’s state',
    permission: 'documents:read',
    account: true,
    params: ZAnnulmentParams,
    responses: {
      200: { description: 'current state', schema: ZPartnerAnnulment },
      ...PARTNER_ERRORS,
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND'),
    },
  },
  listProductionSequences: {
    method: 'GET',
    path: `${A}/production/sequences`,
    summary: 'Registered eNCF ranges',
    permission: 'documents:read',
    account: true,
    params: ZAccountParams,
    responses: {
      200: { description: 'the ranges', schema: ZPartnerSequenceList },
      ...PARTNER_ERRORS,
      ...ACCOUNT_404,
    },
  },
  registerProductionSequence: {
    method: 'POST',
    path: `${A}/production/sequences`,
    summary: 'Register an authorized eNCF range (optional)',
    permission: 'documents:create',
    account: true,
    params: ZAccountParams,
    body: ZSequenceRangeRequest,
    responses: {
      201: { description: 'registered', schema: ZPartnerSequence },
      ...PARTNER_ERRORS,
      400: error(
        `${PAYLOAD_400.description}; SEQUENCE_RANGE_INVALID (details.path, details.reason: type_mismatch, series_mismatch, reversed, date_invalid)`,
      ),
      ...ACCOUNT_404,
      409: error('SEQUENCE_RANGE_OVERLAP'),
      423: error(
        'PRODUCTION_NOT_ACTIVE: production is not active for the account (production sequences are authorized only to an authorized issuer)',
      ),
    },
  },
  listProductionInboundDocuments: {
    method: 'GET',
    path: `${A}/production/inbound-documents`,
    summary: 'Received e-CF, newest first',
    description:
      'Filters group, documentType (E31 or 31), encf, issuerRnc, from/to (YYYY-MM-DD, Dominican time); limit up to 100 (default 50); follow nextCursor. Each item has group, view, taxauthValidity and, while unanswered, commercialApprovalDeadline. eCF without active production: 423.',
    permission: 'documents:read',
    account: true,
    params: ZAccountParams,
    query: ZPartnerInboundQuery,
    responses: {
      200: { description: 'a page', schema: ZPartnerInboundList },
      ...PARTNER_ERRORS,
      400: error(
        `${PAYLOAD_400.description}; INVALID_RECEIVED_DOCUMENTS_QUERY (a cursor of other filters; details.issues[])`,
      ),
      ...ACCOUNT_404,
      423: error('PRODUCTION_NOT_ACTIVE'),
    },
  },
  submitProductionCommercialApproval: {
    method: 'POST',
    path: `${A}/production/inbound-documents/:inboundDocumentId/commercial-approval`,
    summary: 'Accept or reject a received e-CF (ACECF)',
    description:
      'The direct route’s rules: approving one reported rejected or not found gives 409 RECEIVED_ECF_NOT_VALID_IN_TAXAUTH; 202 when the issuer received it, 200 without dispatch, 502 when it did not.',
    permission: 'documents:create',
    account: true,
    params: ZInboundParams,
    body: ZCommercialApprovalRequestBody,
    responses: {
      200: {
        description: 'generated without dispatch, or the same decision again',
        schema: ZPartnerCommercialApprovalResponse,
      },
      202: {
        description: 'signed, accepted and received by the issuer',
        schema: ZPartnerCommercialApprovalResponse,
      },
      ...PARTNER_ERRORS,
      404: error('FISCAL_ACCOUNT_NOT_FOUND; RECEIVED_DOCUMENT_NOT_FOUND'),
      409: {
        description:
          'COMMERCIAL_APPROVAL_DECISION_CONFLICT, RECEIVED_ECF_NOT_VALID_IN_TAXAUTH, ACECF_TAXAUTH_SUBMISSION_UNCERTAIN',
        schema: ZCommercialApprovalErrorResponse,
      },
      422: {
        description: 'COMMERCIAL_APPROVAL_DATE_INVALID, ACECF_TARGET_URL_NOT_ALLOWED, ACECF_TAXAUTH_REJECTED',
        schema: ZCommercialApprovalErrorResponse,
      },
      502: {
        description: 'ACECF_DISPATCH_NOT_RECEIVED, ACECF_TAXAUTH_SUBMISSION_UNCERTAIN',
        schema: ZCommercialApprovalErrorResponse,
      },
      503: error(
        'ACECF_TAXAUTH_CERTIFICATE_UNAVAILABLE, DIRECTORY_TAXAUTH_AUTH_FAILED, DIRECTORY_ACCESS_TOKEN_MISSING, ACECF_SIGNING_FAILED',
      ),
    },
  },
  submitTestecfDocument: TESTECF_DOCUMENTS.submit,
  testecfDocumentStatusBatch: TESTECF_DOCUMENTS.batch,
  getTestecfDocument: TESTECF_DOCUMENTS.get,
  testecfDocumentXml: TESTECF_DOCUMENTS.xml,
  testecfDocumentPdf: TESTECF_DOCUMENTS.pdf,
  getBillingUsage: {
    method: 'GET',
    path: `${P}/billing/usage`,
    summary: 'Accepted e-CF across all accounts in a month (Dominican Republic time)',
    description:
      'Without month: the current billing period (the current calendar month in Dominican Republic time, UTC−4). Only eCF counts; TesteCF never does.',
    permission: 'production:read',
    account: false,
    query: ZBillingUsageQuery,
    responses: { 200: { description: 'the usage', schema: ZBillingUsage }, ...PARTNER_ERRORS },
  },
  listWebhookEndpoints: {
    method: 'GET',
    path: `${P}/webhook-endpoints`,
    summary: "The Partner's webhook endpoints",
    permission: 'webhooks:manage',
    account: false,
    responses: { 200: { description: 'the endpoints', schema: ZWebhookEndpointList }, ...PARTNER_ERRORS },
  },
  createWebhookEndpoint: {
    method: 'POST',
    path: `${P}/webhook-endpoints`,
    summary:
      'Create an endpoint (201 with id and signingSecret; the same URL again: 200 replayed, no secret)',
    permission: 'webhooks:manage',
    account: false,
    body: ZWebhookEndpointRequest,
    responses: {
      200: {
        description: 'replayed: the endpoint of this URL, without its secret',
        schema: ZWebhookEndpointResponse,
      },
      201: { description: 'created; signingSecret shown once', schema: ZWebhookEndpointResponse },
      ...PARTNER_ERRORS,
    },
  },
  updateWebhookEndpoint: {
    method: 'PATCH',
    path: `${P}/webhook-endpoints/:endpointId`,
    summary: 'Change status (active, paused), name, url, eventTypes',
    permission: 'webhooks:manage',
    account: false,
    params: ZWebhookEndpointParams,
    body: ZWebhookEndpointPatch,
    responses: {
      200: { description: 'the endpoint', schema: ZWebhookEndpointResponse },
      ...PARTNER_ERRORS,
      404: error('NOT_FOUND'),
      409: error('WEBHOOK_ENDPOINT_RETIRED'),
    },
  },
  retireWebhookEndpoint: {
    method: 'DELETE',
    path: `${P}/webhook-endpoints/:endpointId`,
    summary: 'Retire (history kept; queued deliveries fail)',
    permission: 'webhooks:manage',
    account: false,
    params: ZWebhookEndpointParams,
    responses: {
      200: { description: 'retired', schema: ZWebhookEndpointResponse },
      ...PARTNER_ERRORS,
      404: error('NOT_FOUND'),
    },
  },
  testWebhookEndpoint: {
    method: 'POST',
    path: `${P}/webhook-endpoints/:endpointId/test`,
    summary: 'Queue a webhook.test delivery to this endpoint',
    permission: 'webhooks:manage',
    account: false,
    params: ZWebhookEndpointParams,
    body: ZWebhookTestRequest,
    responses: {
      202: { description: 'queued', schema: ZWebhookTestResponse },
      ...PARTNER_ERRORS,
      404: error('NOT_FOUND; FISCAL_ACCOUNT_NOT_FOUND'),
      409: error('WEBHOOK_ENDPOINT_RETIRED'),
    },
  },
  rotateWebhookSecret: {
    method: 'POST',
    path: `${P}/webhook-endpoints/:endpointId/rotate-secret`,
    summary: 'New secret; the previous one signs too for overlapSeconds',
    permission: 'webhooks:manage',
    account: false,
    params: ZWebhookEndpointParams,
    body: ZWebhookRotateRequest,
    responses: {
      200: { description: 'rotated; signingSecret shown once', schema: ZWebhookEndpointResponse },
      ...PARTNER_ERRORS,
      404: error('NOT_FOUND'),
      409: error('WEBHOOK_ROTATION_IN_PROGRESS, WEBHOOK_ENDPOINT_RETIRED'),
    },
  },
  listWebhookDeliveries: {
    method: 'GET',
    path: `${P}/webhook-deliveries`,
    summary: 'Deliveries to the Partner’s endpoints, newest first, by cursor',
    permission: 'webhooks:manage',
    account: false,
    query: ZWebhookDeliveryQuery,
    responses: { 200: { description: 'a page', schema: ZWebhookDeliveryList }, ...PARTNER_ERRORS },
  },
  getWebhookDelivery: {
    method: 'GET',
    path: `${P}/webhook-deliveries/:deliveryId`,
    summary: 'A delivery: status and attempts',
    permission: 'webhooks:manage',
    account: false,
    params: ZWebhookDeliveryParams,
    responses: {
      200: { description: 'the delivery', schema: ZWebhookDeliveryResponse },
      ...PARTNER_ERRORS,
      404: error('NOT_FOUND'),
    },
  },
  replayWebhookDelivery: {
    method: 'POST',
    path: `${P}/webhook-deliveries/:deliveryId/replay`,
    summary: 'Re-queue a failed delivery',
    permission: 'webhooks:manage',
    account: false,
    params: ZWebhookDeliveryParams,
    responses: {
      200: { description: 're-queued', schema: ZWebhookDeliveryResponse },
      ...PARTNER_ERRORS,
      404: error('NOT_FOUND'),
      409: error('WEBHOOK_REPLAY_NOT_ALLOWED'),
    },
  },
  // --- Certification (issue 20 over the issue-19 engine): CerteCF, docs/certification.md --------
  getTaxauthRegistration: {
    method: 'GET',
    path: `${A}/taxauth-registration`,
    summary: 'The data the account declares in the tax authority application',
    description:
      'The spec writes this path dgii-registration: identity, software and provider, and the reception, approval and authentication URLs of the test (CerteCF) and production (eCF) environments.',
    permission: 'certification:read',
    account: true,
    params: ZAccountParams,
    responses: {
      200: { description: 'the application data', schema: ZPartnerTaxauthRegistration },
      ...PARTNER_ERRORS,
      ...ACCOUNT_404,
    },
  },
  signCertificationXml: {
    method: 'POST',
    path: `${A}/certification-xml-signatures`,
    summary: 'Sign the application or the sworn declaration with the account certificate',
    permission: 'certification:attest',
    account: true,
    params: ZAccountParams,
    body: ZPartnerXmlSignatureRequest,
    responses: {
      200: { description: 'signed (enveloped XMLDSig)', schema: ZPartnerXmlSignatureResponse },
      ...PARTNER_ERRORS,
      ...ACCOUNT_404,
      409: error('CERTIFICATE_NOT_ACTIVE'),
      422: error('CERTIFICATION_XML_INVALID (details.reason: too_large, not_signable)'),
    },
  },
  uploadCertificationTestSet: {
    method: 'POST',
    path: `${A}/certification-test-sets`,
    summary: 'Upload a test set (the spreadsheet as is, or its rows as JSON)',
    description:
      "Read for the account's RNC and every row validated as a run would (fiscal-core, the official XSD, each RFCE row against its E32's summary); the same bytes again are the same set. Answers its testSetRef.",
    permission: 'certification:execute',
    account: true,
    params: ZAccountParams,
    body: ZPartnerTestSetRequest,
    responses: {
      201: { description: 'stored', schema: ZPartnerTestSetResponse },
      ...PARTNER_ERRORS,
      ...ACCOUNT_404,
      422: error(
        'CERTIFICATION_SET_INVALID, CERTIFICATION_SET_ISSUER_MISMATCH (details.errors[]: sheet, row, column, code)',
      ),
    },
  },
  listCertificationTestSets: {
    method: 'GET',
    path: `${A}/certification-test-sets`,
    summary: "The account's uploaded test sets",
    permission: 'certification:read',
    account: true,
    params: ZAccountParams,
    responses: {
      200: { description: 'newest first', schema: ZPartnerTestSetList },
      ...PARTNER_ERRORS,
      ...ACCOUNT_404,
    },
  },
  listOfficialSets: {
    method: 'GET',
    path: `${P}/certification/official-sets`,
    summary: 'The catalogue of official sets and its default',
    description:
      "The data-test workbooks the operator loads (admin official-set load), oldest first; retired sets are not listed. defaultRef is the newest (null when the catalogue is empty). A run of a case on an official set sends its rows for the account's RNC. The simulation model set is never listed.",
    permission: 'certification:read',
    account: false,
    responses: { 200: { description: 'the catalogue', schema: ZOfficialSets }, ...PARTNER_ERRORS },
  },
  createCertificationCase: {
    method: 'POST',
    path: `${A}/certification-cases`,
    summary: 'Create the certification case with its test set',
    permission: 'certification:execute',
    account: true,
    params: ZAccountParams,
    body: ZPartnerCaseRequest,
    responses: {
      200: {
        description: 'the open case with the same set (and no other declarations)',
        schema: ZPartnerCaseResponse,
      },
      201: { description: 'created', schema: ZPartnerCaseResponse },
      ...PARTNER_ERRORS,
      404: error(
        'FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND (testSetRef unknown, officialSetRef not in the catalogue)',
      ),
      409: error(
        'CERTIFICATION_CASE_ALREADY_OPEN (details.caseId; details.members when the open case declares other values): close it first',
      ),
    },
  },
  partnerGetCertificationCase: {
    method: 'GET',
    path: `${A}/certification-cases/:caseId`,
    summary: 'The case: checklist of the fifteen steps, state, next action',
    permission: 'certification:read',
    account: true,
    params: ZCaseParams,
    responses: {
      200: { description: 'the case', schema: ZPartnerCaseResponse },
      ...PARTNER_ERRORS,
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND (no such case in this account)'),
    },
  },
  partnerRecordCertificationAttestation: {
    method: 'POST',
    path: `${A}/certification-cases/:caseId/attestations`,
    summary: 'Record a human action at the tax authority portal',
    permission: 'certification:attest',
    account: true,
    params: ZCaseParams,
    body: ZPartnerAttestationRequest,
    responses: {
      201: { description: 'recorded (append-only)', schema: ZPartnerAttestationResponse },
      ...PARTNER_ERRORS,
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND'),
      409: error('CERTIFICATION_PREREQUISITES_MISSING (details.missingSteps)'),
    },
  },
  partnerStartCertificationRun: {
    method: 'POST',
    path: `${A}/certification-cases/:caseId/runs`,
    summary: "Run the case's set in CerteCF (Idempotency-Key)",
    permission: 'certification:execute',
    account: true,
    params: ZCaseParams,
    headers: ZPartnerIdempotencyHeaders,
    body: ZPartnerRunRequest,
    responses: {
      200: { description: 'replay of the run this key started', schema: ZPartnerRunResponse },
      202: { description: 'the run, queued', schema: ZPartnerRunResponse },
      ...PARTNER_ERRORS,
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND (case or its test set)'),
      409: error(
        'IDEMPOTENCY_CONFLICT, CERTIFICATE_NOT_ACTIVE, CERTIFICATION_OWN_SET_REQUIRED, CERTIFICATION_SET_ALREADY_USED, CERTIFICATION_RUN_IN_PROGRESS, CERTIFICATION_SIMULATION_NOT_READY, CERTIFICATION_APPROVED',
      ),
      422: error(
        "CERTIFICATION_OWN_SET_REQUIRED (the case has no test set and the body names none: upload the account's workbook and create the case with its testSetRef), CERTIFICATION_SET_INVALID, CERTIFICATION_SET_ISSUER_MISMATCH",
      ),
      428: error('IDEMPOTENCY_KEY_REQUIRED'),
    },
  },
  listCertificationRuns: {
    method: 'GET',
    path: `${A}/certification-cases/:caseId/runs`,
    summary: 'Recent runs of the case',
    permission: 'certification:read',
    account: true,
    params: ZCaseParams,
    responses: {
      200: { description: 'newest first', schema: ZPartnerRunList },
      ...PARTNER_ERRORS,
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND'),
    },
  },
  partnerGetCertificationRun: {
    method: 'GET',
    path: `${A}/certification-cases/:caseId/runs/:runId`,
    summary: 'A run, row by row',
    permission: 'certification:read',
    account: true,
    params: ZRunParams,
    responses: {
      200: { description: 'the run', schema: ZPartnerRunResponse },
      ...PARTNER_ERRORS,
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND'),
    },
  },
  partnerGetCertificationEvidence: {
    method: 'GET',
    path: `${A}/certification-cases/:caseId/runs/:runId/evidence`,
    summary: "A run's evidence ZIP (base64) with its SHA-256",
    permission: 'certification:read',
    account: true,
    params: ZRunParams,
    responses: {
      200: { description: 'the ZIP', schema: ZPartnerEvidenceResponse },
      ...PARTNER_ERRORS,
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND'),
    },
  },
  getCertificationPrintedPdfs: {
    method: 'GET',
    path: `${A}/certification-cases/:caseId/runs/:runId/printed-pdfs`,
    summary: 'ZIP with the printed PDF of each accepted receipt of the run',
    permission: 'certification:read',
    account: true,
    params: ZRunParams,
    responses: {
      200: { description: 'application/zip', contentType: 'application/zip' },
      ...PARTNER_ERRORS,
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND'),
    },
  },
  getCertificationConsumerInvoices: {
    method: 'GET',
    path: `${A}/certification-cases/:caseId/runs/:runId/consumer-invoices`,
    summary: 'The full XML of each accepted consumer invoice below RD$250,000 (ZIP, or ?encf= one XML)',
    description:
      'Named RNC + eNCF: the files the tax authority portal asks to upload once their RFCE was accepted.',
    permission: 'certification:read',
    account: true,
    params: ZRunParams,
    query: ZPartnerZipQuery,
    responses: {
      200: { description: 'application/zip, or application/xml with ?encf=', contentType: 'application/zip' },
      ...PARTNER_ERRORS,
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND (run, or no such consumer invoice in it)'),
    },
  },
  getCertificationConsumerSummaries: {
    method: 'GET',
    path: `${A}/certification-cases/:caseId/runs/:runId/consumer-summaries`,
    summary: 'The signed RFCE summary sent for each consumer invoice (ZIP, or ?encf= one XML)',
    permission: 'certification:read',
    account: true,
    params: ZRunParams,
    query: ZPartnerZipQuery,
    responses: {
      200: { description: 'application/zip, or application/xml with ?encf=', contentType: 'application/zip' },
      ...PARTNER_ERRORS,
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND'),
    },
  },
  changeCertificationOfficialSet: {
    method: 'POST',
    path: `${A}/certification-cases/:caseId/official-set`,
    summary: 'Change the official set without closing the case (the data tests restart)',
    permission: 'certification:execute',
    account: true,
    params: ZCaseParams,
    body: ZPartnerOfficialSetRequest,
    responses: {
      200: { description: 'changed', schema: ZPartnerCaseResponse },
      ...PARTNER_ERRORS,
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND (case, or official set not in the catalogue)'),
      409: error('CERTIFICATION_RUN_IN_PROGRESS, COMMERCIAL_APPROVALS_IN_PROGRESS, CERTIFICATION_APPROVED'),
    },
  },
  partnerRestartCertification: {
    method: 'POST',
    path: `${A}/certification-cases/:caseId/restart`,
    summary: 'Restart the data tests or the simulation (part)',
    permission: 'certification:execute',
    account: true,
    params: ZCaseParams,
    body: ZPartnerRestartRequest,
    responses: {
      200: { description: 'restarted', schema: ZPartnerRestartResponse },
      ...PARTNER_ERRORS,
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND'),
      409: error('CERTIFICATION_APPROVED'),
    },
  },
  partnerSendCertificationApprovals: {
    method: 'POST',
    path: `${A}/certification-cases/:caseId/commercial-approvals`,
    summary: 'Send the commercial approval tests (workbookBase64, Idempotency-Key)',
    permission: 'certification:execute',
    account: true,
    params: ZCaseParams,
    headers: ZPartnerIdempotencyHeaders,
    body: ZPartnerApprovalsRequest,
    responses: {
      200: { description: 'replay of the send this key started', schema: ZPartnerApprovalsResponse },
      202: { description: 'queued', schema: ZPartnerApprovalsResponse },
      ...PARTNER_ERRORS,
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND'),
      409: error(
        'IDEMPOTENCY_CONFLICT, CERTIFICATION_DATA_TESTS_PENDING, CERTIFICATE_NOT_ACTIVE, COMMERCIAL_APPROVALS_IN_PROGRESS, CERTIFICATION_APPROVED',
      ),
      422: error('COMMERCIAL_APPROVAL_SET_INVALID, COMMERCIAL_APPROVAL_SET_OTHER_TAXPAYER'),
      428: error('IDEMPOTENCY_KEY_REQUIRED'),
    },
  },
  partnerGetCertificationApprovals: {
    method: 'GET',
    path: `${A}/certification-cases/:caseId/commercial-approvals`,
    summary: 'Progress of the last send of the commercial approval tests',
    permission: 'certification:read',
    account: true,
    params: ZCaseParams,
    responses: {
      200: { description: 'null before any send', schema: ZPartnerApprovalsResponse },
      ...PARTNER_ERRORS,
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND'),
    },
  },
  partnerResendCertificationDocument: {
    method: 'POST',
    path: `${A}/certification-cases/:caseId/documents/:documentId/resend`,
    summary: 'Resend a stuck test receipt, or query its status',
    permission: 'certification:execute',
    account: true,
    params: ZCaseDocumentParams,
    responses: {
      202: { description: 'queued now', schema: ZPartnerResendResponse },
      ...PARTNER_ERRORS,
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND'),
      409: error('CERTIFICATION_DOCUMENT_NOT_RESENDABLE (details.status)'),
    },
  },
  closeCertificationCase: {
    method: 'POST',
    path: `${A}/certification-cases/:caseId/close`,
    summary: 'Close the case to change set',
    description: 'Not during a send, while a run waits for the tax authority, or once approved.',
    permission: 'certification:execute',
    account: true,
    params: ZCaseParams,
    responses: {
      200: { description: 'closed', schema: ZPartnerCaseResponse },
      ...PARTNER_ERRORS,
      404: error('FISCAL_ACCOUNT_NOT_FOUND; NOT_FOUND'),
      409: error('CERTIFICATION_RUN_IN_PROGRESS, COMMERCIAL_APPROVALS_IN_PROGRESS, CERTIFICATION_APPROVED'),
    },
  },
  createCertificationSession: {
    method: 'POST',
    path: `${A}/certification-sessions`,
    summary:
      "A temporary link to the certification steps screen for an iframe of the Partner's web application",
    permission: 'certification:read',
    account: true,
    params: ZAccountParams,
    body: ZPartnerCertificationSessionRequest,
    responses: {
      201: { description: 'the link (15 minutes)', schema: ZPartnerCertificationSession },
      400: error('INVALID_BROWSER_ORIGIN (not an exact HTTPS origin); INVALID_PARTNER_PAYLOAD'),
      401: PARTNER_ERRORS[401],
      403: PARTNER_ERRORS[403],
      ...ACCOUNT_404,
      422: error("BROWSER_ORIGIN_NOT_ALLOWED (not among the Partner's registered origins)"),
      429: PARTNER_ERRORS[429],
    },
  },
  requestProductionActivation: {
    method: 'POST',
    path: `${A}/production-activation-requests`,
    summary: 'Retry the production activation (normally automatic on approval)',
    permission: 'production:request',
    account: true,
    params: ZAccountParams,
    responses: {
      202: { description: 'the tax authority directory is asked now', schema: ZPartnerActivationResponse },
      ...PARTNER_ERRORS,
      ...ACCOUNT_404,
      409: error(
        'CERTIFICATION_NOT_APPROVED (details.missingSteps); PRODUCTION_STATE_CONFLICT (details.productionState suspended: the operator suspended production; nothing changes)',
      ),
    },
  },
} as const satisfies Record<string, TPartnerRouteContract>;

/**
 * The certificate upload itself: no partner key (the session's upload token is the credential),
 * so it is not in the permission table; CORS for the session's browser origin only.
 */
export const PARTNER_UPLOAD_ROUTE = {
  method: 'PUT',
  path: `${P}/certificate-upload-sessions/:uploadId`,
  summary: 'Upload the PKCS#12 (multipart: file and password) with Authorization: Upload <uploadToken>',
  description:
    'multipart/form-data with a part `file` (the .p12/.pfx, at most 64 KiB) and a part `password`. A wrong password or file does not consume the session: five attempts, each certificate 422 with details.attemptsRemaining. CORS: only the session’s browserOrigin (preflight OPTIONS answered). 403 PARTNER_INACTIVE when the Partner was suspended meanwhile.',
  params: ZUploadParams,
  responses: {
    200: {
      description: 'installed (certificate.validated is emitted per environment)',
      schema: ZUploadResult,
    },
    400: error('INVALID_PARTNER_PAYLOAD (not multipart, parts missing), BODY_TOO_LARGE'),
    401: error('UPLOAD_SESSION_INVALID (no Authorization: Upload token, unknown token, completed session)'),
    403: error('PARTNER_INACTIVE; UPLOAD_ORIGIN_MISMATCH (Origin is not the session’s browserOrigin)'),
    409: error('UPLOAD_SESSION_EXHAUSTED: the five attempts are used'),
    410: error('UPLOAD_SESSION_EXPIRED'),
    422: {
      description:
        'CERTIFICATE_PASSWORD_INVALID, CERTIFICATE_FILE_INVALID, CERTIFICATE_PRIVATE_KEY_MISSING, CERTIFICATE_KEY_PAIR_NOT_FOUND, CERTIFICATE_HOLDER_ID_MISSING, CERTIFICATE_KEY_USAGE_INVALID, CERTIFICATE_EXPIRED, CERTIFICATE_NOT_YET_VALID; details.attemptsRemaining',
      schema: ZCertificateUploadError,
    },
  },
} as const satisfies TRouteContract;

/** The CORS preflight of the upload: the session's origin may PUT with Authorization and Content-Type. */
export const PARTNER_UPLOAD_PREFLIGHT_ROUTE = {
  method: 'OPTIONS',
  path: PARTNER_UPLOAD_ROUTE.path,
  summary: 'CORS preflight of the certificate upload',
  description:
    'Answers 204 with Access-Control-Allow-Origin (the session’s browserOrigin, only when the request’s Origin is that one), Access-Control-Allow-Methods PUT, Access-Control-Allow-Headers authorization, content-type. Another origin, or no open session: 204 without them.',
  params: ZUploadParams,
  responses: {
    204: { description: 'preflight answered' },
    400: error('INVALID_PARTNER_PAYLOAD: uploadId not a UUID'),
  },
} as const satisfies TRouteContract;
