/** Certificates, XMLDSig signing and verification for e-CF documents. */
export {
  loadCertificate,
  holderIdFromSerialNumber,
  readKeyUsage,
  CERTIFICATE_ISSUE_CODES,
  type TCertificateSource,
  type TCertificateIssueCode,
} from './certificate.ts';
export {
  createTestCertificate,
  type TTestCertificate,
  type TTestCertificateOptions,
} from './test-certificate.ts';
export { signXml, type TSignedXml } from './sign-xml.ts';
export { signForeignXml, type TForeignSigningIssueCode } from './sign-foreign-xml.ts';
export {
  verifyXmlSignature,
  SIGNATURE_FAILURE_REASONS,
  type TSignatureFailureReason,
  type TSignatureVerification,
  type TSignerCertificate,
} from './verify-xml-signature.ts';
export { XMLDSIG_ALGORITHMS } from './algorithms.ts';
export type {
  TSigningCertificate,
  TSigningIssue,
  TSigningResult,
  TDistinguishedName,
  TDistinguishedNameAttribute,
  TKeyUsage,
} from './types.ts';
export { KEY_USAGES } from './types.ts';
