import {
  add,
  divide,
  formatDecimal,
  parseDecimal,
  subtract,
  sum,
  ZERO,
  type TDecimal,
} from '../decimal/decimal.ts';
import {
  BULK_UNIT_OF_MEASURE,
  computeAdditionalTaxes,
  LITRE_UNIT_OF_MEASURE,
  norma1007RateOf,
  selectiveTaxByRate,
  type TAdditionalTaxGroup,
  type TAdditionalTaxLine,
} from '../calculation/additional-taxes.ts';
import {
  computeLineAmount,
  computeTotals,
  exceedsTolerance,
  type TBillingIndicator,
  type TTotalsAdjustment,
  type TTotalsLine,
} from '../calculation/totals.ts';
import { elementsAt, type TMutableTree } from '../input/draft.ts';
import type { TRuleKit } from './document-rules.ts';
import { WARNING_CODES } from './issues.ts';

/** RD$1 per line (rule 3; FACTS §5 tolerance). */
export const LINE_TOLERANCE_CENTS = 100;

const ID = 'ECF.Encabezado.IdDoc';
const TOTALS = 'ECF.Encabezado.Totales';
const ITEMS = 'ECF.DetallesItems.Item';

function amountOf(value: unknown): TDecimal | null {
  return typeof value === 'string' ? parseDecimal(value) : null;
}

function compareDeclared(
  kit: TRuleKit,
  treePath: string,
  declared: TDecimal | null,
  expected: TDecimal,
  toleranceCents: number,
): void {
  if (declared === null || kit.hasErrorAt(treePath)) return;
  if (!exceedsTolerance(declared, expected, toleranceCents)) return;
  kit.warn(
    treePath,
    WARNING_CODES.SQUARING_ABOVE_TAXAUTH_TOLERANCE,
    `Declared ${formatDecimal(declared, 2)} but the tax authority's formula gives ${formatDecimal(expected, 2)} (tolerance RD$${formatDecimal({ units: BigInt(toleranceCents), scale: 2 }, 2)})`,
    {
      declared: formatDecimal(declared, 2),
      expected: formatDecimal(expected, 2),
      toleranceCents,
    },
  );
}

/**
 * Rule 3: recomputes the tax-authority JSON's amounts and warns (never blocks) where the declared
 * value differs beyond the tax authority's tolerance: RD$1 per line for line amounts, RD$1 per
 * detail line for totals. Totals are recomputed from the declared `MontoItem` so that one wrong line
 * is reported once, on that line.
 */
export function checkSquaring(kit: TRuleKit): void {
  const root = kit.draft.root;
  const items = elementsAt(root, ITEMS);
  if (items.length === 0) return;
  const pricesIncludeTax = kit.text(`${ID}.IndicadorMontoGravado`) === '1';
  const withoutItbis = kit.draft.type === '34' && kit.text(`${ID}.IndicadorNotaCredito`) === '1';

  const groups = additionalTaxGroupsOf(kit);
  const lines: TTotalsLine[] = [];
  const taxLines: TAdditionalTaxLine[] = [];
  items.forEach((item, index) => {
    const base = `${ITEMS}[${index}]`;
    const quantity = amountOf(item['CantidadItem']);
    const price = amountOf(item['PrecioUnitarioItem']);
    const discount = amountOf(item['DescuentoMonto']) ?? ZERO;
    const surcharge = amountOf(item['RecargoMonto']) ?? ZERO;
    const declared = amountOf(item['MontoItem']);
    if (quantity !== null && price !== null)
      compareDeclared(
        kit,
        `${base}.MontoItem`,
        declared,
        computeLineAmount(quantity, price, discount, surcharge),
        LINE_TOLERANCE_CENTS,
      );
    checkSubAdjustments(
      kit,
      item,
      base,
      'DescuentoMonto',
      'TablaSubDescuento.SubDescuento',
      'MontoSubDescuento',
    );
    checkSubAdjustments(kit, item, base, 'RecargoMonto', 'TablaSubRecargo.SubRecargo', 'MontoSubRecargo');
    const indicator = Number(item['IndicadorFacturacion']);
    if (declared === null || ![0, 1, 2, 3, 4].includes(indicator)) return;
    const retention = item['Retencion'];
    const retentionTree =
      retention !== undefined && typeof retention === 'object' && !Array.isArray(retention)
        ? retention
        : undefined;
    const taxLine = additionalTaxLineOf(item, declared, indicator as TBillingIndicator);
    taxLines.push(taxLine);
    lines.push({
      amount: declared,
      indicator: indicator as TBillingIndicator,
      itbisWithheld: amountOf(retentionTree?.['MontoITBISRetenido']) ?? undefined,
      isrWithheld: amountOf(retentionTree?.['MontoISRRetenido']) ?? undefined,
      norma1007Rate: norma1007RateOf(taxLine.codes, groups),
    });
  });
  if (lines.length !== items.length) return; // a line without a readable amount is already an error

  const adjustments: TTotalsAdjustment[] = [];
  for (const entry of elementsAt(root, 'ECF.DescuentosORecargos.DescuentoORecargo')) {
    const amount = amountOf(entry['MontoDescuentooRecargo']);
    if (amount === null) continue;
    const indicatorText = entry['IndicadorFacturacionDescuentooRecargo'];
    const indicator =
      typeof indicatorText === 'string' && /^[0-4]$/.test(indicatorText)
        ? (Number(indicatorText) as TBillingIndicator)
        : null;
    adjustments.push({
      kind: entry['TipoAjuste'] === 'R' ? 'surcharge' : 'discount',
      amount,
      indicator,
      norma1007: entry['IndicadorNorma1007'] === '1',
    });
  }
  const additionalTaxAmount = kit.amount(`${TOTALS}.MontoImpuestoAdicional`) ?? undefined;
  const expected = computeTotals({
    lines,
    adjustments,
    pricesIncludeTax,
    withoutItbis,
    additionalTaxAmount,
    selectiveTaxByRate: selectiveTaxByRate(taxLines, groups),
  });
  const tolerance = LINE_TOLERANCE_CENTS * items.length;
  const compareTotal = (element: string, value: TDecimal): void =>
    compareDeclared(kit, `${TOTALS}.${element}`, kit.amount(`${TOTALS}.${element}`), value, tolerance);

  compareTotal('MontoGravadoTotal', expected.taxableTotal);
  compareTotal('MontoGravadoI1', expected.taxableByRate[1]);
  compareTotal('MontoGravadoI2', expected.taxableByRate[2]);
  compareTotal('MontoGravadoI3', expected.taxableByRate[3]);
  compareTotal('MontoExento', expected.exempt);
  if (!withoutItbis) {
    compareTotal('TotalITBIS', expected.totalItbis);
    compareTotal('TotalITBIS1', expected.itbisByRate[1]);
    compareTotal('TotalITBIS2', expected.itbisByRate[2]);
    compareTotal('TotalITBIS3', expected.itbisByRate[3]);
  }
  compareTotal('MontoTotal', expected.total);
  compareTotal('MontoNoFacturable', expected.nonBillable);
  compareTotal('MontoPeriodo', expected.period);
  const advance = kit.amount(`${TOTALS}.MontoAvancePago`) ?? ZERO;
  const previousBalance = kit.amount(`${TOTALS}.SaldoAnterior`) ?? ZERO;
  compareTotal('ValorPagar', add(subtract(expected.payable, advance), previousBalance));
  if (expected.hasItbisWithheld) compareTotal('TotalITBISRetenido', expected.itbisWithheld);
  if (expected.hasIsrWithheld) compareTotal('TotalISRRetencion', expected.isrWithheld);
  checkAdditionalTaxes(kit, { lines: taxLines, groups, adjustments, pricesIncludeTax }, tolerance);
  checkOtherCurrency(kit, tolerance);
}

function checkSubAdjustments(
  kit: TRuleKit,
  item: TMutableTree,
  base: string,
  totalElement: string,
  listPath: string,
  amountElement: string,
): void {
  const parts = elementsAt(item, listPath);
  if (parts.length === 0) return;
  const amounts = parts.map((part) => amountOf(part[amountElement]));
  if (amounts.some((amount) => amount === null)) return;
  compareDeclared(
    kit,
    `${base}.${totalElement}`,
    amountOf(item[totalElement]),
    sum(amounts as TDecimal[]),
    LINE_TOLERANCE_CENTS,
  );
}

const TAX_GROUPS = `${TOTALS}.ImpuestosAdicionales.ImpuestoAdicional`;

/** The declared groups of `Totales.ImpuestosAdicionales`, in order. */
function additionalTaxGroupsOf(kit: TRuleKit): TAdditionalTaxGroup[] {
  return elementsAt(kit.draft.root, TAX_GROUPS).map((group) => ({
    code: typeof group['TipoImpuesto'] === 'string' ? group['TipoImpuesto'] : '',
    rate: amountOf(group['TasaImpuestoAdicional']),
    specificAmount: amountOf(group['MontoImpuestoSelectivoConsumoEspecifico']),
    adValoremAmount: amountOf(group['MontoImpuestoSelectivoConsumoAdvalorem']),
    otherAmount: amountOf(group['OtrosImpuestosAdicionales']),
  }));
}

/**
 * The `Subcantidad` the alcohol formula multiplies: litres of one reference unit. With several
 * sub-quantities (up to 5, each with its unit) the one in litres (`CodigoSubcantidad` 24) is taken;
 * without exactly one candidate the specific ISC is not recomputed.
 */
function subquantityOf(item: TMutableTree): TDecimal | null {
  const entries = elementsAt(item, 'TablaSubcantidad.SubcantidadItem');
  const candidates =
    entries.length === 1
      ? entries
      : entries.filter((entry) => entry['CodigoSubcantidad'] === LITRE_UNIT_OF_MEASURE);
  return candidates.length === 1 ? amountOf(candidates[0]?.['Subcantidad']) : null;
}

function additionalTaxLineOf(
  item: TMutableTree,
  amount: TDecimal,
  indicator: TBillingIndicator,
): TAdditionalTaxLine {
  return {
    amount,
    indicator,
    codes: elementsAt(item, 'TablaImpuestoAdicional.ImpuestoAdicional')
      .map((entry) => entry['TipoImpuesto'])
      .filter((code): code is string => typeof code === 'string'),
    quantity: amountOf(item['CantidadItem']),
    unitPrice: amountOf(item['PrecioUnitarioItem']),
    referenceQuantity: amountOf(item['CantidadReferencia']),
    subquantity: subquantityOf(item),
    alcoholDegrees: amountOf(item['GradosAlcohol']),
    referenceUnitPrice: amountOf(item['PrecioUnitarioReferencia']),
    isBulk: item['UnidadMedida'] === BULK_UNIT_OF_MEASURE,
  };
}

/**
 * Rule 7: each group's amount against the tax authority's formula (`computeAdditionalTaxes`: other
 * additional taxes 001-005, specific ISC 006-022, ad valorem ISC 023-039), and
 * `MontoImpuestoAdicional` against the sum of the groups' declared amounts (field 104 b), so that one
 * wrong group warns once, on that group. A group the document does not determine (a value its formula
 * needs is absent) keeps its declared amount; so does the other field of a group (the specific amount
 * an ad valorem group carries depends on the quarterly specific rate, which is not checked).
 */
function checkAdditionalTaxes(
  kit: TRuleKit,
  input: Parameters<typeof computeAdditionalTaxes>[0],
  tolerance: number,
): void {
  computeAdditionalTaxes(input).forEach(({ field, expected }, index) => {
    if (field === null || expected === null) return;
    const path = `${TAX_GROUPS}[${index}].${field}`;
    compareDeclared(kit, path, kit.amount(path), expected, tolerance);
  });
  const declaredGroups = sum(
    input.groups.flatMap((group) =>
      [group.specificAmount, group.adValoremAmount, group.otherAmount].filter(
        (amount): amount is TDecimal => amount !== null,
      ),
    ),
  );
  compareDeclared(
    kit,
    `${TOTALS}.MontoImpuestoAdicional`,
    kit.amount(`${TOTALS}.MontoImpuestoAdicional`),
    declaredGroups,
    tolerance,
  );
}

const OTHER_CURRENCY_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['MontoGravadoTotalOtraMoneda', 'MontoGravadoTotal'],
  ['MontoGravado1OtraMoneda', 'MontoGravadoI1'],
  ['MontoGravado2OtraMoneda', 'MontoGravadoI2'],
  ['MontoGravado3OtraMoneda', 'MontoGravadoI3'],
  ['MontoExentoOtraMoneda', 'MontoExento'],
  ['TotalITBISOtraMoneda', 'TotalITBIS'],
  ['TotalITBIS1OtraMoneda', 'TotalITBIS1'],
  ['TotalITBIS2OtraMoneda', 'TotalITBIS2'],
  ['TotalITBIS3OtraMoneda', 'TotalITBIS3'],
  ['MontoTotalOtraMoneda', 'MontoTotal'],
];

/** Rule 5: other-currency totals should be the peso totals divided by `TipoCambio`. */
function checkOtherCurrency(kit: TRuleKit, tolerance: number): void {
  const rate = kit.amount('ECF.Encabezado.OtraMoneda.TipoCambio');
  if (rate === null || rate.units <= 0n) return;
  for (const [foreignElement, pesoElement] of OTHER_CURRENCY_PAIRS) {
    const peso = kit.amount(`${TOTALS}.${pesoElement}`);
    const path = `ECF.Encabezado.OtraMoneda.${foreignElement}`;
    if (peso === null) continue;
    compareDeclared(kit, path, kit.amount(path), divide(peso, rate, 2), tolerance);
  }
}
