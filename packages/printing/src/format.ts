/**
 * Text formatting for the printed representation. Amounts stay decimal text from end to end: the
 * XML's `1080.00` prints as `1,080.00` by inserting separators into the string, never through a
 * float, so the paper always agrees with the signed bytes.
 */

/** The Spanish name of each e-CF type, as the tax authority's models title them. */
export const ECF_TYPE_NAMES: Readonly<Record<string, string>> = {
  '31': 'Factura de Crédito Fiscal Electrónica',
  '32': 'Factura de Consumo Electrónica',
  '33': 'Nota de Débito Electrónica',
  '34': 'Nota de Crédito Electrónica',
  '41': 'Compras Electrónico',
  '43': 'Gastos Menores Electrónico',
  '44': 'Regímenes Especiales Electrónica',
  '45': 'Gubernamental Electrónico',
  '46': 'Exportaciones Electrónica',
  '47': 'Pagos al Exterior Electrónica',
};

/** `CodigoModificacion` of `InformacionReferencia` (e-CF format, section F). */
export const MODIFICATION_CODE_NAMES: Readonly<Record<string, string>> = {
  '1': 'Anula el NCF modificado',
  '2': 'Corrige texto del comprobante fiscal modificado',
  '3': 'Corrige montos del NCF modificado',
  '4': 'Reemplazo NCF emitido en contingencia',
  '5': 'Referencia Factura Consumo Electrónica',
};

/** `TipoPago`. */
export const PAYMENT_TYPE_NAMES: Readonly<Record<string, string>> = {
  '1': 'Contado',
  '2': 'Crédito',
  '3': 'Gratuito',
};

const DECIMAL_TEXT = /^(-?)(\d+)(\.\d+)?$/;

/**
 * Decimal text with thousands separators for display: `1234567.50` → `1,234,567.50`. Digits and
 * fraction are kept exactly as written; text that is not plain decimal is returned unchanged.
 */
export function formatAmount(text: string): string {
  const match = DECIMAL_TEXT.exec(text);
  if (match === null) return text;
  const [, sign = '', integer = '', fraction = ''] = match;
  return `${sign}${integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction}`;
}
