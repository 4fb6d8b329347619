import {
  add,
  decimal,
  divide,
  isZero,
  multiply,
  round,
  subtract,
  sum,
  ZERO,
  type TDecimal,
} from '../decimal/decimal.ts';
import {
  apportion,
  hasNorma1007Discount,
  isTaxed,
  ITBIS_RATE,
  sumNetOfTaxes,
  type TBillingIndicator,
  type TTaxedIndicator,
  type TTotalsAdjustment,
} from './totals.ts';

/**
 * The tax authority's formulas for additional taxes (official format e-CF v1.0, Totales fields 104-109
 * and Tabla I, pp. 21-24 and 59-60; Informe Técnico §14-15), shared by squaring and its tests.
 *
 * Tabla I splits the codes into three kinds, each with its own amount field in
 * `Totales.ImpuestosAdicionales.ImpuestoAdicional`:
 * - 001-005 other additional taxes (tip, CDT, ISC on insurance and telecommunications, first plate):
 *   a percentage of the item amounts, `OtrosImpuestosAdicionales`;
 * - 006-022 specific ISC (alcohol 006-018 per litre of absolute alcohol, cigarettes 019-022 per
 *   pack): `MontoImpuestoSelectivoConsumoEspecifico`;
 * - 023-039 ad valorem ISC (alcohol 023-035, cigarettes 036-039): a percentage of the retail price
 *   net of ITBIS and of the specific ISC, `MontoImpuestoSelectivoConsumoAdvalorem`.
 */
export type TAdditionalTaxKind = 'other' | 'isc_specific' | 'isc_ad_valorem';

/** The amount element of a code's group in `Totales.ImpuestosAdicionales.ImpuestoAdicional`. */
export type TAdditionalTaxField =
  | 'OtrosImpuestosAdicionales'
  | 'MontoImpuestoSelectivoConsumoEspecifico'
  | 'MontoImpuestoSelectivoConsumoAdvalorem';

/** The field each kind of code is computed into. */
export const ADDITIONAL_TAX_FIELD: Readonly<Record<TAdditionalTaxKind, TAdditionalTaxField>> = {
  other: 'OtrosImpuestosAdicionales',
  isc_specific: 'MontoImpuestoSelectivoConsumoEspecifico',
  isc_ad_valorem: 'MontoImpuestoSelectivoConsumoAdvalorem',
};

/** `UnidadMedida` 18 (Granel, Tabla IV): bulk sales have their own ISC rules. */
export const BULK_UNIT_OF_MEASURE = '18';

/** `CodigoSubcantidad` 24 (Litro, Tabla IV): the unit the alcohol formula wants the sub-quantity in. */
export const LITRE_UNIT_OF_MEASURE = '24';

/** What an ISC code (006-039) taxes: alcohol (006-018, 023-035) or cigarettes (019-022, 036-039). */
export type TIscProduct = 'alcohol' | 'cigarettes';

const ONE = decimal('1');
const HUNDRED = decimal('100');
/** Bulk alcohol: the unit price raised by 30% stands for the list price (field 108 b). */
const BULK_LIST_PRICE_FACTOR = decimal('1.30');
/** Precision of intermediate quotients; only the amounts the document carries are rounded (to 2). */
const WORKING_SCALE = 10;

/** The kind of a Tabla I code (`"006"`), or null for anything else. */
export function additionalTaxKindOf(code: string): TAdditionalTaxKind | null {
  if (!/^\d{3}$/.test(code)) return null;
  const value = Number(code);
  if (value >= 1 && value <= 5) return 'other';
  if (value >= 6 && value <= 22) return 'isc_specific';
  if (value >= 23 && value <= 39) return 'isc_ad_valorem';
  return null;
}

/** The product of an ISC code (`"023"` → alcohol), or null outside 006-039. */
export function iscProductOf(code: string): TIscProduct | null {
  const value = Number(code);
  if ((value >= 6 && value <= 18) || (value >= 23 && value <= 35)) return 'alcohol';
  if ((value >= 19 && value <= 22) || (value >= 36 && value <= 39)) return 'cigarettes';
  return null;
}

/** One detail line as the additional-tax formulas see it (absent fields are null). */
export type TAdditionalTaxLine = {
  /** `MontoItem`. */
  readonly amount: TDecimal;
  readonly indicator: TBillingIndicator;
  /** `TablaImpuestoAdicional.ImpuestoAdicional.TipoImpuesto` of the item. */
  readonly codes: readonly string[];
  /** `CantidadItem`. */
  readonly quantity: TDecimal | null;
  /** `PrecioUnitarioItem`. */
  readonly unitPrice: TDecimal | null;
  /** `CantidadReferencia`: units of the presentation in one item unit (bottles in a case, packs in a carton). */
  readonly referenceQuantity: TDecimal | null;
  /** `Subcantidad` in litres: the volume of one reference unit (alcohol). */
  readonly subquantity: TDecimal | null;
  /** `GradosAlcohol`, in percent (`4.30` is 4.30 %). */
  readonly alcoholDegrees: TDecimal | null;
  /** `PrecioUnitarioReferencia`: the retail price (PVP, ITBIS included) of one reference unit. */
  readonly referenceUnitPrice: TDecimal | null;
  /** `UnidadMedida` 18. */
  readonly isBulk: boolean;
};

/** One group of `Totales.ImpuestosAdicionales.ImpuestoAdicional` as declared. */
export type TAdditionalTaxGroup = {
  /** `TipoImpuesto`. */
  readonly code: string;
  /** `TasaImpuestoAdicional`: a percentage, or RD$ per unit for specific ISC (006-022). */
  readonly rate: TDecimal | null;
  readonly specificAmount: TDecimal | null;
  readonly adValoremAmount: TDecimal | null;
  readonly otherAmount: TDecimal | null;
};

/** Everything the additional taxes are computed from. */
export type TAdditionalTaxInput = {
  readonly lines: readonly TAdditionalTaxLine[];
  readonly groups: readonly TAdditionalTaxGroup[];
  readonly adjustments: readonly TTotalsAdjustment[];
  /** `IndicadorMontoGravado` 1. */
  readonly pricesIncludeTax: boolean;
};

/** What the formula gives for one declared group. */
export type TAdditionalTaxExpectation = {
  readonly code: string;
  /** Null for a code outside Tabla I (then `field` and `expected` are null too). */
  readonly kind: TAdditionalTaxKind | null;
  readonly field: TAdditionalTaxField | null;
  /**
   * The amount of `field` by the tax authority's formula, 2 decimals; null when the document alone
   * does not determine it (a value the formula needs is absent), and then the declared amount stands.
   */
  readonly expected: TDecimal | null;
};

function percent(rate: TDecimal): TDecimal {
  return divide(rate, HUNDRED, WORKING_SCALE);
}

function rateOf(groups: readonly TAdditionalTaxGroup[], code: string): TDecimal | null {
  return groups.find((group) => group.code === code)?.rate ?? null;
}

/**
 * The rates of additional taxes 002 (CDT) and 004 (ISC on telecommunications) a line carries, as a
 * fraction: with a Norma 10-07 discount, the price of such a line holds them besides ITBIS, so its
 * base is its amount divided by (1 + 18% + these) (fields 93 d and 109 d).
 */
export function norma1007RateOf(codes: readonly string[], groups: readonly TAdditionalTaxGroup[]): TDecimal {
  let total = ZERO;
  for (const code of new Set(codes)) {
    if (code !== '002' && code !== '004') continue;
    const rate = rateOf(groups, code);
    if (rate !== null) total = add(total, percent(rate));
  }
  return total;
}

/**
 * Recomputes the amount of every declared additional-tax group: one expectation per group, in the
 * groups' order.
 *
 * - Other additional taxes (001-005, field 109): (Σ `MontoItem` of the items carrying the code,
 *   divided by 1.18 with `IndicadorMontoGravado` 1, or for 002 and 004 under a Norma 10-07 discount by
 *   (1 + 18% + the item's rates of 002 and 004) − the share of global discounts + the share of global
 *   surcharges) × rate. A global adjustment's share is its amount × the code's items over all items
 *   of the adjustment's billing indicator; discounts count for 001-004 and surcharges for 001, 002 and
 *   004, as the format lists them; a Norma 10-07 discount does not count.
 * - Specific ISC (field 107): alcohol (006-018) `CantidadItem` × `CantidadReferencia` × `Subcantidad`
 *   (litres) × `GradosAlcohol` / 100 × rate; cigarettes (019-022) `CantidadItem` ×
 *   `CantidadReferencia` × rate; bulk items (`UnidadMedida` 18) carry none (note 23). Rounded per item.
 * - Ad valorem ISC (field 108): `CantidadItem` × `CantidadReferencia` × rate × (PVP / 1.18 − the
 *   specific ISC of one reference unit) / (1 + rate), PVP being `PrecioUnitarioReferencia`; bulk
 *   alcohol is `PrecioUnitarioItem` × 1.30 × `CantidadItem` × rate. The specific ISC of one unit is
 *   the item's specific amount / (`CantidadItem` × `CantidadReferencia`) for alcohol (note 26) and the
 *   specific rate for cigarettes (108 d), taken from the item's own specific code (006-022) when it
 *   carries one; otherwise from the specific amount the ad valorem group itself declares (the
 *   quarterly specific rate is not checked), shared among its items by their litres of absolute
 *   alcohol or their packs. Rounded per item.
 */
export function computeAdditionalTaxes(input: TAdditionalTaxInput): TAdditionalTaxExpectation[] {
  return input.groups.map((group) => {
    const kind = additionalTaxKindOf(group.code);
    if (kind === null) return { code: group.code, kind, field: null, expected: null };
    const carriers = input.lines.filter((line) => line.codes.includes(group.code));
    const expected =
      kind === 'other'
        ? otherTax(group, carriers, input)
        : kind === 'isc_specific'
          ? specificTax(group, carriers)
          : adValoremTax(group, carriers, input.groups);
    return { code: group.code, kind, field: ADDITIONAL_TAX_FIELD[kind], expected };
  });
}

function otherTax(
  group: TAdditionalTaxGroup,
  carriers: readonly TAdditionalTaxLine[],
  input: TAdditionalTaxInput,
): TDecimal | null {
  if (group.rate === null) return null;
  const norma1007 = input.pricesIncludeTax && hasNorma1007Discount(input.adjustments);
  const itbisDivisor = add(ONE, ITBIS_RATE[1]);
  let base = sumNetOfTaxes(carriers, (line) => {
    if (!input.pricesIncludeTax) return ONE;
    if (norma1007 && line.indicator === 1 && (group.code === '002' || group.code === '004'))
      return add(itbisDivisor, norma1007RateOf(line.codes, input.groups));
    return itbisDivisor;
  });

  const code = Number(group.code);
  for (const adjustment of input.adjustments) {
    if (adjustment.indicator === null) continue; // touches no base (docs/validation.md)
    if (adjustment.kind === 'discount' && (adjustment.norma1007 || code > 4)) continue;
    if (adjustment.kind === 'surcharge' && code !== 1 && code !== 2 && code !== 4) continue;
    const pool = input.lines.filter((line) => line.indicator === adjustment.indicator);
    const poolTotal = sum(pool.map((line) => line.amount));
    if (isZero(poolTotal)) continue;
    const codeTotal = sum(pool.filter((line) => line.codes.includes(group.code)).map((line) => line.amount));
    const share = divide(multiply(adjustment.amount, codeTotal), poolTotal, WORKING_SCALE);
    base = adjustment.kind === 'discount' ? subtract(base, share) : add(base, share);
  }
  return round(multiply(base, percent(group.rate)), 2);
}

/** The specific ISC of one line at `rate` (RD$ per litre of absolute alcohol or per pack), or null when a value is missing. */
function lineSpecificTax(line: TAdditionalTaxLine, code: string, rate: TDecimal): TDecimal | null {
  if (line.isBulk) return ZERO;
  if (line.quantity === null || line.referenceQuantity === null) return null;
  const units = multiply(line.quantity, line.referenceQuantity);
  if (iscProductOf(code) === 'cigarettes') return round(multiply(units, rate), 2);
  if (line.subquantity === null || line.alcoholDegrees === null) return null;
  const litresOfAlcohol = multiply(multiply(units, line.subquantity), percent(line.alcoholDegrees));
  return round(multiply(litresOfAlcohol, rate), 2);
}

function specificTax(group: TAdditionalTaxGroup, carriers: readonly TAdditionalTaxLine[]): TDecimal | null {
  if (group.rate === null) return null;
  const rate = group.rate;
  const amounts = carriers.map((line) => lineSpecificTax(line, group.code, rate));
  return amounts.some((amount) => amount === null) ? null : sum(amounts as TDecimal[]);
}

/** The specific code of the same product an ad valorem line also carries, with its declared rate. */
function ownSpecificOf(
  line: TAdditionalTaxLine,
  product: TIscProduct,
  groups: readonly TAdditionalTaxGroup[],
): { code: string; rate: TDecimal } | null {
  for (const code of line.codes) {
    if (additionalTaxKindOf(code) !== 'isc_specific' || iscProductOf(code) !== product) continue;
    const rate = rateOf(groups, code);
    if (rate !== null) return { code, rate };
  }
  return null;
}

/**
 * What one line's specific ISC weighs when the ad valorem group's declared specific amount is shared
 * among its lines: litres of absolute alcohol, or packs of cigarettes.
 */
function specificWeightOf(line: TAdditionalTaxLine, product: TIscProduct): TDecimal | null {
  if (line.isBulk) return ZERO;
  if (line.quantity === null || line.referenceQuantity === null) return null;
  const units = multiply(line.quantity, line.referenceQuantity);
  if (product === 'cigarettes') return units;
  if (line.subquantity === null || line.alcoholDegrees === null) return null;
  return multiply(multiply(units, line.subquantity), percent(line.alcoholDegrees));
}

function adValoremTax(
  group: TAdditionalTaxGroup,
  carriers: readonly TAdditionalTaxLine[],
  groups: readonly TAdditionalTaxGroup[],
): TDecimal | null {
  const product = iscProductOf(group.code);
  if (group.rate === null || product === null) return null;
  const rate = percent(group.rate);

  // Lines without a specific code of their own share the specific amount this group declares.
  const sharing = carriers.filter(
    (line) => ownSpecificOf(line, product, groups) === null && !(product === 'alcohol' && line.isBulk),
  );
  const weights = sharing.map((line) => specificWeightOf(line, product));
  const totalWeight = weights.some((weight) => weight === null) ? null : sum(weights as TDecimal[]);
  const sharedRate =
    group.specificAmount === null || totalWeight === null || isZero(totalWeight)
      ? null
      : divide(group.specificAmount, totalWeight, WORKING_SCALE);

  const amounts = carriers.map((line): TDecimal | null => {
    if (product === 'alcohol' && line.isBulk) {
      if (line.unitPrice === null || line.quantity === null) return null;
      return round(
        multiply(multiply(multiply(line.unitPrice, BULK_LIST_PRICE_FACTOR), line.quantity), rate),
        2,
      );
    }
    if (line.quantity === null || line.referenceQuantity === null || line.referenceUnitPrice === null)
      return null;
    const units = multiply(line.quantity, line.referenceQuantity);
    if (isZero(units)) return ZERO;
    const unitSpecific = specificPerUnit(line, product, groups, sharedRate, units);
    if (unitSpecific === null) return null;
    const netRetailPrice = divide(line.referenceUnitPrice, add(ONE, ITBIS_RATE[1]), WORKING_SCALE);
    const unitBase = divide(subtract(netRetailPrice, unitSpecific), add(ONE, rate), WORKING_SCALE);
    return round(multiply(multiply(units, unitBase), rate), 2);
  });
  return amounts.some((amount) => amount === null) ? null : sum(amounts as TDecimal[]);
}

/** The specific ISC of one reference unit of an ad valorem line (notes 25-26, field 108 d). */
function specificPerUnit(
  line: TAdditionalTaxLine,
  product: TIscProduct,
  groups: readonly TAdditionalTaxGroup[],
  sharedRate: TDecimal | null,
  units: TDecimal,
): TDecimal | null {
  const own = ownSpecificOf(line, product, groups);
  if (product === 'cigarettes') return own?.rate ?? sharedRate;
  if (own !== null) {
    const specific = lineSpecificTax(line, own.code, own.rate);
    return specific === null ? null : divide(specific, units, WORKING_SCALE);
  }
  const litres = specificWeightOf(line, product);
  if (sharedRate === null || litres === null) return null;
  return divide(multiply(sharedRate, litres), units, WORKING_SCALE);
}

/**
 * The ISC (006-039) each ITBIS rate's base takes: "si existen impuestos selectivos al consumo que
 * formen parte de la base imponible del ITBIS, estos se sumarán al monto gravado antes de
 * multiplicarlo por la tasa" (field 101; only codes 006-039 do). Each group's declared specific and
 * ad valorem amounts go to the billing indicators of the items carrying its code, in proportion to
 * their `MontoItem` when the items are of several indicators.
 */
export function selectiveTaxByRate(
  lines: readonly TAdditionalTaxLine[],
  groups: readonly TAdditionalTaxGroup[],
): Record<TTaxedIndicator, TDecimal> {
  const byRate: Record<TTaxedIndicator, TDecimal> = { 1: ZERO, 2: ZERO, 3: ZERO };
  for (const group of groups) {
    const kind = additionalTaxKindOf(group.code);
    if (kind !== 'isc_specific' && kind !== 'isc_ad_valorem') continue;
    const declared = add(group.specificAmount ?? ZERO, group.adValoremAmount ?? ZERO);
    const carriers = lines.filter((line) => line.codes.includes(group.code));
    if (isZero(declared) || carriers.length === 0) continue;
    const amounts = carriers.map((line) => line.amount);
    const weights = isZero(sum(amounts)) ? carriers.map(() => ONE) : amounts;
    apportion(declared, weights).forEach((part, index) => {
      const indicator = (carriers[index] as TAdditionalTaxLine).indicator;
      if (isTaxed(indicator)) byRate[indicator] = add(byRate[indicator], part);
    });
  }
  return byRate;
}
