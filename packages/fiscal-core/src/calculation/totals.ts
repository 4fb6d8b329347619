import {
  add,
  compare,
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

/**
 * The tax authority's calculation rules (official format, section A Totales and B Detalle; interface
 * rule 4), shared by the simplified contract (which we fill) and the tax-authority JSON (which we
 * recompute to square it).
 *
 * `IndicadorFacturacion`: 0 non-billable, 1 ITBIS1 18 %, 2 ITBIS2 16 %, 3 ITBIS3 0 %, 4 exempt.
 */
export type TBillingIndicator = 0 | 1 | 2 | 3 | 4;
/** Indicators that carry ITBIS (18, 16 and 0 %). */
export type TTaxedIndicator = 1 | 2 | 3;

/** The taxed indicators in `ITBIS1..3` order. */
export const TAXED_INDICATORS: readonly TTaxedIndicator[] = [1, 2, 3];

/** ITBIS rate of each taxed indicator as a fraction. */
export const ITBIS_RATE: Readonly<Record<TTaxedIndicator, TDecimal>> = {
  1: decimal('0.18'),
  2: decimal('0.16'),
  3: decimal('0'),
};

/** ITBIS rate of each taxed indicator as the integer percentage `ITBIS1..3` carry. */
export const ITBIS_PERCENT: Readonly<Record<TTaxedIndicator, string>> = { 1: '18', 2: '16', 3: '0' };

const ONE = decimal('1');

/** Whether the indicator carries ITBIS (1, 2 or 3). */
export function isTaxed(indicator: TBillingIndicator): indicator is TTaxedIndicator {
  return indicator === 1 || indicator === 2 || indicator === 3;
}

/** `MontoItem` = quantity x price - `DescuentoMonto` + `RecargoMonto`, rounded half up to 2 decimals. */
export function computeLineAmount(
  quantity: TDecimal,
  unitPrice: TDecimal,
  discount: TDecimal = ZERO,
  surcharge: TDecimal = ZERO,
): TDecimal {
  return round(add(subtract(multiply(quantity, unitPrice), discount), surcharge), 2);
}

/** The ITBIS of one line, for the withholding check (rule 8). */
export function computeLineItbis(
  amount: TDecimal,
  indicator: TBillingIndicator,
  pricesIncludeTax: boolean,
): TDecimal {
  if (!isTaxed(indicator)) return ZERO;
  const rate = ITBIS_RATE[indicator];
  if (pricesIncludeTax) return round(subtract(amount, divide(amount, add(ONE, rate), 2)), 2);
  return round(multiply(amount, rate), 2);
}

/** One detail line as the totals see it. */
export type TTotalsLine = {
  /** `MontoItem` (declared or computed). */
  readonly amount: TDecimal;
  readonly indicator: TBillingIndicator;
  readonly itbisWithheld?: TDecimal | undefined;
  readonly isrWithheld?: TDecimal | undefined;
  /**
   * The rates of additional taxes 002 and 004 the item carries, as a fraction (`0.12`): under a
   * Norma 10-07 discount with prices including ITBIS, base I1 takes this item divided by
   * (1 + 18% + these) instead of 1.18 (official format, field 93 d).
   */
  readonly norma1007Rate?: TDecimal | undefined;
};

/** A global discount or surcharge (`DescuentosORecargos.DescuentoORecargo`). */
export type TTotalsAdjustment = {
  readonly kind: 'discount' | 'surcharge';
  readonly amount: TDecimal;
  /** `IndicadorFacturacionDescuentooRecargo`; null when not declared (then it touches no base). */
  readonly indicator: TBillingIndicator | null;
  /** `IndicadorNorma1007` 1: the discount is not subtracted from base I1 but from `ValorPagar`. */
  readonly norma1007: boolean;
};

/** Everything `Totales` is computed from. */
export type TTotalsInput = {
  readonly lines: readonly TTotalsLine[];
  readonly adjustments: readonly TTotalsAdjustment[];
  /** `IndicadorMontoGravado` 1. */
  readonly pricesIncludeTax: boolean;
  /** Credit note of more than 30 days (`IndicadorNotaCredito` 1): no ITBIS returned, `MontoTotal` without ITBIS (rule 9). */
  readonly withoutItbis: boolean;
  /** `MontoImpuestoAdicional` as declared (additional taxes are not recomputed into the total here). */
  readonly additionalTaxAmount?: TDecimal | undefined;
  /**
   * ISC (codes 006-039) of the items of each ITBIS rate: part of that rate's ITBIS base, not of
   * `MontoGravadoIn` (official format, field 101).
   */
  readonly selectiveTaxByRate?: Readonly<Partial<Record<TTaxedIndicator, TDecimal>>> | undefined;
};

/** Whether a global discount is a Norma 10-07 one (`IndicadorNorma1007` 1). */
export function hasNorma1007Discount(adjustments: readonly TTotalsAdjustment[]): boolean {
  return adjustments.some((adjustment) => adjustment.kind === 'discount' && adjustment.norma1007);
}

/**
 * The sum of the lines' amounts each divided by its divisor, one division per distinct divisor
 * rounded half up to cents: lines alike divide once as a sum, as the format states the bases
 * ("dividir la suma de valores del monto ítem ... entre (1 + tasa)").
 */
export function sumNetOfTaxes<TLine extends { readonly amount: TDecimal }>(
  lines: readonly TLine[],
  divisorOf: (line: TLine) => TDecimal,
): TDecimal {
  const byDivisor = new Map<string, { divisor: TDecimal; total: TDecimal }>();
  for (const line of lines) {
    const divisor = divisorOf(line);
    const key = `${divisor.units}e${divisor.scale}`;
    byDivisor.set(key, { divisor, total: add(byDivisor.get(key)?.total ?? ZERO, line.amount) });
  }
  return sum([...byDivisor.values()].map(({ divisor, total }) => divide(total, divisor, 2)));
}

/** The computed `Totales` (amounts unformatted, 2 decimals). */
export type TTotals = {
  /** Sum of `MontoItem` per billing indicator. */
  readonly itemSums: Readonly<Record<TBillingIndicator, TDecimal>>;
  /** Indicators used by at least one line. */
  readonly indicatorsPresent: ReadonlySet<TBillingIndicator>;
  /** `MontoGravadoI1..3`. */
  readonly taxableByRate: Readonly<Record<TTaxedIndicator, TDecimal>>;
  /** `TotalITBIS1..3` (zero when `withoutItbis`). */
  readonly itbisByRate: Readonly<Record<TTaxedIndicator, TDecimal>>;
  readonly taxableTotal: TDecimal;
  readonly exempt: TDecimal;
  readonly totalItbis: TDecimal;
  readonly nonBillable: TDecimal;
  /** `MontoTotal`. */
  readonly total: TDecimal;
  /** `MontoPeriodo` = `MontoTotal` + `MontoNoFacturable`. */
  readonly period: TDecimal;
  /** Sum of Norma 10-07 discounts, subtracted from `ValorPagar`. */
  readonly norma1007Discounts: TDecimal;
  /** `ValorPagar` without advances or previous balance. */
  readonly payable: TDecimal;
  readonly itbisWithheld: TDecimal;
  readonly isrWithheld: TDecimal;
  readonly hasItbisWithheld: boolean;
  readonly hasIsrWithheld: boolean;
};

/** Computes every total of the `Totales` area from the lines and global adjustments. */
export function computeTotals(input: TTotalsInput): TTotals {
  const itemSums: Record<TBillingIndicator, TDecimal> = { 0: ZERO, 1: ZERO, 2: ZERO, 3: ZERO, 4: ZERO };
  const indicatorsPresent = new Set<TBillingIndicator>();
  let itbisWithheld = ZERO;
  let isrWithheld = ZERO;
  let hasItbisWithheld = false;
  let hasIsrWithheld = false;
  for (const line of input.lines) {
    itemSums[line.indicator] = add(itemSums[line.indicator], line.amount);
    indicatorsPresent.add(line.indicator);
    if (line.itbisWithheld !== undefined) {
      itbisWithheld = add(itbisWithheld, line.itbisWithheld);
      hasItbisWithheld = true;
    }
    if (line.isrWithheld !== undefined) {
      isrWithheld = add(isrWithheld, line.isrWithheld);
      hasIsrWithheld = true;
    }
  }

  // Net effect of global adjustments per indicator; Norma 10-07 discounts stay out of the bases.
  const adjustmentByIndicator: Record<TBillingIndicator, TDecimal> = {
    0: ZERO,
    1: ZERO,
    2: ZERO,
    3: ZERO,
    4: ZERO,
  };
  let norma1007Discounts = ZERO;
  for (const adjustment of input.adjustments) {
    if (adjustment.kind === 'discount' && adjustment.norma1007) {
      norma1007Discounts = add(norma1007Discounts, adjustment.amount);
      continue;
    }
    if (adjustment.indicator === null) continue;
    const signed = adjustment.kind === 'discount' ? subtract(ZERO, adjustment.amount) : adjustment.amount;
    adjustmentByIndicator[adjustment.indicator] = add(adjustmentByIndicator[adjustment.indicator], signed);
  }

  // Norma 10-07 (rule 4): base I1 divides each item by 1 + 18% + its rates of additional taxes 002 and 004.
  const norma1007 = input.pricesIncludeTax && hasNorma1007Discount(input.adjustments);
  const taxableByRate = { 1: ZERO, 2: ZERO, 3: ZERO } as Record<TTaxedIndicator, TDecimal>;
  const itbisByRate = { 1: ZERO, 2: ZERO, 3: ZERO } as Record<TTaxedIndicator, TDecimal>;
  for (const indicator of TAXED_INDICATORS) {
    const gross = input.pricesIncludeTax
      ? sumNetOfTaxes(
          input.lines.filter((line) => line.indicator === indicator),
          (line) =>
            add(
              add(ONE, ITBIS_RATE[indicator]),
              norma1007 && indicator === 1 ? (line.norma1007Rate ?? ZERO) : ZERO,
            ),
        )
      : itemSums[indicator];
    const base = round(add(gross, adjustmentByIndicator[indicator]), 2);
    taxableByRate[indicator] = base;
    const itbisBase = add(base, input.selectiveTaxByRate?.[indicator] ?? ZERO);
    itbisByRate[indicator] = input.withoutItbis ? ZERO : round(multiply(itbisBase, ITBIS_RATE[indicator]), 2);
  }
  const taxableTotal = sum(TAXED_INDICATORS.map((indicator) => taxableByRate[indicator]));
  const totalItbis = sum(TAXED_INDICATORS.map((indicator) => itbisByRate[indicator]));
  const exempt = round(add(itemSums[4], adjustmentByIndicator[4]), 2);
  const nonBillable = round(add(itemSums[0], adjustmentByIndicator[0]), 2);
  const total = round(sum([taxableTotal, exempt, totalItbis, input.additionalTaxAmount ?? ZERO]), 2);
  return {
    itemSums,
    indicatorsPresent,
    taxableByRate,
    itbisByRate,
    taxableTotal,
    exempt,
    totalItbis,
    nonBillable,
    total,
    period: add(total, nonBillable),
    norma1007Discounts,
    payable: subtract(total, norma1007Discounts),
    itbisWithheld: round(itbisWithheld, 2),
    isrWithheld: round(isrWithheld, 2),
    hasItbisWithheld,
    hasIsrWithheld,
  };
}

/**
 * Splits `amount` over `weights` proportionally, in cents, so the parts add up exactly
 * (the last non-zero weight takes the rounding remainder).
 */
export function apportion(amount: TDecimal, weights: readonly TDecimal[]): TDecimal[] {
  const totalWeight = sum(weights);
  if (isZero(totalWeight)) return weights.map(() => ZERO);
  const parts = weights.map((weight) => divide(multiply(amount, weight), totalWeight, 2));
  let lastIndex = -1;
  weights.forEach((weight, index) => {
    if (!isZero(weight)) lastIndex = index;
  });
  const assigned = sum(parts.filter((_, index) => index !== lastIndex));
  if (lastIndex >= 0) parts[lastIndex] = round(subtract(amount, assigned), 2);
  return parts;
}

/** `|declared - expected|` exceeds `toleranceCents` (RD$1 = 100 cents per line). */
export function exceedsTolerance(declared: TDecimal, expected: TDecimal, toleranceCents: number): boolean {
  const difference = subtract(declared, expected);
  const absolute = difference.units < 0n ? { units: -difference.units, scale: difference.scale } : difference;
  return compare(absolute, { units: BigInt(toleranceCents), scale: 2 }) > 0;
}
