import type { KeyObject } from 'node:crypto';

/** One problem found, in the shape every fiscal-core validation uses. */
export type TSigningIssue = {
  /** Machine-readable code; see each producing function for the closed set it returns. */
  code: string;
  /** Where the problem is (an input field or an XML element path). */
  path: string;
  /** Human-readable explanation, safe to show (never contains secrets such as passwords). */
  message: string;
  details?: Record<string, unknown>;
};

/** Expected failures come back as data; only programmer errors throw. */
export type TSigningResult<TData> =
  { success: true; data: TData } | { success: false; issues: TSigningIssue[] };

/** One relative distinguished name attribute of a certificate subject or issuer. */
export type TDistinguishedNameAttribute = {
  /** Short name when known (`CN`, `serialNumber`, `O`, `C`, ...), otherwise the dotted OID. */
  name: string;
  oid: string;
  value: string;
};

/** The parts of a subject or issuer name the product reads. */
export type TDistinguishedName = {
  commonName?: string;
  /**
   * The X.520 `serialNumber` attribute (OID 2.5.4.5). In Dominican signing certificates it carries the
   * holder's RNC/cédula/passport, usually with a prefix such as `IDCDO-` (DGII Descripción Técnica p.65).
   */
  serialNumber?: string;
  organization?: string;
  organizationalUnit?: string;
  country?: string;
  /** Every attribute in certificate order, including those not named above. */
  attributes: TDistinguishedNameAttribute[];
};

/** A certificate ready for signing: the private key plus the leaf certificate and its readable fields. */
export type TSigningCertificate = {
  /** node:crypto private key (RSA), used directly by `crypto.sign`. */
  privateKey: KeyObject;
  /** Base64 of the leaf certificate's DER bytes, exactly as it goes into `X509Certificate`. */
  certificateDerBase64: string;
  /** The same leaf certificate as PEM. */
  certificatePem: string;
  subject: TDistinguishedName;
  issuer: TDistinguishedName;
  /**
   * The identification number of the holder taken from the subject `serialNumber`, with a leading
   * alphabetic prefix and dash (`IDCDO-`, `RNC-`...) removed; undefined when the subject has none.
   */
  holderId?: string;
  /** The certificate's own serial number, upper-case hex. */
  certificateSerialNumber: string;
  validFrom: Date;
  validTo: Date;
  /**
   * The X.509 key usages (extension 2.5.29.15) in RFC 5280 order (`digitalSignature`,
   * `nonRepudiation`...); undefined when the certificate has no key-usage extension.
   */
  keyUsage?: TKeyUsage[];
};

/** The RFC 5280 key-usage bits, by name, in bit order. */
export const KEY_USAGES = [
  'digitalSignature',
  'nonRepudiation',
  'keyEncipherment',
  'dataEncipherment',
  'keyAgreement',
  'keyCertSign',
  'cRLSign',
  'encipherOnly',
  'decipherOnly',
] as const;
export type TKeyUsage = (typeof KEY_USAGES)[number];
