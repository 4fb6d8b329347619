// The direct REST contract (`/{environment}/...`, the public and reception routes): every route's
// method, path, parameters, body and a response schema per status. The API's handlers parse
// requests with these schemas and its `/openapi.json` is generated from them, so the document cannot
// drift from what the API enforces; the portal and the Partner API reuse the same shapes.
import { z } from 'zod';
import {
  CERTIFICATION_APPROVAL_ITEM_FIELDS,
  CERTIFICATION_RUN_ITEM_FIELDS,
  CERTIFICATION_RUN_STATES,
  CERTIFICATION_RUN_TIMES,
  ATTESTABLE_STEPS,
  CERTIFICATION_STEPS,
  WORKBOOK_BASE64_MAX_CHARACTERS,
  ZCertificationApprovalsTotals,
  ZCertificationPrevalidatedDocument,
  ZCertificationRunTotals,
  ZCertificationStepView,
} from './certification.ts';
import {
  DISPATCH_STATUSES,
  ZCommercialApprovalDispatchError,
  ZCommercialApprovalReconciliation,
  ZCommercialApprovalReconciliationRequest,
  ZCommercialApprovalRequest,
} from './commercial-approvals.ts';
import {
  DOCUMENT_STATUSES,
  RECEIVED_GROUPS,
  TAXAUTH_VALIDITY_STATUSES,
  ZDocumentStatus,
  ZIssuedListQuery,
  ZPageCursorText,
  ZPageLimitText,
  ZReceivedApprovalListQuery,
  ZReceivedListQuery,
} from './document-lists.ts';
import { SUBMISSION_ERROR_CODES, SUBMISSION_WARNING_CODES } from './submission-codes.ts';

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
// Sequences and annulments (issue 17). The request fields are ours (the spec names none); the
// design with examples is docs/annulments.md.

/** e-CF types that take an eNCF: the two digits, or with the series letter (`31` or `E31`). */
export const ECF_TYPE_CODES = ['31', '32', '33', '34', '41', '43', '44', '45', '46', '47'] as const;
export const ZEcfTypeCode = z
  .string()
  .regex(
    /^E?(31|32|33|34|41|43|44|45|46|47)$/,
    'an e-CF type: 31, 32, 33, 34, 41, 43, 44, 45, 46 or 47 (E31 also read)',
  )
  .describe('e-CF type: 31 … 47 (E31 also read)');
export const ZEncf = z
  .string()
  .regex(/^E\d{12}$/, 'an eNCF: E, the two-digit e-CF type and a ten-digit sequence (E310000000001)')
  .describe('eNCF: E + type (2 digits) + sequence (10 digits), E310000000001');
/** Longest free-text reason kept with an annulment (ours; the ANECF has no such element). */
export const ANNULMENT_REASON_MAX_LENGTH = 500;
/** The ANECF holds at most 10 types × 10,000 ranges (ANECF v.1.0.xsd); fiscal-core checks per type. */
export const ANNULMENT_MAX_RANGES = 100_000;
/** Longest `Idempotency-Key` accepted to send an ANECF. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;

export const ZSequenceRangeRequest = z
  .strictObject({
    type: ZEcfTypeCode,
    from: ZEncf.describe('first eNCF of the range (same type)'),
    to: ZEncf.describe('last eNCF of the range, both ends included; at least `from`'),
    sequenceExpirationDate: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD')
      .describe(
        'the sequence expiration date the tax authority authorised for the range, YYYY-MM-DD (E32 and E34 documents carry none, their range has one). Once registered, rule 16 compares FechaVencimientoSecuencia of every emission in the range with it (SEQUENCE_EXPIRATION_RANGE_MISMATCH)',
      ),
  })
  .describe(
    'A range of eNCF authorised by the tax authority for one e-CF type. Registration is optional: emission neither reserves numbers nor moves a cursor.',
  );

export const ZSequenceRange = z.object({
  sequenceId: z.uuid(),
  type: z.string().describe('e-CF type, two digits'),
  from: z.string(),
  to: z.string(),
  sequenceExpirationDate: z.string().describe('YYYY-MM-DD'),
  status: z.literal('active'),
  registeredAt: z.string(),
  counts: z
    .object({
      total: z.number().int().nonnegative(),
      used: z.number().int().nonnegative().describe('eNCF of the range with a document in this environment'),
      annulled: z.number().int().nonnegative().describe('eNCF of the range covered by an accepted ANECF'),
      free: z.number().int().nonnegative().describe('total − used − annulled'),
    })
    .describe('how many of its numbers were used, annulled, free'),
});

export const ZSequenceRangeResponse = z.object({
  ok: z.literal(true),
  environment: ZEnvironment,
  sequence: ZSequenceRange,
  correlationId: z.string().min(1),
});

export const ZSequenceRangeListResponse = z.object({
  ok: z.literal(true),
  environment: ZEnvironment,
  items: z.array(ZSequenceRange).describe('by type, then first eNCF'),
  correlationId: z.string().min(1),
});

export const ZAnnulmentRange = z
  .strictObject({
    type: ZEcfTypeCode,
    from: ZEncf.describe('first eNCF to annul (of `type`)'),
    to: ZEncf.describe('last eNCF to annul, both ends included; equal to `from` for one eNCF'),
  })
  .describe('one consecutive range of one e-CF type (SecuenciaeNCFDesde / SecuenciaeNCFHasta)');

export const ZAnnulmentRequest = z
  .strictObject({
    ranges: z
      .array(ZAnnulmentRange)
      .min(1, 'give at least one range to annul')
      .max(ANNULMENT_MAX_RANGES)
      .describe(
        'ranges to annul, of up to 10 e-CF types with up to 10,000 ranges each (one ANECF: one Anulacion per type in order of first appearance); ranges must not overlap',
      ),
    reason: z
      .string()
      .trim()
      .min(1)
      .max(ANNULMENT_REASON_MAX_LENGTH)
      .optional()
      .describe(
        'why the numbers are annulled (kept with the annulment; not sent: the ANECF has no such element)',
      ),
  })
  .describe(
    'AnnulmentRequest (ours; docs/annulments.md): the eNCF ranges one ANECF annuls, and an optional reason.',
  );

export const ZAnnulmentHeaders = z.object({
  'idempotency-key': z
    .string()
    .optional()
    .describe(
      `required to send (428 ANECF_IDEMPOTENCY_KEY_REQUIRED without it); 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters. The same key with the same body replays the first answer; with another body 409 ANECF_IDEMPOTENCY_CONFLICT`,
    ),
});

/** The five reasons of `details.conflicts[].reason` and `coveredDocuments.skipped[].reason` of an annulment. */
export const ANNULMENT_CONFLICT_REASONS = [
  'document_already_submitted_or_taxauth_validated',
  'document_in_contingency',
  'document_taxauth_submission_uncertain',
  'document_taxauth_submission_in_progress',
  'document_already_delivered_to_receiver',
] as const;
export type TAnnulmentConflictReason = (typeof ANNULMENT_CONFLICT_REASONS)[number];

export const ZAnnulmentConflict = z.object({
  encf: z.string(),
  documentId: z.uuid(),
  status: z.string().describe('the document status'),
  reason: z.enum(ANNULMENT_CONFLICT_REASONS),
});

const ZAnnulmentRangeOut = z.object({
  type: z.string(),
  from: z.string(),
  to: z.string(),
  count: z.number().int().positive().describe('eNCF in the range'),
});

const ZAnnulmentDocumentRef = z.object({ documentId: z.uuid(), encf: z.string() });

export const ZAnnulmentPrevalidation = z.object({
  ok: z.literal(true),
  environment: ZEnvironment,
  status: z.literal('validated'),
  ranges: z.array(ZAnnulmentRangeOut),
  totalEncf: z.number().int().positive().describe('CantidadeNCFAnulados of the header'),
  coveredDocuments: z
    .object({ cancellable: z.array(ZAnnulmentDocumentRef.extend({ status: z.string() })) })
    .describe(
      'signed documents of the ranges that never left: they become cancelled if the tax authority accepts',
    ),
  correlationId: z.string().min(1),
});

export const ANNULMENT_STATUSES = [
  'built',
  'sending',
  'accepted',
  'rejected',
  'uncertain',
  'failed',
] as const;

export const ZAnnulment = z.object({
  ok: z.boolean().describe('false when rejected, uncertain or failed'),
  annulmentId: z.uuid(),
  environment: ZEnvironment,
  status: z
    .enum(ANNULMENT_STATUSES)
    .describe(
      'built and sending: ranges reserved, the ANECF on its way (built: the tax authority was unreachable, send again with the same key); accepted; rejected (definitive, ranges freed); uncertain (no answer or a partial annulment: reconcile); failed (left built for 24 h, never reached the tax authority: ranges freed, send again with another key)',
    ),
  reason: z.string().nullable(),
  ranges: z.array(ZAnnulmentRangeOut),
  totalEncf: z.number().int().positive(),
  taxauth: z
    .object({
      codigo: z.string().nullable(),
      nombre: z.string().nullable(),
      mensajes: z.array(z.string()),
    })
    .nullable()
    .describe(
      "the tax authority's answer (RespuestaAnulacionRango); null while pending or without an answer",
    ),
  coveredDocuments: z.object({
    cancelled: z.array(ZAnnulmentDocumentRef),
    skipped: z.array(
      ZAnnulmentDocumentRef.extend({ status: z.string(), reason: z.enum(ANNULMENT_CONFLICT_REASONS) }),
    ),
  }),
  reconciliation: z
    .object({
      outcome: z.enum(['accepted', 'rejected']),
      note: z.string().nullable(),
      evidenceSha256: z.string().describe('SHA-256 of the evidence stored write-once'),
      reconciledAt: z.string(),
    })
    .nullable(),
  createdAt: z.string(),
  answeredAt: z
    .string()
    .nullable()
    .describe('when the tax authority answered (or the reconciliation fixed it)'),
  correlationId: z.string().min(1),
});

/** `GET /{environment}/anulaciones-ecf` (ours, docs/annulments.md): newest first, cursor pages. */
export const ZAnnulmentListQuery = z
  .strictObject({
    status: z.enum(ANNULMENT_STATUSES).optional().describe('only annulments in this state'),
    limit: ZPageLimitText,
    cursor: ZPageCursorText,
  })
  .describe('AnnulmentListQuery');

export const ZAnnulmentSummary = ZAnnulment.omit({ coveredDocuments: true, correlationId: true }).extend({
  coveredCounts: z
    .object({ cancelled: z.number().int().nonnegative(), skipped: z.number().int().nonnegative() })
    .describe('how many covered documents were cancelled or skipped (GET the annulment for the lists)'),
});

export const ZAnnulmentListResponse = z.object({
  ok: z.literal(true),
  environment: ZEnvironment,
  items: z.array(ZAnnulmentSummary),
  nextCursor: z.string().nullable(),
  correlationId: z.string().min(1),
});

export const ZAnnulmentParams = z.object({
  environment: ZEnvironment,
  annulmentId: z.uuid().describe('annulmentId (UUID)'),
});

/** Longest reconciliation note and evidence text accepted. */
export const ANNULMENT_EVIDENCE_MAX_LENGTH = 256 * 1024;

export const ZAnnulmentReconciliationRequest = z
  .strictObject({
    outcome: z
      .enum(['accepted', 'rejected'])
      .describe(
        'what the tax authority decided, as established outside the API (its portal, a written answer)',
      ),
    evidence: z
      .strictObject({
        content: z
          .string()
          .min(1)
          .max(ANNULMENT_EVIDENCE_MAX_LENGTH)
          .describe(
            "the tax authority's answer as obtained (RespuestaAnulacionRango JSON or XML, the text of its written answer...)",
          ),
        contentType: z
          .enum(['application/json', 'application/xml', 'text/plain'])
          .optional()
          .describe('default text/plain'),
      })
      .describe('stored as a write-once artifact'),
    note: z.string().trim().min(1).max(4000).optional(),
  })
  .describe('FiscalReconciliationRequest of an uncertain ANECF');

// ---------------------------------------------------------------------------------------------
// Route table: the single source of the OpenAPI document.

type TResponse = {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
  headers?: Record<string, string>;
};
export type TRouteContract = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
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

// ---------------------------------------------------------------------------------------------
// Received e-CF and received commercial approvals (issue 18, task L; docs/received-documents.md)

export { ZReceivedApprovalListQuery, ZReceivedListQuery };

export const ZReceivedDocumentParams = z.object({
  environment: ZEnvironment,
  inboundDocumentId: z.string().describe('inboundDocumentId (UUID); anything else is 404'),
});

const ZNotReceived = z
  .object({
    code: z
      .number()
      .int()
      .min(1)
      .max(4)
      .describe('CodigoMotivoNoRecibido: 1 specification, 2 signature, 3 duplicate, 4 buyer RNC'),
    reason: z.string(),
  })
  .nullable();

export const ZTaxauthValidity = z
  .looseObject({
    status: z.enum(TAXAUTH_VALIDITY_STATUSES),
    codigo: z.number().int().nullable(),
    estado: z.string().nullable(),
    checkedAt: z.string(),
  })
  .nullable()
  .describe('what Consulta Estado said of the e-CF (asked by a job after reception); null until asked');

export const ZReceivedDocument = z.object({
  inboundDocumentId: z.uuid(),
  environment: ZEnvironment,
  encf: z.string(),
  type: z.string().describe('E31, E33, ...'),
  issuerRnc: z.string(),
  issuerName: z.string().nullable(),
  buyerRnc: z.string().nullable(),
  issueDate: z.string().nullable().describe('FechaEmision (YYYY-MM-DD); null when the XML could not be read'),
  totalAmount: z.string().nullable().describe('MontoTotal, decimal text with two decimals'),
  status: z.enum(['received', 'not_received']),
  notReceived: ZNotReceived,
  receivedAt: z.string(),
  signer: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe("the signer's certificate: holderId, subject, issuer, serialNumber, matchesIssuer"),
  taxauthValidity: ZTaxauthValidity,
  commercialApproval: z
    .object({
      commercialApprovalId: z.uuid(),
      decision: z.enum(['accept', 'reject']),
      approvalDate: z.string(),
      rejectionReason: z.string().nullable(),
      taxauthStatus: z.string(),
      dispatchStatus: z.string(),
      createdAt: z.string(),
    })
    .nullable()
    .describe('the active commercial approval this account sent; null while unanswered'),
  commercialApprovalDeadline: z
    .string()
    .nullable()
    .describe(
      'YYYY-MM-DD, day 15 of the month after FechaEmision; only while unanswered (group pending_approval)',
    ),
  group: z.enum(RECEIVED_GROUPS),
  view: z.string().describe("the item's page in the portal, relative to the portal's origin"),
  links: z.object({ xml: z.string().nullable().describe('null when no copy was kept') }),
});

export const ZReceivedDocumentListResponse = z.object({
  ok: z.literal(true),
  items: z.array(ZReceivedDocument),
  nextCursor: z.string().nullable(),
  correlationId: z.string().min(1),
});

export const ZReceivedDocumentResponse = ZReceivedDocument.extend({
  ok: z.literal(true),
  correlationId: z.string().min(1),
});

export const ZReceivedApproval = z.object({
  inboundDocumentId: z.uuid(),
  environment: ZEnvironment,
  encf: z.string(),
  issuerRnc: z.string(),
  buyerRnc: z.string().nullable(),
  documentId: z.uuid().nullable().describe('the issued e-CF with that eNCF in this environment, else null'),
  status: z.enum(['received', 'rejected', 'duplicate']),
  notReceived: z.object({ reason: z.string() }).nullable(),
  decision: z.enum(['accepted', 'rejected']).nullable().describe('null when not received'),
  decisionReason: z.string().nullable(),
  approvedAt: z.string().nullable().describe('FechaHoraAprobacionComercial as written (dd-MM-yyyy HH:mm:ss)'),
  correspondence: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('result: matched | mismatch (mismatches[]) | ecf_not_found'),
  receivedAt: z.string(),
  view: z.string(),
  links: z.object({ xml: z.string().nullable() }),
});

export const ZReceivedApprovalListResponse = z.object({
  ok: z.literal(true),
  items: z.array(ZReceivedApproval),
  nextCursor: z.string().nullable(),
  correlationId: z.string().min(1),
});

export const ZReceivedApprovalResponse = ZReceivedApproval.extend({
  ok: z.literal(true),
  correlationId: z.string().min(1),
});

// @inbound-schemas (issue 18: received e-CF and received ACECF): insert above this line
// ---------------------------------------------------------------------------------------------
// Sending a commercial approval (issue 18, task C; docs/commercial-approvals.md). The request and the
// reconciliation request are the use-cases' own zod schemas, so the API and the portal check the same.

export const ZInboundApprovalParams = z.object({
  environment: ZEnvironment,
  inboundId: z.uuid().describe('inboundDocumentId (UUID) of a received e-CF'),
});

export const ZCommercialApprovalRequestBody = ZCommercialApprovalRequest.describe(
  'CommercialApprovalRequest (strict: an unknown property is 400 INVALID_REQUEST)',
);
export const ZCommercialApprovalReconciliationBody = ZCommercialApprovalReconciliationRequest;

export const ZCommercialApprovalView = z
  .object({
    id: z.uuid(),
    decision: z.enum(['accept', 'reject']),
    approvalDate: z.string().describe('FechaHoraAprobacionComercial as an instant (ISO 8601, UTC)'),
    rejectionReason: z.string().nullable(),
    status: z.literal('signed').describe('the ACECF was signed and stored write-once (kept 10 years)'),
    targetSource: z
      .enum(['directory', 'request', 'not_applicable', 'none'])
      .describe(
        "where the issuer's copy goes: the tax authority's directory, the request's targetUrl, not_applicable (CerteCF: only the tax authority), none (the issuer is not in the directory and no targetUrl was given)",
      ),
    targetUrl: z.string().nullable(),
    createdAt: z.string(),
    supersededAt: z
      .string()
      .nullable()
      .describe(
        'set when the tax authority rejected it (or it never reached it): a corrected one may be sent',
      ),
    taxauth: z.object({
      status: z.enum(['pending', 'accepted', 'rejected', 'uncertain', 'not_applicable']),
      codigo: z.string().nullable(),
      estado: z.string().nullable(),
      mensajes: z.array(z.string()),
    }),
    dispatch: z.object({
      status: z.enum(DISPATCH_STATUSES),
      attempts: z.number().int().nonnegative().describe('attempts of the current cycle (at most 5)'),
      httpStatus: z.number().int().nullable().describe("the issuer's last HTTP status"),
      body: z.string().nullable().describe("at most 4 KB of the issuer's last body (never its headers)"),
      responseTruncated: z.boolean(),
      responseBytes: z.number().int().nullable(),
      nextAttemptAt: z.string().nullable().describe('while retry_scheduled'),
      error: ZCommercialApprovalDispatchError,
    }),
    reconciliation: ZCommercialApprovalReconciliation,
  })
  .describe('the commercial approval (ACECF) this account sent for the received e-CF');

export const ZCommercialApprovalStatusResponse = z
  .object({
    ok: z.literal(true),
    environment: ZEnvironment,
    inboundDocumentId: z.uuid(),
    commercialApproval: ZCommercialApprovalView.nullable().describe('null when none was sent'),
    correlationId: z.string().min(1),
  })
  .describe('CommercialApprovalStatusResponse');

export const ZCommercialApprovalSubmitResponse = ZCommercialApprovalStatusResponse.extend({
  commercialApproval: ZCommercialApprovalView,
}).describe('CommercialApprovalSubmitResponse');

export const ZCommercialApprovalErrorResponse = ZErrorResponse.extend({
  commercialApproval: ZCommercialApprovalView.optional().describe(
    'the approval as it stands (502, 409, 422)',
  ),
});

// ---------------------------------------------------------------------------------------------
// Certification (issue 19; docs/certification.md). The bodies are read by the use-cases with the
// spec's own 400 codes (INVALID_CERTIFICATION_REQUEST, CERTIFICATION_PART_INVALID,
// COMMERCIAL_APPROVAL_SET_REQUIRED); these schemas document them.

export const ZCertificationRunParams = z.object({
  environment: ZEnvironment,
  runId: z.uuid().describe('runId (UUID)'),
});

export const ZCertificationDocumentParams = z.object({
  environment: ZEnvironment,
  documentId: z.uuid().describe('documentId (UUID) of a certification receipt'),
});

export const ZCertificationSetRequestBody = z
  .object({
    workbookBase64: z
      .string()
      .max(WORKBOOK_BASE64_MAX_CHARACTERS)
      .optional()
      .describe("the tax authority's xlsx (sheets ECF and RFCE), base64, at most 700 KB of text"),
    set: z
      .object({
        ecf: z
          .array(z.record(z.string(), z.string()))
          .describe('the ECF sheet: one object per row, column → text as written'),
        rfce: z.array(z.record(z.string(), z.string())).optional().describe('the RFCE sheet, the same way'),
      })
      .optional()
      .describe(
        'the JSON form of the same rows: every value a string exactly as in the workbook (#e or "" is empty)',
      ),
    taxauthModel: z
      .boolean()
      .optional()
      .describe(
        "true: the tax authority's model set with new eNCFs (simulation only, after the commercial approvals were accepted)",
      ),
    part: z.enum(['data', 'simulation']).optional().describe('default: the part the certification is at'),
  })
  .describe('CertificationSetRequest: exactly one of workbookBase64, set, taxauthModel true');

const ZCertificationItem = z.object({
  ...CERTIFICATION_RUN_ITEM_FIELDS,
  position: z.number().int().describe('send order (a note follows the document it references)'),
  sheet: z.literal('ECF'),
  row: z.number().int().nullable().describe('the workbook row (header is row 1); null for the model set'),
  state: z.enum(['pending', 'issued', 'accepted', 'rejected', 'failed', 'stopped']),
  taxauthMessages: z
    .unknown()
    .describe("the tax authority's messages (a rejection names the field and both values)"),
  lastError: z.unknown(),
  detail: z.unknown().describe('why it was rejected or could not be issued'),
});

const ZCertificationRunFields = {
  ok: z.literal(true),
  environment: ZEnvironment,
  runId: z.uuid(),
  caseId: z.uuid(),
  part: z.enum(['data', 'simulation']),
  source: z.enum(['workbook', 'json', 'taxauth_model']),
  setId: z.uuid().nullable(),
  state: z.enum(CERTIFICATION_RUN_STATES),
  ...CERTIFICATION_RUN_TIMES,
  totals: ZCertificationRunTotals,
  failure: z.unknown().describe('null, or { code, message, encf, position, row, detail }'),
};

export const ZCertificationRunResponse = z
  .object({
    ...ZCertificationRunFields,
    items: z.array(ZCertificationItem),
    correlationId: z.string().min(1),
  })
  .describe('CertificationRunResponse');

const ZCertificationApprovals = z
  .object({
    sendId: z.uuid(),
    state: z.enum(CERTIFICATION_RUN_STATES),
    setId: z.uuid(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    totals: ZCertificationApprovalsTotals,
    failure: z.unknown(),
    items: z.array(
      z.object({
        ...CERTIFICATION_APPROVAL_ITEM_FIELDS,
        state: z.enum(['pending', 'signed', 'accepted', 'rejected', 'stopped']),
        answer: z.unknown(),
      }),
    ),
  })
  .describe('the commercial approvals of the tests, row by row');

export const ZCertificationApprovalsResponse = z.object({
  ok: z.literal(true),
  environment: ZEnvironment,
  commercialApprovals: ZCertificationApprovals.nullable().describe('null when none was sent yet'),
  correlationId: z.string().min(1),
});

export const ZCertificationApprovalsRequestBody = z
  .object({
    workbookBase64: z.string().describe('the ACEECF_Generadas workbook, base64, at most 700 KB of text'),
  })
  .describe('only workbookBase64');

export const ZCertificationRestartBody = z
  .object({ part: z.enum(['data', 'simulation']) })
  .describe('{ part } and no other property');

export const ZCertificationRestartResponse = z.object({
  ok: z.literal(true),
  environment: ZEnvironment,
  part: z.enum(['data', 'simulation']),
  caseId: z.uuid().nullable(),
  stoppedRunId: z.uuid().nullable(),
  stoppedApprovalSendId: z.uuid().nullable(),
  replacedDocuments: z.number().int().describe('receipts marked replaced (kept, out of the issued list)'),
  state: z.string(),
  step: z.string(),
  correlationId: z.string().min(1),
});

export const ZCertificationPrevalidationResponse = z.object({
  ok: z.literal(true),
  environment: ZEnvironment,
  part: z.enum(['data', 'simulation']),
  source: z.enum(['workbook', 'json', 'taxauth_model']),
  issuerRnc: z.string(),
  rows: z.object({ ecf: z.number().int(), rfce: z.number().int() }),
  types: z.record(z.string(), z.number().int()).describe('documents per e-CF type'),
  documents: z.array(ZCertificationPrevalidatedDocument),
  alreadyUsedEncfs: z
    .array(z.string())
    .describe('eNCF already sent by this account in CerteCF: a run would be 409'),
  correlationId: z.string().min(1),
});

export const ZCertificationEvidenceResponse = z.object({
  ok: z.literal(true),
  environment: ZEnvironment,
  runId: z.uuid(),
  fileName: z.string(),
  contentType: z.literal('application/zip'),
  content: z.string().describe('the ZIP, base64'),
  sha256: z.string().length(64).describe('SHA-256 (hex) of the ZIP'),
  size: z.number().int(),
  final: z.boolean().describe('true: the run is over and this ZIP is stored (write-once)'),
  correlationId: z.string().min(1),
});

export const ZCertificationResendResponse = z.object({
  ok: z.literal(true),
  environment: ZEnvironment,
  documentId: z.uuid(),
  encf: z.string(),
  status: z.string(),
  action: z.enum(['signing', 'resent', 'status_queried']),
  correlationId: z.string().min(1),
});

export const ZCertificationAttestationBody = z
  .object({
    step: z.enum(ATTESTABLE_STEPS).describe('a step a person completes at the tax authority portal'),
    occurredAt: z.string().optional().describe('ISO 8601 with offset; default now'),
    actorRef: z.string().max(200).optional(),
    notes: z.string().max(4000).optional(),
    evidenceRefs: z.array(z.string().max(500)).max(50).optional(),
  })
  .describe('an attestation (docs/certification.md)');

const ZCertificationStep = ZCertificationStepView;

export const ZCertificationCaseResponse = z.object({
  ok: z.literal(true),
  environment: ZEnvironment,
  caseId: z.uuid().nullable(),
  state: z.enum(['not_started', 'in_progress', 'failed', 'approved', 'closed']),
  step: z.enum(CERTIFICATION_STEPS),
  version: z.number().int(),
  testSetId: z.uuid().nullable(),
  officialSetRef: z.string().nullable(),
  ecfTypes: z.array(z.string()).describe('declared by the Partner at creation (empty when not)'),
  b2bSimulation: z.boolean().nullable(),
  notes: z.string().nullable(),
  actorRef: z.string().nullable(),
  createdAt: z.string().nullable(),
  approvedAt: z.string().nullable(),
  steps: z.array(ZCertificationStep),
  nextAction: z
    .object({ step: z.enum(CERTIFICATION_STEPS), completedBy: z.string(), action: z.string() })
    .nullable(),
  runs: z.array(z.object(ZCertificationRunFields).omit({ ok: true, environment: true })),
  commercialApprovals: ZCertificationApprovals.nullable(),
  production: z.object({ state: z.enum(['not_requested', 'pending', 'active', 'suspended']) }),
  serviceUrls: z
    .object({
      test: z.object({ reception: z.string(), commercialApproval: z.string(), authentication: z.string() }),
      production: z.object({
        reception: z.string(),
        commercialApproval: z.string(),
        authentication: z.string(),
      }),
    })
    .nullable()
    .describe('what to register at the tax authority portal: test URLs (step 7), production URLs (step 12)'),
  correlationId: z.string().min(1),
});

// @approval-schemas (issue 18: commercial approvals): insert above this line

/** How a JSON body can be refused before any route logic (plugins/json-body.ts, body-limits.ts, route-limits.ts). */
const JSON_BODY_ERRORS =
  'INVALID_JSON (details.reason: syntax, empty, invalid_utf8 with details.offset, duplicate_key with details.path/line/column, too_deep), ' +
  'BODY_TOO_LARGE (details.limitBytes, the limit of this route), UNSUPPORTED_CONTENT_TYPE (not application/json, or a charset other than UTF-8), ' +
  'INVALID_REQUEST (details.reason: unsupported_character with details.path and codePoint, string_too_long or array_too_long with details.path and limit), ' +
  'REQUEST_HEADERS_TOO_LARGE, REQUEST_TIMEOUT (details.reason body_timeout: the body did not arrive within the route time)';

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

/**
 * The public reception routes (issue 18, task R; routes/reception.ts, docs/receiving.md): no API
 * key, paths case-insensitive, `/fe/...` rewritten to `/{RECEPTION_DEFAULT_ENVIRONMENT}/fe/...` before routing, bodies multipart/form-data with one part `xml` (not JSON: described
 * in the descriptions), answers XML or JSON as the tax authority's protocol has them.
 */
type TReceptionRouteName =
  'receptionSeed' | 'receptionCertificateValidation' | 'receptionEcf' | 'receptionCommercialApproval';
function receptionRoutes(): Record<TReceptionRouteName, TRouteContract> {
  const prefix = '/:environment';
  const where =
    'The environment segment (TesteCF, CerteCF, eCF) selects the environment; the same path without it (/fe/...) serves RECEPTION_DEFAULT_ENVIRONMENT (default TesteCF). Paths are case-insensitive.';
  const params = { params: ZEnvironmentParams };
  const refusals = error(
    'INVALID_REQUEST (details.reason: xml_part_missing, xml_empty, xml_not_utf8, xml_doctype_forbidden, xml_too_deep, xml_too_many_elements, xml_too_many_attributes (details.limit), xml_malformed, multipart_malformed, multipart_limits, and per route), BODY_TOO_LARGE (2 MiB), UNSUPPORTED_CONTENT_TYPE (not multipart/form-data)',
  );
  const rateLimited = {
    description:
      'RATE_LIMIT_EXCEEDED per source address (details.reason reception_rate_limit: requests per minute; reception_cpu_budget: its CPU budget is spent); Retry-After in seconds',
    schema: ZErrorResponse,
    headers: { 'Retry-After': 'seconds' },
  };
  const routes: Record<TReceptionRouteName, TRouteContract> = {
    receptionSeed: {
      method: 'GET',
      path: `${prefix}/fe/autenticacion/api/semilla`,
      summary: 'Reception authentication: a seed to sign (SemillaModel XML)',
      description: `Random, single use, valid 2 minutes. ${where}`,
      ...params,
      responses: { 200: { description: 'SemillaModel', contentType: 'application/xml' }, 429: rateLimited },
    },
    receptionCertificateValidation: {
      method: 'POST',
      path: `${prefix}/fe/autenticacion/api/validacioncertificado`,
      summary: 'Reception authentication: the signed seed (multipart part xml) for a bearer token',
      description: `Answers {token, expira, expedido} (UTC yyyy-MM-ddTHH:mm:ssZ; XML when Accept prefers it); the token is valid 1 hour. ${where}`,
      ...params,
      responses: {
        200: { description: '{token, expira, expedido}', contentType: 'application/json' },
        400: error(
          'INVALID_REQUEST details.reason: xml_not_seed, seed_xsd_invalid, signature_invalid, certificate_holder_missing, certificate_not_valid_now, seed_unknown, seed_expired, seed_already_used; and the body refusals: BODY_TOO_LARGE (2 MiB), UNSUPPORTED_CONTENT_TYPE (not multipart/form-data)',
        ),
        429: rateLimited,
      },
    },
    receptionEcf: {
      method: 'POST',
      path: `${prefix}/fe/recepcion/api/ecf`,
      summary: 'Receive an e-CF (multipart part xml, {RNCEmisor}{eNCF}.xml); answers an ARECF',
      description: `RNCComprador selects the tenant. ARECF Estado 0, or 1 with CodigoMotivoNoRecibido 1 (XSD, or a type never exchanged: 32, 41, 43, 45, 46, 47), 2 (signature), 3 (duplicate), 4 (buyer not ours: unsigned). Signed with the receiving tenant's certificate. ${where}`,
      ...params,
      responses: {
        200: { description: 'the ARECF', contentType: 'application/xml' },
        400: refusals,
        401: error(
          'RECEPTION_AUTHENTICATION_REQUIRED: the tenant declared authentication (details.reason token_missing, token_invalid)',
        ),
        429: rateLimited,
        503: error(
          'SERVICE_UNAVAILABLE details.reason receiver_certificate_unavailable: deliver again later',
        ),
      },
    },
    receptionCommercialApproval: {
      method: 'POST',
      path: `${prefix}/fe/aprobacioncomercial/api/ecf`,
      summary: 'Receive a commercial approval (ACECF) on an e-CF a tenant issued (multipart part xml)',
      description: `RNCEmisor selects the tenant. 200 {ok, status: received | duplicate}; 400 when its signature or XSD is invalid (a compact record kept, never the bytes). ${where}`,
      ...params,
      responses: {
        200: { description: '{ok, status}', contentType: 'application/json' },
        400: error(
          'INVALID_REQUEST details.reason: acecf_rejected (details.problem), issuer_not_served; and the body refusals: BODY_TOO_LARGE (2 MiB), UNSUPPORTED_CONTENT_TYPE (not multipart/form-data)',
        ),
        401: error('RECEPTION_AUTHENTICATION_REQUIRED'),
        429: rateLimited,
      },
    },
  };
  return routes;
}

/** What the TesteCF test inbox answers when it kept a request (routes/webhook-inbox.ts). */
export const ZWebhookInboxResponse = z.object({
  ok: z.literal(true),
  requestId: z.string().min(1),
  receivedAt: z.string(),
  correlationId: z.string().min(1),
});

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
  // Task R (issue 18): the public reception services (FACTS §2), bare (RECEPTION_DEFAULT_ENVIRONMENT)
  // and under each environment; multipart/XML bodies, described here (docs/receiving.md).
  ...receptionRoutes(),
  submitDocument: {
    method: 'POST',
    path: '/:environment/documentos-ecf',
    summary: 'Preflight (validate=true) or issue an e-CF',
    description:
      'Preflight (200): the full validation, nothing stored or signed. Emission: validated like preflight, then stored with its signing job in one transaction (202, Retry-After), or 201 with printing data when `Prefer: wait=N` sees it deliverable in time (Preference-Applied). ' +
      'The same eNCF with the same JSON is a replay (the original document; 201 at once when printable); with other content 409 ENCF_CONFLICT (details.conflicts[]). eCF without active production: 423. ' +
      'An eCF emission of an account a Partner manages meets the Partner plan on this route as on the Partner API: 402 PAYMENT_REQUIRED (plan unpaid, or overdue after the grace period; details.billingUrl), 429 PLAN_LIMIT_EXCEEDED (the monthly quota of accepted e-CF across all the Partner accounts; Retry-After). Checked after 423 and before validation; preflight (validate=true), TesteCF and direct accounts have no plan check. ' +
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
        'ENCF_CONFLICT: the eNCF exists with other content; details.conflicts[] { encf, documentId, status, reason: encf_already_used_with_other_content }. ENCF_ANNULLED: the eNCF is in a range an annulment reserved or annulled (details.encf, details.annulmentId, details.state)',
      ),
      422: {
        description:
          'VALIDATION_FAILED (clarification 1): ErrorResponse and SubmitResponse at once, errors[] (FieldError, clarification 2) and warnings[] (Warning, clarification 3); nothing stored, the eNCF stays free. ' +
          'Codes the specification does not name: ISSUER_RNC_MISMATCH (clarification 7), REFERENCE_CODE_NOT_APPLICABLE (clarification 8), XSD_VALIDATION_FAILED on path ECF (clarification 9), SIGNATURE_DATE_IN_FUTURE / SIGNATURE_DATE_INVALID (clarification 10), SEQUENCE_EXPIRATION_DATE_INVALID over DATE_INVALID (clarification 11).',
        schema: ZSubmitValidationError,
      },
      402: error(
        'PAYMENT_REQUIRED: eCF emission of a Partner-managed account whose plan is unpaid, or overdue after the grace period (details.billingUrl, details.paidStatus)',
      ),
      423: error('PRODUCTION_NOT_ACTIVE'),
      429: {
        description:
          'RATE_LIMIT_EXCEEDED (the key’s rate limit); PLAN_LIMIT_EXCEEDED: eCF emission of a Partner-managed account whose Partner used up the month’s quota of accepted e-CF across all its accounts (details.plan, quota, used, month). Retry-After in seconds',
        schema: ZErrorResponse,
        headers: { 'Retry-After': 'seconds' },
      },
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
      400: {
        description:
          'refused by the HTTP server before routing (not valid HTTP/1.1, headers over 16 KiB, not received in time): INVALID_REQUEST, REQUEST_HEADERS_TOO_LARGE, REQUEST_TIMEOUT; text/plain, X-Error-Code',
        contentType: 'text/plain',
        headers: { 'X-Error-Code': 'INVALID_REQUEST | REQUEST_HEADERS_TOO_LARGE | REQUEST_TIMEOUT' },
      },
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
  webhookInbox: {
    method: 'POST',
    path: '/webhook-inbox/:token',
    summary: 'TesteCF test inbox: keeps the webhook it receives (headers, body, time)',
    description:
      'The URL of a test inbox created in the portal (TesteCF, "Crear bandeja de prueba"); the token in the path is the credential. ' +
      "Our worker delivers the endpoint's webhooks here like to any endpoint; each request is kept (headers without credentials, the body as received up to 64 KiB, the time), the newest 100 per inbox for 7 days, and the portal shows them with the signature checked. " +
      'Any JSON body is accepted.',
    params: z.object({ token: z.string().max(100).describe('the inbox token, 43 characters (base64url)') }),
    body: z.record(z.string(), z.unknown()).describe('the webhook body, kept as received'),
    responses: {
      200: { description: 'kept', schema: ZWebhookInboxResponse },
      400: error(JSON_BODY_ERRORS),
      404: error('NOT_FOUND: no test inbox with this token, or its endpoint was deleted'),
      500: AUTH_ERRORS[500],
      503: AUTH_ERRORS[503],
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
  listSequences: {
    method: 'GET',
    path: '/:environment/secuencias',
    summary: 'eNCF ranges registered in the environment',
    description:
      'Each range with its type, first and last eNCF, sequence expiration date, registration time, and how many of its numbers were used (a document of this account), annulled (an accepted ANECF) and free.',
    scopes: ['tenant:admin'],
    params: ZEnvironmentParams,
    responses: {
      200: { description: 'the ranges, by type then first eNCF', schema: ZSequenceRangeListResponse },
      ...AUTH_ERRORS,
    },
  },
  registerSequence: {
    method: 'POST',
    path: '/:environment/secuencias',
    summary: 'Register an active eNCF range of one e-CF type',
    description:
      'Optional: emission and annulment work without it; emission neither reserves numbers nor moves a cursor. Once registered, rule 16 compares FechaVencimientoSecuencia of each emission in the range with the range (422 SEQUENCE_EXPIRATION_RANGE_MISMATCH). In eCF the account’s production must be active (423 PRODUCTION_NOT_ACTIVE): the tax authority authorizes production sequences only to an authorized electronic issuer.',
    scopes: ['tenant:admin'],
    params: ZEnvironmentParams,
    body: ZSequenceRangeRequest,
    responses: {
      201: { description: 'registered', schema: ZSequenceRangeResponse },
      400: error(
        `INVALID_REQUEST with details.issues[] { path, code, message } (not an eNCF, not a date, unknown property); SEQUENCE_RANGE_INVALID with details.path and details.reason: encf_invalid, type_mismatch (an end of another type's prefix), series_mismatch, reversed (from after to), date_invalid; ${JSON_BODY_ERRORS}`,
      ),
      ...AUTH_ERRORS,
      409: error(
        'SEQUENCE_RANGE_OVERLAP: shares eNCF with a registered range of the same type (details.rangeId, details.from, details.to of the registered range)',
      ),
      423: error('PRODUCTION_NOT_ACTIVE: eCF before the account’s production is active (nothing stored)'),
    },
  },
  prevalidateAnnulment: {
    method: 'POST',
    path: '/:environment/anulaciones-ecf/prevalidar',
    summary: 'Build and check an ANECF without sending it',
    description:
      'Builds the ANECF of the AnnulmentRequest, validates it against ANECF v.1.0.xsd and checks every document of this account and environment in the ranges; nothing is stored, reserved, signed or sent. A signed e-CF that never left toward the tax authority or the buyer can be annulled (listed in coveredDocuments.cancellable); one that arrived or could have arrived blocks the range (ANECF_DOCUMENT_CONFLICT). Documents of other accounts are never looked at. Without fiscal effect, it is answered in eCF before production is active too (as a document preflight); sending needs it.',
    scopes: ['tenant:admin'],
    params: ZEnvironmentParams,
    body: ZAnnulmentRequest,
    responses: {
      200: { description: 'the ANECF would be sent as is', schema: ZAnnulmentPrevalidation },
      400: error(
        `INVALID_REQUEST with details.issues[] { path, code, message } (not an eNCF, no range, unknown property); ANECF_INVALID with details.errors[] { path, code, message } (ranges[i].from of another type's prefix: ANNULMENT_RANGE_TYPE_MISMATCH; from after to: ANNULMENT_RANGE_REVERSED; overlapping ranges: ANNULMENT_RANGES_OVERLAP; more than 10 types or 10,000 ranges of a type; the built ANECF against ANECF v.1.0.xsd: XSD_VALIDATION_FAILED); ANECF_NOT_AVAILABLE_IN_CERTECF (annulments are eCF operations, tested in TesteCF); ANECF_DOCUMENT_CONFLICT with details.conflicts[] { encf, documentId, status, reason } (reason: ${ANNULMENT_CONFLICT_REASONS.join(', ')}); ${JSON_BODY_ERRORS}`,
      ),
      ...AUTH_ERRORS,
    },
  },
  sendAnnulment: {
    method: 'POST',
    path: '/:environment/anulaciones-ecf',
    summary: 'Annul eNCF ranges with the tax authority (ANECF)',
    description:
      'Validates like prevalidar, reserves the ranges (a submission of one of their eNCF is then 409), signs the ANECF and sends it. Idempotency-Key is required; the same key and body replays the first answer (200), the same key with another body is 409 ANECF_IDEMPOTENCY_CONFLICT. ' +
      'Accepted: documents of the ranges that never left become cancelled (their jobs cancelled), those that may have arrived are listed as skipped with a reason. Rejected: definitive, the ranges are freed; correct and send with another key. Uncertain (no answer, or a partial annulment): never resent automatically; reconcile. ' +
      'In eCF the account’s production must be active (423 PRODUCTION_NOT_ACTIVE, replays included; nothing built, stored or sent): the tax authority annuls only authorized sequences of an authorized electronic issuer (Formato Anulación de e-NCF, RncEmisor), so an account not yet authorized has no production eNCF to annul.',
    scopes: ['tenant:admin'],
    params: ZEnvironmentParams,
    headers: ZAnnulmentHeaders,
    body: ZAnnulmentRequest,
    responses: {
      200: { description: 'idempotent replay of an earlier answer with this key', schema: ZAnnulment },
      202: { description: 'accepted by the tax authority (status accepted)', schema: ZAnnulment },
      400: error(
        `as prevalidar (ANECF_INVALID, ANECF_NOT_AVAILABLE_IN_CERTECF, ANECF_DOCUMENT_CONFLICT); INVALID_REQUEST (details.reason idempotency_key_invalid: longer than ${IDEMPOTENCY_KEY_MAX_LENGTH} characters or not printable ASCII)`,
      ),
      ...AUTH_ERRORS,
      409: error(
        'ANECF_IDEMPOTENCY_CONFLICT (the key was used with another body), ANECF_RANGE_RESERVED (an eNCF of the ranges is being annulled or was annulled by another request: details.annulmentId), ANECF_DOCUMENT_CONFLICT (a document arrived in the ranges meanwhile: details.documentId, details.conflicts[]), CERTIFICATE_NOT_ACTIVE (no active signing certificate: nothing was sent)',
      ),
      422: {
        description:
          'rejected by the tax authority (definitive): ok false, status rejected, taxauth.mensajes; the ranges are free again',
        schema: ZAnnulment,
      },
      423: error('PRODUCTION_NOT_ACTIVE: eCF before the account’s production is active'),
      428: error(
        'ANECF_IDEMPOTENCY_KEY_REQUIRED: Idempotency-Key missing or empty (nothing built, stored or sent)',
      ),
      502: {
        description:
          'uncertain: no answer from the tax authority, or a partial annulment; do not resend, reconcile (ok false, status uncertain)',
        schema: ZAnnulment,
      },
    },
  },
  listAnnulments: {
    method: 'GET',
    path: '/:environment/anulaciones-ecf',
    summary: 'Annulments of the environment, newest first (ours)',
    description:
      'Not named by the specification; the list the portal shows. Each annulment as GET /{environment}/anulaciones-ecf/{annulmentId} answers it, with coveredCounts instead of the covered document lists. Optional status filter; limit 1 to 100, default 50; follow nextCursor with the same filter until it is null.',
    scopes: ['tenant:admin'],
    params: ZEnvironmentParams,
    query: ZAnnulmentListQuery,
    responses: {
      200: { description: 'a page; follow nextCursor until null', schema: ZAnnulmentListResponse },
      400: error('INVALID_REQUEST: bad status, limit or cursor (details.issues[].path)'),
      ...AUTH_ERRORS,
    },
  },
  getAnnulment: {
    method: 'GET',
    path: '/:environment/anulaciones-ecf/:annulmentId',
    summary: 'An annulment: state, ranges, answer, covered documents',
    scopes: ['tenant:admin'],
    params: ZAnnulmentParams,
    responses: {
      200: { description: 'current state', schema: ZAnnulment },
      400: error('INVALID_REQUEST: annulmentId not a UUID'),
      ...AUTH_ERRORS,
      404: error(
        'NOT_FOUND: no such annulment in this account and environment; ROUTE_NOT_FOUND: unknown environment',
      ),
    },
  },
  reconcileAnnulment: {
    method: 'POST',
    path: '/:environment/anulaciones-ecf/:annulmentId/reconciliar',
    summary: 'Fix the outcome of an uncertain annulment (once, immutable)',
    description:
      "Only an uncertain annulment. The evidence is stored as a write-once artifact; accepted cancels the covered documents that never left (as a 202 would have); rejected frees the ranges. The same request again answers the same 200; another outcome or evidence on a reconciled annulment, or an annulment that is not uncertain, is 409. Another account's or environment's annulment: 404.",
    scopes: ['tenant:admin'],
    params: ZAnnulmentParams,
    body: ZAnnulmentReconciliationRequest,
    responses: {
      200: { description: 'reconciled (or an idempotent replay)', schema: ZAnnulment },
      400: error(
        `INVALID_REQUEST (annulmentId not a UUID, unknown outcome or property); ${JSON_BODY_ERRORS}`,
      ),
      ...AUTH_ERRORS,
      404: error('NOT_FOUND: no such annulment in this account and environment'),
      409: error(
        'ANECF_NOT_UNCERTAIN (details.status), ANECF_RECONCILIATION_CONFLICT (already reconciled with another outcome, evidence or note)',
      ),
    },
  },
  listReceivedDocuments: {
    method: 'GET',
    path: '/:environment/documentos-recibidos',
    summary: "Received e-CF (suppliers' invoices), newest reception first",
    description:
      'Only e-CF delivered to the reception route (received or refused with an ARECF Estado 1), never ACECF. group: pending_approval (received, unanswered), accepted, rejected (the active commercial approval), not_received. from/to: calendar dates of reception (YYYY-MM-DD, Dominican Republic time). type accepts E31 or 31; limit 1 to 100, default 50; follow nextCursor with the same filters until it is null. eCF without active production: 423.',
    scopes: ['ecf:read'],
    params: ZEnvironmentParams,
    query: ZReceivedListQuery,
    responses: {
      200: { description: 'a page; follow nextCursor until null', schema: ZReceivedDocumentListResponse },
      400: error(
        'INVALID_RECEIVED_DOCUMENTS_QUERY: bad filter, limit, unknown parameter or a cursor of other filters (details.issues[] { path, code, message })',
      ),
      ...AUTH_ERRORS,
      423: error('PRODUCTION_NOT_ACTIVE'),
    },
  },
  getReceivedDocument: {
    method: 'GET',
    path: '/:environment/documentos-recibidos/:inboundDocumentId',
    summary: 'A received e-CF',
    scopes: ['ecf:read'],
    params: ZReceivedDocumentParams,
    responses: {
      200: { description: 'the item', schema: ZReceivedDocumentResponse },
      ...AUTH_ERRORS,
      404: error(
        "RECEIVED_DOCUMENT_NOT_FOUND: another account's or environment's, an ACECF's id, or no such id; ROUTE_NOT_FOUND: unknown environment",
      ),
      423: error('PRODUCTION_NOT_ACTIVE'),
    },
  },
  getReceivedDocumentXml: {
    method: 'GET',
    path: '/:environment/documentos-recibidos/:inboundDocumentId/xml',
    summary: 'The received e-CF as the supplier sent it, byte for byte',
    description:
      'File {RNCEmisor}{eNCF}.xml from the write-once copy kept 10 years; its SHA-256 is recomputed on every read. Checks in this order: the item (404), Accept (400 NOT_ACCEPTABLE), the copy (404 when none was kept, 500 when it fails its digest).',
    scopes: ['ecf:read'],
    params: ZReceivedDocumentParams,
    headers: ZXmlDownloadHeaders,
    responses: {
      200: {
        description: 'the XML as received (a byte-order mark included when the supplier sent one)',
        contentType: 'application/xml',
        headers: { 'Content-Disposition': 'attachment; filename={RNCEmisor}{eNCF}.xml' },
      },
      400: error('NOT_ACCEPTABLE (details.accepted)'),
      ...AUTH_ERRORS,
      404: error(
        'RECEIVED_DOCUMENT_NOT_FOUND; RECEIVED_DOCUMENT_XML_NOT_AVAILABLE: refused before its signature was verified, no copy kept',
      ),
      423: error('PRODUCTION_NOT_ACTIVE'),
      500: error(
        'RECEIVED_DOCUMENT_XML_INTEGRITY_FAILED: the kept copy fails its SHA-256 check and is not served',
      ),
    },
  },
  listReceivedApprovals: {
    method: 'GET',
    path: '/:environment/aprobaciones-comerciales-recibidas',
    summary: "Commercial approvals (ACECF) customers sent on this account's e-CF, newest first",
    description:
      'Received, rejected and duplicate ACECF. from/to: calendar dates of reception (YYYY-MM-DD, Dominican Republic time); buyerRnc: the customer (RNCComprador); limit 1 to 100, default 50; follow nextCursor with the same filters.',
    scopes: ['ecf:read'],
    params: ZEnvironmentParams,
    query: ZReceivedApprovalListQuery,
    responses: {
      200: { description: 'a page; follow nextCursor until null', schema: ZReceivedApprovalListResponse },
      400: error('INVALID_RECEIVED_DOCUMENTS_QUERY (details.issues[] { path, code, message })'),
      ...AUTH_ERRORS,
      423: error('PRODUCTION_NOT_ACTIVE'),
    },
  },
  getReceivedApproval: {
    method: 'GET',
    path: '/:environment/aprobaciones-comerciales-recibidas/:inboundDocumentId',
    summary: 'A received commercial approval',
    scopes: ['ecf:read'],
    params: ZReceivedDocumentParams,
    responses: {
      200: { description: 'the item', schema: ZReceivedApprovalResponse },
      ...AUTH_ERRORS,
      404: error(
        "RECEIVED_COMMERCIAL_APPROVAL_NOT_FOUND: another account's or environment's, a received e-CF's id, or no such id",
      ),
      423: error('PRODUCTION_NOT_ACTIVE'),
    },
  },
  getReceivedApprovalXml: {
    method: 'GET',
    path: '/:environment/aprobaciones-comerciales-recibidas/:inboundDocumentId/xml',
    summary: 'The signed ACECF as the customer sent it',
    description:
      'File {RNCComprador}{eNCF}.xml from the write-once copy kept 10 years, its SHA-256 recomputed on every read.',
    scopes: ['ecf:read'],
    params: ZReceivedDocumentParams,
    headers: ZXmlDownloadHeaders,
    responses: {
      200: {
        description: 'the signed ACECF as received',
        contentType: 'application/xml',
        headers: { 'Content-Disposition': 'attachment; filename={RNCComprador}{eNCF}.xml' },
      },
      400: error('NOT_ACCEPTABLE (details.accepted)'),
      ...AUTH_ERRORS,
      404: error('RECEIVED_COMMERCIAL_APPROVAL_NOT_FOUND; RECEIVED_COMMERCIAL_APPROVAL_XML_NOT_AVAILABLE'),
      423: error('PRODUCTION_NOT_ACTIVE'),
      500: error('RECEIVED_DOCUMENT_XML_INTEGRITY_FAILED: the kept copy fails its SHA-256 check'),
    },
  },
  // @inbound-routes (issue 18: received e-CF and received ACECF lists, items, XML): insert above this line
  getCommercialApproval: {
    method: 'GET',
    path: '/:environment/inbound-taxauth/:inboundId/aprobacion-comercial',
    summary: 'The commercial approval (ACECF) sent for a received e-CF',
    description:
      "The spec's `inbound-dgii` segment is `inbound-taxauth` here. The active approval (or the last one the tax authority rejected), with the tax authority's answer, the dispatch to the issuer (status, attempts, at most 4 KB of its body, nextAttemptAt) and any reconciliation; `commercialApproval` null when none was sent. Another account's or environment's id, or a received ACECF's id: 404 RECEIVED_DOCUMENT_NOT_FOUND.",
    scopes: ['ecf:read', 'tenant:admin'],
    params: ZInboundApprovalParams,
    responses: {
      200: { description: 'current state', schema: ZCommercialApprovalStatusResponse },
      400: error('INVALID_REQUEST: inboundId not a UUID'),
      ...AUTH_ERRORS,
      404: error('RECEIVED_DOCUMENT_NOT_FOUND; ROUTE_NOT_FOUND: unknown environment'),
    },
  },
  submitCommercialApproval: {
    method: 'POST',
    path: '/:environment/inbound-taxauth/:inboundId/aprobacion-comercial',
    summary:
      'Accept or reject a received e-CF: sign the ACECF, send it to the tax authority, then to the issuer',
    description:
      "The spec's ACECF POST rules, in order: approvalDate (422 COMMERCIAL_APPROVAL_DATE_INVALID, nothing signed or sent); an approval already sent (another decision 409 COMMERCIAL_APPROVAL_DECISION_CONFLICT; the same decision answers its state with 200, and after dispatch_failed starts a new dispatch cycle with the same signed ACECF); accept of an e-CF Consulta Estado reported rejected or not found (409 RECEIVED_ECF_NOT_VALID_IN_TAXAUTH, not in CerteCF nor while never asked); the issuer's URL from the tax authority's directory (TesteCF, eCF) queried with the account's token; targetUrl only when the issuer is not in the directory or in CerteCF; sign, store write-once (10 years), send to the tax authority. " +
      "Accepted: the dispatch to the issuer is enqueued with the state change (outbox job commercial-approval.dispatch) and the request makes the first attempt itself: 202 when the issuer received it, 502 ACECF_DISPATCH_NOT_RECEIVED (retry_scheduled: the worker retries up to 5 attempts; dispatch_failed; uncertain) otherwise. CerteCF, or no issuer URL: 200 generated without dispatch. The ACECF carries the issuer's Bearer token when its directory entry declares authentication. Needs tenant:admin (spec: answering an approval needs it).",
    scopes: ['tenant:admin'],
    params: ZInboundApprovalParams,
    body: ZCommercialApprovalRequestBody,
    responses: {
      200: {
        description:
          'generated without dispatch (CerteCF: targetSource not_applicable; no issuer URL: none), or the same decision again (its current state)',
        schema: ZCommercialApprovalSubmitResponse,
      },
      202: {
        description: 'signed, accepted by the tax authority and received by the issuer',
        schema: ZCommercialApprovalSubmitResponse,
      },
      400: error(
        `INVALID_REQUEST with details.issues[] { path, code, message } (unknown property, decision, approvalDate missing, rejectionReason required to reject / not allowed to accept / over 250 characters, targetUrl not an http(s) URL); ${JSON_BODY_ERRORS}`,
      ),
      ...AUTH_ERRORS,
      404: error(
        'RECEIVED_DOCUMENT_NOT_FOUND: another account, environment, an ACECF id, or an e-CF that was not received',
      ),
      409: {
        description:
          'COMMERCIAL_APPROVAL_DECISION_CONFLICT (details.decision), ACECF_TAXAUTH_SUBMISSION_UNCERTAIN (an earlier submission has no known outcome: reconcile), RECEIVED_ECF_NOT_VALID_IN_TAXAUTH (details.taxauthValidity)',
        schema: ZCommercialApprovalErrorResponse,
      },
      422: {
        description:
          'COMMERCIAL_APPROVAL_DATE_INVALID (details.reason invalid | before_issue_date | in_future), ACECF_TARGET_URL_NOT_ALLOWED (details.directoryTargetUrl), ACECF_TAXAUTH_REJECTED (details.taxauthSubmission { httpStatus, taxauthCodigo, taxauthEstado, taxauthMessages, rejectedAt }; correct and send again)',
        schema: ZCommercialApprovalErrorResponse,
      },
      502: {
        description:
          'ACECF_DISPATCH_NOT_RECEIVED (the issuer did not receive it: commercialApproval.dispatch.status retry_scheduled, dispatch_failed or uncertain), ACECF_TAXAUTH_SUBMISSION_UNCERTAIN (no answer from the tax authority: do not resend, reconcile)',
        schema: ZCommercialApprovalErrorResponse,
      },
      503: error(
        'ACECF_TAXAUTH_CERTIFICATE_UNAVAILABLE, DIRECTORY_TAXAUTH_AUTH_FAILED, DIRECTORY_ACCESS_TOKEN_MISSING (no active certificate to get the token), ACECF_SIGNING_FAILED; SERVICE_UNAVAILABLE (details.reason directory_unavailable, taxauth_unavailable: nothing was sent, try again; shutting_down)',
      ),
    },
  },
  reconcileCommercialApproval: {
    method: 'POST',
    path: '/:environment/inbound-taxauth/:inboundId/aprobacion-comercial/reconciliar',
    summary: 'Fix the outcome of an uncertain commercial approval (once, immutable)',
    description:
      'Only an approval whose dispatch to the issuer is uncertain (outcome sent or dispatch_failed), or whose submission to the tax authority has no known outcome (taxauth_accepted: the dispatch starts; taxauth_rejected: set aside, a corrected one may be sent). Nothing is sent again on the network. The evidence is stored write-once (10 years). The same request again answers the same 200; another outcome, evidence or note on a reconciled approval, or an approval that is not uncertain: 409 COMMERCIAL_APPROVAL_NOT_UNCERTAIN.',
    scopes: ['tenant:admin'],
    params: ZInboundApprovalParams,
    body: ZCommercialApprovalReconciliationBody,
    responses: {
      200: { description: 'reconciled (or an idempotent replay)', schema: ZCommercialApprovalSubmitResponse },
      400: error(`INVALID_REQUEST (inboundId not a UUID, unknown outcome or property); ${JSON_BODY_ERRORS}`),
      ...AUTH_ERRORS,
      404: error('RECEIVED_DOCUMENT_NOT_FOUND'),
      409: error(
        'COMMERCIAL_APPROVAL_NOT_UNCERTAIN (details.status; details.reason outcome_differs | note_differs | evidence_differs on a reconciled approval)',
      ),
    },
  },
  // Certification (issue 19; docs/certification.md): CerteCF only (409 CERTIFICATION_ENVIRONMENT_REQUIRED elsewhere).
  getCertificationCase: {
    method: 'GET',
    path: '/:environment/certificacion',
    summary: 'The certification: the fifteen steps, where the account stands, the next human action',
    description:
      "Not named by the specification (docs/certification.md). The account's open case: each of the tax authority's fifteen steps with how and when it was completed, the next action (a person's at the tax authority portal, or the service's), recent runs, the commercial approval tests, the production state and the URLs to register (test: CerteCF, production: eCF). A case not started yet has caseId null and state not_started.",
    scopes: ['tenant:admin'],
    params: ZEnvironmentParams,
    responses: {
      200: { description: 'the case', schema: ZCertificationCaseResponse },
      ...AUTH_ERRORS,
      409: error('CERTIFICATION_ENVIRONMENT_REQUIRED: not CerteCF'),
    },
  },
  prevalidateCertification: {
    method: 'POST',
    path: '/:environment/certificacion/prevalidar',
    summary: 'Read and check a certification set without storing or sending anything',
    description:
      "Reads the set (the tax authority's xlsx, its JSON form, or the model) and validates every ECF row as the run would: each column mapped to its element by name (indices [i][j] to repeated elements, #e absent, the header quirks), every text kept as written (15.00 stays 15.00), fiscal-core's rules and the official XSD of its type, each RFCE row against the summary the service builds from its E32. Nothing is stored or sent.",
    scopes: ['tenant:admin'],
    params: ZEnvironmentParams,
    body: ZCertificationSetRequestBody,
    responses: {
      200: { description: 'the set would be sent as is', schema: ZCertificationPrevalidationResponse },
      400: error(
        `INVALID_CERTIFICATION_REQUEST (details.reason: not_an_object, invalid_fields with issues[], taxauth_model_not_boolean, sources_combined, set_missing, too_large, not_base64, empty); ${JSON_BODY_ERRORS}`,
      ),
      ...AUTH_ERRORS,
      409: error(
        'CERTIFICATION_OWN_SET_REQUIRED (taxauthModel before the tax authority accepted the commercial approvals, or for the data tests), CERTIFICATION_SIMULATION_NOT_READY (part simulation before them), CERTIFICATION_ENVIRONMENT_REQUIRED',
      ),
      422: error(
        'CERTIFICATION_SET_INVALID (details.errors[]: sheet, row, column or path, code, message: a corrupt file, a missing sheet, an unknown column, a row that does not validate, an RFCE row that is not the summary of its E32), CERTIFICATION_SET_ISSUER_MISMATCH (a set of another RNC: details.expectedRnc)',
      ),
    },
  },
  startCertificationRun: {
    method: 'POST',
    path: '/:environment/certificacion',
    summary: 'Run a certification set in CerteCF (asynchronous)',
    description:
      'Validates like prevalidar, then stores the set and a run that sends its documents through the same pipeline as every e-CF (signed, sent, followed to the answer), originals first and each note after the document it references. GET the run to follow it row by row. Nothing is created when the request is refused.',
    scopes: ['tenant:admin'],
    params: ZEnvironmentParams,
    body: ZCertificationSetRequestBody,
    responses: {
      202: { description: 'the run, queued', schema: ZCertificationRunResponse },
      400: error(`INVALID_CERTIFICATION_REQUEST (as prevalidar); ${JSON_BODY_ERRORS}`),
      ...AUTH_ERRORS,
      409: error(
        'CERTIFICATE_NOT_ACTIVE, CERTIFICATION_OWN_SET_REQUIRED, CERTIFICATION_SET_ALREADY_USED (details.encfs: already sent, used up for good), CERTIFICATION_RUN_IN_PROGRESS (details.runId), CERTIFICATION_SIMULATION_NOT_READY, CERTIFICATION_APPROVED, CERTIFICATION_ENVIRONMENT_REQUIRED, CERTIFICATION_MANAGED_BY_PARTNER; no receipt is created',
      ),
      422: error(
        'CERTIFICATION_SET_INVALID, CERTIFICATION_SET_ISSUER_MISMATCH (as prevalidar). A body that names no set is 400 (details.reason set_missing): the direct route never runs a stored set on its own',
      ),
    },
  },
  getCertificationApprovals: {
    method: 'GET',
    path: '/:environment/certificacion/aprobaciones-comerciales',
    summary: 'The commercial approval tests: the last send, row by row',
    scopes: ['tenant:admin'],
    params: ZEnvironmentParams,
    responses: {
      200: {
        description: 'commercialApprovals null when none was sent yet',
        schema: ZCertificationApprovalsResponse,
      },
      ...AUTH_ERRORS,
      409: error('CERTIFICATION_ENVIRONMENT_REQUIRED'),
    },
  },
  sendCertificationApprovals: {
    method: 'POST',
    path: '/:environment/certificacion/aprobaciones-comerciales',
    summary: 'Send the commercial approval tests (ACEECF_Generadas) one by one',
    description:
      "The workbook the tax authority generated for this account as buyer: each row's ACECF is signed with the account's certificate as the row is written and sent to the tax authority, one by one; the first rejection stops the send. After the data tests were accepted. GET follows it.",
    scopes: ['tenant:admin'],
    params: ZEnvironmentParams,
    body: ZCertificationApprovalsRequestBody,
    responses: {
      202: { description: 'the send, queued', schema: ZCertificationApprovalsResponse },
      400: error(
        `COMMERCIAL_APPROVAL_SET_REQUIRED (workbookBase64 missing, empty, not base64, over 700 KB, or other properties); ${JSON_BODY_ERRORS}`,
      ),
      ...AUTH_ERRORS,
      409: error(
        'CERTIFICATION_DATA_TESTS_PENDING, CERTIFICATE_NOT_ACTIVE, COMMERCIAL_APPROVALS_IN_PROGRESS (details.sendId), CERTIFICATION_ENVIRONMENT_REQUIRED, CERTIFICATION_MANAGED_BY_PARTNER, CERTIFICATION_APPROVED',
      ),
      422: error(
        'COMMERCIAL_APPROVAL_SET_INVALID (details.errors[]: sheet, row, column, code), COMMERCIAL_APPROVAL_SET_OTHER_TAXPAYER (the rows are for another buyer: details.expectedRnc)',
      ),
    },
  },
  restartCertification: {
    method: 'POST',
    path: '/:environment/certificacion/reiniciar',
    summary: 'Restart the data tests or the simulation',
    description:
      "Stops the part's running run and marks its receipts replaced (kept, never deleted, out of the issued list); a data restart also replaces the commercial approval tests. The application and the sworn declaration are unchanged. The next run of the part needs a new set (sent eNCFs are used up).",
    scopes: ['tenant:admin'],
    params: ZEnvironmentParams,
    body: ZCertificationRestartBody,
    responses: {
      200: { description: 'restarted', schema: ZCertificationRestartResponse },
      400: error(
        `CERTIFICATION_PART_INVALID (part missing or not data/simulation, or other properties); ${JSON_BODY_ERRORS}`,
      ),
      ...AUTH_ERRORS,
      409: error(
        'CERTIFICATION_ENVIRONMENT_REQUIRED, CERTIFICATION_APPROVED, CERTIFICATION_MANAGED_BY_PARTNER',
      ),
    },
  },
  recordCertificationAttestation: {
    method: 'POST',
    path: '/:environment/certificacion/atestaciones',
    summary: 'Record a step done by a person at the tax authority portal',
    description:
      'Not named by the specification (docs/certification.md; the Partner API has its attestations route). The steps a person completes (printed representation, URLs, readiness for the reception tests, sworn declaration), in order. The sworn declaration makes production pending: the service then watches the tax authority directory and activates production when the account is authorized.',
    scopes: ['tenant:admin'],
    params: ZEnvironmentParams,
    body: ZCertificationAttestationBody,
    responses: {
      201: { description: 'recorded; the case as it stands', schema: ZCertificationCaseResponse },
      400: error(
        `INVALID_CERTIFICATION_REQUEST (details.issues[]: a step no person attests, a bad date); ${JSON_BODY_ERRORS}`,
      ),
      ...AUTH_ERRORS,
      409: error(
        'CERTIFICATION_PREREQUISITES_MISSING (details.missingSteps), CERTIFICATION_ENVIRONMENT_REQUIRED, CERTIFICATION_MANAGED_BY_PARTNER',
      ),
    },
  },
  resendCertificationDocument: {
    method: 'POST',
    path: '/:environment/certificacion/documentos/:documentId/reenviar',
    summary: 'Resend a stuck certification receipt, or query its status',
    description:
      'A receipt the tax authority has not resolved (no answer, a summary answered as duplicate, exhausted queries, no news): with a TrackID its status is queried at once; otherwise the transmission first asks whether an earlier attempt arrived (ConsultaTrackIds, or Consulta Estado for a summary) and sends the same signed XML only if none did. An E32 is never signed again.',
    scopes: ['tenant:admin'],
    params: ZCertificationDocumentParams,
    responses: {
      202: { description: 'queued now', schema: ZCertificationResendResponse },
      400: error('INVALID_REQUEST: documentId not a UUID'),
      ...AUTH_ERRORS,
      404: error('NOT_FOUND: no certification receipt of this account has this documentId'),
      409: error(
        'CERTIFICATION_DOCUMENT_NOT_RESENDABLE (already resolved: details.status), CERTIFICATION_ENVIRONMENT_REQUIRED, CERTIFICATION_MANAGED_BY_PARTNER',
      ),
    },
  },
  getCertificationRun: {
    method: 'GET',
    path: '/:environment/certificacion/:runId',
    summary: 'A certification run, row by row',
    scopes: ['tenant:admin'],
    params: ZCertificationRunParams,
    responses: {
      200: { description: 'the run', schema: ZCertificationRunResponse },
      400: error('INVALID_REQUEST: runId not a UUID'),
      ...AUTH_ERRORS,
      404: error('NOT_FOUND: no such run in this account'),
      409: error('CERTIFICATION_ENVIRONMENT_REQUIRED'),
    },
  },
  getCertificationEvidence: {
    method: 'GET',
    path: '/:environment/certificacion/:runId/evidencia',
    summary: "A run's evidence: a ZIP of everything sent and received",
    description:
      'The set as uploaded, each signed e-CF, the signed RFCE summaries, every tax authority answer, the printed PDF of each accepted e-CF, run.json and manifest.json (each file with its SHA-256 and size). Once the run is over the ZIP is stored write-once and served as stored.',
    scopes: ['tenant:admin'],
    params: ZCertificationRunParams,
    responses: {
      200: {
        description: 'the ZIP in content (base64) with its SHA-256',
        schema: ZCertificationEvidenceResponse,
      },
      400: error('INVALID_REQUEST: runId not a UUID'),
      ...AUTH_ERRORS,
      404: error('NOT_FOUND: no such run in this account'),
      409: error('CERTIFICATION_ENVIRONMENT_REQUIRED'),
    },
  },
  // @approval-routes (issue 18: sending a commercial approval, its state, reconciliation): insert above this line
} as const satisfies Record<string, TRouteContract>;
