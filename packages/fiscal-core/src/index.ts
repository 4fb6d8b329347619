/**
 * @ecf/fiscal-core: the pure domain of e-CF issuance. No I/O: no database, no environment,
 * no network, no clock unless passed in. Certificates and keys come in as arguments.
 */
export { escapeText, escapeAttribute, writeXml, leaf, element, type TXmlNode } from './xml/canonical.ts';
export {
  ECF_TYPES,
  type TEcfType,
  type TEcfTree,
  type TEcfValue,
  type TEcfDocument,
} from './model/ecf-tree.ts';
export * from './signing/index.ts';
export * from './derived/index.ts';
export * from './xsd/index.ts';
export { buildEcfXml, getEcfOrderTable, isEcfType } from './xml/ecf-writer.ts';
export { XML_ISSUE_CODES, type TXmlIssue, type TXmlIssueCode, type TXmlResult } from './xml/xml-issues.ts';
export { XSD_ORDER_TABLES } from './xml/xsd-order.generated.ts';
export type { TXsdChild, TXsdOrderTable, TXsdOrderTables } from './xml/xsd-order-types.ts';
export { buildRfceXml, type TRfceOptions } from './documents/rfce-document.ts';
export { buildAcecfXml, type TAcecfInput } from './documents/acecf-document.ts';
export {
  buildArecfXml,
  NOT_RECEIVED_REASONS,
  type TArecfInput,
  type TNotReceivedReason,
} from './documents/arecf-document.ts';
export { buildAnecfXml, type TAnecfInput, type TAnnulmentRange } from './documents/anecf-document.ts';
export { signEcfDocument, timbreUrlOf, type TSignedEcf, type TSignEcfResult } from './issuance/sign-ecf.ts';
export { ANONYMOUS_CONSUMER_NAME } from './validation/validate-submission.ts';
export { isIssuerPhone, MAX_ISSUER_PHONES } from './validation/issuer-phones.ts';
export {
  validateSubmission,
  type TValidationResult,
  type TValidSubmission,
} from './validation/validate-submission.ts';
export type {
  TValidationContext,
  TAccountData,
  TReferencedDocument,
  TReferencedDocumentStatus,
  TRegisteredRange,
  TTaxpayerRecord,
  TMaybePromise,
} from './validation/context.ts';
export {
  ERROR_CODES as SUBMISSION_ERROR_CODES,
  WARNING_CODES as SUBMISSION_WARNING_CODES,
  type TErrorCode as TSubmissionErrorCode,
  type TWarningCode as TSubmissionWarningCode,
  type TFieldError,
  type TWarning,
  type TIssueDetails,
} from './validation/issues.ts';
export {
  computeSubmissionFingerprint,
  fingerprintOfJson,
  canonicalJson,
  FINGERPRINT_ALGORITHM,
  type TFingerprintResult,
} from './fingerprint/submission-fingerprint.ts';
export {
  parseJsonLosslessly,
  MAX_JSON_DEPTH,
  type TJsonValue,
  type TJsonObject,
  type TJsonArray,
  type TJsonNumber,
  type TJsonString,
  type TJsonParseError,
  type TJsonParseErrorCode,
  type TJsonParseResult,
} from './json/lossless-json.ts';
export {
  parseDecimal,
  decimal,
  formatDecimal,
  formatDecimalTrimmed,
  add as addDecimals,
  subtract as subtractDecimals,
  multiply as multiplyDecimals,
  divide as divideDecimals,
  round as roundDecimal,
  compare as compareDecimals,
  type TDecimal,
} from './decimal/decimal.ts';
export {
  computeLineAmount,
  computeTotals,
  ITBIS_PERCENT,
  ITBIS_RATE,
  type TBillingIndicator,
  type TTotals,
  type TTotalsInput,
} from './calculation/totals.ts';
export { PAYMENT_TYPES, SIMPLIFIED_TOP_LEVEL_PROPERTIES } from './input/simplified-contract.ts';
export {
  parseTaxauthDate,
  parseTaxauthDateTime,
  formatTaxauthDate,
  formatDominicanDateTime,
  dominicanDateOf,
  type TCalendarDate,
} from './input/dates.ts';
export { readEcfXml } from './xml/ecf-reader.ts';
