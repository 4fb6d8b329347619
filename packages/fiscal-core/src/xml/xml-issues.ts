/**
 * Issues returned by the document writers (e-CF, RFCE, ACECF, ARECF, ANECF). Same shape as every
 * fiscal-core validation issue, so the validation layer can turn them into 422 field errors as they are.
 */

/** The closed set of codes the document writers return. */
export const XML_ISSUE_CODES = {
  /** `ECF.Encabezado.IdDoc.TipoeCF` is missing or not one of 31, 32, 33, 34, 41, 43, 44, 45, 46, 47. */
  ECF_TYPE_UNSUPPORTED: 'ECF_TYPE_UNSUPPORTED',
  /** The element is not declared at that place by the official XSD of the document's type. */
  ELEMENT_NOT_IN_XSD: 'ELEMENT_NOT_IN_XSD',
  /** An element the XSD requires (minOccurs ≥ 1) is missing or empty inside an element that is written. */
  REQUIRED_ELEMENT_MISSING: 'REQUIRED_ELEMENT_MISSING',
  /** More occurrences than the XSD's maxOccurs (including an array for a non-repeatable element). */
  ELEMENT_OCCURS_EXCEEDED: 'ELEMENT_OCCURS_EXCEEDED',
  /** Text given where the XSD declares child elements, or child elements where it declares text. */
  ELEMENT_SHAPE_INVALID: 'ELEMENT_SHAPE_INVALID',
  /** A value holds characters XML 1.0 cannot carry (control characters, lone surrogates, U+FFFE/U+FFFF). */
  XML_CHARACTER_INVALID: 'XML_CHARACTER_INVALID',
  /**
   * `FechaVencimientoSecuencia` in an e-CF 32 or 34: those types never carry it (spec submission rule 16;
   * their XSDs do not declare it).
   */
  SEQUENCE_EXPIRATION_DATE_NOT_APPLICABLE: 'SEQUENCE_EXPIRATION_DATE_NOT_APPLICABLE',
  /** An RFCE was asked for a document that is not an e-CF 32 below RD$250,000.00. */
  RFCE_NOT_APPLICABLE: 'RFCE_NOT_APPLICABLE',
  /** The security code is not the 6 characters taken from the signed e-CF's `SignatureValue`. */
  SECURITY_CODE_INVALID: 'SECURITY_CODE_INVALID',
  /** An RNC or cédula that is not 9 or 11 digits. */
  RNC_INVALID: 'RNC_INVALID',
  /** An eNCF that is not a series letter (E–Z except P), a known two-digit e-CF type and ten digits. */
  ENCF_INVALID: 'ENCF_INVALID',
  /** An e-CF type code that is not one of the ten the tax authority defines. */
  ECF_TYPE_INVALID: 'ECF_TYPE_INVALID',
  /** A date that is not a real `dd-MM-yyyy` date. */
  DATE_INVALID: 'DATE_INVALID',
  /** A date-time that is not a real `dd-MM-yyyy HH:mm:ss` (24 h) date-time. */
  DATE_TIME_INVALID: 'DATE_TIME_INVALID',
  /** An amount that is not a decimal with a point, up to 16 integer digits and up to 2 decimals. */
  AMOUNT_INVALID: 'AMOUNT_INVALID',
  /** A commercial rejection (ACECF `Estado` 2) without its reason. */
  REJECTION_REASON_REQUIRED: 'REJECTION_REASON_REQUIRED',
  /** A rejection reason on an acceptance (the reason is conditional on `Estado` 2). */
  REJECTION_REASON_NOT_APPLICABLE: 'REJECTION_REASON_NOT_APPLICABLE',
  /** A rejection reason longer than the 250 characters the ACECF XSD admits. */
  REJECTION_REASON_TOO_LONG: 'REJECTION_REASON_TOO_LONG',
  /** An ARECF "not received" (`Estado` 1) without its reason code. */
  NOT_RECEIVED_REASON_REQUIRED: 'NOT_RECEIVED_REASON_REQUIRED',
  /** A "not received" reason that is not one of the four the ARECF XSD defines. */
  NOT_RECEIVED_REASON_INVALID: 'NOT_RECEIVED_REASON_INVALID',
  /** A "not received" reason code on an ARECF that reports the e-CF as received. */
  NOT_RECEIVED_REASON_NOT_APPLICABLE: 'NOT_RECEIVED_REASON_NOT_APPLICABLE',
  /** An ANECF without any range. */
  ANNULMENT_RANGES_REQUIRED: 'ANNULMENT_RANGES_REQUIRED',
  /** An ANECF range whose eNCFs are of another type than the range's, or whose ends differ in series. */
  ANNULMENT_RANGE_TYPE_MISMATCH: 'ANNULMENT_RANGE_TYPE_MISMATCH',
  /** An ANECF range whose `from` is after its `to`. */
  ANNULMENT_RANGE_REVERSED: 'ANNULMENT_RANGE_REVERSED',
  /** Two ANECF ranges that share eNCFs (the counts would annul them twice). */
  ANNULMENT_RANGES_OVERLAP: 'ANNULMENT_RANGES_OVERLAP',
  /** More e-CF types (detail groups) than the 10 the ANECF XSD admits. */
  ANNULMENT_TOO_MANY_TYPES: 'ANNULMENT_TOO_MANY_TYPES',
  /** More ranges for one type than the 10,000 the ANECF XSD admits. */
  ANNULMENT_TOO_MANY_RANGES: 'ANNULMENT_TOO_MANY_RANGES',
} as const;

/** One of {@link XML_ISSUE_CODES}. */
export type TXmlIssueCode = (typeof XML_ISSUE_CODES)[keyof typeof XML_ISSUE_CODES];

/** One problem found while building a document. `path` uses the tree's or input's names, dots and `[i]`. */
export type TXmlIssue = {
  code: TXmlIssueCode;
  path: string;
  message: string;
  details?: Record<string, unknown>;
};

/** A built document (canonical XML, unsigned) or every issue found. */
export type TXmlResult = { success: true; data: string } | { success: false; issues: TXmlIssue[] };
