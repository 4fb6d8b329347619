/**
 * The tax authority's squaring check, recomputed from the XML (FACTS §5): each line may differ by
 * RD$1 from price × quantity − discount + surcharge, and each total by RD$1 per detail line; the
 * ITBIS of a rate is taken on its base plus the selective consumption taxes (ISC, 006-039) of its
 * items (format field 101).
 * Exceeding it is not a rejection but "Aceptado Condicional". Amounts are compared in cents.
 */
import { blockOf, blocksOf, leafText } from './xml.ts';

export type TSquaringIssue = { field: string; declared: number; computed: number; toleranceCents: number };

const RATES: Readonly<Record<string, number>> = { '1': 0.18, '2': 0.16, '3': 0 };

function cents(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? Math.round(value * 100) : undefined;
}

function check(
  issues: TSquaringIssue[],
  field: string,
  declared: number | undefined,
  computed: number,
  toleranceCents: number,
): void {
  if (declared === undefined) return;
  if (Math.abs(declared - computed) > toleranceCents)
    issues.push({ field, declared, computed, toleranceCents });
}

/** Squaring issues of an e-CF (`ECF` root). */
export function checkEcfSquaring(xml: string): TSquaringIssue[] {
  const issues: TSquaringIssue[] = [];
  const items = blocksOf(blockOf(xml, 'DetallesItems') ?? '', 'Item');
  const totals = blockOf(xml, 'Totales') ?? '';
  const lineCount = Math.max(items.length, 1);
  const totalTolerance = 100 * lineCount;
  const pricesIncludeTax = leafText(xml, 'IndicadorMontoGravado') === '1';

  const byIndicator: Record<string, number> = { '0': 0, '1': 0, '2': 0, '3': 0, '4': 0 };
  items.forEach((item, index) => {
    const quantity = Number(leafText(item, 'CantidadItem'));
    const price = Number(leafText(item, 'PrecioUnitarioItem'));
    const discount = cents(leafText(item, 'DescuentoMonto')) ?? 0;
    const surcharge = cents(leafText(item, 'RecargoMonto')) ?? 0;
    const amount = cents(leafText(item, 'MontoItem'));
    if (Number.isFinite(quantity) && Number.isFinite(price)) {
      check(
        issues,
        `Item[${leafText(item, 'NumeroLinea') ?? index + 1}].MontoItem`,
        amount,
        Math.round(quantity * price * 100) - discount + surcharge,
        100,
      );
    }
    const indicator = leafText(item, 'IndicadorFacturacion') ?? '';
    if (amount !== undefined && indicator in byIndicator)
      byIndicator[indicator] = (byIndicator[indicator] ?? 0) + amount;
  });
  for (const adjustment of blocksOf(blockOf(xml, 'DescuentosORecargos') ?? '', 'DescuentoORecargo')) {
    const amount = cents(leafText(adjustment, 'MontoDescuentooRecargo')) ?? 0;
    const indicator = leafText(adjustment, 'IndicadorFacturacionDescuentooRecargo') ?? '';
    const sign = leafText(adjustment, 'TipoAjuste') === 'D' ? -1 : 1;
    if (indicator in byIndicator) byIndicator[indicator] = (byIndicator[indicator] ?? 0) + sign * amount;
  }

  const selectiveTax = selectiveTaxByIndicator(items, totals);
  let gravadoTotal = 0;
  for (const indicator of ['1', '2', '3'] as const) {
    const rate = RATES[indicator] ?? 0;
    const gross = byIndicator[indicator] ?? 0;
    const base = pricesIncludeTax ? Math.round(gross / (1 + rate)) : gross;
    gravadoTotal += base;
    const declaredBase = cents(leafText(totals, `MontoGravadoI${indicator}`));
    if (gross !== 0 || declaredBase !== undefined)
      check(issues, `MontoGravadoI${indicator}`, declaredBase ?? 0, base, totalTolerance);
    const declaredItbis = cents(leafText(totals, `TotalITBIS${indicator}`));
    if (declaredItbis !== undefined)
      check(
        issues,
        `TotalITBIS${indicator}`,
        declaredItbis,
        Math.round(((declaredBase ?? base) + (selectiveTax[indicator] ?? 0)) * rate),
        totalTolerance,
      );
  }
  check(
    issues,
    'MontoGravadoTotal',
    cents(leafText(totals, 'MontoGravadoTotal')),
    gravadoTotal,
    totalTolerance,
  );
  check(issues, 'MontoExento', cents(leafText(totals, 'MontoExento')), byIndicator['4'] ?? 0, totalTolerance);
  checkTotal(issues, totals, totalTolerance);
  return issues;
}

/**
 * The ISC (codes 006-039) that joins each ITBIS rate's base (format field 101: "si existen impuestos
 * selectivos al consumo que formen parte de la base imponible del ITBIS, estos se sumarán al monto
 * gravado antes de multiplicarlo por la tasa"), in cents: each `Totales` group's specific and ad
 * valorem amounts go to the billing indicators of the items carrying its code, by their `MontoItem`.
 */
function selectiveTaxByIndicator(items: string[], totals: string): Record<string, number> {
  const byIndicator: Record<string, number> = {};
  const groups = blocksOf(blockOf(totals, 'ImpuestosAdicionales') ?? '', 'ImpuestoAdicional');
  const carried = items.map((item) => ({
    indicator: leafText(item, 'IndicadorFacturacion') ?? '',
    amount: cents(leafText(item, 'MontoItem')) ?? 0,
    codes: blocksOf(blockOf(item, 'TablaImpuestoAdicional') ?? '', 'ImpuestoAdicional').map((tax) =>
      leafText(tax, 'TipoImpuesto'),
    ),
  }));
  for (const group of groups) {
    const code = leafText(group, 'TipoImpuesto') ?? '';
    if (!/^\d{3}$/.test(code) || Number(code) < 6 || Number(code) > 39) continue;
    const amount =
      (cents(leafText(group, 'MontoImpuestoSelectivoConsumoEspecifico')) ?? 0) +
      (cents(leafText(group, 'MontoImpuestoSelectivoConsumoAdvalorem')) ?? 0);
    const carriers = carried.filter((item) => item.codes.includes(code));
    const weight = carriers.reduce((total, item) => total + item.amount, 0);
    for (const item of carriers) {
      const share = weight === 0 ? amount / carriers.length : (amount * item.amount) / weight;
      byIndicator[item.indicator] = (byIndicator[item.indicator] ?? 0) + share;
    }
  }
  return byIndicator;
}

/** `MontoTotal` = gravado + exento + ITBIS + impuesto adicional (FACTS §5); also used for RFCE. */
export function checkTotal(issues: TSquaringIssue[], totals: string, toleranceCents: number): void {
  const parts = ['MontoGravadoTotal', 'MontoExento', 'TotalITBIS', 'MontoImpuestoAdicional'].map(
    (name) => cents(leafText(totals, name)) ?? 0,
  );
  check(
    issues,
    'MontoTotal',
    cents(leafText(totals, 'MontoTotal')),
    parts.reduce((sum, part) => sum + part, 0),
    toleranceCents,
  );
}

/** Squaring issues of a consumer-invoice summary (`RFCE` root; no item detail, RD$1 tolerance). */
export function checkRfceSquaring(xml: string): TSquaringIssue[] {
  const issues: TSquaringIssue[] = [];
  checkTotal(issues, blockOf(xml, 'Totales') ?? '', 100);
  return issues;
}
