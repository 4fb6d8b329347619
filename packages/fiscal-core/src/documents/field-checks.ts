/**
 * Checks and formatting shared by the builders of the tax authority's small documents
 * (ACECF, ARECF, ANECF, RFCE). Each check pushes an issue and returns the value to write, or
 * `undefined` when it cannot be written.
 */
import { ECF_TYPES } from '../model/ecf-tree.ts';
import type { TEcfType } from '../model/ecf-tree.ts';
import { XML_ISSUE_CODES } from '../xml/xml-issues.ts';
import type { TXmlIssue } from '../xml/xml-issues.ts';

/** An eNCF split into its parts. */
export type TEncfParts = { series: string; type: TEcfType; sequence: number };

// Series letter E–Z except P [FANECF p.6], two-digit type, ten-digit sequence.
const ENCF_PATTERN = /^([E-OQ-Z])(\d{2})(\d{10})$/;

/** Splits an eNCF, or `undefined` when it is not one (unknown type included). */
export function parseEncf(value: string): TEncfParts | undefined {
  const match = ENCF_PATTERN.exec(value);
  if (match === null) return undefined;
  const [, series, type, sequence] = match;
  if (
    series === undefined ||
    sequence === undefined ||
    !(ECF_TYPES as ReadonlyArray<string>).includes(type ?? '')
  ) {
    return undefined;
  }
  return { series, type: type as TEcfType, sequence: Number(sequence) };
}

/** Validates an eNCF. */
export function checkEncf(value: string, path: string, issues: TXmlIssue[]): string | undefined {
  if (parseEncf(value) !== undefined) return value;
  issues.push({
    code: XML_ISSUE_CODES.ENCF_INVALID,
    path,
    message:
      'An eNCF is a series letter (E–Z except P), a two-digit e-CF type and ten digits, e.g. E310000000001.',
  });
  return undefined;
}

/** Validates an RNC (9 digits) or cédula (11 digits). */
export function checkRnc(value: string, path: string, issues: TXmlIssue[]): string | undefined {
  if (/^(\d{9}|\d{11})$/.test(value)) return value;
  issues.push({ code: XML_ISSUE_CODES.RNC_INVALID, path, message: 'An RNC has 9 digits and a cédula 11.' });
  return undefined;
}

/** Validates an e-CF type code. */
export function checkEcfType(value: string, path: string, issues: TXmlIssue[]): TEcfType | undefined {
  if ((ECF_TYPES as ReadonlyArray<string>).includes(value)) return value as TEcfType;
  issues.push({
    code: XML_ISSUE_CODES.ECF_TYPE_INVALID,
    path,
    message: `The e-CF type must be one of ${ECF_TYPES.join(', ')}.`,
    details: { allowed: [...ECF_TYPES] },
  });
  return undefined;
}

function isRealDate(day: number, month: number, year: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = [
    31,
    year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ];
  return day <= (daysInMonth[month - 1] ?? 0);
}

/** Validates a `dd-MM-yyyy` date (a real calendar date, years 1900–2099 as the XSDs allow). */
export function checkDate(value: string, path: string, issues: TXmlIssue[]): string | undefined {
  const match = /^(\d{2})-(\d{2})-((?:19|20)\d{2})$/.exec(value);
  if (match !== null && isRealDate(Number(match[1]), Number(match[2]), Number(match[3]))) return value;
  issues.push({
    code: XML_ISSUE_CODES.DATE_INVALID,
    path,
    message: 'Expected a real date written dd-MM-yyyy.',
  });
  return undefined;
}

/**
 * Validates a `dd-MM-yyyy HH:mm:ss` date-time, 24 h, as the tax authority writes signing, approval,
 * acknowledgement and annulment times (Dominican Republic time; the caller converts, having the clock).
 */
export function checkDateTime(value: string, path: string, issues: TXmlIssue[]): string | undefined {
  const match = /^(\d{2})-(\d{2})-((?:19|20)\d{2}) ([01]\d|2[0-3]):([0-5]\d):([0-5]\d)$/.exec(value);
  if (match !== null && isRealDate(Number(match[1]), Number(match[2]), Number(match[3]))) return value;
  issues.push({
    code: XML_ISSUE_CODES.DATE_TIME_INVALID,
    path,
    message: 'Expected a real date-time written dd-MM-yyyy HH:mm:ss (24 h).',
  });
  return undefined;
}

/**
 * Validates an amount (point as decimal separator, up to 16 integer digits and 2 decimals, a leading
 * minus only when `allowNegative`) and writes it with exactly two decimals, as the ACECF and RFCE XSDs
 * require (`[0-9]+(\.[0-9]{2})`), where an e-CF may have written `637.2` or `540`. Pure string work:
 * no floating point ever touches an amount.
 */
export function checkAmount(
  value: string,
  path: string,
  issues: TXmlIssue[],
  options: { allowNegative?: boolean } = {},
): string | undefined {
  const match = /^(-?)(\d{1,16})(?:\.(\d{1,2}))?$/.exec(value);
  if (match === null || (match[1] === '-' && options.allowNegative !== true)) {
    issues.push({
      code: XML_ISSUE_CODES.AMOUNT_INVALID,
      path,
      message: `Expected an amount with a decimal point, up to 16 integer digits and up to 2 decimals${options.allowNegative === true ? '' : ', not negative'}.`,
    });
    return undefined;
  }
  const [, sign = '', integer = '0', decimals = ''] = match;
  const normalizedInteger = integer.replace(/^0+(?=\d)/, '');
  const text = `${normalizedInteger}.${decimals.padEnd(2, '0')}`;
  // "-0.00" is not a negative amount.
  return sign === '-' && /[1-9]/.test(text) ? `-${text}` : text;
}
