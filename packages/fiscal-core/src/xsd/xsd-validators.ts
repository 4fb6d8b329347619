/**
 * XSD validation of e-CF and companion documents with libxml2 (compiled to WebAssembly). Schemas
 * come in as arguments (the app loads them from its configured directory); each one is compiled
 * once into a reusable validator. libxml2 memory lives outside the JS heap: every parsed document
 * is freed right after use, and the validator set must be disposed when no longer needed.
 */
import { ParseOption, XmlDocument, XmlParseError, XmlValidateError, XsdValidator } from 'libxml2-wasm';
import type { ErrorDetail } from 'libxml2-wasm';
import { ECF_TYPES } from '../model/ecf-tree.ts';
import type { TEcfType } from '../model/ecf-tree.ts';
import { hasMarkupDeclaration } from '../xml/markup-declaration.ts';

/** Which schema a document is validated against. */
export type TXsdDocumentKind = `ECF${TEcfType}` | 'RFCE' | 'ARECF' | 'ANECF' | 'ACECF' | 'SemillaModel';

/** The published file name of each schema (FACTS §4.1; `taxauth/xsd/README.md`). */
export const XSD_FILE_NAMES: Readonly<Record<TXsdDocumentKind, string>> = {
  ...(Object.fromEntries(ECF_TYPES.map((type) => [`ECF${type}`, `e-CF ${type} v.1.0.xsd`])) as Record<
    `ECF${TEcfType}`,
    string
  >),
  RFCE: 'RFCE 32 v.1.0.xsd',
  ARECF: 'ARECF v1.0.xsd',
  ANECF: 'ANECF v.1.0.xsd',
  ACECF: 'ACECF v.1.0.xsd',
  SemillaModel: 'Semilla v.1.0.xsd',
};

/** One validation or configuration problem. */
export type TXsdIssue = {
  /**
   * - `XSD_VALIDATION_FAILED`: the document does not conform to its schema (one issue per libxml2 message).
   * - `XML_MALFORMED`: the document is not well-formed XML.
   * - `XML_DOCTYPE_FORBIDDEN`: the document has a DOCTYPE (refused: no DTD or entity processing).
   * - `XSD_DOCUMENT_KIND_UNKNOWN`: the root element (or the e-CF `TipoeCF`) matches no known schema.
   * - `XSD_SCHEMA_MISSING`: the schema for this kind of document was not supplied.
   * - `XSD_SCHEMA_INVALID`: a supplied schema does not compile.
   */
  code:
    | 'XSD_VALIDATION_FAILED'
    | 'XML_MALFORMED'
    | 'XML_DOCTYPE_FORBIDDEN'
    | 'XSD_DOCUMENT_KIND_UNKNOWN'
    | 'XSD_SCHEMA_MISSING'
    | 'XSD_SCHEMA_INVALID';
  /** The root element name of the validated document (the schema file name for `XSD_SCHEMA_INVALID`). */
  path: string;
  /** libxml2's own message, trimmed. */
  message: string;
  details?: { line?: number; column?: number; xpath?: string; kind?: TXsdDocumentKind };
};

export type TXsdResult<TData> = { success: true; data: TData } | { success: false; issues: TXsdIssue[] };

/** Options of `validateXml`. */
export type TXsdValidateOptions = { unsigned?: boolean };

/** A set of compiled schemas. Reusable across documents and calls; dispose it once at shutdown. */
export type TXsdValidators = {
  /**
   * Validates one document. The schema is chosen from the root element (`ECF` + its `TipoeCF`,
   * `RFCE`, `ARECF`, `ANECF`, `ACECF`, `SemillaModel`) unless `kind` is given. A leading BOM is ignored.
   *
   * Every published schema requires the trailing signature (`xs:any`), so an unsigned document fails
   * with "Missing child element(s)". To check a document before signing (a preflight), pass
   * `{ unsigned: true }`: an empty placeholder `Signature` is appended in memory; the schemas never
   * look inside it (`processContents="skip"`).
   */
  validateXml(
    xml: string | Uint8Array,
    kind?: TXsdDocumentKind,
    options?: TXsdValidateOptions,
  ): TXsdResult<{ kind: TXsdDocumentKind }>;
  /** The kinds for which a schema was supplied and compiled. */
  readonly kinds: ReadonlyArray<TXsdDocumentKind>;
  /** Frees the compiled schemas (libxml2 memory). Validating afterwards throws. */
  dispose(): void;
};

/**
 * Compiles the supplied schemas (file name → content). Files whose names are not among the
 * published schema names (`XSD_FILE_NAMES`) are ignored, so the operator can drop the whole
 * published folder in. Fails with `XSD_SCHEMA_INVALID` issues when any known schema does not compile.
 */
export function createXsdValidators(
  schemas: Readonly<Record<string, string | Uint8Array>>,
): TXsdResult<TXsdValidators> {
  const compiled = new Map<TXsdDocumentKind, { schemaDocument: XmlDocument; validator: XsdValidator }>();
  const issues: TXsdIssue[] = [];
  for (const [kind, fileName] of Object.entries(XSD_FILE_NAMES) as Array<[TXsdDocumentKind, string]>) {
    const content = schemas[fileName];
    if (content === undefined) continue;
    const text = repairSchema(
      typeof content === 'string' ? content : new TextDecoder('utf-8').decode(content),
    );
    let schemaDocument: XmlDocument | undefined;
    try {
      schemaDocument = XmlDocument.fromString(text, { option: ParseOption.XML_PARSE_NONET });
      // libxml2's compiled schema may point into the schema document, so both live (and die) together.
      compiled.set(kind, { schemaDocument, validator: XsdValidator.fromDoc(schemaDocument) });
    } catch (error) {
      schemaDocument?.dispose();
      issues.push({ code: 'XSD_SCHEMA_INVALID', path: fileName, message: errorMessage(error) });
    }
  }
  if (issues.length > 0) {
    disposeAll(compiled);
    return { success: false, issues };
  }
  let isDisposed = false;
  return {
    success: true,
    data: {
      kinds: [...compiled.keys()],
      validateXml(xml, kind, options) {
        if (isDisposed) throw new Error('validateXml: the validators were disposed.');
        return validate(compiled, xml, kind, options?.unsigned === true);
      },
      dispose() {
        if (isDisposed) return;
        isDisposed = true;
        disposeAll(compiled);
      },
    },
  };
}

function disposeAll(
  compiled: Map<TXsdDocumentKind, { schemaDocument: XmlDocument; validator: XsdValidator }>,
): void {
  for (const { schemaDocument, validator } of compiled.values()) {
    validator.dispose();
    schemaDocument.dispose();
  }
  compiled.clear();
}

/**
 * In-memory fixes to published schemas that libxml2 would otherwise refuse (the files stay as published):
 * - the UTF-8 BOM;
 * - `e-CF 31 v.1.0.xsd` line 476 declares `name=" IndicadorServicioTodoIncluidoType"` (leading space;
 *   .NET and Java trim it): `name` attributes of type declarations are trimmed;
 * - `RFCE 32 v.1.0.xsd` and `ACECF v.1.0.xsd` use Perl/.NET non-capturing groups `(?:…)` in
 *   `xs:pattern`, which XSD regular expressions do not have: they become plain groups `(…)`, which
 *   match exactly the same strings (XSD patterns have no captures).
 */
export function repairSchema(text: string): string {
  const withoutBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return withoutBom
    .replace(/(<xs:(?:simpleType|complexType)\s+name=")\s*([^"]*?)\s*"/g, '$1$2"')
    .replace(
      /(<xs:pattern\s+value=)("|')(.*?)\2/g,
      (_match, start: string, quote: string, pattern: string) =>
        `${start}${quote}${pattern.replaceAll('(?:', '(')}${quote}`,
    );
}

function errorMessage(error: unknown): string {
  if (error instanceof XmlValidateError || error instanceof XmlParseError) {
    const messages = error.details.map((detail) => detail.message.trim()).filter((message) => message !== '');
    if (messages.length > 0) return messages.join(' ');
  }
  return error instanceof Error ? error.message.trim() : String(error);
}

const ROOT_KINDS: Readonly<Record<string, TXsdDocumentKind>> = {
  RFCE: 'RFCE',
  ARECF: 'ARECF',
  ANECF: 'ANECF',
  ACECF: 'ACECF',
  SemillaModel: 'SemillaModel',
};

function validate(
  compiled: Map<TXsdDocumentKind, { validator: XsdValidator }>,
  xml: string | Uint8Array,
  requestedKind: TXsdDocumentKind | undefined,
  isUnsigned: boolean,
): TXsdResult<{ kind: TXsdDocumentKind }> {
  const text = typeof xml === 'string' ? xml : new TextDecoder('utf-8').decode(xml);
  const withoutBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const source = isUnsigned ? withPlaceholderSignature(withoutBom) : withoutBom;
  // Refused before parsing: no DTD may be read, no entity expanded.
  if (hasMarkupDeclaration(source)) {
    return {
      success: false,
      issues: [
        { code: 'XML_DOCTYPE_FORBIDDEN', path: '', message: 'Documents with a DOCTYPE are not accepted.' },
      ],
    };
  }
  let document: XmlDocument;
  try {
    // As UTF-8 bytes copied in one piece: `fromString` encodes the text into libxml2's memory
    // character by character in JavaScript, as long as the parse itself. Both let libxml2 read the
    // encoding from the declaration.
    document = XmlDocument.fromBuffer(Buffer.from(source, 'utf8'), { option: ParseOption.XML_PARSE_NONET });
  } catch (error) {
    const details = error instanceof XmlParseError ? error.details[0] : undefined;
    return {
      success: false,
      issues: [
        {
          code: 'XML_MALFORMED',
          path: '',
          message: errorMessage(error),
          ...(details ? { details: { line: details.line, column: details.col } } : {}),
        },
      ],
    };
  }
  try {
    const rootName = document.root.name;
    const kind = requestedKind ?? detectKind(document, rootName);
    if (kind === undefined) {
      return {
        success: false,
        issues: [
          {
            code: 'XSD_DOCUMENT_KIND_UNKNOWN',
            path: rootName,
            message: `No schema is known for a ${rootName} document with this content.`,
          },
        ],
      };
    }
    const entry = compiled.get(kind);
    if (entry === undefined) {
      return {
        success: false,
        issues: [
          {
            code: 'XSD_SCHEMA_MISSING',
            path: rootName,
            message: `The schema ${XSD_FILE_NAMES[kind]} was not supplied.`,
            details: { kind },
          },
        ],
      };
    }
    try {
      entry.validator.validate(document);
    } catch (error) {
      if (!(error instanceof XmlValidateError)) throw error;
      return { success: false, issues: validationIssues(error.details, rootName, kind) };
    }
    return { success: true, data: { kind } };
  } finally {
    document.dispose();
  }
}

const PLACEHOLDER_SIGNATURE = '<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"></Signature>';

/** Appends the placeholder as the root's last child (before the final end tag); a malformed document is left for the parser to report. */
function withPlaceholderSignature(xml: string): string {
  const closing = xml.lastIndexOf('</');
  return closing < 0 ? xml : xml.slice(0, closing) + PLACEHOLDER_SIGNATURE + xml.slice(closing);
}

function detectKind(document: XmlDocument, rootName: string): TXsdDocumentKind | undefined {
  if (rootName !== 'ECF') return ROOT_KINDS[rootName];
  const type = document.get('/ECF/Encabezado/IdDoc/TipoeCF')?.content.trim();
  return type !== undefined && (ECF_TYPES as readonly string[]).includes(type)
    ? (`ECF${type}` as TXsdDocumentKind)
    : undefined;
}

function validationIssues(
  details: readonly ErrorDetail[],
  rootName: string,
  kind: TXsdDocumentKind,
): TXsdIssue[] {
  if (details.length === 0)
    return [
      {
        code: 'XSD_VALIDATION_FAILED',
        path: rootName,
        message: 'The document does not conform to its schema.',
        details: { kind },
      },
    ];
  return details.map((detail) => ({
    code: 'XSD_VALIDATION_FAILED',
    path: rootName,
    message: detail.message.trim(),
    details: {
      line: detail.line,
      column: detail.col,
      ...(detail.xpath === undefined ? {} : { xpath: detail.xpath }),
      kind,
    },
  }));
}
