/** Shapes shared by the certification workbook importer, its mapping to e-CF and the send order. */

/**
 * Codes of a workbook problem. Each names what the tax authority's workbook (or its JSON form)
 * holds that the importer cannot take as it is.
 */
export const WORKBOOK_ERROR_CODES = {
  /** The content is not a readable xlsx (random bytes, a zip of something else, a broken package). */
  WORKBOOK_CORRUPT: 'WORKBOOK_CORRUPT',
  /** A sheet the workbook kind needs (`ECF` with `RFCE`, or `ACEECF_Generadas`) is not there. */
  WORKBOOK_SHEET_MISSING: 'WORKBOOK_SHEET_MISSING',
  /** A sheet has a header row but no data rows. */
  WORKBOOK_SHEET_EMPTY: 'WORKBOOK_SHEET_EMPTY',
  /** A header that names no element of any schema the sheet may hold (or a malformed header). */
  WORKBOOK_COLUMN_UNKNOWN: 'WORKBOOK_COLUMN_UNKNOWN',
  /** Two headers of a sheet stand for the same element occurrence. */
  WORKBOOK_COLUMN_DUPLICATE: 'WORKBOOK_COLUMN_DUPLICATE',
  /** A row gives a value to an element its own e-CF type does not have. */
  WORKBOOK_COLUMN_NOT_IN_TYPE: 'WORKBOOK_COLUMN_NOT_IN_TYPE',
  /** `TipoeCF` of a row is missing or is not an e-CF type the sheet may hold. */
  WORKBOOK_TYPE_INVALID: 'WORKBOOK_TYPE_INVALID',
  /** A value of the JSON form is not text (numbers would lose the digits the tax authority compares). */
  WORKBOOK_VALUE_NOT_TEXT: 'WORKBOOK_VALUE_NOT_TEXT',
  /** A value the importer needs to identify the row (`RNCEmisor`, `ENCF`, `RNCComprador`) is absent. */
  WORKBOOK_VALUE_REQUIRED: 'WORKBOOK_VALUE_REQUIRED',
  /** A row belongs to another RNC than the rest of the set (or than the taxpayer the set is for). */
  CERTIFICATION_SET_ISSUER_MISMATCH: 'CERTIFICATION_SET_ISSUER_MISMATCH',
} as const;

export type TWorkbookErrorCode = (typeof WORKBOOK_ERROR_CODES)[keyof typeof WORKBOOK_ERROR_CODES];

/** One problem, located as precisely as it can be: null where the sheet, row or column does not apply. */
export type TWorkbookError = {
  readonly sheet: string | null;
  /** The spreadsheet row (header is row 1); in the JSON form, the 1-based position in the array. */
  readonly row: number | null;
  /** The header as written in the workbook (`NumeroContenedor ` keeps its space). */
  readonly column: string | null;
  readonly code: TWorkbookErrorCode;
  readonly message: string;
};

/** A data row of the `ECF` or `RFCE` sheet. */
export type TWorkbookRow = {
  readonly sheet: 'ECF' | 'RFCE';
  readonly row: number;
  /** `CasoPrueba` (`<RNC><eNCF>`), null when the column is absent or empty. */
  readonly caseId: string | null;
  /** Present cells only (`#e` and blank are absent), keyed by header as written, text as written. */
  readonly values: Readonly<Record<string, string>>;
};

/** A data row of `ACEECF_Generadas`: the ACECF the taxpayer signs as buyer, element by element. */
export type TApprovalRow = {
  readonly row: number;
  /** Present cells only, keyed by the ACECF element names of the header, numbers as their text. */
  readonly values: Readonly<Record<string, string>>;
};

export type TCertificationWorkbook =
  | {
      readonly kind: 'ecf_set';
      readonly issuerRnc: string;
      readonly ecf: readonly TWorkbookRow[];
      readonly rfce: readonly TWorkbookRow[];
    }
  | { readonly kind: 'approval_set'; readonly buyerRnc: string; readonly approvals: readonly TApprovalRow[] };

/** A tax-authority JSON tree with text leaves, as fiscal-core reads it (`{ ECF: … }` or `{ RFCE: … }`). */
export type TTaxauthTree = { [element: string]: string | TTaxauthTree | Array<string | TTaxauthTree> };
