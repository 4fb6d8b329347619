/**
 * The fast signer for XML we produce ourselves. Our writer (`src/xml/canonical.ts`) emits Canonical
 * XML 1.0 by construction, so the digest is a SHA-256 of the input bytes and the canonical
 * `SignedInfo` is a string template: no parser and no canonicalizer on this path.
 */
import { createHash, sign } from 'node:crypto';
import { C14N_10, ENVELOPED_SIGNATURE, RSA_SHA256, SHA256, XMLDSIG_NAMESPACE } from './algorithms.ts';
import type { TSigningCertificate } from './types.ts';

/** What {@link signXml} returns. */
export type TSignedXml = {
  /** The input with `<Signature>` appended as the last child of the root element. */
  xml: string;
  /** Base64 `SignatureValue` (the security code is its first six characters). */
  signatureValue: string;
  /** Base64 SHA-256 `DigestValue` of the document. */
  digestValue: string;
};

/**
 * Signs canonical XML with an enveloped XMLDSig signature exactly as the tax authority's recipe
 * (FACTS §3.1): inclusive C14N 1.0, RSA-SHA256, one `Reference URI=""` with the
 * enveloped-signature transform, SHA-256 digest, `KeyInfo/X509Data/X509Certificate` with the leaf.
 *
 * Input contract: the bare root element in canonical form, as the document writer produces it.
 * A leading BOM and an XML declaration are tolerated and removed (canonicalization drops the
 * declaration anyway, and the tax authority expects the document to start at the root), so the
 * returned XML never has them. Anything that our writer never produces and that would make the
 * bytes differ from their canonical form (DOCTYPE, comments, CDATA, processing instructions, raw
 * carriage returns, character or entity references other than C14N's own escapes, root attributes
 * out of C14N order, an existing signature) is a programmer error and throws a `TypeError`. Deeper
 * canonical-form checks (attribute order below the root) would need a parser and are left to the
 * writer's own tests; `signForeignXml` is the path for XML of unknown shape.
 */
export function signXml(xml: string, certificate: TSigningCertificate): TSignedXml {
  const document = stripProlog(xml);
  const root = readRoot(document);

  const digestValue = createHash('sha256').update(document, 'utf8').digest('base64');
  const signedInfoBody =
    `<CanonicalizationMethod Algorithm="${C14N_10}"></CanonicalizationMethod>` +
    `<SignatureMethod Algorithm="${RSA_SHA256}"></SignatureMethod>` +
    `<Reference URI=""><Transforms><Transform Algorithm="${ENVELOPED_SIGNATURE}"></Transform></Transforms>` +
    `<DigestMethod Algorithm="${SHA256}"></DigestMethod><DigestValue>${digestValue}</DigestValue></Reference></SignedInfo>`;
  // Inclusive C14N of the SignedInfo subset renders every namespace in scope (the Signature's default
  // namespace plus any the root declares) and inherited xml:* attributes on the SignedInfo start tag.
  const canonicalSignedInfo = `<SignedInfo${root.signedInfoContext}>${signedInfoBody}`;
  const signatureValue = sign(
    'sha256',
    Buffer.from(canonicalSignedInfo, 'utf8'),
    certificate.privateKey,
  ).toString('base64');

  const signature =
    `<Signature xmlns="${XMLDSIG_NAMESPACE}"><SignedInfo>${signedInfoBody}` +
    `<SignatureValue>${signatureValue}</SignatureValue>` +
    `<KeyInfo><X509Data><X509Certificate>${certificate.certificateDerBase64}</X509Certificate></X509Data></KeyInfo></Signature>`;
  const closingTagStart = document.length - root.closingTagLength;
  return {
    xml: document.slice(0, closingTagStart) + signature + document.slice(closingTagStart),
    signatureValue,
    digestValue,
  };
}

function stripProlog(xml: string): string {
  let document = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  if (document.startsWith('<?xml')) {
    const end = document.indexOf('?>');
    if (end < 0) throw new TypeError('signXml: unterminated XML declaration.');
    const declaration = document.slice(0, end);
    const encoding = /encoding\s*=\s*["']([^"']+)["']/.exec(declaration)?.[1];
    if (encoding !== undefined && encoding.toLowerCase() !== 'utf-8') {
      throw new TypeError(
        `signXml: the document declares encoding ${encoding}; only UTF-8 strings can be signed.`,
      );
    }
    document = document.slice(end + 2).replace(/^[ \t\r\n]+/, '');
  }
  return document;
}

type TRootInfo = { closingTagLength: number; signedInfoContext: string };

/** Attribute in the root start tag: `name="value"` (canonical form always uses double quotes). */
const ATTRIBUTE = / ([^\s=]+)="([^"]*)"/g;
const START_TAG = /^<[^\s>]+(?: [^\s=]+="[^"]*")*>/;

function readRoot(document: string): TRootInfo {
  const nameMatch = /^<([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)[ >]/.exec(document);
  if (nameMatch === null) throw new TypeError('signXml: the document must start with its root element.');
  const rootName = nameMatch[1] as string;
  const closingTag = `</${rootName}>`;
  if (!document.endsWith(closingTag))
    throw new TypeError(`signXml: the document must end with ${closingTag} (no trailing content).`);
  if (document.includes('<!') || document.includes('<?') || document.includes('\r')) {
    throw new TypeError(
      'signXml: DOCTYPE, comments, CDATA, processing instructions and carriage returns are not canonical input; use signForeignXml.',
    );
  }
  // C14N writes every character literally except these few escapes; `&#xED;` or `&apos;` would be digested wrongly.
  if (/&(?!amp;|lt;|gt;|quot;|#x9;|#xA;|#xD;)/.test(document)) {
    throw new TypeError(
      'signXml: the document contains an entity or character reference that canonical XML does not use.',
    );
  }
  if (document.includes(XMLDSIG_NAMESPACE) || /<Signature[ >]/.test(document)) {
    throw new TypeError('signXml: the document already contains a signature.');
  }
  if (rootName.includes(':')) throw new TypeError('signXml: prefixed root elements are not supported.');

  // Attribute values may contain a literal `>` (C14N does not escape it), so the start tag is matched quote-aware.
  const startTag = START_TAG.exec(document)?.[0];
  if (startTag === undefined) throw new TypeError('signXml: the root start tag is not in canonical form.');
  const attributes = Array.from(
    startTag.matchAll(ATTRIBUTE),
    (match) => [match[1] ?? '', match[2] ?? ''] as const,
  );
  assertCanonicalOrder(attributes, rootName);
  // Inclusive C14N renders on the SignedInfo apex every namespace in scope (the Signature's default
  // namespace overrides the root's) and the xml:* attributes it inherits, already in canonical order here.
  let context = ` xmlns="${XMLDSIG_NAMESPACE}"`;
  for (const [name, value] of attributes) {
    if (name.startsWith('xmlns:') || name.startsWith('xml:')) context += ` ${name}="${value}"`;
  }
  return { closingTagLength: closingTag.length, signedInfoContext: context };
}

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

/**
 * The digest is taken over the bytes as given, so the root's attributes must already be in C14N
 * order (namespace declarations by prefix, then attributes by namespace URI and local name); a
 * mistake here would produce a signature nobody else can verify, so it is caught.
 */
function assertCanonicalOrder(attributes: ReadonlyArray<readonly [string, string]>, rootName: string): void {
  const namespaces = new Map<string, string>([['xml', XML_NAMESPACE]]);
  for (const [name, value] of attributes) if (name.startsWith('xmlns:')) namespaces.set(name.slice(6), value);
  const keys = attributes.map(([name]) => {
    if (name === 'xmlns') return '0\u0000';
    if (name.startsWith('xmlns:')) return `0\u0000${name.slice(6)}`;
    const colon = name.indexOf(':');
    if (colon < 0) return `1\u0000\u0000${name}`;
    const uri = namespaces.get(name.slice(0, colon));
    if (uri === undefined)
      throw new TypeError(`signXml: undeclared prefix in attribute ${name} of ${rootName}.`);
    return `1\u0000${uri}\u0000${name.slice(colon + 1)}`;
  });
  for (let index = 1; index < keys.length; index += 1) {
    if ((keys[index - 1] as string) >= (keys[index] as string)) {
      throw new TypeError(`signXml: the attributes of ${rootName} are not in canonical (C14N) order.`);
    }
  }
}
