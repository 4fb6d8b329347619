/**
 * What the printed representation shows, read from the e-CF tree (which itself comes from the stored
 * signed XML). Every value is the XML's own text; the only computed figure is the ITBIS of each
 * line, which the XSDs do not carry per item and is derived with exact decimals.
 */
import {
  addDecimals,
  decimal,
  divideDecimals,
  formatDecimal,
  multiplyDecimals,
  parseDecimal,
  roundDecimal,
  subtractDecimals,
} from '@ecf/fiscal-core';
import type { TDgiiEnvironment, TEcfDocument, TEcfTree, TEcfValue } from '@ecf/fiscal-core';
import { ECF_TYPE_NAMES, MODIFICATION_CODE_NAMES, PAYMENT_TYPE_NAMES, formatAmount } from './format.ts';

/** Input of the renderer: the document as read back from the stored signed XML and its derived values. */
export type TPrintInput = {
  /** `readEcfXml(storedSignedXml)`, so the PDF always agrees with what was signed and sent. */
  document: TEcfDocument;
  /** First six characters of the `SignatureValue`. */
  securityCode: string;
  /** `FechaHoraFirma`, `dd-MM-yyyy HH:mm:ss`. */
  signedAt: string;
  /** The timbre URL encoded in the QR (FC form for an E32 below RD$250,000). */
  qrUrl: string;
  environment: TDgiiEnvironment;
};

export type TPrintLabelled = {
  readonly label: string;
  readonly value: string;
  readonly isEmphasized?: boolean;
};

export type TPrintItem = {
  readonly quantity: string;
  readonly unit: string | undefined;
  readonly description: string;
  readonly detail: string | undefined;
  readonly unitPrice: string;
  readonly itbis: string;
  readonly amount: string;
};

export type TPrintModel = {
  readonly type: string;
  readonly typeName: string;
  readonly eNcf: string;
  readonly issueDate: string;
  /** Never set for types 32 and 34 (their XSDs have no such element; spec rule 16). */
  readonly sequenceExpirationDate: string | undefined;
  readonly issuer: {
    readonly tradeName: string | undefined;
    readonly legalName: string;
    readonly branch: string | undefined;
    readonly rnc: string;
    readonly address: string | undefined;
    readonly phones: ReadonlyArray<string>;
    readonly email: string | undefined;
    readonly website: string | undefined;
  };
  /** Labelled buyer lines; empty when the type carries no buyer (43) or none was given. */
  readonly buyer: ReadonlyArray<TPrintLabelled>;
  /** Payment terms and other document data printed under the buyer. */
  readonly terms: ReadonlyArray<TPrintLabelled>;
  /** `InformacionReferencia` of notes (33, 34) and of documents replacing a contingency receipt. */
  readonly reference: ReadonlyArray<TPrintLabelled>;
  readonly items: ReadonlyArray<TPrintItem>;
  readonly totals: ReadonlyArray<TPrintLabelled>;
  readonly otherCurrency: ReadonlyArray<TPrintLabelled>;
  readonly securityCode: string;
  readonly signedAt: string;
  readonly qrUrl: string;
  readonly environment: TDgiiEnvironment;
};

function tree(value: TEcfValue | undefined): TEcfTree {
  return typeof value === 'object' && !Array.isArray(value) ? (value as TEcfTree) : {};
}

function text(value: TEcfValue | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function list(value: TEcfValue | undefined): ReadonlyArray<string | TEcfTree> {
  if (value === undefined) return [];
  return Array.isArray(value) ? (value as ReadonlyArray<string | TEcfTree>) : [value as string | TEcfTree];
}

function labelled(rows: ReadonlyArray<readonly [string, string | undefined, boolean?]>): TPrintLabelled[] {
  const result: TPrintLabelled[] = [];
  for (const [label, value, isEmphasized] of rows) {
    if (value !== undefined)
      result.push(isEmphasized === true ? { label, value, isEmphasized } : { label, value });
  }
  return result;
}

const money = (value: string | undefined): string | undefined =>
  value === undefined ? undefined : formatAmount(value);

const HUNDREDTH = decimal('0.01');
const ONE = decimal('1');

/**
 * ITBIS of one line from `MontoItem`, its `IndicadorFacturacion` (1, 2, 3: rate `ITBIS1..3` of the
 * totals) and `IndicadorMontoGravado` (1: amounts include ITBIS), rounded half up to cents as the
 * totals are. Exempt (4) and non-billable (0) lines print no ITBIS amount.
 */
function lineItbis(
  amountText: string,
  indicator: string | undefined,
  totals: TEcfTree,
  pricesIncludeTax: boolean,
): string {
  if (indicator === '4') return 'Exento';
  if (indicator !== '1' && indicator !== '2' && indicator !== '3') return '';
  const amount = parseDecimal(amountText);
  const percent = parseDecimal(
    text(totals[`ITBIS${indicator}`]) ?? { '1': '18', '2': '16', '3': '0' }[indicator],
  );
  if (amount === null || percent === null) return '';
  const rate = multiplyDecimals(percent, HUNDREDTH);
  const itbis = pricesIncludeTax
    ? subtractDecimals(amount, divideDecimals(amount, addDecimals(ONE, rate), 2))
    : roundDecimal(multiplyDecimals(amount, rate), 2);
  return formatAmount(formatDecimal(itbis, 2));
}

/** Builds the print model of a document; throws only when the tree lacks what every e-CF has. */
export function buildPrintModel(input: TPrintInput): TPrintModel {
  const ecf = input.document.ECF;
  const header = tree(ecf['Encabezado']);
  const idDoc = tree(header['IdDoc']);
  const issuer = tree(header['Emisor']);
  const buyer = tree(header['Comprador']);
  const totals = tree(header['Totales']);
  const otherCurrency = tree(header['OtraMoneda']);
  const reference = tree(ecf['InformacionReferencia']);
  const type = text(idDoc['TipoeCF']) ?? '';
  const eNcf = text(idDoc['eNCF']);
  const typeName = ECF_TYPE_NAMES[type];
  if (eNcf === undefined || typeName === undefined)
    throw new TypeError('The document has no valid TipoeCF and eNCF.');
  const pricesIncludeTax = text(idDoc['IndicadorMontoGravado']) === '1';

  const items: TPrintItem[] = list(tree(ecf['DetallesItems'])['Item']).map((entry) => {
    const item = tree(entry);
    const amount = text(item['MontoItem']) ?? '0.00';
    return {
      quantity: text(item['CantidadItem']) ?? '',
      unit: text(item['UnidadMedida']),
      description: text(item['NombreItem']) ?? '',
      detail: text(item['DescripcionItem']),
      unitPrice: formatAmount(text(item['PrecioUnitarioItem']) ?? ''),
      itbis: lineItbis(amount, text(item['IndicadorFacturacion']), totals, pricesIncludeTax),
      amount: formatAmount(amount),
    };
  });

  const rate = (index: 1 | 2 | 3): string =>
    text(totals[`ITBIS${index}`]) ?? { 1: '18', 2: '16', 3: '0' }[index];
  const total = (name: string): string | undefined => money(text(totals[name]));
  const other = (name: string): string | undefined => money(text(otherCurrency[name]));
  const code = text(reference['CodigoModificacion']);
  const paymentType = text(idDoc['TipoPago']);

  return {
    type,
    typeName,
    eNcf,
    issueDate: text(issuer['FechaEmision']) ?? '',
    sequenceExpirationDate:
      type === '32' || type === '34' ? undefined : text(idDoc['FechaVencimientoSecuencia']),
    issuer: {
      tradeName: text(issuer['NombreComercial']),
      legalName: text(issuer['RazonSocialEmisor']) ?? '',
      branch: text(issuer['Sucursal']),
      rnc: text(issuer['RNCEmisor']) ?? '',
      address: text(issuer['DireccionEmisor']),
      phones: list(tree(issuer['TablaTelefonoEmisor'])['TelefonoEmisor']).filter(
        (phone): phone is string => typeof phone === 'string',
      ),
      email: text(issuer['CorreoEmisor']),
      website: text(issuer['WebSite']),
    },
    buyer: labelled([
      ['Razón Social Cliente', text(buyer['RazonSocialComprador'])],
      ['RNC Cliente', text(buyer['RNCComprador'])],
      ['Identificación Extranjero', text(buyer['IdentificadorExtranjero'])],
      ['Contacto', text(buyer['ContactoComprador'])],
      ['Dirección', text(buyer['DireccionComprador'])],
    ]),
    terms: labelled([
      [
        'Condición de pago',
        paymentType === undefined ? undefined : (PAYMENT_TYPE_NAMES[paymentType] ?? paymentType),
      ],
      ['Fecha límite de pago', text(idDoc['FechaLimitePago'])],
      ['Términos de pago', text(idDoc['TerminoPago'])],
      [
        'Orden de compra',
        text(
          header['InformacionesAdicionales'] === undefined
            ? undefined
            : tree(header['InformacionesAdicionales'])['NumeroOrdenCompra'],
        ),
      ],
    ]),
    reference: labelled([
      ['NCF Modificado', text(reference['NCFModificado'])],
      ['Fecha NCF Modificado', text(reference['FechaNCFModificado'])],
      [
        'Código de Modificación',
        code === undefined
          ? undefined
          : `${code} - ${MODIFICATION_CODE_NAMES[code] ?? ''}`.replace(/ - $/, ''),
      ],
      ['Razón de Modificación', text(reference['RazonModificacion'])],
    ]),
    items,
    totals: labelled([
      [`Subtotal Gravado ITBIS ${rate(1)}%`, total('MontoGravadoI1')],
      [`Subtotal Gravado ITBIS ${rate(2)}%`, total('MontoGravadoI2')],
      [`Subtotal Gravado ITBIS ${rate(3)}%`, total('MontoGravadoI3')],
      ['Subtotal Gravado', total('MontoGravadoTotal')],
      ['Subtotal Exento', total('MontoExento')],
      [`ITBIS ${rate(1)}%`, total('TotalITBIS1')],
      [`ITBIS ${rate(2)}%`, total('TotalITBIS2')],
      [`ITBIS ${rate(3)}%`, total('TotalITBIS3')],
      ['Total ITBIS', total('TotalITBIS')],
      ['Impuestos Adicionales', total('MontoImpuestoAdicional')],
      ['Monto No Facturable', total('MontoNoFacturable')],
      ['Total', total('MontoTotal'), true],
      ['ITBIS Retenido', total('TotalITBISRetenido')],
      ['ISR Retenido', total('TotalISRRetencion')],
      ['ITBIS Percibido', total('TotalITBISPercepcion')],
      ['ISR Percibido', total('TotalISRPercepcion')],
      ['Monto del Período', total('MontoPeriodo')],
      ['Saldo Anterior', total('SaldoAnterior')],
      ['Monto Avance de Pago', total('MontoAvancePago')],
      ['Valor a Pagar', total('ValorPagar'), true],
    ]),
    otherCurrency: labelled([
      ['Moneda', text(otherCurrency['TipoMoneda'])],
      ['Tasa de Cambio', other('TipoCambio')],
      ['Subtotal Gravado', other('MontoGravadoTotalOtraMoneda')],
      ['Subtotal Exento', other('MontoExentoOtraMoneda')],
      ['Total ITBIS', other('TotalITBISOtraMoneda')],
      ['Total', other('MontoTotalOtraMoneda'), true],
    ]),
    securityCode: input.securityCode,
    signedAt: input.signedAt,
    qrUrl: input.qrUrl,
    environment: input.environment,
  };
}
