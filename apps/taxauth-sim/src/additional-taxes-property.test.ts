/**
 * Property: a document built the way the tax authority's certification workbooks build it, with any
 * combination of additional taxes the official tables allow, is accepted by fiscal-core's validator
 * (no error, no warning) and by this simulator's literal judge (structure, signature, squaring with
 * no condition, and every field of the signed XML equal to the workbook row's text).
 *
 * The space (format e-CF v1.0, Tabla I; items carry at most two codes, `Totales` at most four groups
 * as the workbook's columns have it): every code 001-039 alone; two of 001-005 (002 + 004 is the
 * telecommunications pair); a specific and an ad valorem code of the same product (006-018 with
 * 023-035, 019-022 with 036-039: the workbooks' beer line is 006 + 023, the specific amount on the
 * 006 group only); one of 001-005 with one ISC code; bulk alcohol. Each line kind is checked in a
 * one-line document, then seeded random invoices mix up to four kinds on several lines. The amounts
 * are computed here with the format's formulas (fields 107-109, 101), independently of fiscal-core.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { workbookRowToEcf, type TWorkbookRow } from '@ecf/certification-sets';
import { loadXsdValidators, OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { signEcfDocument, validateSubmission, XSD_ORDER_TABLES, type TXsdValidators } from '@ecf/fiscal-core';
import { compareLeaves, leavesOfTree, leavesOfXml } from './certification/literal-comparison.ts';
import { judgeDocument } from './judge.ts';
import { issuerFor } from '../test/simulator-harness.ts';

const RNC = '132641566';
const issuer = issuerFor(RNC);
/** Before the sequence expires (31-12-2026) and after the issue date: no date warning. */
const NOW = new Date('2025-06-02T15:00:00Z');

let validators: TXsdValidators;
before(async () => {
  validators = await loadXsdValidators(OFFICIAL_XSD_DIRECTORY);
});
after(() => validators.dispose());

type TCode = string;
type TKind = 'other' | 'specific' | 'ad_valorem';
type TProduct = 'alcohol' | 'cigarettes' | null;

const pad = (value: number): TCode => String(value).padStart(3, '0');
const range = (from: number, to: number): TCode[] =>
  Array.from({ length: to - from + 1 }, (_, offset) => pad(from + offset));

function kindOf(code: TCode): TKind {
  const value = Number(code);
  return value <= 5 ? 'other' : value <= 22 ? 'specific' : 'ad_valorem';
}
function productOf(code: TCode): TProduct {
  const value = Number(code);
  if ((value >= 6 && value <= 18) || (value >= 23 && value <= 35)) return 'alcohol';
  if (value >= 19 && value <= 39) return 'cigarettes';
  return null;
}

/** Tabla I rates as the workbook writes `TasaImpuestoAdicional` (specific rates in RD$ per unit). */
function rateText(code: TCode): string {
  const value = Number(code);
  const other: Record<number, string> = { 1: '10', 2: '2', 3: '16', 4: '10', 5: '17' };
  if (value <= 5) return other[value] as string;
  if (value <= 18) return '632.58';
  if (value <= 20) return '53.51';
  if (value <= 22) return '26.75';
  if (value <= 35) return '10';
  return '20';
}
/** The specific rate per pack an ad valorem cigarette code implies (20-unit packs 036-037, 10-unit 038-039). */
function cigaretteSpecificRate(code: TCode): number {
  const value = Number(code);
  return value === 19 || value === 20 || value === 36 || value === 37 ? 53.51 : 26.75;
}

/** The codes one item carries. */
type TLineKind = { readonly codes: readonly TCode[]; readonly bulk: boolean };

/** Every line kind the official tables allow (see the file comment). */
function allLineKinds(): TLineKind[] {
  const kinds: TLineKind[] = [];
  const others = range(1, 5);
  const isc = range(6, 39);
  for (const code of [...others, ...isc]) kinds.push({ codes: [code], bulk: false });
  others.forEach((first, index) => {
    for (const second of others.slice(index + 1)) kinds.push({ codes: [first, second], bulk: false });
  });
  for (const specific of range(6, 22))
    for (const adValorem of range(23, 39))
      if (productOf(specific) === productOf(adValorem))
        kinds.push({ codes: [specific, adValorem], bulk: false });
  for (const other of others) for (const code of isc) kinds.push({ codes: [other, code], bulk: false });
  // Bulk alcohol: no specific ISC, the ad valorem on the unit price + 30 % (fields 107 b, 108 b).
  for (const adValorem of range(23, 35)) kinds.push({ codes: [adValorem], bulk: true });
  kinds.push({ codes: ['006', '023'], bulk: true });
  return kinds;
}

/** A small seeded generator (mulberry32): the random invoices are the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const cents = (value: number): number => Math.round(value * 100);
const money = (valueCents: number): string => (valueCents / 100).toFixed(2);

/** One detail line with its physical fields and the ISC it carries (in cents). */
type TLine = {
  readonly kind: TLineKind;
  readonly cells: Record<string, string>;
  readonly amountCents: number;
  readonly specificCents: number;
  readonly adValoremCents: number;
};

/** The item cells of one line, as the workbook writes them, and its taxes by the format's formulas. */
function buildLine(kind: TLineKind, random: () => number): TLine {
  const quantity = 1 + Math.floor(random() * 4);
  const iscCodes = kind.codes.filter((code) => kindOf(code) !== 'other');
  const product = iscCodes.length > 0 ? productOf(iscCodes[0] as TCode) : null;
  const cells: Record<string, string> = {
    IndicadorFacturacion: '1',
    NombreItem: product === null ? 'Servicio' : product === 'alcohol' ? 'Cerveza caja' : 'Cigarrillos',
    IndicadorBienoServicio: product === null ? '2' : '1',
    CantidadItem: `${quantity}.00`,
  };
  let unitPrice: number;
  let specificCents = 0;
  let adValoremCents = 0;
  const adValorem = iscCodes.find((code) => kindOf(code) === 'ad_valorem');
  const specific = iscCodes.find((code) => kindOf(code) === 'specific');
  if (product === null) {
    cells['UnidadMedida'] = '43';
    unitPrice = 100 * (5 + Math.floor(random() * 50));
  } else if (kind.bulk) {
    // 108 b: unit price x 1.30 x quantity x rate.
    cells['UnidadMedida'] = '18';
    unitPrice = 500 + Math.floor(random() * 2000);
    adValoremCents = cents(unitPrice * 1.3 * quantity * 0.1);
  } else {
    const bottles = [6, 12, 24][Math.floor(random() * 3)] as number;
    const packs = [10, 20][Math.floor(random() * 2)] as number;
    const reference = product === 'alcohol' ? bottles : packs;
    cells['UnidadMedida'] = product === 'alcohol' ? '6' : '31';
    cells['CantidadReferencia'] = String(reference);
    cells['UnidadReferencia'] = product === 'alcohol' ? '5' : '7';
    let unitSpecific: number;
    if (product === 'alcohol') {
      const litres = [0.355, 0.65, 0.75, 1][Math.floor(random() * 4)] as number;
      const degrees = [4.3, 5, 12.5, 40][Math.floor(random() * 4)] as number;
      cells['Subcantidad[1]'] = litres.toFixed(3);
      cells['CodigoSubcantidad[1]'] = '24';
      cells['GradosAlcohol'] = degrees.toFixed(2);
      // 107 c: quantity x reference quantity x litres x degrees x rate, per item.
      specificCents = cents(quantity * reference * litres * (degrees / 100) * 632.58);
      unitSpecific = specificCents / 100 / (quantity * reference);
    } else {
      // 107 d: quantity x reference quantity x rate; 108 d subtracts the rate itself.
      const rate =
        specific !== undefined ? Number(rateText(specific)) : cigaretteSpecificRate(adValorem ?? '036');
      specificCents = cents(quantity * reference * rate);
      unitSpecific = rate;
    }
    // A retail price (PVP, ITBIS included) well above the specific ISC of one unit.
    const retail = Math.ceil(unitSpecific * 1.18 * (1.5 + random() * 2)) + 5;
    unitPrice = retail * reference;
    if (adValorem !== undefined) {
      cells['PrecioUnitarioReferencia'] = `${retail}.00`;
      const rate = Number(rateText(adValorem)) / 100;
      // 108 c-d: (PVP / 1.18 - unit specific) / (1 + rate) x quantity x reference quantity x rate.
      adValoremCents = cents(((retail / 1.18 - unitSpecific) / (1 + rate)) * quantity * reference * rate);
    }
  }
  cells['PrecioUnitarioItem'] = `${unitPrice}.00`;
  kind.codes.forEach((code, index) => {
    cells[`TipoImpuesto[${index + 1}]`] = code;
  });
  const amountCents = quantity * unitPrice * 100;
  cells['MontoItem'] = money(amountCents);
  return { kind, cells, amountCents, specificCents, adValoremCents };
}

/** A whole `ECF` row of an E31: the workbook's header cells, the lines, the groups and totals. */
function buildRow(lines: readonly TLine[], encf: string): TWorkbookRow {
  const values: Record<string, string> = {
    CasoPrueba: `${RNC}${encf}`,
    Version: '1.0',
    TipoeCF: '31',
    ENCF: encf,
    FechaVencimientoSecuencia: '31-12-2026',
    IndicadorMontoGravado: '0',
    TipoIngresos: '01',
    TipoPago: '1',
    RNCEmisor: RNC,
    RazonSocialEmisor: 'DOCUMENTOS ELECTRONICOS DE 02',
    NombreComercial: 'DOCUMENTOS ELECTRONICOS DE 02',
    DireccionEmisor: 'AVE. ISABEL AGUIAR NO. 269, ZONA INDUSTRIAL DE HERRERA',
    FechaEmision: '01-06-2025',
    RNCComprador: '131880681',
    RazonSocialComprador: 'DOCUMENTOS ELECTRONICOS DE 03',
  };
  const codes = [...new Set(lines.flatMap((line) => line.kind.codes))].sort();
  let additionalCents = 0;
  let selectiveCents = 0;
  const groupCells: Array<[string, string]> = [];
  codes.forEach((code, index) => {
    const k = index + 1;
    const carriers = lines.filter((line) => line.kind.codes.includes(code));
    groupCells.push([`TipoImpuesto[${k}]`, code], [`TasaImpuestoAdicional[${k}]`, rateText(code)]);
    const kind = kindOf(code);
    if (kind === 'other') {
      // 109 b: the items' amounts x rate.
      const base = carriers.reduce((total, line) => total + line.amountCents, 0);
      const amount = Math.round((base * Number(rateText(code))) / 100);
      groupCells.push([`OtrosImpuestosAdicionales[${k}]`, money(amount)]);
      additionalCents += amount;
      return;
    }
    const ownSpecific = (line: TLine): boolean =>
      line.kind.codes.some((other) => kindOf(other) === 'specific' && productOf(other) === productOf(code));
    // The specific amount goes on the specific group; an ad valorem group carries the specific ISC
    // of its items that have no specific code (the printed example's pattern), and only then.
    const specific = carriers
      .filter((line) => kind === 'specific' || !ownSpecific(line))
      .reduce((total, line) => total + line.specificCents, 0);
    if (specific > 0) groupCells.push([`MontoImpuestoSelectivoConsumoEspecifico[${k}]`, money(specific)]);
    let adValorem = 0;
    if (kind === 'ad_valorem') {
      adValorem = carriers.reduce((total, line) => total + line.adValoremCents, 0);
      groupCells.push([`MontoImpuestoSelectivoConsumoAdvalorem[${k}]`, money(adValorem)]);
    }
    additionalCents += specific + adValorem;
    selectiveCents += specific + adValorem;
  });
  const taxable = lines.reduce((total, line) => total + line.amountCents, 0);
  // 101: the ISC joins the base before the rate.
  const itbis = Math.round(((taxable + selectiveCents) * 18) / 100);
  const total = taxable + itbis + additionalCents;
  Object.assign(values, {
    'FormaPago[1]': '1',
    'MontoPago[1]': money(total),
    MontoGravadoTotal: money(taxable),
    MontoGravadoI1: money(taxable),
    ITBIS1: '18',
    TotalITBIS: money(itbis),
    TotalITBIS1: money(itbis),
    MontoImpuestoAdicional: money(additionalCents),
  });
  for (const [column, value] of groupCells) values[column] = value;
  values['MontoTotal'] = money(total);
  lines.forEach((line, index) => {
    const i = index + 1;
    values[`NumeroLinea[${i}]`] = String(i);
    for (const [column, value] of Object.entries(line.cells)) {
      // Item cells: `Cell[i]`, nested `Cell[i][j]`.
      const open = column.indexOf('[');
      values[open < 0 ? `${column}[${i}]` : `${column.slice(0, open)}[${i}]${column.slice(open)}`] = value;
    }
  });
  return { sheet: 'ECF', row: 2, caseId: values['CasoPrueba'] ?? null, values };
}

let sequence = 0;
/** Why the row is not accepted, or null: fiscal-core's validator, then the simulator's judge. */
async function problemsOf(row: TWorkbookRow): Promise<string | null> {
  const mapped = workbookRowToEcf(row);
  if (!mapped.ok) return `mapping: ${JSON.stringify(mapped.errors)}`;
  const validated = await validateSubmission(JSON.stringify(mapped.document), {
    now: NOW,
    account: { rnc: RNC, legalName: row.values['RazonSocialEmisor'] ?? '', deferredSendAuthorized: false },
  });
  if (!validated.success)
    return `validator errors: ${JSON.stringify(validated.errors.map(({ path, code }) => ({ path, code })))}`;
  if (validated.data.warnings.length > 0)
    return `validator warnings: ${JSON.stringify(validated.data.warnings.map(({ path, code, details }) => ({ path, code, details })))}`;
  const signed = signEcfDocument(validated.data.document, issuer.certificate, NOW);
  if (!signed.success) return `signing: ${JSON.stringify(signed.issues)}`;
  const encf = row.values['ENCF'] ?? '';
  const judgement = judgeDocument({
    xml: signed.data.xml,
    kind: 'ECF',
    fileName: `${RNC}${encf}.xml`,
    tokenRnc: RNC,
    validators,
    loadTest: false,
  });
  if (judgement.stage !== 'passed') return `judge blocked: ${JSON.stringify(judgement.messages)}`;
  if (judgement.rejections.length > 0 || judgement.conditions.length > 0)
    return `judge: ${JSON.stringify([...judgement.rejections, ...judgement.conditions])}`;
  const table = XSD_ORDER_TABLES.E31;
  const received = leavesOfXml(signed.data.xml, table);
  if (received === undefined) return 'the signed XML is not plain elements';
  const mismatches = compareLeaves(leavesOfTree(mapped.document, table), received, {
    ignored: new Set(['FechaHoraFirma']),
  });
  return mismatches.length === 0 ? null : `literal: ${JSON.stringify(mismatches)}`;
}

function nextEncf(): string {
  sequence += 1;
  return `E31${String(sequence).padStart(10, '0')}`;
}

test('every line kind the official tables allow, alone on an invoice: validator and literal judge accept it', async () => {
  const kinds = allLineKinds();
  const random = seeded(20261127);
  const failures: string[] = [];
  for (const kind of kinds) {
    const problem = await problemsOf(buildRow([buildLine(kind, random)], nextEncf()));
    if (problem !== null) failures.push(`${kind.codes.join('+')}${kind.bulk ? ' (bulk)' : ''}: ${problem}`);
  }
  assert.deepEqual(failures, [], `${failures.length} of ${kinds.length} line kinds refused`);
});

test('seeded random invoices mixing up to four additional-tax codes on several lines are accepted', async () => {
  const kinds = allLineKinds();
  const seed = 7_0026;
  const random = seeded(seed);
  const failures: string[] = [];
  for (let invoice = 0; invoice < 60; invoice += 1) {
    const lines: TLine[] = [];
    const codes = new Set<string>();
    const wanted = 2 + Math.floor(random() * 4);
    for (let attempt = 0; attempt < 20 && lines.length < wanted; attempt += 1) {
      const kind = kinds[Math.floor(random() * kinds.length)] as TLineKind;
      const union = new Set([...codes, ...kind.codes]);
      if (union.size > 4) continue;
      for (const code of kind.codes) codes.add(code);
      lines.push(buildLine(kind, random));
    }
    const problem = await problemsOf(buildRow(lines, nextEncf()));
    if (problem !== null)
      failures.push(
        `seed ${seed} invoice ${invoice} [${lines.map((line) => line.kind.codes.join('+') + (line.kind.bulk ? ' bulk' : '')).join(', ')}]: ${problem}`,
      );
  }
  assert.deepEqual(failures, []);
});
