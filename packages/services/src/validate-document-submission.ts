import type { Environment, TDatabase } from '@ecf/db';
import { accountDataOf } from './account-data.ts';
import type { TTenantProfile } from './authenticate-api-request.ts';
import {
  buildEcfXml,
  formatDominicanDateTime,
  formatTaxauthDate,
  validateSubmission,
  type TReferencedDocument,
  type TValidSubmission,
  type TXsdValidators,
} from '@ecf/fiscal-core';

/** A field error or warning as the SubmitResponse lists it (clarifications 2 and 3). */
export type TSubmissionIssue = {
  path: string;
  code: string;
  message: string;
  details: Record<string, unknown>;
};

export type TSubmissionValidation =
  | { success: true; data: TValidSubmission; warnings: TSubmissionIssue[] }
  | { success: false; errors: TSubmissionIssue[]; warnings: TSubmissionIssue[] };

/** What the submission use-cases need besides the body: the database, the tenant and the compiled XSDs. */
export type TSubmissionContext = {
  database: TDatabase;
  tenant: TTenantProfile;
  environment: Environment;
  xsd: TXsdValidators;
  now: Date;
};

const copy = (issues: readonly TSubmissionIssue[]): TSubmissionIssue[] =>
  issues.map((issue) => ({ ...issue, details: { ...issue.details } }));

/**
 * Rule 2: the one validation of preflight and emission. fiscal-core checks structure, calculations,
 * squaring and the notes' references (backed by this tenant's documents); then the unsigned XML
 * built from the result must meet the official XSD of its type (`XSD_VALIDATION_FAILED` on `ECF`).
 */
export async function validateDocumentSubmission(
  options: TSubmissionContext & { rawBody: string },
): Promise<TSubmissionValidation> {
  const { database, tenant, environment } = options;
  const result = await validateSubmission(options.rawBody, {
    now: options.now,
    // The signer rebuilds the same account data from the same function (sign-document.ts).
    account: accountDataOf(tenant),
    lookupReferencedDocument: (encf) => lookupReferencedDocument(database, tenant.id, environment, encf),
    // Range registration (`POST secuencias`) is not built: no range, no SEQUENCE_EXPIRATION_RANGE_MISMATCH.
  });
  if (!result.success)
    return { success: false, errors: copy(result.errors), warnings: copy(result.warnings) };

  const warnings = copy(result.data.warnings);
  const { document } = result.data;
  // FechaHoraFirma is set when signing (clarification 15); the schema requires it, so the check
  // uses the current time where the client sent none.
  const withSignatureTime =
    document.ECF['FechaHoraFirma'] === undefined
      ? { ECF: { ...document.ECF, FechaHoraFirma: formatDominicanDateTime(options.now.getTime()) } }
      : document;
  const xml = buildEcfXml(withSignatureTime);
  if (!xml.success) {
    return {
      success: false,
      errors: xml.issues.map((issue) => ({
        path: issue.path,
        code: issue.code,
        message: issue.message,
        details: { ...issue.details, code: issue.code },
      })),
      warnings,
    };
  }
  const checked = options.xsd.validateXml(xml.data, `ECF${result.data.type}`, { unsigned: true });
  if (!checked.success) {
    return {
      success: false,
      errors: checked.issues.map((issue) => ({
        path: 'ECF',
        code: 'XSD_VALIDATION_FAILED',
        message: issue.message,
        details: {
          code: 'XSD_VALIDATION_FAILED',
          ...(issue.details?.line === undefined ? {} : { line: issue.details.line }),
        },
      })),
      warnings,
    };
  }
  return { success: true, data: result.data, warnings };
}

/** Rule 20 look-up: this tenant's e-CF with that eNCF in the environment, or null (clarification 16). */
async function lookupReferencedDocument(
  database: TDatabase,
  tenantId: string,
  environment: Environment,
  encf: string,
): Promise<TReferencedDocument | null> {
  const original = await database.document.findUnique({
    where: { tenantId_environment_encf: { tenantId, environment, encf } },
    select: { status: true, buyerRnc: true, issueDate: true, totalAmount: true },
  });
  if (!original) return null;
  // Credit notes (E34) already issued on it, read from the submitted payload of either format.
  const [sum] = await database.$queryRaw<Array<{ total: string | null }>>`
    SELECT COALESCE(SUM(total_amount), 0)::text AS total FROM documents
    WHERE tenant_id = ${tenantId}::uuid AND environment = ${environment}::"Environment" AND type = 34
      AND status NOT IN ('rejected', 'cancelled')
      AND (submitted_payload #>> '{reference,encf}' = ${encf}
        OR submitted_payload #>> '{ECF,InformacionReferencia,NCFModificado}' = ${encf})`;
  const issueDate = original.issueDate;
  return {
    status: original.status,
    // ANECF (annulment) is not built yet: nothing is ever annulled.
    annulled: false,
    buyerId: original.buyerRnc,
    issueDate: formatTaxauthDate({
      year: issueDate.getUTCFullYear(),
      month: issueDate.getUTCMonth() + 1,
      day: issueDate.getUTCDate(),
    }),
    totalAmount: original.totalAmount.toFixed(2),
    creditNotesTotal: sum?.total ?? '0',
  };
}
