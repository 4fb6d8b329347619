// Issue 26 §4: the OpenAPI document says every status and code the service answers, and nothing
// else. Three links, each checked both ways:
//   code      ↔ route-errors.ts  (a TypeScript scan of what each route's code can throw)
//   route-errors.ts + registry ↔ /openapi.json  (x-error-codes, the error.code enum, the prose)
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { ERROR_STATUS, type TErrorCode } from '@ecf/services';
import { createRouteErrorScan } from '../test/route-error-scan.ts';
import type { TRouteContract } from '@ecf/contract';
import { buildOpenApiDocument, documentedRoutes } from './openapi.ts';
import {
  API_KEY_ERRORS,
  declaredErrorsOf,
  edgeErrorsOf,
  GLOBAL_ERRORS,
  JSON_BODY_ERRORS,
  PARTNER_ACCOUNT_ERRORS,
  PARTNER_KEY_ERRORS,
  ROUTE_ERRORS,
  type TDocumentedRouteName,
} from '@ecf/contract';

const ROUTES_BY_NAME = new Map(
  documentedRoutes({ partnerApi: true }) as Array<[TDocumentedRouteName, TRouteContract]>,
);
const SHARED_CODES = new Set<string>([
  ...GLOBAL_ERRORS,
  ...JSON_BODY_ERRORS,
  ...API_KEY_ERRORS,
  ...PARTNER_KEY_ERRORS,
  ...PARTNER_ACCOUNT_ERRORS,
]);
const REGISTRY_CODE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;

type TSchemaNode = { properties?: Record<string, TSchemaNode>; enum?: string[] };

/** `code@status`, the unit both sides are compared in. */
const at = (code: string, status: number) => `${code}@${status}`;

function declaredPairs(name: TDocumentedRouteName): Set<string> {
  const pairs = new Set<string>();
  for (const [status, codes] of declaredErrorsOf(name, ROUTES_BY_NAME.get(name)!))
    for (const code of codes) pairs.add(at(code, status));
  return pairs;
}

/** The route's own codes (not the ones every route of its kind shares). */
function ownPairs(name: TDocumentedRouteName): Set<string> {
  return new Set(
    ROUTE_ERRORS[name].map((declared) =>
      typeof declared === 'string' ? at(declared, ERROR_STATUS[declared]) : at(declared[0], declared[1]),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// The declared errors ↔ the OpenAPI document

test('every operation documents exactly its declared codes, status by status (x-error-codes, error.code enum)', () => {
  const document = buildOpenApiDocument({ partnerApi: true });
  const problems: string[] = [];
  let operations = 0;
  for (const item of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (method === 'servers') continue;
      operations += 1;
      const { operationId, responses } = operation as {
        operationId: TDocumentedRouteName;
        responses: Record<
          string,
          {
            description: string;
            'x-error-codes'?: string[];
            content?: Record<string, { schema?: { properties?: Record<string, TSchemaNode> } }>;
          }
        >;
      };
      const declared = declaredErrorsOf(operationId, ROUTES_BY_NAME.get(operationId)!);
      const own = ownPairs(operationId);
      for (const [status, codes] of declared)
        if (!responses[String(status)])
          problems.push(
            `${operationId}: ${status} (${codes.join(', ')}) can be answered but is not documented`,
          );
      for (const [status, response] of Object.entries(responses)) {
        const codes = declared.get(Number(status)) ?? [];
        const documented = response['x-error-codes'] ?? [];
        const schema = response.content?.['application/json']?.schema;
        const enumCodes = schema?.properties?.['error']?.properties?.['code']?.enum;
        for (const code of documented)
          if (!codes.includes(code as TErrorCode))
            problems.push(`${operationId}: ${status} documents ${code}, which the route does not answer`);
        for (const code of codes)
          if (!documented.includes(code))
            problems.push(`${operationId}: ${status} ${code} can be answered but is not in x-error-codes`);
        if (schema?.properties?.['error'] && codes.length === 0)
          problems.push(`${operationId}: ${status} documents an ErrorResponse no code of the route answers`);
        if (enumCodes && JSON.stringify(enumCodes) !== JSON.stringify(codes))
          problems.push(
            `${operationId}: ${status} error.code enum ${enumCodes.join(',')} is not ${codes.join(',')}`,
          );
        // The prose: it names no code the status cannot answer, and every code of the route's own.
        // A code quoted as a value of details (`details.directCode X`) is not one the status answers.
        const prose = response.description.replace(/details\.[A-Za-z]+:? [A-Z][A-Z0-9_]+/g, '');
        const named = new Set((prose.match(REGISTRY_CODE) ?? []).filter((code) => code in ERROR_STATUS));
        // Shared prose of a kind (PARTNER_ERRORS' 400 names the JSON body refusals on its GETs too) is
        // tolerated for the shared codes; x-error-codes above is exact for them.
        for (const code of named)
          if (!codes.includes(code as TErrorCode) && !SHARED_CODES.has(code))
            problems.push(`${operationId}: ${status}'s description names ${code}, which it does not answer`);
        for (const code of codes)
          if (own.has(at(code, Number(status))) && !named.has(code))
            problems.push(`${operationId}: ${status}'s description does not name ${code}`);
      }
    }
  }
  assert.equal(operations, ROUTES_BY_NAME.size);
  assert.deepEqual(problems, []);
});

test('the direct submission documents 402, 409 ENCF_CONFLICT and ENCF_ANNULLED, 429 PLAN_LIMIT_EXCEEDED', () => {
  const submit = buildOpenApiDocument().paths['/documentos-ecf']?.['post'] as {
    responses: Record<string, { 'x-error-codes'?: string[] }>;
  };
  assert.deepEqual(submit.responses['402']?.['x-error-codes'], ['PAYMENT_REQUIRED']);
  assert.deepEqual(submit.responses['409']?.['x-error-codes'], ['ENCF_ANNULLED', 'ENCF_CONFLICT']);
  assert.deepEqual(submit.responses['429']?.['x-error-codes'], [
    'PLAN_LIMIT_EXCEEDED',
    'RATE_LIMIT_EXCEEDED',
  ]);
});

test('a direct certification run never answers 422 CERTIFICATION_OWN_SET_REQUIRED (its body names the set); a Partner case without one does', () => {
  const document = buildOpenApiDocument({ partnerApi: true });
  const codesAt = (path: string, status: string) =>
    (
      document.paths[path]?.['post'] as
        { responses: Record<string, { 'x-error-codes'?: string[] }> } | undefined
    )?.responses[status]?.['x-error-codes'];
  const direct = '/certificacion';
  assert.deepEqual(codesAt(direct, '422'), [
    'CERTIFICATION_SET_INVALID',
    'CERTIFICATION_SET_ISSUER_MISMATCH',
  ]);
  assert.ok(
    codesAt(direct, '409')?.includes('CERTIFICATION_OWN_SET_REQUIRED'),
    'the model before the approvals',
  );
  assert.ok(codesAt(direct, '400')?.includes('INVALID_CERTIFICATION_REQUEST'), 'set_missing');
  const partner = '/partner/v1/fiscal-accounts/{id}/certification-cases/{caseId}/runs';
  assert.ok(codesAt(partner, '422')?.includes('CERTIFICATION_OWN_SET_REQUIRED'));
});

// ---------------------------------------------------------------------------------------------
// The code ↔ the declared errors

/** A stored certificate was read when it was installed: reading it again to sign cannot refuse it. */
const STORED_CERTIFICATE =
  'the stored certificate was parsed when it was installed; parseCertificate is reached for the PKCS#12 read again to sign';
const STORED_CERTIFICATE_CODES = [
  'CERTIFICATE_FILE_INVALID',
  'CERTIFICATE_KEY_PAIR_NOT_FOUND',
  'CERTIFICATE_PASSWORD_INVALID',
  'CERTIFICATE_PRIVATE_KEY_MISSING',
] as const;
const storedCertificate = Object.fromEntries(
  STORED_CERTIFICATE_CODES.map((code) => [code, STORED_CERTIFICATE]),
);

/**
 * Codes the scan reaches that the route never answers, each with why (the scan follows every
 * function a route refers to; it cannot see a caught error, a guard's flag, or a path parsed before).
 */
const TENANT_GONE = 'assertAccountProductionActive: the authenticated account always exists';
const PARTNER_ONLY =
  'the use-case is shared with the Partner route: only a caseId or Idempotency-Key (Partner) reaches it';
const ROWS_ARE_SET_ERRORS = "a row's validation is reported as CERTIFICATION_SET_INVALID (details.errors[])";
const ECF_ONLY = 'the Partner production family is eCF: the CerteCF refusal cannot happen';
const NO_ACCOUNT_IN_PATH =
  'requirePartnerKey checks the account only for a route that names one (route.account)';
const NOT_ANSWERED: Partial<Record<TDocumentedRouteName, Partial<Record<TErrorCode, string>>>> = {
  receptionSeed: {
    ...storedCertificate,
    CERTIFICATE_NOT_ACTIVE: 'no receiving certificate is 503 receiver_certificate_unavailable (caught)',
    ROUTE_NOT_FOUND:
      'an unknown environment segment never reaches the reception handlers (rewritten or 404 before)',
  },
  printedLink: {
    DOCUMENT_NOT_SIGNED: 'a link is only issued for an accepted (signed) e-CF; RI_NOT_DELIVERABLE otherwise',
  },
  submitDocument: {
    INVALID_DOCUMENT_REFERENCE: 'the Prefer wait reads the document it has just stored, by its documentId',
    NOT_FOUND: 'the Prefer wait reads the document it has just stored, by its documentId',
  },
  registerSequence: { NOT_FOUND: TENANT_GONE },
  sendAnnulment: { ...storedCertificate, NOT_FOUND: TENANT_GONE },
  getCertificationCase: { NOT_FOUND: PARTNER_ONLY },
  prevalidateCertification: { NOT_FOUND: PARTNER_ONLY, VALIDATION_FAILED: ROWS_ARE_SET_ERRORS },
  startCertificationRun: {
    NOT_FOUND: PARTNER_ONLY,
    IDEMPOTENCY_CONFLICT: PARTNER_ONLY,
    VALIDATION_FAILED: ROWS_ARE_SET_ERRORS,
  },
  sendCertificationApprovals: { IDEMPOTENCY_CONFLICT: PARTNER_ONLY },
  recordCertificationAttestation: { NOT_FOUND: PARTNER_ONLY },
  getCertificationEvidence: {
    ...storedCertificate,
    CERTIFICATE_NOT_ACTIVE:
      'the evidence renders the PDFs of accepted e-CF, signed with a certificate the account had',
    DOCUMENT_NOT_SIGNED: 'the evidence renders the PDFs of accepted (signed) e-CF only',
  },
  submitCommercialApproval: {
    ...storedCertificate,
    CERTIFICATE_NOT_ACTIVE: 'caught: ACECF_TAXAUTH_CERTIFICATE_UNAVAILABLE (503)',
  },
  linkFiscalAccount: { FISCAL_ACCOUNT_NOT_FOUND: NO_ACCOUNT_IN_PATH },
  listFiscalAccounts: { FISCAL_ACCOUNT_NOT_FOUND: NO_ACCOUNT_IN_PATH },
  getBillingUsage: { FISCAL_ACCOUNT_NOT_FOUND: NO_ACCOUNT_IN_PATH },
  prevalidateProductionAnnulment: { ANECF_NOT_AVAILABLE_IN_CERTECF: ECF_ONLY },
  sendProductionAnnulment: {
    ...storedCertificate,
    ANECF_NOT_AVAILABLE_IN_CERTECF: ECF_ONLY,
    NOT_FOUND: TENANT_GONE,
    ANECF_IDEMPOTENCY_CONFLICT: 'caught: the Partner API answers it as IDEMPOTENCY_CONFLICT',
  },
  registerProductionSequence: { NOT_FOUND: TENANT_GONE },
  submitProductionCommercialApproval: {
    ...storedCertificate,
    CERTIFICATE_NOT_ACTIVE: 'caught: ACECF_TAXAUTH_CERTIFICATE_UNAVAILABLE (503)',
  },
};

const EVIDENCE =
  'the evidence renders the PDFs of accepted (signed) e-CF, with the certificate that signed them';
const PARSED_BEFORE = "the Partner route's closed schema refuses that body first (INVALID_PARTNER_PAYLOAD)";
for (const name of ['receptionCertificateValidation', 'receptionEcf', 'receptionCommercialApproval'] as const)
  NOT_ANSWERED[name] = NOT_ANSWERED.receptionSeed;
for (const name of [
  'getCertificationEvidence',
  'partnerGetCertificationEvidence',
  'getCertificationPrintedPdfs',
  'getCertificationConsumerInvoices',
  'getCertificationConsumerSummaries',
] as const)
  NOT_ANSWERED[name] = {
    ...storedCertificate,
    CERTIFICATE_NOT_ACTIVE: EVIDENCE,
    DOCUMENT_NOT_SIGNED: EVIDENCE,
    ...NOT_ANSWERED[name],
  };
NOT_ANSWERED.signCertificationXml = storedCertificate;
NOT_ANSWERED.getTaxauthRegistration = { NOT_FOUND: TENANT_GONE };
NOT_ANSWERED.partnerRestartCertification = { CERTIFICATION_PART_INVALID: PARSED_BEFORE };
NOT_ANSWERED.partnerSendCertificationApprovals = { COMMERCIAL_APPROVAL_SET_REQUIRED: PARSED_BEFORE };
NOT_ANSWERED.uploadCertificationTestSet = {
  INVALID_CERTIFICATION_REQUEST: PARSED_BEFORE,
  VALIDATION_FAILED: ROWS_ARE_SET_ERRORS,
};
NOT_ANSWERED.partnerStartCertificationRun = {
  INVALID_CERTIFICATION_REQUEST: PARSED_BEFORE,
  VALIDATION_FAILED: ROWS_ARE_SET_ERRORS,
};
const UPLOAD = {
  FORBIDDEN: "storeTenantCertificate's portal capability check: the upload session is the credential here",
  NOT_FOUND:
    'the session names an account that exists (FISCAL_ACCOUNT_NOT_FOUND is checked when it is opened)',
};
NOT_ANSWERED.uploadCertificate = UPLOAD;
NOT_ANSWERED.uploadCertificatePreflight = UPLOAD;

/**
 * A code the route answers with one status but not with another its code can throw (the scan sees
 * the `status` option of an AppError, not the flag that leads to it), with why.
 */
const NOT_ANSWERED_WITH: Partial<Record<TDocumentedRouteName, Record<string, string>>> = {
  startCertificationRun: {
    [at('CERTIFICATION_OWN_SET_REQUIRED', 422)]:
      'only a Partner case without a test set (caseId) is 422; a direct body that names no set is 400 set_missing',
  },
};

/** One TypeScript program for both scans (building it is most of the time). */
let scanned: ReturnType<typeof createRouteErrorScan> | undefined;
const theScan = () => (scanned ??= createRouteErrorScan([...ROUTES_BY_NAME.keys()]));

/** Why a route never answers a code its code can throw, or undefined. */
function notAnswered(name: TDocumentedRouteName, code: TErrorCode): string | undefined {
  const listed = NOT_ANSWERED[name]?.[code];
  if (listed) return listed;
  const route = ROUTES_BY_NAME.get(name)!;
  if (!('permission' in route)) return undefined;
  if (code === 'CERTIFICATION_ENVIRONMENT_REQUIRED')
    return 'the Partner certification routes always work in CerteCF';
  if (code === 'FISCAL_ACCOUNT_NOT_FOUND' && !('account' in route && route.account))
    return NO_ACCOUNT_IN_PATH;
  if (code === 'INVALID_DOCUMENT_REFERENCE')
    return 'Partner paths are parsed as UUIDs first (INVALID_PARTNER_PAYLOAD)';
  return undefined;
}

test('what each route can throw is declared, and each declared code of its own is thrown on some path', () => {
  const { units, unregistered } = theScan().units();
  assert.deepEqual(unregistered, [], 'routes whose registration the scan cannot find');
  const problems: string[] = [];
  for (const unit of units) {
    const routes = unit.routes as TDocumentedRouteName[];
    const label = routes.join(', ');
    for (const wide of unit.wide)
      problems.push(`${label}: an AppError whose code is not a literal at ${wide.at} (${wide.type})`);
    const declared = new Set(routes.flatMap((name) => [...declaredPairs(name)]));
    const produced = new Map(unit.produced.map((error) => [at(error.code, error.status), error.at]));
    for (const [pair, where] of produced) {
      const [code] = pair.split('@') as [TErrorCode];
      // A shared unit: declared by one of its routes, or never answered by any.
      if (
        declared.has(pair) ||
        routes.every(
          (name) => notAnswered(name, code) !== undefined || NOT_ANSWERED_WITH[name]?.[pair] !== undefined,
        )
      )
        continue;
      problems.push(`${label}: ${pair} is thrown (${where}) but not declared in route-errors.ts`);
    }
    for (const name of routes)
      for (const pair of ownPairs(name))
        if (!produced.has(pair)) problems.push(`${name}: declares ${pair}, which no path of its code throws`);
  }
  assert.deepEqual(problems, []);
});

test('the edge (plugins) throws only the codes every route of a kind declares', () => {
  const plugins = readdirSync(new URL('./plugins/', import.meta.url))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => `src/plugins/${file}`);
  const edge = new Set<string>([
    ...GLOBAL_ERRORS,
    ...JSON_BODY_ERRORS,
    ...API_KEY_ERRORS,
    ...PARTNER_KEY_ERRORS,
    ...PARTNER_ACCOUNT_ERRORS,
    // The buyer link's refusal of a request line the HTTP server cannot read (plain text on /ri).
    'RI_LINK_INVALID',
    // The submission's line limits, checked on the bytes by the body reader (route-limits.ts checkJsonBytes).
    'VALIDATION_FAILED',
  ]);
  const { produced, wide } = theScan().scanModules(plugins);
  assert.ok(produced.length > 0);
  assert.deepEqual(
    produced.filter((error) => !edge.has(error.code)).map((error) => `${error.code} at ${error.at}`),
    [],
  );
  assert.deepEqual(wide, []);
  // Every route of a kind documents them (edgeErrorsOf is what declaredErrorsOf starts from).
  for (const [name, route] of ROUTES_BY_NAME)
    for (const code of edgeErrorsOf(route)) assert.ok(declaredPairs(name).has(at(code, ERROR_STATUS[code])));
});
