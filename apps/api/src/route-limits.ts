/**
 * THE route table of the API's request edge: the limits (`TEdgeLimits` of `@ecf/services`: body
 * bytes, time to receive the body, JSON depth, string length, array length) of every method and
 * path the API registers, direct, Partner, operational and the public reception routes alike.
 * `plugins/body-limits.ts` applies them in `onRoute` (the route's `bodyLimit`, its
 * `config.edgeLimits` read by the one JSON reader) and refuses to start when a registered route has
 * no line here. The direct and Partner lines are keyed by the contracts' route names, so a new
 * route in a contract does not compile without its line.
 */
import {
  assertSubmissionWithinLimits,
  capBodyBytes,
  CERTIFICATE_FILE_MAX_BYTES,
  edgeLimits,
  NO_BODY_LIMITS,
  SMALL_JSON_LIMITS,
  type TEdgeLimits,
} from '@ecf/services';
import { RECONCILIATION_ARECF_MAX_LENGTH, ANNULMENT_MAX_RANGES, ROUTES } from '@ecf/contract';
import { PARTNER_ROUTES, PARTNER_UPLOAD_PREFLIGHT_ROUTE, PARTNER_UPLOAD_ROUTE } from '@ecf/contract';
import { API_REFERENCE_PATH } from './routes/api-reference.ts';
import { RECEPTION_BODY_LIMIT_BYTES } from './routes/reception.ts';

/** What the edge knows of one route: its limits and how its JSON body is read. */
export type TRouteEdge = {
  limits: TEdgeLimits;
  /**
   * The route checks the text of its body itself (the submission: fiscal-core refuses U+0000, lone
   * surrogates and more, field by field, with 422 `TEXT_CHARACTER_NOT_ALLOWED`). Everywhere else
   * the edge refuses them (400 `INVALID_REQUEST` `unsupported_character`).
   */
  textCheckedByRoute?: boolean;
  /** The route's own cheap checks of its body's bytes before they are decoded (the submission's line limits). */
  checkJsonBytes?: (body: Uint8Array) => Promise<void>;
};

/** Every other route (GETs, unknown paths): none of them reads a body. */
export const DEFAULT_BODY_LIMIT_BYTES = NO_BODY_LIMITS.bodyBytes;

/**
 * A status batch is at most 100 references of at most 64 characters: about 7 KB as JSON, so 64 KiB
 * leaves room for any formatting.
 */
export const STATUS_BATCH_BODY_LIMIT_BYTES = 64 * 1024;
/**
 * A reconciliation carries an ARECF of at most 256 Ki characters and a note of 4000; JSON escaping
 * (`\"`, `\n`, `\u00e9`) can grow that text, 2 MiB covers it with room.
 */
export const RECONCILIATION_BODY_LIMIT_BYTES = 2 * 1024 * 1024;
/**
 * An annulment holds at most 10 types × 10,000 ranges of two 13-character eNCF (about 60 bytes a
 * range as compact JSON, 6 MB in all): 8 MiB, capped by API_BODY_LIMIT_BYTES (6 MiB by default).
 */
export const ANNULMENT_BODY_LIMIT_BYTES = 8 * 1024 * 1024;
/** A sequence range is a few hundred bytes. */
export const SEQUENCE_BODY_LIMIT_BYTES = 16 * 1024;
/**
 * A certification set: `workbookBase64` is at most 700 KB of text; the JSON form of the tax
 * authority's 29 rows of about 5,200 columns is up to a few MB (every column of every row given):
 * 6 MiB, capped by API_BODY_LIMIT_BYTES. The commercial approvals' workbook is base64 alone: 1 MiB;
 * an attestation is at most 50 × 500 + 4,000 characters: 64 KiB.
 */
export const CERTIFICATION_SET_BODY_LIMIT_BYTES = 6 * 1024 * 1024;
export const CERTIFICATION_APPROVALS_BODY_LIMIT_BYTES = 1024 * 1024;
/** A PKCS#12 certificate file of the Partner upload (64 KiB) and its password, as multipart. */
export const CERTIFICATE_UPLOAD_BODY_LIMIT_BYTES = CERTIFICATE_FILE_MAX_BYTES + 16 * 1024;

/**
 * Time for a large body to arrive once the headers are in: 6 MiB in 60 s is 100 KiB/s, a slow
 * uplink's pace. Small bodies get {@link SMALL_JSON_LIMITS}' 10 s (64 KiB at 6.4 KiB/s).
 */
const LARGE_BODY_TIMEOUT_MS = 60_000;
const MEDIUM_BODY_TIMEOUT_MS = 30_000;

/** The JSON of a large document: strings as long as the body allows (base64, an ARECF), long arrays. */
const LARGE_JSON_LIMITS: TEdgeLimits = edgeLimits(SMALL_JSON_LIMITS, {
  bodyTimeoutMs: LARGE_BODY_TIMEOUT_MS,
  maxDepth: 64,
  maxStringLength: 1024 * 1024,
  maxArrayLength: 10_000,
});

const NO_BODY: TRouteEdge = { limits: NO_BODY_LIMITS };
const SMALL_JSON: TRouteEdge = { limits: SMALL_JSON_LIMITS };

type TOptions = {
  /** API_BODY_LIMIT_BYTES: the submission's limit, and the cap of every other route's. */
  submissionLimitBytes: number;
};

/**
 * A submission (direct or Partner): the body up to API_BODY_LIMIT_BYTES; its depth, string and array
 * lengths and its text are fiscal-core's rules (422 with the field's path), not the edge's.
 */
function submissionEdgeOf(options: TOptions): TRouteEdge {
  return {
    limits: edgeLimits(LARGE_JSON_LIMITS, {
      bodyBytes: options.submissionLimitBytes,
      maxDepth: 256,
      maxStringLength: options.submissionLimitBytes,
      maxArrayLength: options.submissionLimitBytes,
    }),
    textCheckedByRoute: true,
  };
}

/** The direct API, the operational routes and the public reception routes (@ecf/contract's direct-api.ts ROUTES). */
function directRouteEdges(options: TOptions): Record<keyof typeof ROUTES, TRouteEdge> {
  const capped = (limits: TEdgeLimits): TRouteEdge => ({
    limits: capBodyBytes(limits, options.submissionLimitBytes),
  });
  const submission: TRouteEdge = {
    ...submissionEdgeOf(options),
    checkJsonBytes: (rawBody) => assertSubmissionWithinLimits({ rawBody }),
  };
  const reconciliation = capped(
    edgeLimits(SMALL_JSON_LIMITS, {
      bodyBytes: RECONCILIATION_BODY_LIMIT_BYTES,
      bodyTimeoutMs: MEDIUM_BODY_TIMEOUT_MS,
      maxStringLength: RECONCILIATION_ARECF_MAX_LENGTH,
    }),
  );
  const annulment = capped(
    edgeLimits(LARGE_JSON_LIMITS, {
      bodyBytes: ANNULMENT_BODY_LIMIT_BYTES,
      maxArrayLength: ANNULMENT_MAX_RANGES,
    }),
  );
  const certificationSet = capped(
    edgeLimits(LARGE_JSON_LIMITS, { bodyBytes: CERTIFICATION_SET_BODY_LIMIT_BYTES }),
  );
  // Multipart, read by reception's own parser: only the byte and time limits apply.
  const reception = capped(
    edgeLimits(NO_BODY_LIMITS, {
      bodyBytes: RECEPTION_BODY_LIMIT_BYTES,
      bodyTimeoutMs: MEDIUM_BODY_TIMEOUT_MS,
    }),
  );
  return {
    health: NO_BODY,
    readiness: NO_BODY,
    metrics: NO_BODY,
    openapi: NO_BODY,
    receptionSeed: NO_BODY,
    receptionCertificateValidation: reception,
    receptionEcf: reception,
    receptionCommercialApproval: reception,
    submitDocument: submission,
    listDocuments: NO_BODY,
    statusBatch: capped(edgeLimits(SMALL_JSON_LIMITS, { bodyBytes: STATUS_BATCH_BODY_LIMIT_BYTES })),
    documentXml: NO_BODY,
    documentPdf: NO_BODY,
    printedLink: NO_BODY,
    contingency: NO_BODY,
    // A webhook body is a few KiB (a document snapshot); 64 KiB is what the inbox keeps of one.
    webhookInbox: SMALL_JSON,
    reconcileReceiverDelivery: reconciliation,
    listSequences: NO_BODY,
    registerSequence: capped(edgeLimits(SMALL_JSON_LIMITS, { bodyBytes: SEQUENCE_BODY_LIMIT_BYTES })),
    prevalidateAnnulment: annulment,
    sendAnnulment: annulment,
    listAnnulments: NO_BODY,
    getAnnulment: NO_BODY,
    reconcileAnnulment: reconciliation,
    listReceivedDocuments: NO_BODY,
    getReceivedDocument: NO_BODY,
    getReceivedDocumentXml: NO_BODY,
    listReceivedApprovals: NO_BODY,
    getReceivedApproval: NO_BODY,
    getReceivedApprovalXml: NO_BODY,
    getCommercialApproval: NO_BODY,
    submitCommercialApproval: SMALL_JSON,
    reconcileCommercialApproval: reconciliation,
    getCertificationCase: NO_BODY,
    prevalidateCertification: certificationSet,
    startCertificationRun: certificationSet,
    getCertificationApprovals: NO_BODY,
    sendCertificationApprovals: capped(
      edgeLimits(LARGE_JSON_LIMITS, {
        bodyBytes: CERTIFICATION_APPROVALS_BODY_LIMIT_BYTES,
        bodyTimeoutMs: MEDIUM_BODY_TIMEOUT_MS,
      }),
    ),
    restartCertification: SMALL_JSON,
    recordCertificationAttestation: SMALL_JSON,
    resendCertificationDocument: SMALL_JSON,
    getCertificationRun: NO_BODY,
    getCertificationEvidence: NO_BODY,
  };
}

/**
 * The Partner API (@ecf/contract's partner-api.ts PARTNER_ROUTES). Its text limits (spec Limits: keys and
 * references 200 characters, notes 4000, evidenceRefs 50 × 500, webhook name 200 and URL 2048) are
 * the zod schemas' (400 `INVALID_PARTNER_PAYLOAD` with the path); the edge bounds the rest.
 */
function partnerRouteEdges(options: TOptions): Record<keyof typeof PARTNER_ROUTES, TRouteEdge> {
  const capped = (limits: TEdgeLimits): TRouteEdge => ({
    limits: capBodyBytes(limits, options.submissionLimitBytes),
  });
  // `{ "document": <submission> }`: the document's text is fiscal-core's (422 per field).
  const submission = submissionEdgeOf(options);
  const statusBatch = capped(edgeLimits(SMALL_JSON_LIMITS, { bodyBytes: STATUS_BATCH_BODY_LIMIT_BYTES }));
  const annulment = capped(
    edgeLimits(LARGE_JSON_LIMITS, {
      bodyBytes: ANNULMENT_BODY_LIMIT_BYTES,
      maxArrayLength: ANNULMENT_MAX_RANGES,
    }),
  );
  const certificationSet = capped(
    edgeLimits(LARGE_JSON_LIMITS, { bodyBytes: CERTIFICATION_SET_BODY_LIMIT_BYTES }),
  );
  return {
    linkFiscalAccount: SMALL_JSON,
    listFiscalAccounts: NO_BODY,
    getFiscalAccount: NO_BODY,
    getFiscalAccountStatus: NO_BODY,
    updateFiscalAccountProfile: SMALL_JSON,
    createCertificateUploadSession: SMALL_JSON,
    createCertificateRotationRequest: SMALL_JSON,
    getCertificate: NO_BODY,
    getProduction: NO_BODY,
    prevalidateProductionAnnulment: annulment,
    sendProductionAnnulment: annulment,
    listProductionAnnulments: NO_BODY,
    getProductionAnnulment: NO_BODY,
    listProductionSequences: NO_BODY,
    registerProductionSequence: capped(
      edgeLimits(SMALL_JSON_LIMITS, { bodyBytes: SEQUENCE_BODY_LIMIT_BYTES }),
    ),
    listProductionInboundDocuments: NO_BODY,
    submitProductionCommercialApproval: SMALL_JSON,
    submitProductionDocument: submission,
    productionDocumentStatusBatch: statusBatch,
    getProductionDocument: NO_BODY,
    productionDocumentXml: NO_BODY,
    productionDocumentPdf: NO_BODY,
    submitTestecfDocument: submission,
    testecfDocumentStatusBatch: statusBatch,
    getTestecfDocument: NO_BODY,
    testecfDocumentXml: NO_BODY,
    testecfDocumentPdf: NO_BODY,
    getBillingUsage: NO_BODY,
    listWebhookEndpoints: NO_BODY,
    createWebhookEndpoint: SMALL_JSON,
    updateWebhookEndpoint: SMALL_JSON,
    retireWebhookEndpoint: NO_BODY,
    testWebhookEndpoint: SMALL_JSON,
    rotateWebhookSecret: SMALL_JSON,
    listWebhookDeliveries: NO_BODY,
    getWebhookDelivery: NO_BODY,
    replayWebhookDelivery: SMALL_JSON,
    getTaxauthRegistration: NO_BODY,
    signCertificationXml: certificationSet,
    uploadCertificationTestSet: certificationSet,
    listCertificationTestSets: NO_BODY,
    listOfficialSets: NO_BODY,
    createCertificationCase: SMALL_JSON,
    partnerGetCertificationCase: NO_BODY,
    partnerRecordCertificationAttestation: SMALL_JSON,
    partnerStartCertificationRun: certificationSet,
    listCertificationRuns: NO_BODY,
    partnerGetCertificationRun: NO_BODY,
    partnerGetCertificationEvidence: NO_BODY,
    getCertificationPrintedPdfs: NO_BODY,
    getCertificationConsumerInvoices: NO_BODY,
    getCertificationConsumerSummaries: NO_BODY,
    changeCertificationOfficialSet: SMALL_JSON,
    partnerRestartCertification: SMALL_JSON,
    partnerSendCertificationApprovals: capped(
      edgeLimits(LARGE_JSON_LIMITS, {
        bodyBytes: CERTIFICATION_APPROVALS_BODY_LIMIT_BYTES,
        bodyTimeoutMs: MEDIUM_BODY_TIMEOUT_MS,
      }),
    ),
    partnerGetCertificationApprovals: NO_BODY,
    partnerResendCertificationDocument: SMALL_JSON,
    closeCertificationCase: SMALL_JSON,
    createCertificationSession: SMALL_JSON,
    requestProductionActivation: SMALL_JSON,
  };
}

/** `METHOD path` → what the edge applies; HEAD follows its GET (Fastify adds one per GET). */
export type TRouteTable = {
  /** The route's line, or null when it has none (the app refuses to start). */
  edgeOf: (method: string, url: string) => TRouteEdge | null;
  /** Lines of routes the contracts name, to check that each was registered (a moved path would keep its old limits). */
  contractKeys: readonly string[];
};

/**
 * The table for an API with or without the Partner API. Besides the contracts: the Partner
 * certificate upload (multipart, read by its own parser) and its CORS preflight, and the API
 * reference pages under {@link API_REFERENCE_PATH}.
 */
export function routeTableOf(options: TOptions & { partnerApi: boolean }): TRouteTable {
  const lines = new Map<string, TRouteEdge>();
  const contractKeys: string[] = [];
  const add = (method: string, path: string, edge: TRouteEdge) => {
    const key = `${method} ${path}`;
    if (lines.has(key)) throw new Error(`route table: two lines for ${key}`);
    lines.set(key, edge);
    contractKeys.push(key);
  };
  const direct = directRouteEdges(options);
  for (const [name, route] of Object.entries(ROUTES))
    add(route.method, route.path, direct[name as keyof typeof ROUTES]);
  if (options.partnerApi) {
    const partner = partnerRouteEdges(options);
    for (const [name, route] of Object.entries(PARTNER_ROUTES))
      add(route.method, route.path, partner[name as keyof typeof PARTNER_ROUTES]);
    add(PARTNER_UPLOAD_ROUTE.method, PARTNER_UPLOAD_ROUTE.path, {
      limits: edgeLimits(NO_BODY_LIMITS, { bodyBytes: CERTIFICATE_UPLOAD_BODY_LIMIT_BYTES }),
    });
    add(PARTNER_UPLOAD_PREFLIGHT_ROUTE.method, PARTNER_UPLOAD_PREFLIGHT_ROUTE.path, NO_BODY);
  }
  return {
    contractKeys,
    edgeOf: (method, url) => {
      const line = lines.get(`${method} ${url}`) ?? (method === 'HEAD' ? lines.get(`GET ${url}`) : undefined);
      if (line) return line;
      // The reference page and its assets (GET only; the plugin registers them).
      if (
        (method === 'GET' || method === 'HEAD') &&
        (url === API_REFERENCE_PATH || url.startsWith(`${API_REFERENCE_PATH}/`))
      )
        return NO_BODY;
      return null;
    },
  };
}
