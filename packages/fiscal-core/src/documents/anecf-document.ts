/**
 * ANECF (Anulación de e-NCF): annuls ranges of authorised eNCFs that were never sent to the tax
 * authority nor to a receiver [FANECF; ANECF v.1.0.xsd].
 */
import type { TEcfTree } from '../model/ecf-tree.ts';
import type { TEcfType } from '../model/ecf-tree.ts';
import { writeOrderedXml } from '../xml/ordered-writer.ts';
import { XML_ISSUE_CODES } from '../xml/xml-issues.ts';
import type { TXmlIssue, TXmlResult } from '../xml/xml-issues.ts';
import { XSD_ORDER_TABLES } from '../xml/xsd-order.generated.ts';
import { checkDateTime, checkEcfType, checkRnc, parseEncf } from './field-checks.ts';
import type { TEncfParts } from './field-checks.ts';

/** One consecutive range of eNCFs of one type, both ends included. */
export type TAnnulmentRange = {
  /** The e-CF type code of the range (`31` … `47`). */
  type: string;
  /** First eNCF of the range (`SecuenciaeNCFDesde`). */
  from: string;
  /** Last eNCF of the range (`SecuenciaeNCFHasta`); equal to `from` for a single eNCF. */
  to: string;
};

/** The fields of an ANECF. */
export type TAnecfInput = {
  /** RNC of the issuer annulling its sequences (`RncEmisor`). */
  rncEmisor: string;
  /** `FechaHoraAnulacioneNCF`: `dd-MM-yyyy HH:mm:ss`, Dominican Republic time. */
  annulledAt: string;
  /** The ranges; grouped by type into detail lines in order of first appearance. */
  ranges: ReadonlyArray<TAnnulmentRange>;
};

// ANECF v.1.0.xsd: Anulacion 1..10, Secuencias 1..10,000 (the PDF says "8" once and "10" in its table).
const MAX_TYPES = 10;
const MAX_RANGES_PER_TYPE = 10_000;

type TCheckedRange = {
  index: number;
  type: TEcfType;
  from: TEncfParts;
  to: TEncfParts;
  fromText: string;
  toText: string;
};

function checkRange(range: TAnnulmentRange, index: number, issues: TXmlIssue[]): TCheckedRange | undefined {
  const path = `ranges[${index}]`;
  const type = checkEcfType(range.type, `${path}.type`, issues);
  const ends = (['from', 'to'] as const).map((end) => {
    const parts = parseEncf(range[end]);
    if (parts === undefined || parts.sequence === 0) {
      issues.push({
        code: XML_ISSUE_CODES.ENCF_INVALID,
        path: `${path}.${end}`,
        message:
          'An eNCF is a series letter (E–Z except P), a two-digit e-CF type and a ten-digit sequence above zero.',
      });
      return undefined;
    }
    if (type !== undefined && parts.type !== type) {
      issues.push({
        code: XML_ISSUE_CODES.ANNULMENT_RANGE_TYPE_MISMATCH,
        path: `${path}.${end}`,
        message: `${range[end]} is not an eNCF of type ${type}.`,
      });
      return undefined;
    }
    return parts;
  });
  const [from, to] = ends;
  if (type === undefined || from === undefined || to === undefined) return undefined;
  if (from.series !== to.series) {
    issues.push({
      code: XML_ISSUE_CODES.ANNULMENT_RANGE_TYPE_MISMATCH,
      path: `${path}.to`,
      message: 'Both ends of a range must have the same series and type.',
    });
    return undefined;
  }
  if (from.sequence > to.sequence) {
    issues.push({
      code: XML_ISSUE_CODES.ANNULMENT_RANGE_REVERSED,
      path,
      message: `The range starts after it ends (${range.from} > ${range.to}).`,
    });
    return undefined;
  }
  return { index, type, from, to, fromText: range.from, toText: range.to };
}

function reportOverlaps(ranges: ReadonlyArray<TCheckedRange>, issues: TXmlIssue[]): void {
  const sorted = [...ranges].sort(
    (a, b) =>
      a.type.localeCompare(b.type) ||
      a.from.series.localeCompare(b.from.series) ||
      a.from.sequence - b.from.sequence,
  );
  for (let position = 1; position < sorted.length; position += 1) {
    const previous = sorted[position - 1];
    const current = sorted[position];
    if (previous === undefined || current === undefined) continue;
    if (
      previous.type === current.type &&
      previous.from.series === current.from.series &&
      current.from.sequence <= previous.to.sequence
    ) {
      const [first, second] = previous.index < current.index ? [previous, current] : [current, previous];
      issues.push({
        code: XML_ISSUE_CODES.ANNULMENT_RANGES_OVERLAP,
        path: `ranges[${second.index}]`,
        message: `This range shares eNCFs with ranges[${first.index}]; each eNCF is annulled once.`,
        details: { overlapsWith: first.index },
      });
    }
  }
}

/**
 * Builds the unsigned ANECF as canonical XML (element order of ANECF v.1.0.xsd): one `Anulacion` per
 * e-CF type with `NoLinea` 1, 2, … in order of first appearance, each range as a `Secuencias` pair in
 * input order, `CantidadeNCFAnulados` per type and in the header (their sum). Ranges are checked:
 * valid eNCFs of the range's type and one series, `from` ≤ `to`, no overlaps, at most 10 types and
 * 10,000 ranges per type. The signer appends `<Signature>` (which the XSD requires) after `DetalleAnulacion`.
 */
export function buildAnecfXml(input: TAnecfInput): TXmlResult {
  const issues: TXmlIssue[] = [];
  const rncEmisor = checkRnc(input.rncEmisor, 'rncEmisor', issues);
  const annulledAt = checkDateTime(input.annulledAt, 'annulledAt', issues);
  if (input.ranges.length === 0) {
    issues.push({
      code: XML_ISSUE_CODES.ANNULMENT_RANGES_REQUIRED,
      path: 'ranges',
      message: 'Give at least one range to annul.',
    });
  }
  const checked = input.ranges.flatMap((range, index) => checkRange(range, index, issues) ?? []);
  reportOverlaps(checked, issues);

  const groups = new Map<TEcfType, TCheckedRange[]>();
  for (const range of checked) groups.set(range.type, [...(groups.get(range.type) ?? []), range]);
  const types = new Set(input.ranges.map((range) => range.type));
  if (types.size > MAX_TYPES) {
    issues.push({
      code: XML_ISSUE_CODES.ANNULMENT_TOO_MANY_TYPES,
      path: 'ranges',
      message: `One ANECF annuls ranges of at most ${MAX_TYPES} e-CF types; ${types.size} given.`,
      details: { max: MAX_TYPES, given: types.size },
    });
  }
  for (const [type, ranges] of groups) {
    if (ranges.length > MAX_RANGES_PER_TYPE) {
      issues.push({
        code: XML_ISSUE_CODES.ANNULMENT_TOO_MANY_RANGES,
        path: 'ranges',
        message: `One ANECF holds at most ${MAX_RANGES_PER_TYPE} ranges per e-CF type; ${ranges.length} given for type ${type}.`,
        details: { max: MAX_RANGES_PER_TYPE, given: ranges.length, type },
      });
    }
  }
  if (issues.length > 0) return { success: false, issues };

  // Counts are exact integers far below 2^53 (at most 10 types × 10,000 ranges × 10^10 eNCFs).
  let total = 0;
  const details: TEcfTree[] = [...groups].map(([type, ranges], index) => {
    const count = ranges.reduce((sum, range) => sum + (range.to.sequence - range.from.sequence + 1), 0);
    total += count;
    return {
      NoLinea: String(index + 1),
      TipoeCF: type,
      TablaRangoSecuenciasAnuladaseNCF: {
        Secuencias: ranges.map((range) => ({
          SecuenciaeNCFDesde: range.fromText,
          SecuenciaeNCFHasta: range.toText,
        })),
      },
      CantidadeNCFAnulados: String(count),
    };
  });
  return writeOrderedXml(XSD_ORDER_TABLES.ANECF, {
    Encabezado: {
      Version: '1.0',
      RncEmisor: rncEmisor,
      CantidadeNCFAnulados: String(total),
      FechaHoraAnulacioneNCF: annulledAt,
    },
    DetalleAnulacion: { Anulacion: details },
  });
}
