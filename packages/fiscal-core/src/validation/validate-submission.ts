import { parseDecimal } from '../decimal/decimal.ts';
import { fingerprintOfJson } from '../fingerprint/submission-fingerprint.ts';
import { formatIsoDate, parseTaxauthDate } from '../input/dates.ts';
import {
  clientPathOf,
  pruneEmpty,
  textAt,
  type TDocumentDraft,
  type TSubmissionFormat,
} from '../input/draft.ts';
import { completePlaceholders, placeholderValues } from '../input/placeholders.ts';
import { readSimplifiedContract, SIMPLIFIED_TOP_LEVEL_PROPERTIES } from '../input/simplified-contract.ts';
import { readTaxauthJson } from '../input/taxauth-json.ts';
import { parseJsonLosslessly, type TJsonObject } from '../json/lossless-json.ts';
import type { TEcfDocument, TEcfType } from '../model/ecf-tree.ts';
import type { TValidationContext } from './context.ts';
import { applyDocumentRules, createRuleKit } from './document-rules.ts';
import {
  createIssueCollector,
  ERROR_CODES,
  type TFieldError,
  type TIssueCollector,
  type TWarning,
} from './issues.ts';
import { checkSquaring } from './squaring.ts';
import { checkBodyTextCharacters, checkTreeTextCharacters } from './text-characters.ts';

/** `RazonSocialComprador` of an E32 sent without any buyer data (see docs/validation.md). */
export const ANONYMOUS_CONSUMER_NAME = 'CONSUMIDOR FINAL';
/** A submission that passed validation, ready to be stored, serialized and signed. */
export type TValidSubmission = {
  /** The complete tax-authority tree (placeholders filled, amounts computed for the simplified contract). */
  readonly document: TEcfDocument;
  readonly type: TEcfType;
  readonly encf: string;
  readonly format: TSubmissionFormat;
  /** `FechaEmision` as an ISO date `YYYY-MM-DD` (a Dominican calendar date). */
  readonly issueDate: string;
  /** `MontoTotal` as written in the document (decimal text). */
  readonly totalAmount: string;
  /** `RNCComprador`, or null (foreign buyers and anonymous consumers). */
  readonly buyerRnc: string | null;
  /** `CorreoComprador`, or null. */
  readonly buyerEmail: string | null;
  /** Replay fingerprint of the body exactly as sent (`v1:<sha256 hex>`). */
  readonly fingerprint: string;
  readonly warnings: readonly TWarning[];
};

/** What `validateSubmission` answers: the valid submission, or every error (and the warnings found so far). */
export type TValidationResult =
  | { readonly success: true; readonly data: TValidSubmission }
  | {
      readonly success: false;
      readonly errors: readonly TFieldError[];
      readonly warnings: readonly TWarning[];
    };

/**
 * Validates an e-CF submission body (either format) and turns it into the internal model.
 *
 * Collects every error and warning rather than stopping at the first. Never throws for bad input:
 * malformed JSON is `JSON_MALFORMED` (or `JSON_DUPLICATE_KEY`, `JSON_TOO_DEEP`) on path `''` (or on
 * the repeated member) with `details.offset`, `line`, `column`. Async only because the context's
 * look-ups may be.
 */
export async function validateSubmission(
  rawJsonText: string,
  context: TValidationContext,
): Promise<TValidationResult> {
  const parsed = parseJsonLosslessly(rawJsonText);
  if (!parsed.success) {
    const { error } = parsed;
    return {
      success: false,
      errors: [
        {
          path: error.path ?? '',
          code: ERROR_CODES[error.code],
          message: error.message,
          details: { code: error.code, offset: error.offset, line: error.line, column: error.column },
        },
      ],
      warnings: [],
    };
  }
  const fingerprint = fingerprintOfJson(parsed.value);
  const issues = createIssueCollector();
  if (parsed.value.kind !== 'object') {
    issues.error(
      '',
      ERROR_CODES.SUBMISSION_FORMAT_UNRECOGNIZED,
      'The body must be a JSON object: either { "ECF": { ... } } or the simplified contract',
      {},
    );
    return failure(issues);
  }

  const format = detectFormat(parsed.value, issues);
  if (format === null) return failure(issues);

  // Placeholders are completed after fingerprinting: the fingerprint is of the body as the ERP sent it.
  // A body whose text has no `{{` (nor an escaped brace that could spell one) has no placeholder.
  const mayHavePlaceholders = rawJsonText.includes('{{') || /\\u007b/i.test(rawJsonText);
  const completed = mayHavePlaceholders
    ? completePlaceholders(parsed.value, placeholderValues(context.account, context.now))
    : { value: parsed.value, unresolved: [] };
  for (const { path, placeholder } of completed.unresolved) {
    issues.error(path, ERROR_CODES.UNRESOLVED_PLACEHOLDER, `Placeholder ${placeholder} cannot be filled`, {
      placeholder,
    });
  }
  const body = completed.value as TJsonObject;
  // Every string the client wrote, placeholders filled, on the path it wrote it.
  const textPaths = checkBodyTextCharacters(body, issues);

  const draft =
    format === 'taxauth_json'
      ? readTaxauthJson(body, issues)
      : readSimplifiedContract(body, context.account, context.now, issues);
  // Without an ECF object there is no document to apply rules to; the type error says it all.
  if (draft.root['ECF'] === undefined) return failure(issues, textPaths);
  await applyDocumentRules(draft, context, issues);
  if (format === 'taxauth_json') checkSquaring(createRuleKit(draft, issues));
  if (issues.errors.length > 0) return failure(issues, textPaths);
  return success(draft, fingerprint, issues);
}

/**
 * A value holding a refused character is reported for that alone: a date, code or amount check on
 * the same path would only describe a value the client has to send again anyway.
 */
function keepOnlyTextErrorsAt(paths: ReadonlySet<string>, issues: TIssueCollector): void {
  if (paths.size === 0) return;
  let kept = 0;
  for (const error of issues.errors) {
    if (error.code !== ERROR_CODES.TEXT_CHARACTER_NOT_ALLOWED && paths.has(error.path)) continue;
    issues.errors[kept] = error;
    kept += 1;
  }
  issues.errors.length = kept;
}

function failure(issues: TIssueCollector, textPaths: ReadonlySet<string> = new Set()): TValidationResult {
  keepOnlyTextErrorsAt(textPaths, issues);
  return { success: false, errors: issues.errors, warnings: issues.warnings };
}

/** Which format the body is in; `null` after reporting when it is neither or both. */
function detectFormat(body: TJsonObject, issues: TIssueCollector): TSubmissionFormat | null {
  const keys = [...body.members.keys()];
  const simplifiedKeys = keys.filter((key) => SIMPLIFIED_TOP_LEVEL_PROPERTIES.has(key));
  if (body.members.has('ECF')) {
    if (simplifiedKeys.length > 0) {
      issues.error(
        '',
        ERROR_CODES.SUBMISSION_FORMAT_AMBIGUOUS,
        `The body mixes the tax-authority format (ECF) with simplified-contract properties (${simplifiedKeys.join(', ')}); send one format`,
        { simplifiedProperties: simplifiedKeys },
      );
      return null;
    }
    for (const key of keys)
      if (key !== 'ECF')
        issues.error(
          key,
          ERROR_CODES.UNKNOWN_FIELD,
          `${key} is not part of the tax-authority format; only ECF is expected at the root`,
          {},
        );
    return 'taxauth_json';
  }
  if (simplifiedKeys.length > 0) return 'simplified';
  issues.error(
    '',
    ERROR_CODES.SUBMISSION_FORMAT_UNRECOGNIZED,
    'The body is neither { "ECF": { ... } } nor the simplified contract (type, encf, lines, ...)',
    {},
  );
  return null;
}

function success(draft: TDocumentDraft, fingerprint: string, issues: TIssueCollector): TValidationResult {
  const root = draft.root;
  const ecf = root['ECF'];
  if (ecf === undefined || typeof ecf === 'string' || Array.isArray(ecf) || draft.type === null) {
    throw new Error('A draft without errors must have an ECF tree and a type');
  }
  // Rule 6: a sent Paginacion was checked; the emitted document never declares it.
  delete ecf['Paginacion'];
  pruneEmpty(root);
  // The E32 XSD requires a Comprador even for an anonymous consumer (all its children are optional)
  // while the tax authority rejects empty tags: an E32 without any buyer data names the buyer
  // ANONYMOUS_CONSUMER_NAME, the label Dominican receipts print for an unidentified consumer.
  const header = ecf['Encabezado'];
  if (
    draft.type === '32' &&
    header !== undefined &&
    typeof header === 'object' &&
    !Array.isArray(header) &&
    header['Comprador'] === undefined
  ) {
    header['Comprador'] = { RazonSocialComprador: ANONYMOUS_CONSUMER_NAME };
  }
  // The client's strings were checked in the body; the account's profile may have filled others.
  checkTreeTextCharacters(root, (treePath) => clientPathOf(draft, treePath), issues);
  if (issues.errors.length > 0) return failure(issues);
  const text = (path: string): string | undefined => textAt(root, path);
  const encf = text('ECF.Encabezado.IdDoc.eNCF');
  const issueDate = parseTaxauthDate(text('ECF.Encabezado.Emisor.FechaEmision') ?? '');
  const total = text('ECF.Encabezado.Totales.MontoTotal');
  if (encf === undefined || issueDate === null || total === undefined || parseDecimal(total) === null) {
    throw new Error('A draft without errors must have eNCF, FechaEmision and MontoTotal');
  }
  return {
    success: true,
    data: {
      document: { ECF: ecf },
      type: draft.type,
      encf,
      format: draft.format,
      issueDate: formatIsoDate(issueDate),
      totalAmount: total,
      buyerRnc: text('ECF.Encabezado.Comprador.RNCComprador') ?? null,
      buyerEmail: text('ECF.Encabezado.Comprador.CorreoComprador') ?? null,
      fingerprint,
      warnings: issues.warnings,
    },
  };
}
