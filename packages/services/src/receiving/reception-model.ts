/**
 * What reception reads of a delivered document before trusting it (docs/receiving.md): the bytes
 * decoded strictly, refused when they cannot be an XML document we would ever parse (a DTD or an
 * entity declaration, nesting deeper than any e-CF, more elements or attributes than any e-CF, not
 * UTF-8: one pre-scan that stops at the first limit, before any tree), and the few leaves that route it
 * (which tenant, which document), read by a tokenizer that expands nothing. The real parse happens
 * in the signature verification (xmldom, XML 1.0) and the XSD validation (libxml2), on the same text.
 */
import { parseTaxauthDate } from '@ecf/fiscal-core';
import { AppError } from '../shared/errors.ts';

/** Received copies (the XML and our ARECF) are kept this many years (spec "Limits"). */
export const RECEPTION_RETENTION_YEARS = 10;

/** Types never exchanged between taxpayers: their reception is `Estado 1`, motivo 1 (FACTS §2). */
export const NEVER_EXCHANGED_TYPES: ReadonlySet<string> = new Set(['32', '41', '43', '45', '46', '47']);

/**
 * Deepest element nesting accepted. An e-CF is at most 6 levels deep (ECF/DetallesItems/Item/
 * TablaSubDescuento/SubDescuento/...), its signature 5; anything deeper is refused before parsing.
 */
export const MAX_XML_DEPTH = 32;

/**
 * Most elements a delivered document may have; the pre-scan stops there, before any tree is built.
 * Derived from the official XSDs (docs/receiving.md "How many elements an e-CF can have"): by
 * maxOccurs alone an e-CF 31 with 1,000 lines and every optional table full has 181,912 elements
 * (types 33/34 allow 10,000 lines), but every element of a valid document costs at least 31 bytes
 * (its start and end tags and a one-character value; the densest line, e-CF 43's, averages 31.0),
 * so the 2 MiB body holds at most 2,097,152 / 31 = 67,650 of them. The signature adds about 20.
 */
export const MAX_XML_ELEMENTS = 70_000;

/**
 * Most attributes a delivered document may have. The e-CF schemas declare none: only namespace
 * declarations (2-3 on the root) and the signature's (`Algorithm`, `URI`: about 10) are ever sent.
 */
export const MAX_XML_ATTRIBUTES = 1_000;

/** The retention date of a copy stored at `at`. */
export function retainUntilOf(at: Date): Date {
  const until = new Date(at.getTime());
  until.setUTCFullYear(until.getUTCFullYear() + RECEPTION_RETENTION_YEARS);
  return until;
}

/**
 * What is kept of a delivery whose signature was not verified (docs/receiving.md "What is kept"):
 * compact records per source address and UTC day (beyond: counted, not stored), kept this many days.
 */
export type TRefusalPolicy = { perSenderPerDay: number; retentionDays: number };

/** RECEPTION_REFUSED_PER_SENDER_PER_DAY and RECEPTION_REFUSED_RETENTION_DAYS's defaults. */
export const DEFAULT_REFUSAL_POLICY: TRefusalPolicy = { perSenderPerDay: 100, retentionDays: 90 };

/** The retention date of a compact record made at `at`. */
export function refusalRetainUntilOf(at: Date, policy: TRefusalPolicy): Date {
  return new Date(at.getTime() + policy.retentionDays * 24 * 3600_000);
}

/** `dd-MM-yyyy` → `yyyy-MM-dd`, or null when not a real date. */
export function isoDateOf(taxauthDate: string | undefined): string | null {
  if (taxauthDate === undefined) return null;
  const date = parseTaxauthDate(taxauthDate);
  if (date === null) return null;
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.year}-${pad(date.month)}-${pad(date.day)}`;
}

/** The commercial approval's deadline: day 15 of the month after `FechaEmision` (`yyyy-MM-dd`). */
export function approvalDeadlineOf(issueDate: string | null): string | null {
  if (issueDate === null) return null;
  const [year, month] = issueDate.split('-').map(Number) as [number, number];
  const next = month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };
  return `${next.year}-${String(next.month).padStart(2, '0')}-15`;
}

/** Decimal text PostgreSQL's numeric(18,2) holds exactly, else null. */
export function amountOf(text: string | undefined): string | null {
  return text !== undefined && /^-?\d{1,16}(\.\d{1,2})?$/.test(text) ? text : null;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text read from a delivered document, made storable (PostgreSQL refuses U+0000 and lone
 * surrogates in `text`: a character reference could put one in a document refused for its XSD)
 * and cut to `maxLength`; null when nothing is left.
 */
export function storableText(text: string | null | undefined, maxLength: number): string | null {
  if (text === undefined || text === null) return null;
  const cleaned = text.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD').slice(0, maxLength);
  return cleaned === '' ? null : cleaned;
}

/** RNC (9 digits) or cédula (11). */
export const RNC_PATTERN = /^(\d{9}|\d{11})$/;
/** `E` + type + 10 digits. */
export const ENCF_PATTERN = /^E\d{12}$/;

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function unreadable(reason: string, message: string): AppError {
  return new AppError('INVALID_REQUEST', message, { details: { reason, field: 'xml' } });
}

/**
 * The text of the delivered bytes, exactly (a BOM stays: the signature verifier and the XSD
 * validator ignore it, and it is part of what we store), pre-scanned ({@link scanMarkup}). 400
 * `INVALID_REQUEST` with `details.reason`: `xml_empty`, `xml_not_utf8`, `xml_doctype_forbidden` (a
 * DTD, an entity declaration: never expanded, never parsed; the words inside a comment are not one),
 * `xml_too_deep`, `xml_too_many_elements`, `xml_too_many_attributes`, `xml_malformed`.
 */
export function decodeDeliveredXml(bytes: Uint8Array): string {
  if (bytes.length === 0) throw unreadable('xml_empty', 'The xml part is empty.');
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw unreadable('xml_not_utf8', 'The xml part is not UTF-8 text.');
  }
  if (text.replace(/^\uFEFF/, '').trim() === '') throw unreadable('xml_empty', 'The xml part is empty.');
  scanMarkup(text);
  return text;
}

function tooMany(what: 'elements' | 'attributes', limit: number): AppError {
  return new AppError(
    'INVALID_REQUEST',
    `The xml part has more than ${limit.toLocaleString('en-US')} ${what}; no e-CF has that many.`,
    {
      details: {
        reason: what === 'elements' ? 'xml_too_many_elements' : 'xml_too_many_attributes',
        field: 'xml',
        limit,
      },
    },
  );
}

function isNameStart(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    code === 0x5f ||
    code === 0x3a ||
    code > 0x7f
  );
}

/**
 * The pre-scan (issue 25): one pass over the text with `indexOf`, before the tokenizer, the XSD
 * validator or the signature verifier build anything, that counts start tags (elements), attributes
 * and nesting and stops at the first limit passed: {@link MAX_XML_ELEMENTS} (`xml_too_many_elements`),
 * {@link MAX_XML_ATTRIBUTES} (`xml_too_many_attributes`), {@link MAX_XML_DEPTH} (`xml_too_deep`).
 * Comments, CDATA sections and processing instructions are skipped whole, so text in them is never
 * markup; any other `<!` is a declaration (`<!DOCTYPE`, `<!ENTITY`...): `xml_doctype_forbidden`.
 * An unterminated comment, section or tag is `xml_malformed`. Anything else odd is left to the
 * tokenizer (which refuses it as malformed).
 */
export function scanMarkup(text: string): { elements: number; attributes: number } {
  let elements = 0;
  let attributes = 0;
  let depth = 0;
  let at = text.indexOf('<');
  while (at !== -1) {
    const next = text.charCodeAt(at + 1);
    let resume = at + 1;
    if (next === 0x2f /* / */) {
      depth -= 1;
    } else if (next === 0x21 /* ! */) {
      const [opening, closing] = text.startsWith('<!--', at)
        ? ['<!--', '-->']
        : text.startsWith('<![CDATA[', at)
          ? ['<![CDATA[', ']]>']
          : [undefined, undefined];
      if (opening === undefined)
        throw unreadable('xml_doctype_forbidden', 'XML with a DTD or entity declarations is not accepted.');
      const end = text.indexOf(closing, at + opening.length);
      if (end === -1) throw unreadable('xml_malformed', 'The xml part is not well-formed XML.');
      resume = end + closing.length;
    } else if (next === 0x3f /* ? */) {
      const end = text.indexOf('?>', at + 2);
      if (end === -1) throw unreadable('xml_malformed', 'The xml part is not well-formed XML.');
      resume = end + 2;
    } else if (isNameStart(next)) {
      elements += 1;
      if (elements > MAX_XML_ELEMENTS) throw tooMany('elements', MAX_XML_ELEMENTS);
      // The tag to its `>` (outside quoted values), counting its attributes (`=` outside quotes).
      let quote = 0;
      let end = -1;
      let inTag = 0;
      for (let index = at + 2; index < text.length; index += 1) {
        const code = text.charCodeAt(index);
        if (quote !== 0) {
          if (code === quote) quote = 0;
        } else if (code === 0x22 || code === 0x27) quote = code;
        else if (code === 0x3d /* = */) inTag += 1;
        else if (code === 0x3e /* > */) {
          end = index;
          break;
        }
      }
      if (end === -1)
        throw unreadable('xml_malformed', 'The xml part is not well-formed XML (a tag never ends).');
      attributes += inTag;
      if (attributes > MAX_XML_ATTRIBUTES) throw tooMany('attributes', MAX_XML_ATTRIBUTES);
      if (text.charCodeAt(end - 1) !== 0x2f /* / */) {
        depth += 1;
        if (depth > MAX_XML_DEPTH)
          throw unreadable('xml_too_deep', `The xml part nests deeper than ${MAX_XML_DEPTH} levels.`);
      }
      resume = end + 1;
    }
    at = text.indexOf('<', resume);
  }
  return { elements, attributes };
}

/** A document's root name and the text of its leaves by path (`Encabezado/IdDoc/eNCF`), first one kept. */
export type TDeliveredLeaves = { root: string; leaves: ReadonlyMap<string, string> };

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|amp|lt|gt|quot|apos);/g, (_whole, entity: string) => {
    const code = entity.startsWith('#x')
      ? Number.parseInt(entity.slice(2), 16)
      : entity.startsWith('#')
        ? Number.parseInt(entity.slice(1), 10)
        : undefined;
    if (code === undefined) return ENTITIES[entity] ?? '';
    return code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/**
 * The root and leaves of a delivered document, read by a tokenizer that expands nothing (five
 * predefined entities and character references only) and never recurses. The `Signature` subtree is
 * skipped. 400 (`xml_too_deep`, `xml_malformed`) when it is not one element tree.
 */
export function readDeliveredLeaves(text: string): TDeliveredLeaves {
  const token =
    /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<\?[\s\S]*?\?>|<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[^\s=>/]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)|(<)/g;
  const stack: Array<{ name: string; text: string; hasChildren: boolean }> = [];
  const leaves = new Map<string, string>();
  let root: string | undefined;
  let skipDepth = 0;
  for (const match of text.matchAll(token)) {
    const [, cdata, closing, name, , selfClosing, chars, stray] = match;
    if (stray !== undefined) throw unreadable('xml_malformed', 'The xml part is not well-formed XML.');
    if (name === undefined) {
      const content = cdata ?? chars;
      if (content === undefined) continue;
      if (stack.length === 0) {
        if (content.replace(/^\uFEFF/, '').trim() !== '')
          throw unreadable('xml_malformed', 'The xml part has text outside its root element.');
        continue;
      }
      if (skipDepth === 0) (stack.at(-1) as { text: string }).text += cdata ?? unescapeXml(content);
      continue;
    }
    const localName = name.includes(':') ? (name.split(':').at(-1) ?? name) : name;
    if (!closing && root !== undefined && stack.length === 0)
      throw unreadable('xml_malformed', 'The xml part has more than one root element.');
    if (skipDepth > 0) {
      if (closing) skipDepth -= 1;
      else if (!selfClosing) skipDepth += 1;
      if (stack.length + skipDepth > MAX_XML_DEPTH)
        throw unreadable('xml_too_deep', `The xml part nests deeper than ${MAX_XML_DEPTH} levels.`);
      continue;
    }
    if (!closing && localName === 'Signature' && stack.length === 1) {
      if (!selfClosing) skipDepth = 1;
      continue;
    }
    if (!closing) {
      const parent = stack.at(-1);
      if (parent !== undefined) parent.hasChildren = true;
      stack.push({ name: localName, text: '', hasChildren: false });
      root ??= localName;
      if (stack.length > MAX_XML_DEPTH)
        throw unreadable('xml_too_deep', `The xml part nests deeper than ${MAX_XML_DEPTH} levels.`);
      if (!selfClosing) continue;
    }
    const path = stack.slice(1).map((frame) => frame.name);
    const frame = stack.pop();
    if (frame === undefined || frame.name !== localName)
      throw unreadable('xml_malformed', 'The xml part is not well-formed XML (unbalanced elements).');
    if (!frame.hasChildren && path.length > 0) {
      const key = path.join('/');
      if (!leaves.has(key)) leaves.set(key, frame.text.trim());
    }
  }
  if (root === undefined || stack.length > 0 || skipDepth > 0)
    throw unreadable('xml_malformed', 'The xml part is not well-formed XML.');
  return { root, leaves };
}

/** The fields of a delivered e-CF that route and describe it. */
export type TDeliveredEcf = {
  rncEmisor: string;
  rncComprador: string | undefined;
  encf: string;
  /** `TipoeCF` as written, or the eNCF's two digits when absent. */
  type: string;
  fechaEmision: string | undefined;
  montoTotal: string | undefined;
  razonSocialEmisor: string | undefined;
};

/**
 * The routing fields of a delivered e-CF. 400 `INVALID_REQUEST` (`xml_not_ecf`, `ecf_fields_unreadable`)
 * when the root is not `ECF` or `RNCEmisor`/`eNCF` are not readable: no acknowledgement can name it.
 */
export function readDeliveredEcf(text: string): TDeliveredEcf {
  const { root, leaves } = readDeliveredLeaves(text);
  if (root !== 'ECF') throw unreadable('xml_not_ecf', `The xml part is ${root}, not an e-CF (ECF).`);
  const leaf = (path: string) => {
    const value = leaves.get(`Encabezado/${path}`);
    return value === undefined || value === '' ? undefined : value;
  };
  const rncEmisor = leaf('Emisor/RNCEmisor');
  const encf = leaf('IdDoc/eNCF');
  if (
    rncEmisor === undefined ||
    !RNC_PATTERN.test(rncEmisor) ||
    encf === undefined ||
    !ENCF_PATTERN.test(encf)
  )
    throw unreadable(
      'ecf_fields_unreadable',
      'The e-CF has no readable RNCEmisor (9 or 11 digits) or eNCF (E + 12 digits).',
    );
  const type = leaf('IdDoc/TipoeCF') ?? encf.slice(1, 3);
  return {
    rncEmisor,
    rncComprador: leaf('Comprador/RNCComprador'),
    encf,
    type,
    fechaEmision: leaf('Emisor/FechaEmision'),
    montoTotal: leaf('Totales/MontoTotal'),
    razonSocialEmisor: leaf('Emisor/RazonSocialEmisor'),
  };
}

/** The fields of a delivered ACECF. */
export type TDeliveredAcecf = {
  rncEmisor: string;
  rncComprador: string | undefined;
  encf: string;
  fechaEmision: string | undefined;
  montoTotal: string | undefined;
  estado: string | undefined;
  detalleMotivoRechazo: string | undefined;
  fechaHoraAprobacionComercial: string | undefined;
};

/** The fields of a delivered ACECF; 400 (`xml_not_acecf`, `acecf_fields_unreadable`) like {@link readDeliveredEcf}. */
export function readDeliveredAcecf(text: string): TDeliveredAcecf {
  const { root, leaves } = readDeliveredLeaves(text);
  if (root !== 'ACECF')
    throw unreadable('xml_not_acecf', `The xml part is ${root}, not a commercial approval (ACECF).`);
  const leaf = (name: string) => {
    const value = leaves.get(`DetalleAprobacionComercial/${name}`);
    return value === undefined || value === '' ? undefined : value;
  };
  const rncEmisor = leaf('RNCEmisor');
  const encf = leaf('eNCF');
  if (
    rncEmisor === undefined ||
    !RNC_PATTERN.test(rncEmisor) ||
    encf === undefined ||
    !ENCF_PATTERN.test(encf)
  )
    throw unreadable(
      'acecf_fields_unreadable',
      'The ACECF has no readable RNCEmisor (9 or 11 digits) or eNCF (E + 12 digits).',
    );
  return {
    rncEmisor,
    rncComprador: leaf('RNCComprador'),
    encf,
    fechaEmision: leaf('FechaEmision'),
    montoTotal: leaf('MontoTotal'),
    estado: leaf('Estado'),
    detalleMotivoRechazo: leaf('DetalleMotivoRechazo'),
    fechaHoraAprobacionComercial: leaf('FechaHoraAprobacionComercial'),
  };
}

/** The signer of a verified document as stored with it (`inbound_documents.signer`). */
export type TInboundSigner = {
  holderId: string | null;
  subject: unknown;
  issuer: unknown;
  serialNumber: string;
  /** Whether the holder is the document's issuer (a mismatch is recorded, not refused: delegations). */
  matchesIssuer: boolean;
};
