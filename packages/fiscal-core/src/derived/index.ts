/** Values derived from a signed document: dates, security code, timbre (QR) URLs. */
export {
  formatSignatureDateTime,
  formatDate,
  parseDate,
  parseSignatureDateTime,
  DOMINICAN_UTC_OFFSET_MINUTES,
  type TDominicanDate,
  type TDateIssueCode,
  type TDateParseResult,
} from './dates.ts';
export { securityCodeFromSignatureValue } from './security-code.ts';
export {
  buildEcfTimbreUrl,
  buildConsumerTimbreUrl,
  buildTimbreUrl,
  encodeSecurityCode,
  isConsumerInvoiceBelowThreshold,
  ENVIRONMENT_PATH_SEGMENTS,
  CONSUMER_INVOICE_SUMMARY_THRESHOLD,
  type TDgiiEnvironment,
  type TEcfTimbre,
  type TConsumerTimbre,
} from './qr-url.ts';
