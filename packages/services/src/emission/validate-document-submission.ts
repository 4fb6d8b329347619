import type { Environment, TDatabase } from '@ecf/db';
import { accountDataOf, type TTenantProfile } from '../accounts/index.ts';
import { findReferencedDocument, isEncfAnnulled } from '../persistence/index.ts';
import { findRegisteredRange } from '../sequences/find-registered-range.ts';
import { taxpayerLookupFor } from '../taxpayer-registry/index.ts';
import { assertSubmissionWithinLimits } from './assert-submission-within-limits.ts';
import { takeCpuTurn } from './take-cpu-turn.ts';
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

/**
 * Bodies from this size on are validated in CPU turns (`takeCpuTurn`): each of fiscal-core's
 * validation, the XML and the XSD check may then take tens of milliseconds, and other requests
 * are served between them. Below it each step takes a millisecond or two and yielding costs more.
 */
const LARGE_BODY_CHARACTERS = 64 * 1024;

const copy = (issues: readonly TSubmissionIssue[]): TSubmissionIssue[] =>
  issues.map((issue) => ({ ...issue, details: { ...issue.details } }));

/**
 * Rule 2: the one validation of preflight and emission. First the cheap limits (1000 lines, array
 * and object sizes: `assertSubmissionWithinLimits`) on the raw text, so an oversized document is
 * refused before any expensive step. Then fiscal-core checks structure, calculations, squaring and
 * the notes' references (backed by this tenant's documents); then the unsigned XML built from the
 * result must meet the official XSD of its type (`XSD_VALIDATION_FAILED` on `ECF`). A large body
 * takes a CPU turn before each of those steps.
 */
export async function validateDocumentSubmission(
  options: TSubmissionContext & { rawBody: string },
): Promise<TSubmissionValidation> {
  const { database, tenant, environment } = options;
  await assertSubmissionWithinLimits({ rawBody: options.rawBody });
  const isLarge = options.rawBody.length >= LARGE_BODY_CHARACTERS;
  if (isLarge) await takeCpuTurn();
  // Rule 18: the tax authority's registry, for every account, once one is loaded (admin CLI).
  const lookupTaxpayer = await taxpayerLookupFor(database);
  const result = await validateSubmission(options.rawBody, {
    lookupTaxpayer,
    now: options.now,
    // The signer rebuilds the same account data from the same function (signing/sign-queued-document.ts).
    account: accountDataOf(tenant),
    lookupReferencedDocument: (encf) => lookupReferencedDocument(database, tenant.id, environment, encf),
    // Rule 16: a registered range (`POST secuencias`) fixes the FechaVencimientoSecuencia of its eNCFs.
    findRegisteredRange: async (encf) => {
      const range = await findRegisteredRange({ database, tenantId: tenant.id, environment, encf });
      if (range === null) return null;
      const [year, month, day] = range.sequenceExpirationDate.split('-');
      return { sequenceExpirationDate: `${day}-${month}-${year}` };
    },
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
  if (isLarge) await takeCpuTurn();
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
  if (isLarge) await takeCpuTurn();
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
  const [original, annulled] = await Promise.all([
    findReferencedDocument(database, { tenantId, environment, encf }),
    isEncfAnnulled(database, { tenantId, environment, encf }),
  ]);
  if (!original) {
    // An eNCF an accepted ANECF annulled, never issued through the service: only rule 20's status check applies.
    return annulled
      ? {
          status: 'cancelled',
          annulled: true,
          buyerId: null,
          issueDate: '',
          totalAmount: '0',
          creditNotesTotal: '0',
        }
      : null;
  }
  const issueDate = original.issueDate;
  return {
    status: original.status,
    // An accepted ANECF covering it (its document is then `cancelled`, or was skipped).
    annulled,
    buyerId: original.buyerRnc,
    issueDate: formatTaxauthDate({
      year: issueDate.getUTCFullYear(),
      month: issueDate.getUTCMonth() + 1,
      day: issueDate.getUTCDate(),
    }),
    totalAmount: original.totalAmount,
    creditNotesTotal: original.creditNotesTotal,
  };
}
