/**
 * The codes of a submission's issues: errors (422, nothing is stored) and warnings (the document is
 * emitted with them). The validation of @ecf/fiscal-core raises them; the API documents them; the
 * portal and the SDK's users key on them.
 */

/** Blocking codes (422). */
export const SUBMISSION_ERROR_CODES = {
  /** The body is not JSON (details: `offset`, `line`, `column`). */
  JSON_MALFORMED: 'JSON_MALFORMED',
  /** An object repeats a member name; the body is ambiguous (path: the repeated member). */
  JSON_DUPLICATE_KEY: 'JSON_DUPLICATE_KEY',
  /** Nesting deeper than any e-CF needs. */
  JSON_TOO_DEEP: 'JSON_TOO_DEEP',
  /** The body has both a root `ECF` and simplified-contract properties (path: ''). */
  SUBMISSION_FORMAT_AMBIGUOUS: 'SUBMISSION_FORMAT_AMBIGUOUS',
  /** The body is neither an object with root `ECF` nor a simplified-contract object (path: ''). */
  SUBMISSION_FORMAT_UNRECOGNIZED: 'SUBMISSION_FORMAT_UNRECOGNIZED',
  /** A property the format needs is missing. */
  FIELD_REQUIRED: 'FIELD_REQUIRED',
  /** A value has the wrong JSON type (an object where text is expected, a number for a boolean...). */
  FIELD_TYPE_INVALID: 'FIELD_TYPE_INVALID',
  /** A value outside its allowed set or format (unknown e-CF type, eNCF of another type, bad RNC...); `details.reason`. */
  FIELD_VALUE_INVALID: 'FIELD_VALUE_INVALID',
  /** Simplified contract: an optional node the type's official XSD does not have (rule 13). */
  FIELD_NOT_APPLICABLE_FOR_TYPE: 'FIELD_NOT_APPLICABLE_FOR_TYPE',
  /** Rule 13: a property the simplified contract does not know. */
  UNKNOWN_FIELD: 'UNKNOWN_FIELD',
  /** Rule 13: additional taxes, several payment forms, additional information or pagination in the simplified contract. */
  SIMPLIFIED_CONTRACT_UNSUPPORTED: 'SIMPLIFIED_CONTRACT_UNSUPPORTED',
  /** Rule 19: a `{{...}}` placeholder that is not one of the five known, or whose account data is missing. */
  UNRESOLVED_PLACEHOLDER: 'UNRESOLVED_PLACEHOLDER',
  /** Rule 11: a decimal with a comma, letters, an exponent or empty. */
  DECIMAL_FORMAT_INVALID: 'DECIMAL_FORMAT_INVALID',
  /**
   * A string holds a character no fiscal text carries (C0 controls but tab and line feed, DEL and C1
   * controls, U+2028/U+2029, noncharacters, lone surrogates; see `text-characters.ts`), on the path the
   * client wrote; `details.codePoint` (`U+0085`) and `details.position` (1-based, in characters) of the
   * first one. It is the value's only error: other checks of the same path are not reported with it.
   */
  TEXT_CHARACTER_NOT_ALLOWED: 'TEXT_CHARACTER_NOT_ALLOWED',
  /** Rule 12: a `DD-MM-YYYY` date that does not exist, or an unreadable date. */
  DATE_INVALID: 'DATE_INVALID',
  /** Rule 16: sequence expiration missing where the type requires it. */
  SEQUENCE_EXPIRATION_DATE_REQUIRED: 'SEQUENCE_EXPIRATION_DATE_REQUIRED',
  /** Rule 16 / clarification 11: sequence expiration that is not a real date (wins over `DATE_INVALID`). */
  SEQUENCE_EXPIRATION_DATE_INVALID: 'SEQUENCE_EXPIRATION_DATE_INVALID',
  /** Rule 16: tax-authority JSON sends a sequence expiration for E32/E34 (a warning in the simplified contract). */
  SEQUENCE_EXPIRATION_DATE_NOT_APPLICABLE: 'SEQUENCE_EXPIRATION_DATE_NOT_APPLICABLE',
  /** Rule 16: the sequence expired before the issue date. */
  SEQUENCE_EXPIRED_AT_ISSUE_DATE: 'SEQUENCE_EXPIRED_AT_ISSUE_DATE',
  /** Rule 16: differs from the registered range containing the eNCF (`details.registered`). */
  SEQUENCE_EXPIRATION_RANGE_MISMATCH: 'SEQUENCE_EXPIRATION_RANGE_MISMATCH',
  /** Rule 13: a global discount or surcharge in amount together with `pricesIncludeTax`. */
  GLOBAL_AMOUNT_WITH_PRICES_INCLUDE_TAX: 'GLOBAL_AMOUNT_WITH_PRICES_INCLUDE_TAX',
  /** Rule 10: buyer identification missing (E32 of RD$250,000 or more and notes on it; types that always need it). */
  BUYER_ID_REQUIRED: 'BUYER_ID_REQUIRED',
  /** Rule 10: `RNCComprador` and `IdentificadorExtranjero` (`buyer.rnc` and `buyer.foreignId`) together. */
  BUYER_ID_EXCLUSIVE: 'BUYER_ID_EXCLUSIVE',
  /** Rule 20: the referenced e-CF of the account was rejected or annulled (`details.status`). */
  REFERENCED_ENCF_NOT_ACCEPTED: 'REFERENCED_ENCF_NOT_ACCEPTED',
  /** Rule 20: `CodigoModificacion` 4, replacement of a paper receipt issued in contingency. */
  CONTINGENCY_PAPER_REPLACEMENT_UNSUPPORTED: 'CONTINGENCY_PAPER_REPLACEMENT_UNSUPPORTED',
  /** Clarification 8: `CodigoModificacion` 5 outside type 31 or without an E32 eNCF; or 5 on a note (33/34 admit 1 to 3). */
  REFERENCE_CODE_NOT_APPLICABLE: 'REFERENCE_CODE_NOT_APPLICABLE',
  /** Rule 20: the note's buyer differs from the referenced e-CF's buyer. */
  REFERENCED_BUYER_MISMATCH: 'REFERENCED_BUYER_MISMATCH',
  /** Rule 20: `FechaNCFModificado` differs from the referenced e-CF's issue date. */
  REFERENCED_DATE_MISMATCH: 'REFERENCED_DATE_MISMATCH',
  /** Rule 20: credit notes together exceed the referenced total (`details.original`, `details.creditedSoFar`). */
  CREDIT_NOTES_EXCEED_ORIGINAL: 'CREDIT_NOTES_EXCEED_ORIGINAL',
  /** Rule 20: reference date after the note's issue date. */
  REFERENCE_DATE_AFTER_ISSUE_DATE: 'REFERENCE_DATE_AFTER_ISSUE_DATE',
  /** Rule 20: `IndicadorNotaCredito` does not match the days between `FechaNCFModificado` and `FechaEmision`. */
  CREDIT_NOTE_INDICATOR_MISMATCH: 'CREDIT_NOTE_INDICATOR_MISMATCH',
  /** Rule 21: client signature time later than Dominican Republic time plus 2 minutes. */
  SIGNATURE_DATE_IN_FUTURE: 'SIGNATURE_DATE_IN_FUTURE',
  /** Rule 21 / clarification 10: client signature time that cannot be read as a date. */
  SIGNATURE_DATE_INVALID: 'SIGNATURE_DATE_INVALID',
  /** Rule 4: a Norma 10-07 discount without `IndicadorMontoGravado` 1 (`pricesIncludeTax`). */
  NORMA_1007_REQUIRES_ITBIS_INCLUDED: 'NORMA_1007_REQUIRES_ITBIS_INCLUDED',
  /** Rule 4: `ITBIS1`/`ITBIS2`/`ITBIS3` not 18/16/0 (`details.expected`). */
  ITBIS_RATE_MISMATCH: 'ITBIS_RATE_MISMATCH',
  /** Rule 4: some `TotalITBISn` without `TotalITBIS`. */
  TOTAL_ITBIS_REQUIRED: 'TOTAL_ITBIS_REQUIRED',
  /** Rule 5: other currency without an exchange rate greater than 0. */
  EXCHANGE_RATE_INVALID: 'EXCHANGE_RATE_INVALID',
  /** Rule 6: `Paginacion` inconsistent with `TotalPaginas` or the detail lines. */
  PAGINATION_INVALID: 'PAGINATION_INVALID',
  /**
   * Rule 7: the invoice has ISC codes 006-039 on a non-bulk item and no `ImpuestoAdicional` of its
   * `Totales` carries `MontoImpuestoSelectivoConsumoEspecifico` (notes 23-24 of the format: "si
   * existen estos códigos y el campo no viene, se rechaza la factura"); reported on each group that
   * lacks it. The requirement is per invoice, not per group (`ISC_SPECIFIC_AMOUNT_MISSING`).
   */
  ISC_SPECIFIC_AMOUNT_REQUIRED: 'ISC_SPECIFIC_AMOUNT_REQUIRED',
  /** Rule 8: ITBIS withheld on a line above that line's ITBIS. */
  ITBIS_RETENTION_EXCEEDS_LINE_ITBIS: 'ITBIS_RETENTION_EXCEEDS_LINE_ITBIS',
  /** Rule 8: E41 withholds income tax (ISR) on a line that is not a service. */
  ISR_RETENTION_REQUIRES_SERVICE: 'ISR_RETENTION_REQUIRES_SERVICE',
  /** Rule 13: credit sale without a payment due date (except E47). */
  PAYMENT_DUE_DATE_REQUIRED: 'PAYMENT_DUE_DATE_REQUIRED',
  /** Rule 14: more than 3 issuer phones or one not `NNN-NNN-NNNN`. */
  ISSUER_PHONE_INVALID: 'ISSUER_PHONE_INVALID',
  /** Rule 15 / clarification 7: issuer RNC different from the authenticated account's. */
  ISSUER_RNC_MISMATCH: 'ISSUER_RNC_MISMATCH',
} as const;

/** Non-blocking codes: the document is emitted with them. */
export const SUBMISSION_WARNING_CODES = {
  /** Rule 3: a declared amount differs from the recomputed one beyond the tax authority's tolerance (`declared`, `expected`, `toleranceCents`). */
  SQUARING_ABOVE_TAXAUTH_TOLERANCE: 'SQUARING_ABOVE_TAXAUTH_TOLERANCE',
  /**
   * Rule 7: a group of ISC codes 006-039 whose non-bulk items get their specific ISC from nowhere
   * (a 006-022 group without the specific amount; a 023-039 group without it whose items carry no
   * specific code of the same product) while another group of the invoice carries one, so the
   * tax authority's per-invoice check passes; its amounts cannot be recomputed (`taxCode`).
   */
  ISC_SPECIFIC_AMOUNT_MISSING: 'ISC_SPECIFIC_AMOUNT_MISSING',
  /** Rule 16: expires after 31-12 of the year after the issue date. */
  SEQUENCE_EXPIRATION_BEYOND_LEGAL_MAX: 'SEQUENCE_EXPIRATION_BEYOND_LEGAL_MAX',
  /** Rule 16: the sequence is already expired at the current (send) date. */
  SEQUENCE_EXPIRED_AT_SEND_DATE: 'SEQUENCE_EXPIRED_AT_SEND_DATE',
  /** Rule 16: the simplified contract sent a sequence expiration for E32/E34; it is omitted. */
  SEQUENCE_EXPIRATION_DATE_NOT_APPLICABLE: 'SEQUENCE_EXPIRATION_DATE_NOT_APPLICABLE',
  /** Rule 8: the perception regime is not in force. */
  PERCEPTION_REGIME_NOT_IN_FORCE: 'PERCEPTION_REGIME_NOT_IN_FORCE',
  /** Rule 9: a credit note of more than 30 days declares ITBIS it cannot return. */
  CREDIT_NOTE_ITBIS_NOT_RETURNED: 'CREDIT_NOTE_ITBIS_NOT_RETURNED',
  /** Rule 18: buyer RNC absent from the tax authority's registry. */
  BUYER_RNC_NOT_IN_TAXAUTH_REGISTRY: 'BUYER_RNC_NOT_IN_TAXAUTH_REGISTRY',
  /** Rule 18: buyer RNC registered but not active (`details.status`). */
  BUYER_RNC_NOT_ACTIVE_IN_TAXAUTH: 'BUYER_RNC_NOT_ACTIVE_IN_TAXAUTH',
} as const;

/** Any blocking code. */
export type TSubmissionErrorCode = (typeof SUBMISSION_ERROR_CODES)[keyof typeof SUBMISSION_ERROR_CODES];
/** Any warning code. */
export type TSubmissionWarningCode = (typeof SUBMISSION_WARNING_CODES)[keyof typeof SUBMISSION_WARNING_CODES];
