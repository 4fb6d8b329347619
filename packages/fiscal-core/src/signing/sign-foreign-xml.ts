/**
 * Signing XML that someone else wrote (the tax authority's `SemillaModel` seed, a received
 * document): it may carry whitespace, an XML declaration and namespace declarations in any order,
 * so it goes through a real parser and xml-crypto's canonicalizer. Slower than `signXml`, used for
 * a handful of documents per hour.
 */
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import type { Node as XmlNode } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { C14N_10, ENVELOPED_SIGNATURE, RSA_SHA256, SHA256 } from './algorithms.ts';
import type { TSignedXml } from './sign-xml.ts';
import type { TSigningCertificate, TSigningResult } from './types.ts';
import { hasMarkupDeclaration } from '../xml/markup-declaration.ts';

/**
 * Codes returned by {@link signForeignXml}.
 * - `XML_MALFORMED`: the input is not well-formed XML.
 * - `XML_DOCTYPE_FORBIDDEN`: the input has a DOCTYPE (refused so no entity is ever expanded).
 */
export type TForeignSigningIssueCode = 'XML_MALFORMED' | 'XML_DOCTYPE_FORBIDDEN';

/**
 * Signs any well-formed XML with the same recipe as `signXml` (FACTS §3.1). First, as the tax
 * authority does before verifying (`preservewhitespace = false`), whitespace-only text nodes are
 * removed, and the XML declaration, comments and processing instructions outside the root are
 * dropped; the returned XML is that compact document with the signature appended to the root.
 * Line ends are xmldom's (XML 1.1's: U+0085, U+2028 and U+2029 become LF, as CR LF does): what is
 * returned is what is signed, which xmlsec1 and `verifyXmlSignature` accept; no seed holds them.
 */
export function signForeignXml(xml: string, certificate: TSigningCertificate): TSigningResult<TSignedXml> {
  const text = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  if (hasMarkupDeclaration(text)) {
    return {
      success: false,
      issues: [
        { code: 'XML_DOCTYPE_FORBIDDEN', path: '', message: 'Documents with a DOCTYPE are not signed.' },
      ],
    };
  }
  let problem: string | undefined;
  const parser = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') problem ??= message;
    },
  });
  let document: ReturnType<DOMParser['parseFromString']>;
  try {
    document = parser.parseFromString(text, 'text/xml');
  } catch (error) {
    problem ??= error instanceof Error ? error.message : String(error);
    return { success: false, issues: [{ code: 'XML_MALFORMED', path: '', message: problem }] };
  }
  const root = document.documentElement;
  if (problem !== undefined || root === null) {
    return {
      success: false,
      issues: [{ code: 'XML_MALFORMED', path: '', message: problem ?? 'The document has no root element.' }],
    };
  }
  removeWhitespaceOnlyText(root);
  const compact = new XMLSerializer().serializeToString(root);

  const signer = new SignedXml({
    privateKey: certificate.privateKey.export({ type: 'pkcs8', format: 'pem' }),
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: C14N_10,
    getKeyInfoContent: () =>
      `<X509Data><X509Certificate>${certificate.certificateDerBase64}</X509Certificate></X509Data>`,
  });
  // With only the enveloped transform listed, xml-crypto applies the implied C14N 1.0 itself, so the
  // Reference has exactly one Transform as in the recipe.
  signer.addReference({
    xpath: '/*',
    transforms: [ENVELOPED_SIGNATURE],
    digestAlgorithm: SHA256,
    uri: '',
    isEmptyUri: true,
  });
  signer.computeSignature(compact, { location: { reference: '/*', action: 'append' } });
  const signatureXml = signer.getSignatureXml();
  return {
    success: true,
    data: {
      xml: signer.getSignedXml(),
      signatureValue: signatureValueOf(signatureXml),
      digestValue: digestValueOf(signatureXml),
    },
  };
}

function removeWhitespaceOnlyText(node: XmlNode): void {
  let child = node.firstChild;
  while (child !== null) {
    const next = child.nextSibling;
    if (child.nodeType === child.TEXT_NODE && /^[ \t\r\n]*$/.test(child.nodeValue ?? ''))
      node.removeChild(child);
    else if (child.nodeType === child.ELEMENT_NODE) removeWhitespaceOnlyText(child);
    child = next;
  }
}

function signatureValueOf(signed: string): string {
  return /<SignatureValue>([^<]*)<\/SignatureValue>/.exec(signed)?.[1]?.replace(/\s+/g, '') ?? '';
}

function digestValueOf(signed: string): string {
  return /<DigestValue>([^<]*)<\/DigestValue>/.exec(signed)?.[1] ?? '';
}
