// The REST contract: every route's method, path, parameters, body and a response schema per
// status. Handlers parse requests with these schemas and `/openapi.json` is generated from them
// (openapi.ts), so the document cannot drift from what the API enforces.
import { z } from 'zod';
import { SUBMISSION_ERROR_CODES, SUBMISSION_WARNING_CODES } from '@ecf/fiscal-core';
import { DOCUMENT_STATUSES, ZDocumentStatus, ZIssuedListQuery } from '@ecf/services';

export const ZEnvironment = z.enum(['TesteCF', 'CerteCF', 'eCF']);

export const ZErrorResponse = z.object({
  ok: z.literal(false),
  error: z.object({
    code: z.string().min(1),
    message: z.string().min(1),
    details: z.record(z.string(), z.unknown()),
  }),
  correlationId: z.string().min(1),
});

export const ZHealthResponse = z.object({
  ok: z.literal(true),
  status: z.literal('ok'),
  service: z.string(),
  version: z.string(),
  uptimeSeconds: z.number().int().nonnegative(),
  correlationId: z.string().min(1),
});

const ZCheck = z.object({
  ok: z.boolean(),
  latencyMs: z.number().int().nonnegative(),
  error: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});

export const ZReadinessResponse = z.object({
  ok: z.boolean(),
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({ storage: ZCheck, migrations: ZCheck, rateLimit: ZCheck }),
  correlationId: z.string().min(1),
});

export const ZContingencyItem = z.object({
  documentId: z.uuid(),
  encf: z.string(),
  type: z.string(),
  status: z.literal('contingency'),
  since: z.string().nullable(),
  attempts: z.number().int().nonnegative(),
  lastError: z.string().nullable(),
  lastDeferredAt: z.string().nullable(),
});

export const ZContingencyResponse = z.object({
  ok: z.literal(true),
  environment: ZEnvironment,
  items: z.array(ZContingencyItem),
  correlationId: z.string().min(1),
});

// ---------------------------------------------------------------------------------------------
// Documents

// The statuses and the issued list's query are shared with the portal (one schema, @ecf/services).
export { DOCUMENT_STATUSES, ZDocumentStatus, ZIssuedListQuery };

/** Status batch: at most 100 references per request (50 recommended). */
export const STATUS_BATCH_MAX = 100;
/** `Prefer: wait=N` is honoured up to this many seconds (spec Limits). */
export const PREFER_WAIT_MAX_SECONDS = 15;
/** `Retry-After` of a 202: when a status query is first worth making. */
export const SUBMIT_RETRY_AFTER_SECONDS = 2;

export const ZEnvironmentParams = z.object({ environment: ZEnvironment });
export const ZDocumentReferenceParams = z.object({
  environment: ZEnvironment,
  documentReference: z.string().max(64).describe('documentId (UUID) or eNCF (E + 12 digits)'),
});

export const ZStatusBatchRequest = z
  .strictObject({
    encfs: z.array(z.string().min(1).max(64)).optional().describe('eNCF of the documents'),
    documentReferences: z
      .array(z.string().min(1).max(64))
      .optional()
      .describe('documentIds or eNCF, under the same limit'),
  })
  .refine((body) => (body.encfs?.length ?? 0) + (body.documentReferences?.length ?? 0) > 0, {
    message: 'send at least one eNCF in encfs (or a documentId in documentReferences)',
  })
  .refine((body) => (body.encfs?.length ?? 0) + (body.documentReferences?.length ?? 0) <= STATUS_BATCH_MAX, {
    message: `at most ${STATUS_BATCH_MAX} references per request (50 recommended)`,
  });

/** Codes a submission's `errors[]` can carry: fiscal-core's blocking codes and the official XSD check. */
const SUBMISSION_FIELD_ERROR_CODES = [
  ...Object.values(SUBMISSION_ERROR_CODES),
  'XSD_VALIDATION_FAILED',
  // The cheap size checks that run before any validation (assertSubmissionWithinLimits).
  'LINE_LIMIT_EXCEEDED',
  'STRUCTURE_LIMIT_EXCEEDED',
];

const ZIssuePath = z
  .string()
  .describe(
    'the offending field with the names the client sent: dots for members, [i] for array positions (lines[2].unitPrice, ECF.Encabezado.IdDoc.FechaVencimientoSecuencia); empty for the body as a whole',
  );

/** FieldError (clarification 2). */
const ZFieldError = z
  .object({
    path: ZIssuePath,
    code: z.string().describe('mirrors details.code'),
    message: z.string(),
    details: z.object({ code: z.string() }).catchall(z.unknown()),
  })
  .describe(
    'FieldError (clarification 2): { path, code, message, details: { code, ... } }, code mirrors details.code. Codes: ' +
      SUBMISSION_FIELD_ERROR_CODES.join(', ') +
      '. Among them: ISSUER_RNC_MISMATCH on issuer.rnc or ECF.Encabezado.Emisor.RNCEmisor (clarification 7); REFERENCE_CODE_NOT_APPLICABLE on the reference path (clarification 8); XSD_VALIDATION_FAILED on path ECF with the schema message and details.line when known (clarification 9); SIGNATURE_DATE_IN_FUTURE and SIGNATURE_DATE_INVALID (clarification 10); SEQUENCE_EXPIRATION_DATE_INVALID, which wins over DATE_INVALID (clarification 11).',
  );

/** Warning (clarification 3). */
const ZWarning = z
  .object({
    path: ZIssuePath,
    code: z.string().describe('mirrors details.code'),
    message: z.string(),
    details: z.object({ code: z.string() }).catchall(z.unknown()),
  })
  .describe(
    'Warning (clarification 3): same shape as FieldError; the document is stored anyway. SQUARING_ABOVE_TAXAUTH_TOLERANCE carries details.declared, details.expected (money as a decimal string with two decimals, "1005.00") and details.toleranceCents. Codes: ' +
      Object.values(SUBMISSION_WARNING_CODES).join(', ') +
      '.',
  );

export const ZPrinting = z
  .object({
    pdfUrl: z
      .string()
      .nullable()
      .describe('path of the PDF route, relative to the service base address; null in CerteCF'),
    securityCode: z.string().nullable(),
    qrUrl: z.string().nullable(),
    signatureDate: z.string().nullable(),
  })
  .nullable();

export const ZSubmitResponse = z
  .object({
    ok: z.literal(true),
    documentId: z.uuid().optional().describe('absent in a preflight (200)'),
    encf: z.string(),
    environment: ZEnvironment,
    status: z.union([ZDocumentStatus, z.literal('validated')]).describe('`validated` in a preflight'),
    warnings: z.array(ZWarning),
    errors: z.array(ZFieldError).describe('empty: a submission with errors is a 422'),
    result: z.object({
      securityCode: z.string().nullable(),
      qrUrl: z.string().nullable(),
      printing: ZPrinting,
      printingStatus: z
        .string()
        .nullable()
        .describe(
          'why printing is null (awaiting_signature, awaiting_taxauth_response, ...) or deliverable; null in a preflight',
        ),
      trackId: z.string().nullable(),
    }),
    correlationId: z.string().min(1),
  })
  .describe(
    'SubmitResponse (clarification 4): ok, documentId (absent in a preflight), encf, environment, status (validated in a preflight), warnings, errors, result { securityCode, qrUrl, printing, printingStatus, trackId }; result members are null until known.',
  );

/** A 422 of the submission: ErrorResponse and SubmitResponse at once (clarification 1). */
export const ZSubmitValidationError = ZErrorResponse.extend({
  errors: z.array(ZFieldError),
  warnings: z.array(ZWarning),
}).describe(
  'Clarification 1: ErrorResponse and SubmitResponse at once: { ok: false, error: { code: VALIDATION_FAILED, message, details }, errors: [FieldError...], warnings: [Warning...], correlationId }.',
);

export const ZSubmitQuery = z.object({
  validate: z
    .enum(['true', 'false'])
    .optional()
    .describe('true: preflight only (scope ecf:validate); nothing stored, signed or sent'),
});

export const ZSubmitHeaders = z.object({
  prefer: z
    .string()
    .optional()
    .describe(
      `RFC 7240; \`wait=N\` waits up to N seconds (at most ${PREFER_WAIT_MAX_SECONDS}) for the printed representation to be deliverable`,
    ),
});

/** Documentation of the two submission formats; fiscal-core validates the body itself (422 on any field). */
export const ZSubmissionBody = z.union([
  z
    .looseObject({ ECF: z.looseObject({}) })
    .describe(
      'A. Tax-authority-shaped JSON (root ECF), element names of the official XSD of the type. Clarification 14: decimals may be JSON strings or JSON numbers (a number equals its text); a repeated element is an array under its element name (TablaTelefonoEmisor.TelefonoEmisor[]), a single occurrence may also be an object. Clarification 15: ECF.FechaHoraFirma omitted: the service sets the signing time when it signs.',
    ),
  z
    .looseObject({
      type: z.string(),
      encf: z.string(),
      sequenceExpirationDate: z.string().optional(),
      issueDate: z.string(),
      issuer: z.looseObject({}).optional(),
      buyer: z.looseObject({}).optional(),
      paymentType: z.string().optional(),
      lines: z.array(z.looseObject({})),
    })
    .describe(
      'B. Simplified contract (clarification 18): English camelCase properties, one place per concept (reference.encf for the modified eNCF of a note, per-line withholding amounts for E41, exempt lines for E43/E44/E46/E47); the complete property list with an example per type is packages/fiscal-core/docs/simplified-contract.md. Unknown properties are 422 UNKNOWN_FIELD. signatureDate omitted: the service sets the signing time when it signs (clarification 15).',
    ),
]);

export const ZStatusResult = z.object({
  documentId: z.uuid(),
  encf: z.string(),
  type: z.string(),
  status: ZDocumentStatus,
  trackId: z.string().nullable(),
  securityCode: z.string().nullable(),
  printing: ZPrinting,
  printingStatus: z.string(),
  lastError: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      'last send failure { code, message, ... } (TAXAUTH_CERTIFICATE_NOT_DELEGATED with hint, TAXAUTH_RECEPTION_REJECTED with taxauthMessages, TAXAUTH_UNAVAILABLE in contingency, ...); null in final states and cancelled',
    ),
  errors: z
    .array(z.record(z.string(), z.unknown()))
    .max(1)
    .describe(
      'the same error as lastError, as a list: [lastError] while there is one, [] when lastError is null',
    ),
  updatedAt: z.string(),
});

export const ZStatusBatchResponse = z
  .object({
    ok: z.literal(true),
    found: z.array(ZStatusResult),
    unfound: z.array(z.string()).describe('references as sent, in request order'),
    correlationId: z.string().min(1),
  })
  .describe(
    'Clarification 5: { ok, found: [StatusResult...], unfound: [reference as sent...], correlationId }; each StatusResult has documentId, encf, type, status, trackId, securityCode, printing, printingStatus, lastError, errors, updatedAt.',
  );

export const ZIssuedDocument = z.object({
  documentId: z.uuid(),
  encf: z.string(),
  type: z.string(),
  status: ZDocumentStatus,
  format: z.enum(['taxauth_json', 'simplified']),
  issueDate: z.string(),
  totalAmount: z.string().describe('decimal text, two decimals'),
  buyerRnc: z.string().nullable(),
  trackId: z.string().nullable(),
  securityCode: z.string().nullable(),
  printing: ZPrinting,
  printingStatus: z.string(),
  submittedAt: z.string(),
  updatedAt: z.string(),
});

export const ZIssuedListResponse = z
  .object({
    ok: z.literal(true),
    items: z.array(ZIssuedDocument),
    nextCursor: z.string().nullable(),
    correlationId: z.string().min(1),
  })
  .describe('Clarification 6: { ok, items, nextCursor (null on the last page), correlationId }.');

/** `Accept` of the XML download (clarification 17). */
export const ZXmlDownloadHeaders = z.object({
  accept: z
    .string()
    .optional()
    .describe(
      'Clarification 17: application/xml, text/xml, application/*, text/* or */* (or no header) are served; anything else is 400 NOT_ACCEPTABLE. Error answers are JSON ErrorResponse.',
    ),
});

/** `Accept` of the PDF download (clarification 17). */
export const ZPdfDownloadHeaders = z.object({
  accept: z
    .string()
    .optional()
    .describe(
      'Clarification 17: application/pdf, application/* or */* (or no header) are served; anything else is 400 NOT_ACCEPTABLE. Error answers are JSON ErrorResponse.',
    ),
});

// ---------------------------------------------------------------------------------------------
// Receiver delivery reconciliation (issue 6)

export const ZReceiverDeliveryParams = z.object({
  environment: ZEnvironment,
  documentId: z.uuid().describe('documentId (UUID) of an issued e-CF'),
});

/** Longest `evidence.arecfXml` accepted (an ARECF with its signature is about 3 KB). */
export const RECONCILIATION_ARECF_MAX_LENGTH = 256 * 1024;

/** `FiscalReconciliationRequest` of a receiver delivery: only `evidence.arecfXml` is named by the spec; `outcome` and `note` are ours. */
export const ZReceiverDeliveryReconciliationRequest = z.strictObject({
  outcome: z
    .enum(['sent', 'dispatch_failed'])
    .describe(
      '`sent`: the buyer received it (requires evidence.arecfXml); `dispatch_failed`: it never reached the buyer (no evidence)',
    ),
  evidence: z
    .strictObject({
      arecfXml: z
        .string()
        .min(1)
        .max(RECONCILIATION_ARECF_MAX_LENGTH)
        .describe(
          "the buyer's signed ARECF (Estado 0) as received, verified: signature, ARECF XSD, this e-CF's RNCEmisor/RNCComprador/eNCF, signer can be the buyer",
        ),
    })
    .optional(),
  note: z
    .string()
    .min(1)
    .max(4000)
    .optional()
    .describe('free text kept with the outcome (part of the replay comparison)'),
});

const ZAcknowledgementSigner = z.object({
  holderId: z.string(),
  subject: z.string(),
  certificateSerialNumber: z.string(),
  validTo: z.string(),
});

export const ZReceiverDeliveryReconciliationResponse = z.object({
  ok: z.literal(true),
  documentId: z.uuid(),
  encf: z.string(),
  environment: ZEnvironment,
  receiverDelivery: z.object({
    status: z.enum(['sent', 'dispatch_failed']),
    attempts: z
      .number()
      .int()
      .nonnegative()
      .describe('automatic delivery attempts made before it became uncertain'),
    targetUrl: z.string().nullable(),
    arecfArtifactId: z.uuid().nullable(),
    reconciledAt: z.string(),
    reconciliation: z.object({
      outcome: z.enum(['sent', 'dispatch_failed']),
      note: z.string().nullable(),
      reconciledAt: z.string(),
      evidence: z
        .object({
          artifactId: z.uuid(),
          sha256: z.string(),
          estado: z.string(),
          acknowledgedAt: z.string(),
          signer: ZAcknowledgementSigner,
        })
        .nullable()
        .describe(
          'the stored ARECF (write-once artifact receiver_acknowledgement); null for dispatch_failed',
        ),
    }),
  }),
  correlationId: z.string().min(1),
});

// ---------------------------------------------------------------------------------------------
// Route table: the single source of the OpenAPI document.

type TResponse = {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
  headers?: Record<string, string>;
};
export type TRouteContract = {
  method: 'GET' | 'POST';
  /** Fastify path syntax (`:param`); `/:environment/...` is documented under the environment's server. */
  path: string;
  summary: string;
  description?: string;
  /** Scopes of which the API key needs one; undefined: public. */
  scopes?: readonly string[];
  params?: z.ZodObject;
  query?: z.ZodType;
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** By status. */
  responses: Record<number, TResponse>;
};

const error = (description: string): TResponse => ({ description, schema: ZErrorResponse });
const AUTH_ERRORS = {
  401: error('X-API-KEY missing (API_KEY_MISSING) or invalid (API_KEY_INVALID)'),
  403: error(
    'INSUFFICIENT_SCOPE: the key lacks the scope, or belongs to another environment (clarification 12: details.reason environment_mismatch)',
  ),
  404: error('ROUTE_NOT_FOUND: unknown environment segment'),
  429: {
    description: 'RATE_LIMIT_EXCEEDED; Retry-After in seconds',
    schema: ZErrorResponse,
    headers: { 'Retry-After': 'seconds' },
  },
  500: error('INTERNAL_ERROR: an unexpected failure; the answer reveals only the correlationId'),
  503: error(
    'SERVICE_UNAVAILABLE: the process is shutting down (details.reason shutting_down); send the request again',
  ),
} satisfies Record<number, TResponse>;

/** How a JSON body can be refused before any route logic (plugins/json-body.ts, body-limits.ts). */
const JSON_BODY_ERRORS =
  'INVALID_JSON (details.reason: syntax, empty, invalid_utf8 with details.offset, duplicate_key with details.path/line/column, too_deep), ' +
  'BODY_TOO_LARGE (details.limitBytes, the limit of this route), UNSUPPORTED_CONTENT_TYPE (not application/json, or a charset other than UTF-8), ' +
  'REQUEST_HEADERS_TOO_LARGE, REQUEST_TIMEOUT';

/**
 * Public operational routes decide no client error themselves; what a client can still get is the
 * refusal of a request the HTTP server cannot read, answered before any route runs (the API's
 * clientErrorHandler makes it a 400 ErrorResponse rather than Node's bare 400/408/431).
 */
const HTTP_LAYER_ERRORS = {
  400: error(
    'refused before any route runs: INVALID_REQUEST (not valid HTTP/1.1, or no Host), REQUEST_HEADERS_TOO_LARGE, REQUEST_TIMEOUT',
  ),
} satisfies Record<number, TResponse>;

export const ROUTES = {
  health: {
    method: 'GET',
    path: '/healthz',
    summary: 'Liveness',
    responses: { 200: { description: 'alive', schema: ZHealthResponse }, ...HTTP_LAYER_ERRORS },
  },
  readiness: {
    method: 'GET',
    path: '/readyz',
    summary: 'Readiness: storage, migrations, rate-limit store',
    responses: {
      200: { description: 'ready', schema: ZReadinessResponse },
      ...HTTP_LAYER_ERRORS,
      503: { description: 'not ready', schema: ZReadinessResponse },
    },
  },
  metrics: {
    method: 'GET',
    path: '/metrics',
    summary: 'Prometheus text exposition',
    responses: { 200: { description: 'metrics', contentType: 'text/plain' }, ...HTTP_LAYER_ERRORS },
  },
  openapi: {
    method: 'GET',
    path: '/openapi.json',
    summary: 'This contract (OpenAPI 3.1)',
    description: 'The same document is rendered as an API reference page at /docs.',
    responses: {
      200: { description: 'the OpenAPI document', contentType: 'application/json' },
      ...HTTP_LAYER_ERRORS,
    },
  },
  submitDocument: {
    method: 'POST',
    path: '/:environment/documentos-ecf',
    summary: 'Preflight (validate=true) or issue an e-CF',
    description:
      'Preflight (200): the full validation, nothing stored or signed. Emission: validated like preflight, then stored with its signing job in one transaction (202, Retry-After), or 201 with printing data when `Prefer: wait=N` sees it deliverable in time (Preference-Applied). ' +
      'The same eNCF with the same JSON is a replay (the original document; 201 at once when printable); with other content 409 ENCF_CONFLICT (details.conflicts[]). eCF without active production: 423. ' +
      "Clarification 16: a note that references an eNCF this account never issued through the service is accepted; rule 20's reference checks apply when the referenced e-CF is the account's.",
    scopes: ['ecf:validate', 'ecf:create'],
    params: ZEnvironmentParams,
    query: ZSubmitQuery,
    headers: ZSubmitHeaders,
    body: ZSubmissionBody,
    responses: {
      200: { description: 'preflight passed (warnings listed)', schema: ZSubmitResponse },
      201: {
        description:
          'printable: result.securityCode, result.qrUrl, result.printing. Clarification 13: a replay of an already printable document answers 201 with its result whether or not Prefer was sent (Preference-Applied only when it was).',
        schema: ZSubmitResponse,
        headers: { 'Preference-Applied': 'wait=N' },
      },
      202: {
        description: 'stored and queued for signing',
        schema: ZSubmitResponse,
        headers: { 'Retry-After': 'seconds' },
      },
      400: error(`INVALID_REQUEST; ${JSON_BODY_ERRORS}`),
      ...AUTH_ERRORS,
      409: error(
        'ENCF_CONFLICT: the eNCF exists with other content; details.conflicts[] { encf, documentId, status, reason: encf_already_used_with_other_content }',
      ),
      422: {
        description:
          'VALIDATION_FAILED (clarification 1): ErrorResponse and SubmitResponse at once, errors[] (FieldError, clarification 2) and warnings[] (Warning, clarification 3); nothing stored, the eNCF stays free. ' +
          'Codes the specification does not name: ISSUER_RNC_MISMATCH (clarification 7), REFERENCE_CODE_NOT_APPLICABLE (clarification 8), XSD_VALIDATION_FAILED on path ECF (clarification 9), SIGNATURE_DATE_IN_FUTURE / SIGNATURE_DATE_INVALID (clarification 10), SEQUENCE_EXPIRATION_DATE_INVALID over DATE_INVALID (clarification 11).',
        schema: ZSubmitValidationError,
      },
      423: error('PRODUCTION_NOT_ACTIVE'),
    },
  },
  listDocuments: {
    method: 'GET',
    path: '/:environment/documentos-ecf',
    summary: 'Issued e-CF, newest submission first',
    description:
      'Clarification 6: date filters are ISO dates YYYY-MM-DD (Dominican Republic time, on FechaEmision); type accepts E31 or 31; limit 1 to 100, default 50; follow nextCursor with the same filters until it is null.',
    scopes: ['ecf:read'],
    params: ZEnvironmentParams,
    query: ZIssuedListQuery,
    responses: {
      200: { description: 'a page; follow nextCursor until null', schema: ZIssuedListResponse },
      400: error('INVALID_ISSUED_DOCUMENTS_QUERY: bad filter, limit or cursor'),
      ...AUTH_ERRORS,
      423: error('PRODUCTION_NOT_ACTIVE'),
    },
  },
  statusBatch: {
    method: 'POST',
    path: '/:environment/documentos-ecf/status/batch',
    summary: 'Status of up to 100 documents (50 recommended)',
    description:
      'Clarification 5: found (StatusResult per document, in request order) and unfound (references as sent). lastError is the last send failure and the same error appears in errors ([lastError], or [] when lastError is null); in final states and cancelled lastError is null and errors [].',
    scopes: ['status:read'],
    params: ZEnvironmentParams,
    body: ZStatusBatchRequest,
    responses: {
      200: { description: 'found and unfound', schema: ZStatusBatchResponse },
      400: error(
        `INVALID_REQUEST: empty or more than 100 references, unknown property, a character JSON text may carry but storage may not (details.reason unsupported_character: U+0000, lone surrogates); ${JSON_BODY_ERRORS}`,
      ),
      ...AUTH_ERRORS,
    },
  },
  documentXml: {
    method: 'GET',
    path: '/:environment/documentos-ecf/:documentReference/xml',
    summary: 'Signed XML, byte for byte as stored',
    description:
      'File {RNCEmisor}{eNCF}.xml. Checks in this order: the document of this account and environment (else 404, whatever Accept says), Accept (clarification 17, else 400 NOT_ACCEPTABLE), signed (else 409).',
    scopes: ['ecf:read'],
    params: ZDocumentReferenceParams,
    headers: ZXmlDownloadHeaders,
    responses: {
      200: {
        description: 'the signed XML',
        contentType: 'application/xml',
        headers: { 'Content-Disposition': 'attachment; filename={RNCEmisor}{eNCF}.xml' },
      },
      400: error(
        'INVALID_DOCUMENT_REFERENCE; NOT_ACCEPTABLE (clarification 17: Accept allows neither application/xml, text/xml nor a wildcard of them; details.accepted)',
      ),
      ...AUTH_ERRORS,
      404: error(
        'NOT_FOUND: no such document in this account and environment (or transmission_failed and never signed), whatever Accept says; ROUTE_NOT_FOUND: unknown environment',
      ),
      409: error('DOCUMENT_NOT_SIGNED'),
    },
  },
  documentPdf: {
    method: 'GET',
    path: '/:environment/documentos-ecf/:documentReference/pdf',
    summary: 'Printed representation (PDF)',
    description:
      'File {RNCEmisor}{eNCF}.pdf, letter size. Checks in this order: the document of this account and environment (else 404, whatever Accept says), Accept (clarification 17, else 400 NOT_ACCEPTABLE), deliverable (else 409).',
    scopes: ['ecf:read'],
    params: ZDocumentReferenceParams,
    headers: ZPdfDownloadHeaders,
    responses: {
      200: {
        description:
          'the printed representation, letter size, rendered from the stored signed XML (QR, security code, signature date)',
        contentType: 'application/pdf',
        headers: { 'Content-Disposition': 'attachment; filename={RNCEmisor}{eNCF}.pdf' },
      },
      400: error(
        'INVALID_DOCUMENT_REFERENCE; NOT_ACCEPTABLE (clarification 17: Accept lists neither application/pdf, application/* nor */*; details.accepted)',
      ),
      ...AUTH_ERRORS,
      404: error(
        'NOT_FOUND: no such document in this account and environment, whatever Accept says; ROUTE_NOT_FOUND: unknown environment',
      ),
      409: error(
        'DOCUMENT_NOT_SIGNED; RI_AWAITING_TAXAUTH_RESPONSE (signed, no TrackID yet); RI_NOT_DELIVERABLE_REJECTED (rejected, including the RFCE summary of a consumer invoice); RI_NOT_DELIVERABLE_NOT_TRANSMITTED (transmission_failed); RI_NOT_DELIVERABLE_CANCELLED',
      ),
    },
  },
  printedLink: {
    method: 'GET',
    path: '/ri/:token',
    summary: "Buyer's link to the printed representation (PDF); the signed token is the credential",
    description:
      'Sent to the buyer by e-mail when the e-CF is accepted or accepted-conditional and the account enabled buyer e-mail in the environment. Valid 30 days from sending; serves the PDF only while the e-CF is accepted or accepted-conditional. ' +
      'Refusals are plain text with the code in X-Error-Code (not ErrorResponse).',
    params: z.object({ token: z.string().max(1300).describe('signed token, at most 1300 characters') }),
    responses: {
      200: { description: 'the PDF (inline; file {RNCEmisor}{eNCF}.pdf)', contentType: 'application/pdf' },
      404: {
        description:
          'RI_LINK_INVALID (malformed or tampered token, unknown document) or RI_NOT_DELIVERABLE (the e-CF is not accepted or accepted-conditional now); text/plain, X-Error-Code',
        contentType: 'text/plain',
        headers: { 'X-Error-Code': 'RI_LINK_INVALID | RI_NOT_DELIVERABLE' },
      },
      410: {
        description: 'RI_LINK_EXPIRED: more than 30 days after sending; text/plain, X-Error-Code',
        contentType: 'text/plain',
        headers: { 'X-Error-Code': 'RI_LINK_EXPIRED' },
      },
    },
  },
  contingency: {
    method: 'GET',
    path: '/:environment/contingencia',
    summary: 'Documents currently in contingency',
    scopes: ['ecf:read', 'status:read'],
    params: ZEnvironmentParams,
    responses: {
      200: { description: 'in contingency, longest waiting first', schema: ZContingencyResponse },
      ...AUTH_ERRORS,
    },
  },
  reconcileReceiverDelivery: {
    method: 'POST',
    path: '/:environment/documentos-ecf/:documentId/entrega-receptor/reconciliar',
    summary: 'Fix the outcome of an uncertain delivery to the buyer (once, immutable)',
    description:
      "Only a receiver delivery in `uncertain` (no answer after 5 retries; never re-sent automatically). `sent` requires `evidence.arecfXml`, the buyer's signed ARECF with Estado 0, which is verified and stored write-once; `dispatch_failed` takes no evidence. " +
      "The same request again (same outcome, same evidence bytes, same note) answers the same 200; anything else on a reconciled delivery is 409 RECEIVER_DELIVERY_OUTCOME_CONFLICT. Another account's or environment's document: 404.",
    scopes: ['ecf:create', 'tenant:admin'],
    params: ZReceiverDeliveryParams,
    body: ZReceiverDeliveryReconciliationRequest,
    responses: {
      200: {
        description: 'reconciled (or an idempotent replay)',
        schema: ZReceiverDeliveryReconciliationResponse,
      },
      400: error(
        `INVALID_REQUEST (documentId not a UUID, unknown outcome or property, details.reason unsupported_character: U+0000 or a lone surrogate in the note); ${JSON_BODY_ERRORS}`,
      ),
      ...AUTH_ERRORS,
      404: error(
        'NOT_FOUND: no such document in this account and environment; ROUTE_NOT_FOUND: unknown environment',
      ),
      409: error(
        'RECEIVER_DELIVERY_NOT_UNCERTAIN (details.status), RECEIVER_DELIVERY_OUTCOME_CONFLICT (details.reason outcome_differs | evidence_differs | note_differs), RECEIVER_DELIVERY_EVIDENCE_INVALID (details.reason: evidence_required, evidence_not_applicable, not_xml, signature_invalid, xsd_invalid, issuer_mismatch, buyer_mismatch, encf_mismatch, not_received, signer_*)',
      ),
    },
  },
} as const satisfies Record<string, TRouteContract>;
