/**
 * The e-CF writer: turns the internal model (the tax authority's element tree) into the canonical,
 * unsigned XML of the document's type, ready for the signer to append `<Signature>` after
 * `FechaHoraFirma`.
 */
import { ECF_TYPES } from '../model/ecf-tree.ts';
import type { TEcfDocument, TEcfType } from '../model/ecf-tree.ts';
import { isEcfTree, writeOrderedXml } from './ordered-writer.ts';
import type { TElementRules } from './ordered-writer.ts';
import { XML_ISSUE_CODES } from './xml-issues.ts';
import type { TXmlResult } from './xml-issues.ts';
import { XSD_ORDER_TABLES } from './xsd-order.generated.ts';
import type { TXsdOrderTable } from './xsd-order-types.ts';

const ECF_TABLES: { readonly [type in TEcfType]: TXsdOrderTable } = {
  '31': XSD_ORDER_TABLES.E31,
  '32': XSD_ORDER_TABLES.E32,
  '33': XSD_ORDER_TABLES.E33,
  '34': XSD_ORDER_TABLES.E34,
  '41': XSD_ORDER_TABLES.E41,
  '43': XSD_ORDER_TABLES.E43,
  '44': XSD_ORDER_TABLES.E44,
  '45': XSD_ORDER_TABLES.E45,
  '46': XSD_ORDER_TABLES.E46,
  '47': XSD_ORDER_TABLES.E47,
};

// Spec submission rule 6: a sent Paginacion is only checked; the emitted XML never declares it.
const NEVER_EMITTED: TElementRules = { 'ECF/Paginacion': { action: 'drop' } };

// Spec submission rule 16: XML never carries the sequence expiration date for E32/E34 (nor do their XSDs).
const WITHOUT_SEQUENCE_EXPIRATION: TElementRules = {
  ...NEVER_EMITTED,
  'ECF/Encabezado/IdDoc/FechaVencimientoSecuencia': {
    action: 'reject',
    code: XML_ISSUE_CODES.SEQUENCE_EXPIRATION_DATE_NOT_APPLICABLE,
    message: 'e-CF 32 and 34 never carry FechaVencimientoSecuencia.',
  },
};

/** True when `value` is one of the ten e-CF type codes. */
export function isEcfType(value: unknown): value is TEcfType {
  return typeof value === 'string' && (ECF_TYPES as ReadonlyArray<string>).includes(value);
}

/** The generated element-order table of an e-CF type's official XSD. */
export function getEcfOrderTable(type: TEcfType): TXsdOrderTable {
  return ECF_TABLES[type];
}

/**
 * Serializes an e-CF tree as canonical XML (C14N 1.0 by construction: no XML declaration, no
 * whitespace between elements, no empty elements, C14N escaping) in the exact element order of the
 * official XSD of its type, `ECF.Encabezado.IdDoc.TipoeCF`.
 *
 * - `Paginacion` is never emitted (it is dropped without an issue: the validation layer checks it).
 * - `FechaVencimientoSecuencia` in a 32 or 34 gives `SEQUENCE_EXPIRATION_DATE_NOT_APPLICABLE`.
 * - Any element the type's XSD does not declare at that place gives `ELEMENT_NOT_IN_XSD`
 *   (never silently dropped), and a missing required one `REQUIRED_ELEMENT_MISSING`.
 * - `FechaHoraFirma` is written last, as the XSD orders it; the signer appends `<Signature>` after it.
 *
 * Values are written as given (already formatted by the model); member order in the tree is ignored.
 */
export function buildEcfXml(document: TEcfDocument): TXmlResult {
  const encabezado = isEcfTree(document.ECF) ? document.ECF['Encabezado'] : undefined;
  const idDoc = isEcfTree(encabezado) ? encabezado['IdDoc'] : undefined;
  const type = isEcfTree(idDoc) ? idDoc['TipoeCF'] : undefined;
  if (!isEcfType(type)) {
    return {
      success: false,
      issues: [
        {
          code: XML_ISSUE_CODES.ECF_TYPE_UNSUPPORTED,
          path: 'ECF.Encabezado.IdDoc.TipoeCF',
          message: `TipoeCF must be one of ${ECF_TYPES.join(', ')}.`,
          details: { allowed: [...ECF_TYPES] },
        },
      ],
    };
  }
  const rules = type === '32' || type === '34' ? WITHOUT_SEQUENCE_EXPIRATION : NEVER_EMITTED;
  return writeOrderedXml(ECF_TABLES[type], document.ECF, rules);
}
