/**
 * Verification of an enveloped XMLDSig signature over a whole document (e-CF, RFCE, ACECF, ARECF,
 * ANECF, signed seed) with the certificate embedded in its KeyInfo. The document is parsed once, as
 * XML 1.0 (`parseXml10`), and both digests are computed on that tree with xml-crypto's inclusive C14N
 * as corrected in `inclusive-c14n.ts`, an implementation independent of our own signer (which has no
 * canonicalizer: it writes canonical XML). Its verdict is meant to be xmlsec1's on the same bytes;
 * test/xmlsec-verify.test.ts holds the cases where the two must agree.
 *
 * Why not xml-crypto's `SignedXml.checkSignature`: it parses the text again with its own copy of
 * xmldom (0.8), whose default line-end handling follows XML 1.1 and turns U+0085 and U+2028 into
 * line feeds, so a signed name holding one of them failed here while xmlsec1 accepted it, and a
 * signed line feed replaced by U+0085 verified; its canonicalizer also let a text node be replaced
 * by a processing instruction with the same data. See `inclusive-c14n.ts`.
 *
 * Only the tax authority's recipe is accepted; anything looser (other algorithms, more references,
 * a reference to part of the document) could let a signature cover less than the whole document.
 * Trust in the certificate (issuer, validity, delegation for the RNC) is the caller's decision:
 * the result carries the certificate's fields for that.
 */
import { createHash, verify, X509Certificate } from 'node:crypto';
import type { Document as XmlDocument, Element as XmlElement, Node as XmlNode } from '@xmldom/xmldom';
import { C14N_10, ENVELOPED_SIGNATURE, RSA_SHA256, SHA256, XMLDSIG_NAMESPACE } from './algorithms.ts';
import { holderIdFromSerialNumber, readCertificateNames } from './certificate.ts';
import { canonicalizeDocument, canonicalizeSubset, parseXml10 } from './inclusive-c14n.ts';
import type { TDistinguishedName } from './types.ts';
import { hasMarkupDeclaration } from '../xml/markup-declaration.ts';

/**
 * Why a signature was rejected.
 * - `XML_MALFORMED`: the document is not well-formed XML.
 * - `XML_DOCTYPE_FORBIDDEN`: the document has a DOCTYPE (refused so no entity is ever expanded).
 * - `SIGNATURE_MISSING`: no XMLDSig `Signature` element.
 * - `SIGNATURE_MULTIPLE`: more than one `Signature` element.
 * - `SIGNATURE_MISPLACED`: the signature is not a child of the root element.
 * - `SIGNATURE_STRUCTURE_INVALID`: required children (SignedInfo, SignatureValue, KeyInfo...) are missing or repeated.
 * - `SIGNATURE_ALGORITHM_UNSUPPORTED`: canonicalization, signature, transform or digest algorithm differs from the recipe.
 * - `SIGNATURE_REFERENCE_INVALID`: not exactly one Reference, or its URI is not `""` (whole document).
 * - `SIGNATURE_CERTIFICATE_MISSING`: no `X509Certificate` in KeyInfo.
 * - `SIGNATURE_CERTIFICATE_INVALID`: the embedded certificate cannot be parsed or has no RSA key.
 * - `SIGNATURE_DIGEST_MISMATCH`: the signed content was changed after signing.
 * - `SIGNATURE_VALUE_INVALID`: the SignatureValue does not verify with the embedded certificate's key.
 */
export const SIGNATURE_FAILURE_REASONS = [
  'XML_MALFORMED',
  'XML_DOCTYPE_FORBIDDEN',
  'SIGNATURE_MISSING',
  'SIGNATURE_MULTIPLE',
  'SIGNATURE_MISPLACED',
  'SIGNATURE_STRUCTURE_INVALID',
  'SIGNATURE_ALGORITHM_UNSUPPORTED',
  'SIGNATURE_REFERENCE_INVALID',
  'SIGNATURE_CERTIFICATE_MISSING',
  'SIGNATURE_CERTIFICATE_INVALID',
  'SIGNATURE_DIGEST_MISMATCH',
  'SIGNATURE_VALUE_INVALID',
] as const;
export type TSignatureFailureReason = (typeof SIGNATURE_FAILURE_REASONS)[number];

/** The signer's certificate as embedded in the verified signature. */
export type TSignerCertificate = {
  subject: TDistinguishedName;
  issuer: TDistinguishedName;
  /** Subject `serialNumber` (holder's RNC/cédula with its prefix, e.g. `IDCDO-131880738`). */
  serialNumber?: string;
  /** The holder id with its prefix removed (`131880738`). */
  holderId?: string;
  certificateSerialNumber: string;
  validFrom: Date;
  validTo: Date;
  certificateDerBase64: string;
};

/** Result of {@link verifyXmlSignature}. */
export type TSignatureVerification =
  | { valid: true; certificate: TSignerCertificate; signatureValue: string; digestValue: string }
  | { valid: false; reason: TSignatureFailureReason; message: string };

function reject(reason: TSignatureFailureReason, message: string): TSignatureVerification {
  return { valid: false, reason, message };
}

/**
 * Verifies the one enveloped signature over the whole document with the certificate it embeds. A
 * leading byte-order mark (U+FEFF) is ignored, as the XSD validators and the e-CF reader ignore it.
 */
export function verifyXmlSignature(xml: string): TSignatureVerification {
  // A UTF-8 byte-order mark decoded as U+FEFF is not part of the document (XML 1.0 §4.3.3, F.1):
  // the signature covers the document element, so what suppliers send with one verifies as without.
  const text = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  // Checked on the text before parsing: no DTD processing may happen at all.
  if (hasMarkupDeclaration(text))
    return reject('XML_DOCTYPE_FORBIDDEN', 'Documents with a DOCTYPE are not accepted.');
  const parsed = parseXml10(text);
  if (typeof parsed === 'string') return reject('XML_MALFORMED', parsed);
  const root = parsed.documentElement;
  if (root === null) return reject('XML_MALFORMED', 'The document has no root element.');

  const signatures = Array.from(parsed.getElementsByTagNameNS(XMLDSIG_NAMESPACE, 'Signature'));
  // A Signature in another namespace (or none) is not a signature, but it is certainly not what we expect either.
  const lookalikes = Array.from(parsed.getElementsByTagName('*')).filter(
    (node) => node.localName === 'Signature' && node.namespaceURI !== XMLDSIG_NAMESPACE,
  );
  if (signatures.length === 0) {
    return reject(
      'SIGNATURE_MISSING',
      lookalikes.length > 0
        ? 'A Signature element exists but not in the XMLDSig namespace.'
        : 'The document is not signed.',
    );
  }
  if (signatures.length > 1)
    return reject(
      'SIGNATURE_MULTIPLE',
      `The document has ${signatures.length} signatures; exactly one is expected.`,
    );
  const signature = signatures[0] as XmlElement;
  if (signature.parentNode !== root)
    return reject('SIGNATURE_MISPLACED', 'The signature must be a child of the root element.');

  const structure = readStructure(signature);
  if (typeof structure === 'string') return reject('SIGNATURE_STRUCTURE_INVALID', structure);
  const algorithmProblem = checkAlgorithms(structure);
  if (algorithmProblem !== undefined) return algorithmProblem;

  if (structure.certificates.length === 0)
    return reject('SIGNATURE_CERTIFICATE_MISSING', 'KeyInfo carries no X509Certificate.');
  const parsedCertificates: Array<{ der: Buffer; certificate: X509Certificate }> = [];
  for (const text of structure.certificates) {
    const der = Buffer.from(text.replace(/\s+/g, ''), 'base64');
    try {
      parsedCertificates.push({ der, certificate: new X509Certificate(der) });
    } catch (error) {
      return reject(
        'SIGNATURE_CERTIFICATE_INVALID',
        `The embedded certificate is not readable: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  // DGII's samples embed only the leaf; when a chain is embedded, the signer is the certificate that issued no other.
  const leaf = parsedCertificates.find(
    ({ certificate: candidate }) =>
      !parsedCertificates.some(
        ({ certificate: other }) => other !== candidate && other.checkIssued(candidate),
      ),
  );
  if (leaf === undefined)
    return reject('SIGNATURE_CERTIFICATE_INVALID', 'The embedded certificates have no leaf.');
  const { der, certificate } = leaf;
  if (certificate.publicKey.asymmetricKeyType !== 'rsa')
    return reject('SIGNATURE_CERTIFICATE_INVALID', 'The embedded certificate has no RSA key.');
  const names = readCertificateNames(der);
  if (names === undefined)
    return reject('SIGNATURE_CERTIFICATE_INVALID', 'The embedded certificate names are not readable.');

  const checked = checkDigestAndValue(parsed, root, signature, structure, certificate);
  if (checked !== undefined) return checked;

  const serialNumber = names.subject.serialNumber;
  const holderId = holderIdFromSerialNumber(serialNumber);
  return {
    valid: true,
    signatureValue: structure.signatureValue,
    digestValue: structure.digestValue,
    certificate: {
      subject: names.subject,
      issuer: names.issuer,
      ...(serialNumber === undefined ? {} : { serialNumber }),
      ...(holderId === undefined ? {} : { holderId }),
      certificateSerialNumber: certificate.serialNumber.toUpperCase(),
      validFrom: new Date(certificate.validFrom),
      validTo: new Date(certificate.validTo),
      certificateDerBase64: der.toString('base64'),
    },
  };
}

/**
 * The enveloped signature's two checks, in XMLDSig's order: the document's digest (its canonical form
 * without the Signature element), then SignatureValue over the canonical SignedInfo with the embedded
 * leaf's key. SignedInfo is canonicalized first, while the Signature is still in the tree.
 */
function checkDigestAndValue(
  document: XmlDocument,
  root: XmlElement,
  signature: XmlElement,
  structure: TSignatureStructure,
  certificate: X509Certificate,
): TSignatureVerification | undefined {
  let canonicalSignedInfo: string;
  let canonicalDocument: string;
  try {
    canonicalSignedInfo = canonicalizeSubset(structure.signedInfo);
    root.removeChild(signature);
    canonicalDocument = canonicalizeDocument(document);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return reject('SIGNATURE_STRUCTURE_INVALID', `The document could not be canonicalized: ${message}`);
  }
  const digest = createHash('sha256').update(canonicalDocument, 'utf8').digest();
  const declaredDigest = decodeBase64(structure.digestValue);
  if (declaredDigest === undefined || !digest.equals(declaredDigest))
    return reject(
      'SIGNATURE_DIGEST_MISMATCH',
      'The signed content was modified after signing (digest mismatch).',
    );
  const signatureBytes = decodeBase64(structure.signatureValue);
  if (
    signatureBytes === undefined ||
    !verify('sha256', Buffer.from(canonicalSignedInfo, 'utf8'), certificate.publicKey, signatureBytes)
  )
    return reject('SIGNATURE_VALUE_INVALID', 'The SignatureValue does not match the embedded certificate.');
  return undefined;
}

/** Base64 as xs:base64Binary writes it (whitespace allowed between characters), or undefined. */
function decodeBase64(text: string): Buffer | undefined {
  const compact = text.replace(/[ \t\r\n]+/g, '');
  // Node's decoder skips characters that are not base64; a SignatureValue is also the source of the
  // security code, so text that is not strictly base64 is not a signature value.
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(compact)) return undefined;
  return Buffer.from(compact, 'base64');
}

type TSignatureStructure = {
  signedInfo: XmlElement;
  canonicalization: string | null;
  signatureMethod: string | null;
  references: XmlElement[];
  signatureValue: string;
  digestValue: string;
  certificates: string[];
};

function childElements(node: XmlNode, localName?: string): XmlElement[] {
  const result: XmlElement[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType !== child.ELEMENT_NODE) continue;
    const element = child as XmlElement;
    if (element.namespaceURI !== XMLDSIG_NAMESPACE) continue;
    if (localName === undefined || element.localName === localName) result.push(element);
  }
  return result;
}

function only(node: XmlNode, localName: string): XmlElement | string {
  const found = childElements(node, localName);
  if (found.length !== 1) return `Expected exactly one ${localName}, found ${found.length}.`;
  return found[0] as XmlElement;
}

function readStructure(signature: XmlElement): TSignatureStructure | string {
  const signedInfo = only(signature, 'SignedInfo');
  if (typeof signedInfo === 'string') return signedInfo;
  const signatureValue = only(signature, 'SignatureValue');
  if (typeof signatureValue === 'string') return signatureValue;
  const canonicalization = only(signedInfo, 'CanonicalizationMethod');
  if (typeof canonicalization === 'string') return canonicalization;
  const signatureMethod = only(signedInfo, 'SignatureMethod');
  if (typeof signatureMethod === 'string') return signatureMethod;
  const references = childElements(signedInfo, 'Reference');
  const firstReference = references[0];
  let digestValue = '';
  if (firstReference !== undefined) {
    const digest = only(firstReference, 'DigestValue');
    if (typeof digest === 'string') return digest;
    digestValue = (digest.textContent ?? '').replace(/[ \t\r\n]+/g, '');
  }
  const certificates: string[] = [];
  for (const keyInfo of childElements(signature, 'KeyInfo')) {
    for (const data of childElements(keyInfo, 'X509Data')) {
      for (const certificate of childElements(data, 'X509Certificate'))
        certificates.push(certificate.textContent ?? '');
    }
  }
  return {
    signedInfo,
    canonicalization: canonicalization.getAttribute('Algorithm'),
    signatureMethod: signatureMethod.getAttribute('Algorithm'),
    references,
    signatureValue: (signatureValue.textContent ?? '').replace(/[ \t\r\n]+/g, ''),
    digestValue,
    certificates,
  };
}

function checkAlgorithms(structure: TSignatureStructure): TSignatureVerification | undefined {
  if (structure.canonicalization !== C14N_10) {
    return reject(
      'SIGNATURE_ALGORITHM_UNSUPPORTED',
      `Canonicalization ${structure.canonicalization ?? '(none)'} is not inclusive C14N 1.0.`,
    );
  }
  if (structure.signatureMethod !== RSA_SHA256) {
    return reject(
      'SIGNATURE_ALGORITHM_UNSUPPORTED',
      `Signature method ${structure.signatureMethod ?? '(none)'} is not RSA-SHA256.`,
    );
  }
  const [reference, ...others] = structure.references;
  if (reference === undefined || others.length > 0) {
    return reject(
      'SIGNATURE_REFERENCE_INVALID',
      `Expected exactly one Reference, found ${structure.references.length}.`,
    );
  }
  if (!reference.hasAttribute('URI') || reference.getAttribute('URI') !== '') {
    return reject('SIGNATURE_REFERENCE_INVALID', 'The Reference must have URI="" (the whole document).');
  }
  const transformsElements = childElements(reference, 'Transforms');
  const transforms = transformsElements.flatMap((element) =>
    childElements(element, 'Transform').map((transform) => transform.getAttribute('Algorithm')),
  );
  // The recipe writes only the enveloped transform; some signers also spell out the implied C14N 1.0.
  const isRecipe =
    transformsElements.length === 1 &&
    transforms[0] === ENVELOPED_SIGNATURE &&
    (transforms.length === 1 || (transforms.length === 2 && transforms[1] === C14N_10));
  if (!isRecipe)
    return reject(
      'SIGNATURE_ALGORITHM_UNSUPPORTED',
      `Transforms ${transforms.join(', ') || '(none)'} are not the enveloped-signature transform.`,
    );
  const digestMethods = childElements(reference, 'DigestMethod');
  const digestMethod = digestMethods.length === 1 ? digestMethods[0]?.getAttribute('Algorithm') : undefined;
  if (digestMethod !== SHA256)
    return reject(
      'SIGNATURE_ALGORITHM_UNSUPPORTED',
      `Digest method ${digestMethod ?? '(none)'} is not SHA-256.`,
    );
  return undefined;
}
