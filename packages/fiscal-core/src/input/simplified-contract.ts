import {
  add,
  compare,
  decimal,
  divide,
  formatDecimal,
  formatDecimalTrimmed,
  isPositive,
  isZero,
  multiply,
  round,
  ZERO,
  type TDecimal,
} from '../decimal/decimal.ts';
import type { TJsonObject, TJsonValue } from '../json/lossless-json.ts';
import { ECF_TYPES, type TEcfType } from '../model/ecf-tree.ts';
import {
  apportion,
  computeLineAmount,
  computeTotals,
  ITBIS_PERCENT,
  ITBIS_RATE,
  isTaxed,
  TAXED_INDICATORS,
  type TBillingIndicator,
  type TTotals,
  type TTotalsAdjustment,
  type TTotalsLine,
} from '../calculation/totals.ts';
import type { TAccountData } from '../validation/context.ts';
import { ERROR_CODES, WARNING_CODES, type TIssueCollector } from '../validation/issues.ts';
import {
  dayNumber,
  dominicanDateOf,
  formatDominicanDateTime,
  formatTaxauthDate,
  parseIsoDate,
  parseIsoDateTime,
  parseTaxauthDate,
  parseTaxauthDateTime,
  type TCalendarDate,
} from './dates.ts';
import { setAt, type TDocumentDraft, type TMutableTree } from './draft.ts';
import {
  createReader,
  finishObject,
  memberPath,
  readArray,
  readBoolean,
  readDecimal,
  readMember,
  readObject,
  readString,
  type TObjectReader,
} from './json-reader.ts';
import {
  allowedRateIndicators,
  isSequenceExpirationApplicable,
  typeHasElement,
} from './type-applicability.ts';

/**
 * The simplified contract: English camelCase properties, one obvious place per concept of the tax
 * authority's format, every amount computed by the service. Documented with an example per type in
 * `docs/simplified-contract.md`.
 */

/** `paymentType` values and their `TipoPago` / `FormaPago`. */
export const PAYMENT_TYPES = {
  /** Cash: TipoPago 1, FormaPago 1 (efectivo). */
  cash: { tipoPago: '1', formaPago: '1' },
  /** Cheque, transfer or deposit: TipoPago 1, FormaPago 2. */
  transfer: { tipoPago: '1', formaPago: '2' },
  /** Debit or credit card, paid at once: TipoPago 1, FormaPago 3. */
  card: { tipoPago: '1', formaPago: '3' },
  /** Sale on credit: TipoPago 2, FormaPago 4; needs `dueDate` except E47. */
  credit: { tipoPago: '2', formaPago: '4' },
  /** Free delivery: TipoPago 3, no payment form. */
  free: { tipoPago: '3', formaPago: null },
} as const;

const TOP_LEVEL_UNSUPPORTED: ReadonlyMap<string, string> = new Map([
  ['additionalTaxes', 'Additional taxes (ImpuestosAdicionales)'],
  ['ImpuestosAdicionales', 'Additional taxes (ImpuestosAdicionales)'],
  ['paymentForms', 'Several payment forms (TablaFormasPago)'],
  ['payments', 'Several payment forms (TablaFormasPago)'],
  ['TablaFormasPago', 'Several payment forms (TablaFormasPago)'],
  ['additionalInformation', 'Additional information (InformacionesAdicionales)'],
  ['InformacionesAdicionales', 'Additional information (InformacionesAdicionales)'],
  ['pagination', 'Pagination (Paginacion)'],
  ['Paginacion', 'Pagination (Paginacion)'],
]);

const LINE_UNSUPPORTED: ReadonlyMap<string, string> = new Map([
  ['additionalTaxes', 'Additional taxes (TablaImpuestoAdicional)'],
  ['TablaImpuestoAdicional', 'Additional taxes (TablaImpuestoAdicional)'],
]);

const IDENTITY_PATHS: ReadonlyArray<readonly [string, string]> = [
  ['ECF', ''],
  ['ECF.Encabezado', ''],
  ['ECF.Encabezado.IdDoc', ''],
  ['ECF.Encabezado.IdDoc.TipoeCF', 'type'],
  ['ECF.Encabezado.IdDoc.eNCF', 'encf'],
  ['ECF.Encabezado.IdDoc.FechaVencimientoSecuencia', 'sequenceExpirationDate'],
  ['ECF.Encabezado.IdDoc.IndicadorNotaCredito', 'reference.date'],
  ['ECF.Encabezado.IdDoc.IndicadorEnvioDiferido', 'deferredSend'],
  ['ECF.Encabezado.IdDoc.IndicadorMontoGravado', 'pricesIncludeTax'],
  ['ECF.Encabezado.IdDoc.TipoIngresos', 'incomeType'],
  ['ECF.Encabezado.IdDoc.TipoPago', 'paymentType'],
  ['ECF.Encabezado.IdDoc.FechaLimitePago', 'dueDate'],
  ['ECF.Encabezado.IdDoc.TerminoPago', 'paymentTerm'],
  ['ECF.Encabezado.IdDoc.TablaFormasPago', 'paymentType'],
  ['ECF.Encabezado.Emisor', 'issuer'],
  ['ECF.Encabezado.Emisor.RNCEmisor', 'issuer.rnc'],
  ['ECF.Encabezado.Emisor.RazonSocialEmisor', 'issuer.legalName'],
  ['ECF.Encabezado.Emisor.NombreComercial', 'issuer.tradeName'],
  ['ECF.Encabezado.Emisor.Sucursal', 'issuer.branch'],
  ['ECF.Encabezado.Emisor.DireccionEmisor', 'issuer.address'],
  ['ECF.Encabezado.Emisor.Municipio', 'issuer.municipality'],
  ['ECF.Encabezado.Emisor.Provincia', 'issuer.province'],
  ['ECF.Encabezado.Emisor.TablaTelefonoEmisor', 'issuer.phone'],
  ['ECF.Encabezado.Emisor.TablaTelefonoEmisor.TelefonoEmisor', 'issuer.phone'],
  ['ECF.Encabezado.Emisor.CorreoEmisor', 'issuer.email'],
  ['ECF.Encabezado.Emisor.WebSite', 'issuer.website'],
  ['ECF.Encabezado.Emisor.CodigoVendedor', 'sellerCode'],
  ['ECF.Encabezado.Emisor.NumeroFacturaInterna', 'internalInvoiceNumber'],
  ['ECF.Encabezado.Emisor.NumeroPedidoInterno', 'internalOrderNumber'],
  ['ECF.Encabezado.Emisor.FechaEmision', 'issueDate'],
  ['ECF.Encabezado.Comprador', 'buyer'],
  ['ECF.Encabezado.Comprador.RNCComprador', 'buyer.rnc'],
  ['ECF.Encabezado.Comprador.IdentificadorExtranjero', 'buyer.foreignId'],
  ['ECF.Encabezado.Comprador.RazonSocialComprador', 'buyer.name'],
  ['ECF.Encabezado.Comprador.CorreoComprador', 'buyer.email'],
  ['ECF.Encabezado.Totales', 'lines'],
  ['ECF.Encabezado.OtraMoneda', 'currency'],
  ['ECF.Encabezado.OtraMoneda.TipoCambio', 'exchangeRate'],
  ['ECF.DetallesItems', 'lines'],
  ['ECF.DescuentosORecargos', 'globalDiscountPercent'],
  ['ECF.InformacionReferencia', 'reference'],
  ['ECF.InformacionReferencia.NCFModificado', 'reference.encf'],
  ['ECF.InformacionReferencia.FechaNCFModificado', 'reference.date'],
  ['ECF.InformacionReferencia.CodigoModificacion', 'reference.modificationCode'],
  ['ECF.InformacionReferencia.RazonModificacion', 'reference.reason'],
  ['ECF.InformacionReferencia.RNCOtroContribuyente', 'reference.otherTaxpayerRnc'],
  ['ECF.FechaHoraFirma', 'signatureDate'],
];

const LINE_PATHS: ReadonlyArray<readonly [string, string]> = [
  ['NombreItem', 'name'],
  ['DescripcionItem', 'description'],
  ['CantidadItem', 'quantity'],
  ['UnidadMedida', 'unitOfMeasure'],
  ['PrecioUnitarioItem', 'unitPrice'],
  ['IndicadorFacturacion', 'itbisRate'],
  ['IndicadorBienoServicio', 'itemKind'],
  ['DescuentoMonto', 'discountAmount'],
  ['RecargoMonto', 'surchargeAmount'],
  ['Retencion', 'isrWithheldAmount'],
  ['Retencion.MontoITBISRetenido', 'itbisWithheldAmount'],
  ['Retencion.MontoISRRetenido', 'isrWithheldAmount'],
  ['MontoItem', 'unitPrice'],
];

/** Every top-level property of the simplified contract (also how a body is recognized as one). */
export const SIMPLIFIED_TOP_LEVEL_PROPERTIES: ReadonlySet<string> = new Set([
  'type',
  'encf',
  'sequenceExpirationDate',
  'issueDate',
  'signatureDate',
  'deferredSend',
  'pricesIncludeTax',
  'incomeType',
  'paymentType',
  'paymentTerm',
  'dueDate',
  'issuer',
  'sellerCode',
  'internalInvoiceNumber',
  'internalOrderNumber',
  'buyer',
  'delivery',
  'transport',
  'currency',
  'exchangeRate',
  'lines',
  'globalDiscountAmount',
  'globalDiscountPercent',
  'globalDiscountNorma1007',
  'globalSurchargeAmount',
  'globalSurchargePercent',
  'reference',
]);

type TLineDraft = {
  readonly index: number;
  readonly indicator: TBillingIndicator;
  readonly quantity: TDecimal;
  /** Amounts in the document currency (the one the client priced in). */
  readonly unitPrice: TDecimal;
  readonly discount: TDecimal | undefined;
  readonly surcharge: TDecimal | undefined;
  readonly itbisWithheld: TDecimal | undefined;
  readonly isrWithheld: TDecimal | undefined;
  readonly tree: TMutableTree;
};

/** Reads the simplified contract and computes every amount into a draft tree. */
export function readSimplifiedContract(
  body: TJsonObject,
  account: TAccountData,
  now: Date,
  issues: TIssueCollector,
): TDocumentDraft {
  const reader = createReader(body, '', issues);
  const root: TMutableTree = {};
  const paths = new Map<string, string>(IDENTITY_PATHS);
  const put = (treePath: string, value: string | TMutableTree, clientPath?: string): void => {
    setAt(root, treePath, value);
    if (clientPath !== undefined) paths.set(treePath, clientPath);
  };
  const notApplicable = (path: string, element: string, type: TEcfType): void => {
    issues.error(
      path,
      ERROR_CODES.FIELD_NOT_APPLICABLE_FOR_TYPE,
      `${path} (${element}) does not exist in e-CF type ${type}`,
      { element, type },
    );
  };

  // --- identity
  const typeText = readString(reader, 'type', true);
  let type: TEcfType | null = null;
  if (typeText !== undefined) {
    const digits = typeText.replace(/^E/i, '');
    if ((ECF_TYPES as readonly string[]).includes(digits)) type = digits as TEcfType;
    else
      issues.error(
        'type',
        ERROR_CODES.FIELD_VALUE_INVALID,
        `type must be one of ${ECF_TYPES.map((t) => `E${t}`).join(', ')}`,
        { value: typeText, allowed: ECF_TYPES.map((t) => `E${t}`) },
      );
  }
  const has = (element: string): boolean => type === null || typeHasElement(type, element);
  put('ECF.Encabezado.Version', '1.0');
  if (type !== null) put('ECF.Encabezado.IdDoc.TipoeCF', type);
  const encf = readString(reader, 'encf', true);
  if (encf !== undefined) put('ECF.Encabezado.IdDoc.eNCF', encf);

  // --- dates
  const sequenceText = readString(reader, 'sequenceExpirationDate');
  if (sequenceText !== undefined) {
    const sequenceDate = parseTaxauthDate(sequenceText) ?? parseIsoDate(sequenceText);
    if (type !== null && !isSequenceExpirationApplicable(type)) {
      // Rule 16: E32/E34 sequences do not expire; the simplified contract drops it with a warning.
      issues.warn(
        'sequenceExpirationDate',
        WARNING_CODES.SEQUENCE_EXPIRATION_DATE_NOT_APPLICABLE,
        `E${type} sequences have no expiration date; sequenceExpirationDate is ignored`,
        { type },
      );
    } else if (sequenceDate === null) {
      issues.error(
        'sequenceExpirationDate',
        ERROR_CODES.SEQUENCE_EXPIRATION_DATE_INVALID,
        `sequenceExpirationDate must be a real date DD-MM-YYYY, got ${JSON.stringify(sequenceText)}`,
        { value: sequenceText },
      );
    } else {
      put('ECF.Encabezado.IdDoc.FechaVencimientoSecuencia', formatTaxauthDate(sequenceDate));
    }
  }
  const issueDate = readDate(reader, 'issueDate', true);
  if (issueDate !== undefined) put('ECF.Encabezado.Emisor.FechaEmision', formatTaxauthDate(issueDate));
  const signatureText = readString(reader, 'signatureDate');
  if (signatureText !== undefined) {
    const instant = parseIsoDateTime(signatureText) ?? parseTaxauthDateTime(signatureText);
    if (instant === null)
      issues.error(
        'signatureDate',
        ERROR_CODES.SIGNATURE_DATE_INVALID,
        `signatureDate must be an ISO 8601 date-time with offset, got ${JSON.stringify(signatureText)}`,
        { value: signatureText },
      );
    else put('ECF.FechaHoraFirma', formatDominicanDateTime(instant));
  }

  // --- flags and codes
  const deferredSend = readBoolean(reader, 'deferredSend');
  if (type !== null && deferredSend === true && !has('IndicadorEnvioDiferido'))
    notApplicable('deferredSend', 'IndicadorEnvioDiferido', type);
  // Rule 13: emitted only when asked for, or when the account is registered for deferred sending (unless explicitly false).
  if (
    has('IndicadorEnvioDiferido') &&
    (deferredSend === true || (deferredSend === undefined && account.deferredSendAuthorized))
  )
    put('ECF.Encabezado.IdDoc.IndicadorEnvioDiferido', '1');
  const pricesIncludeTax = readBoolean(reader, 'pricesIncludeTax') ?? false;
  const incomeType = readString(reader, 'incomeType');
  if (incomeType !== undefined) {
    if (type !== null && !has('TipoIngresos')) notApplicable('incomeType', 'TipoIngresos', type);
    else if (!/^0[1-6]$/.test(incomeType))
      issues.error('incomeType', ERROR_CODES.FIELD_VALUE_INVALID, 'incomeType must be a code 01 to 06', {
        value: incomeType,
        allowed: ['01', '02', '03', '04', '05', '06'],
      });
    else put('ECF.Encabezado.IdDoc.TipoIngresos', incomeType);
  } else if (type !== null && ['31', '32', '44', '45', '46'].includes(type)) {
    issues.error('incomeType', ERROR_CODES.FIELD_REQUIRED, `incomeType is required for E${type}`);
  }
  const paymentTypeText = readString(reader, 'paymentType');
  let payment: (typeof PAYMENT_TYPES)[keyof typeof PAYMENT_TYPES] | undefined;
  if (paymentTypeText !== undefined) {
    if (Object.hasOwn(PAYMENT_TYPES, paymentTypeText))
      payment = PAYMENT_TYPES[paymentTypeText as keyof typeof PAYMENT_TYPES];
    else
      issues.error(
        'paymentType',
        ERROR_CODES.FIELD_VALUE_INVALID,
        `paymentType must be one of ${Object.keys(PAYMENT_TYPES).join(', ')}`,
        { value: paymentTypeText, allowed: Object.keys(PAYMENT_TYPES) },
      );
  } else if (type !== null && !['41', '43', '47'].includes(type)) {
    issues.error('paymentType', ERROR_CODES.FIELD_REQUIRED, `paymentType is required for E${type}`);
  }
  if (payment !== undefined) put('ECF.Encabezado.IdDoc.TipoPago', payment.tipoPago);
  const dueDate = readDate(reader, 'dueDate');
  if (dueDate !== undefined) {
    if (type !== null && !has('FechaLimitePago')) notApplicable('dueDate', 'FechaLimitePago', type);
    else put('ECF.Encabezado.IdDoc.FechaLimitePago', formatTaxauthDate(dueDate));
  }
  const paymentTerm = readString(reader, 'paymentTerm');
  if (paymentTerm !== undefined) {
    if (type !== null && !has('TerminoPago')) notApplicable('paymentTerm', 'TerminoPago', type);
    else put('ECF.Encabezado.IdDoc.TerminoPago', paymentTerm);
  }

  // --- issuer (the account's profile fills what is missing)
  const issuer = readObject(reader, 'issuer');
  const issuerValue = (key: string, fallback: string | undefined): string | undefined =>
    issuer === undefined ? fallback : (readString(issuer, key) ?? fallback);
  const issuerRnc = issuerValue('rnc', account.rnc);
  if (issuerRnc !== undefined) put('ECF.Encabezado.Emisor.RNCEmisor', issuerRnc);
  const legalName = issuerValue('legalName', account.legalName);
  if (legalName !== undefined) put('ECF.Encabezado.Emisor.RazonSocialEmisor', legalName);
  const optionalIssuer: ReadonlyArray<readonly [string, string]> = [
    ['tradeName', 'NombreComercial'],
    ['branch', 'Sucursal'],
    ['municipality', 'Municipio'],
    ['province', 'Provincia'],
    ['email', 'CorreoEmisor'],
    ['website', 'WebSite'],
  ];
  for (const [key, element] of optionalIssuer) {
    const value = issuerValue(key, key === 'email' ? account.email : undefined);
    if (value !== undefined) put(`ECF.Encabezado.Emisor.${element}`, value);
  }
  const address = issuerValue('address', account.address);
  if (address === undefined)
    issues.error(
      'issuer.address',
      ERROR_CODES.FIELD_REQUIRED,
      'issuer.address is required (the account profile has no address either)',
    );
  else put('ECF.Encabezado.Emisor.DireccionEmisor', address);
  readIssuerPhones(issuer, account, root, paths, issues);
  if (issuer !== undefined) finishObject(issuer);

  for (const [key, element] of [
    ['sellerCode', 'CodigoVendedor'],
    ['internalInvoiceNumber', 'NumeroFacturaInterna'],
    ['internalOrderNumber', 'NumeroPedidoInterno'],
  ] as const) {
    const value = readString(reader, key);
    if (value === undefined) continue;
    if (type !== null && !has(element)) notApplicable(key, element, type);
    else put(`ECF.Encabezado.Emisor.${element}`, value);
  }

  // --- buyer
  readBuyer(reader, type, root, paths, issues);

  // --- currency
  const currency = readString(reader, 'currency') ?? 'DOP';
  const exchangeRate = readDecimal(reader, 'exchangeRate');
  const foreign = currency !== 'DOP';
  if (!/^[A-Z]{3}$/.test(currency))
    issues.error(
      'currency',
      ERROR_CODES.FIELD_VALUE_INVALID,
      'currency must be an ISO 4217 code such as DOP or USD',
      { value: currency },
    );
  let rate: TDecimal | null = null;
  if (foreign) {
    if (exchangeRate === undefined || !isPositive(exchangeRate)) {
      if (!issues.errors.some((error) => error.path === 'exchangeRate')) {
        issues.error(
          'exchangeRate',
          ERROR_CODES.EXCHANGE_RATE_INVALID,
          `exchangeRate greater than 0 is required when currency is ${currency}`,
          { currency },
        );
      }
    } else if (exchangeRate.scale > 4) {
      issues.error(
        'exchangeRate',
        ERROR_CODES.EXCHANGE_RATE_INVALID,
        'exchangeRate admits at most 4 decimals',
        { value: formatDecimalTrimmed(exchangeRate, 0, 12) },
      );
    } else {
      rate = exchangeRate;
    }
  }

  // --- lines
  const lineDrafts: TLineDraft[] = [];
  const lines = readArray(reader, 'lines', true);
  if (lines !== undefined && lines.items.length === 0)
    issues.error('lines', ERROR_CODES.FIELD_REQUIRED, 'lines must have at least one line');
  lines?.items.forEach((item, index) => {
    const line = readLine(item, index, type, issues);
    if (line !== undefined) lineDrafts.push(line);
    paths.set(`ECF.DetallesItems.Item[${index}]`, `lines[${index}]`);
    for (const [element, key] of LINE_PATHS)
      paths.set(`ECF.DetallesItems.Item[${index}].${element}`, `lines[${index}].${key}`);
  });

  // --- global adjustments
  const discountAmount = readDecimal(reader, 'globalDiscountAmount');
  const discountPercent = readDecimal(reader, 'globalDiscountPercent');
  const discountNorma1007 = readBoolean(reader, 'globalDiscountNorma1007') ?? false;
  const surchargeAmount = readDecimal(reader, 'globalSurchargeAmount');
  const surchargePercent = readDecimal(reader, 'globalSurchargePercent');
  const adjustmentSpecs: TAdjustmentSpec[] = [];
  const addSpec = (
    key: string,
    kind: 'discount' | 'surcharge',
    by: 'amount' | 'percent',
    value: TDecimal | undefined,
  ): void => {
    if (value === undefined) return;
    if (type !== null && !has('DescuentosORecargos')) {
      notApplicable(key, 'DescuentosORecargos', type);
      return;
    }
    if (!isPositive(value)) {
      issues.error(key, ERROR_CODES.FIELD_VALUE_INVALID, `${key} must be greater than 0`, {
        value: formatDecimalTrimmed(value, 0, 12),
      });
      return;
    }
    if (by === 'percent' && compare(value, decimal('100')) > 0) {
      issues.error(key, ERROR_CODES.FIELD_VALUE_INVALID, `${key} must not exceed 100`, {});
      return;
    }
    if (by === 'amount' && pricesIncludeTax) {
      issues.error(
        key,
        ERROR_CODES.GLOBAL_AMOUNT_WITH_PRICES_INCLUDE_TAX,
        `${key} cannot be combined with pricesIncludeTax; send ${key.replace('Amount', 'Percent')} instead`,
        {},
      );
      return;
    }
    adjustmentSpecs.push({ key, kind, by, value, norma1007: kind === 'discount' && discountNorma1007 });
  };
  // One obvious place per concept: a discount (or surcharge) is given either as an amount or as a percentage.
  if (discountAmount !== undefined && discountPercent !== undefined)
    issues.error(
      'globalDiscountPercent',
      ERROR_CODES.FIELD_VALUE_INVALID,
      'Send globalDiscountAmount or globalDiscountPercent, not both',
      { reason: 'amount_and_percent' },
    );
  if (surchargeAmount !== undefined && surchargePercent !== undefined)
    issues.error(
      'globalSurchargePercent',
      ERROR_CODES.FIELD_VALUE_INVALID,
      'Send globalSurchargeAmount or globalSurchargePercent, not both',
      { reason: 'amount_and_percent' },
    );
  addSpec('globalDiscountAmount', 'discount', 'amount', discountAmount);
  addSpec('globalDiscountPercent', 'discount', 'percent', discountPercent);
  addSpec('globalSurchargeAmount', 'surcharge', 'amount', surchargeAmount);
  addSpec('globalSurchargePercent', 'surcharge', 'percent', surchargePercent);
  if (discountNorma1007) {
    if (discountAmount === undefined && discountPercent === undefined)
      issues.error(
        'globalDiscountNorma1007',
        ERROR_CODES.FIELD_VALUE_INVALID,
        'globalDiscountNorma1007 needs a global discount',
        {},
      );
    else if (!pricesIncludeTax)
      issues.error(
        'globalDiscountNorma1007',
        ERROR_CODES.NORMA_1007_REQUIRES_ITBIS_INCLUDED,
        'A Norma 10-07 discount requires pricesIncludeTax: true',
        {},
      );
  }

  // --- reference
  const referenceDate = readReference(reader, type, root, paths, issues);

  // --- whatever was not read is unknown, or a concept left to the tax-authority JSON
  finishObject(reader, TOP_LEVEL_UNSUPPORTED);

  // --- amounts
  const creditNoteWithoutItbis =
    type === '34' &&
    issueDate !== undefined &&
    referenceDate !== undefined &&
    dayNumber(issueDate) - dayNumber(referenceDate) > 30;
  if (type === '34' && issueDate !== undefined && referenceDate !== undefined)
    put('ECF.Encabezado.IdDoc.IndicadorNotaCredito', creditNoteWithoutItbis ? '1' : '0');
  if (
    lineDrafts.length > 0 &&
    lines !== undefined &&
    lineDrafts.length === lines.items.length &&
    !issues.errors.some(
      (error) =>
        error.path.startsWith('global') && error.code !== ERROR_CODES.NORMA_1007_REQUIRES_ITBIS_INCLUDED,
    )
  ) {
    fillAmounts({
      type,
      lines: lineDrafts,
      specs: adjustmentSpecs,
      pricesIncludeTax,
      creditNoteWithoutItbis,
      rate,
      currency,
      payment,
      root,
      paths,
    });
  }
  return { format: 'simplified', root, type, paths };
}

function readDate(reader: TObjectReader, key: string, required = false): TCalendarDate | undefined {
  const text = readString(reader, key, required);
  if (text === undefined) return undefined;
  const instant = parseIsoDateTime(text);
  const date = instant !== null ? dominicanDateOf(instant) : (parseIsoDate(text) ?? parseTaxauthDate(text));
  if (date === null) {
    reader.issues.error(
      memberPath(reader, key),
      ERROR_CODES.DATE_INVALID,
      `${memberPath(reader, key)} must be a real date (ISO 8601 date-time with offset, YYYY-MM-DD or DD-MM-YYYY), got ${JSON.stringify(text)}`,
      { value: text },
    );
    return undefined;
  }
  return date;
}

function readIssuerPhones(
  issuer: TObjectReader | undefined,
  account: TAccountData,
  root: TMutableTree,
  paths: Map<string, string>,
  issues: TIssueCollector,
): void {
  const value: TJsonValue | undefined = issuer === undefined ? undefined : readMember(issuer, 'phone');
  let phones: string[] = [];
  if (value === undefined) {
    phones = [...(account.phones ?? [])];
  } else if (value.kind === 'string') {
    phones = [value.value];
    paths.set('ECF.Encabezado.Emisor.TablaTelefonoEmisor.TelefonoEmisor[0]', 'issuer.phone');
  } else if (value.kind === 'array') {
    value.items.forEach((item, index) => {
      paths.set(
        `ECF.Encabezado.Emisor.TablaTelefonoEmisor.TelefonoEmisor[${index}]`,
        `issuer.phone[${index}]`,
      );
      if (item.kind === 'string') phones.push(item.value);
      else
        issues.error(
          `issuer.phone[${index}]`,
          ERROR_CODES.ISSUER_PHONE_INVALID,
          'Each issuer phone must be a string NNN-NNN-NNNN',
          {},
        );
    });
  } else {
    issues.error(
      'issuer.phone',
      ERROR_CODES.ISSUER_PHONE_INVALID,
      'issuer.phone must be a string NNN-NNN-NNNN or a list of up to 3',
      {},
    );
  }
  if (phones.length > 0) setAt(root, 'ECF.Encabezado.Emisor.TablaTelefonoEmisor', { TelefonoEmisor: phones });
}

function readBuyer(
  reader: TObjectReader,
  type: TEcfType | null,
  root: TMutableTree,
  paths: Map<string, string>,
  issues: TIssueCollector,
): void {
  const buyer = readObject(reader, 'buyer');
  const hasBuyer = type === null || typeHasElement(type, 'Comprador');
  if (buyer === undefined) {
    if (type !== null && ['31', '41', '45'].includes(type))
      issues.error('buyer.rnc', ERROR_CODES.BUYER_ID_REQUIRED, `E${type} requires the buyer's RNC`, { type });
    if (type !== null && ['31', '41', '44', '45', '46'].includes(type))
      issues.error('buyer.name', ERROR_CODES.FIELD_REQUIRED, `E${type} requires buyer.name`);
    return;
  }
  if (!hasBuyer && type !== null) {
    issues.error('buyer', ERROR_CODES.FIELD_NOT_APPLICABLE_FOR_TYPE, `E${type} has no buyer (Comprador)`, {
      element: 'Comprador',
      type,
    });
    for (const key of buyer.value.members.keys()) buyer.known.add(key);
    return;
  }
  const fields: ReadonlyArray<readonly [string, string]> = [
    ['rnc', 'RNCComprador'],
    ['foreignId', 'IdentificadorExtranjero'],
    ['name', 'RazonSocialComprador'],
    ['contact', 'ContactoComprador'],
    ['email', 'CorreoComprador'],
    ['address', 'DireccionComprador'],
    ['municipality', 'MunicipioComprador'],
    ['province', 'ProvinciaComprador'],
    ['internalCode', 'CodigoInternoComprador'],
    ['purchaseOrderNumber', 'NumeroOrdenCompra'],
  ];
  for (const [key, element] of fields) {
    const value = readString(buyer, key);
    paths.set(`ECF.Encabezado.Comprador.${element}`, `buyer.${key}`);
    if (value === undefined) continue;
    if (type !== null && !typeHasElement(type, element)) {
      issues.error(
        `buyer.${key}`,
        ERROR_CODES.FIELD_NOT_APPLICABLE_FOR_TYPE,
        `buyer.${key} (${element}) does not exist in e-CF type ${type}`,
        { element, type },
      );
      continue;
    }
    setAt(root, `ECF.Encabezado.Comprador.${element}`, value);
  }
  const orderDate = readDate(buyer, 'purchaseOrderDate');
  if (orderDate !== undefined) {
    if (type !== null && !typeHasElement(type, 'FechaOrdenCompra'))
      issues.error(
        'buyer.purchaseOrderDate',
        ERROR_CODES.FIELD_NOT_APPLICABLE_FOR_TYPE,
        `buyer.purchaseOrderDate does not exist in e-CF type ${type}`,
        { element: 'FechaOrdenCompra', type },
      );
    else setAt(root, 'ECF.Encabezado.Comprador.FechaOrdenCompra', formatTaxauthDate(orderDate));
  }
  finishObject(buyer);
  if (type !== null && ['31', '41', '45'].includes(type) && !buyer.value.members.has('rnc'))
    issues.error('buyer.rnc', ERROR_CODES.BUYER_ID_REQUIRED, `E${type} requires the buyer's RNC`, { type });
  if (type !== null && ['31', '41', '44', '45', '46'].includes(type) && !buyer.value.members.has('name'))
    issues.error('buyer.name', ERROR_CODES.FIELD_REQUIRED, `E${type} requires buyer.name`);

  const delivery = readObject(reader, 'delivery');
  if (delivery !== undefined) {
    const deliveryDate = readDate(delivery, 'date');
    const deliveryFields: ReadonlyArray<readonly [string, string, string | undefined]> = [
      ['date', 'FechaEntrega', deliveryDate === undefined ? undefined : formatTaxauthDate(deliveryDate)],
      ['contact', 'ContactoEntrega', readString(delivery, 'contact')],
      ['address', 'DireccionEntrega', readString(delivery, 'address')],
      ['phone', 'TelefonoAdicional', readString(delivery, 'phone')],
    ];
    for (const [key, element, value] of deliveryFields) {
      paths.set(`ECF.Encabezado.Comprador.${element}`, `delivery.${key}`);
      if (value === undefined) continue;
      if (type !== null && !typeHasElement(type, element))
        issues.error(
          `delivery.${key}`,
          ERROR_CODES.FIELD_NOT_APPLICABLE_FOR_TYPE,
          `delivery.${key} (${element}) does not exist in e-CF type ${type}`,
          { element, type },
        );
      else setAt(root, `ECF.Encabezado.Comprador.${element}`, value);
    }
    finishObject(delivery);
  }

  const transport = readObject(reader, 'transport');
  if (transport !== undefined) {
    const transportFields: ReadonlyArray<readonly [string, string]> = [
      ['driver', 'Conductor'],
      ['plate', 'Placa'],
      ['route', 'RutaTransporte'],
      ['zone', 'ZonaTransporte'],
      ['deliveryNoteNumber', 'NumeroAlbaran'],
    ];
    for (const [key, element] of transportFields) {
      const value = readString(transport, key);
      paths.set(`ECF.Encabezado.Transporte.${element}`, `transport.${key}`);
      if (value === undefined) continue;
      if (type !== null && !typeHasElement(type, element))
        issues.error(
          `transport.${key}`,
          ERROR_CODES.FIELD_NOT_APPLICABLE_FOR_TYPE,
          `transport.${key} (${element}) does not exist in e-CF type ${type}`,
          { element, type },
        );
      else setAt(root, `ECF.Encabezado.Transporte.${element}`, value);
    }
    finishObject(transport);
  }
}

function readReference(
  reader: TObjectReader,
  type: TEcfType | null,
  root: TMutableTree,
  paths: Map<string, string>,
  issues: TIssueCollector,
): TCalendarDate | undefined {
  const reference = readObject(reader, 'reference', type === '33' || type === '34');
  if (reference === undefined) return undefined;
  const encf = readString(reference, 'encf', true);
  if (encf !== undefined) setAt(root, 'ECF.InformacionReferencia.NCFModificado', encf);
  const otherRnc = readString(reference, 'otherTaxpayerRnc');
  if (otherRnc !== undefined) setAt(root, 'ECF.InformacionReferencia.RNCOtroContribuyente', otherRnc);
  const date = readDate(reference, 'date', true);
  if (date !== undefined)
    setAt(root, 'ECF.InformacionReferencia.FechaNCFModificado', formatTaxauthDate(date));
  const code = readMember(reference, 'modificationCode');
  const codeText =
    code === undefined
      ? undefined
      : code.kind === 'number'
        ? code.text
        : code.kind === 'string'
          ? code.value
          : null;
  if (codeText === undefined) {
    issues.error(
      'reference.modificationCode',
      ERROR_CODES.FIELD_REQUIRED,
      'reference.modificationCode is required (1 to 5)',
    );
  } else if (codeText === null || !/^[1-5]$/.test(codeText)) {
    issues.error(
      'reference.modificationCode',
      ERROR_CODES.FIELD_VALUE_INVALID,
      'reference.modificationCode must be 1, 2, 3, 4 or 5',
      { allowed: [1, 2, 3, 4, 5] },
    );
  } else {
    setAt(root, 'ECF.InformacionReferencia.CodigoModificacion', codeText);
  }
  const reason = readString(reference, 'reason');
  if (reason !== undefined) {
    if (type !== null && !typeHasElement(type, 'RazonModificacion'))
      issues.error(
        'reference.reason',
        ERROR_CODES.FIELD_NOT_APPLICABLE_FOR_TYPE,
        `reference.reason (RazonModificacion) does not exist in e-CF type ${type}`,
        { element: 'RazonModificacion', type },
      );
    else setAt(root, 'ECF.InformacionReferencia.RazonModificacion', reason);
  }
  paths.set('ECF.InformacionReferencia', 'reference');
  finishObject(reference);
  return date;
}

function readRateIndicator(
  line: TObjectReader,
  type: TEcfType | null,
  nonBillable: boolean,
): TBillingIndicator | undefined {
  const path = memberPath(line, 'itbisRate');
  const value = readMember(line, 'itbisRate');
  if (nonBillable) return 0;
  if (value === undefined) {
    line.issues.error(path, ERROR_CODES.FIELD_REQUIRED, `${path} is required: 18, 16, 0 or "exempt"`);
    return undefined;
  }
  const text = value.kind === 'number' ? value.text : value.kind === 'string' ? value.value : null;
  const indicator =
    text === 'exempt'
      ? 4
      : text === null
        ? undefined
        : ({ '18': 1, '16': 2, '0': 3 } as Record<string, TBillingIndicator>)[text];
  if (indicator === undefined) {
    line.issues.error(path, ERROR_CODES.FIELD_VALUE_INVALID, `${path} must be 18, 16, 0 or "exempt"`, {
      allowed: [18, 16, 0, 'exempt'],
    });
    return undefined;
  }
  if (type === null) return indicator;
  const allowed = allowedRateIndicators(type);
  // Exports (E46) are zero-rated: "exempt" and 0 both mean ITBIS3 0 %, the only treatment its XSD has.
  if (type === '46' && indicator === 4) return 3;
  if (!allowed.includes(indicator)) {
    const names = allowed.map((allowedIndicator) =>
      allowedIndicator === 4 ? 'exempt' : ITBIS_PERCENT[allowedIndicator as 1 | 2 | 3],
    );
    line.issues.error(
      path,
      ERROR_CODES.FIELD_VALUE_INVALID,
      `E${type} lines admit only itbisRate ${names.join(', ')}`,
      { allowed: names, reason: 'rate_not_allowed_for_type' },
    );
    return undefined;
  }
  return indicator;
}

function readLine(
  value: TJsonValue,
  index: number,
  type: TEcfType | null,
  issues: TIssueCollector,
): TLineDraft | undefined {
  const path = `lines[${index}]`;
  if (value.kind !== 'object') {
    issues.error(path, ERROR_CODES.FIELD_TYPE_INVALID, `${path} must be an object`, { expected: 'object' });
    return undefined;
  }
  const line = createReader(value, path, issues);
  const tree: TMutableTree = { NumeroLinea: String(index + 1) };
  const name = readString(line, 'name', true);
  const description = readString(line, 'description');
  const quantity = readDecimal(line, 'quantity', true);
  const unitPrice = readDecimal(line, 'unitPrice', true);
  const unitOfMeasure = readString(line, 'unitOfMeasure');
  const nonBillable = readBoolean(line, 'nonBillable') ?? false;
  if (nonBillable && type !== null && !typeHasElement(type, 'MontoNoFacturable')) {
    issues.error(
      `${path}.nonBillable`,
      ERROR_CODES.FIELD_NOT_APPLICABLE_FOR_TYPE,
      `E${type} has no non-billable amounts`,
      { element: 'MontoNoFacturable', type },
    );
  }
  const indicator = readRateIndicator(line, type, nonBillable);
  const kind = readString(line, 'itemKind', true);
  const kindCode = kind === 'good' ? '1' : kind === 'service' ? '2' : undefined;
  if (kind !== undefined && kindCode === undefined)
    issues.error(
      `${path}.itemKind`,
      ERROR_CODES.FIELD_VALUE_INVALID,
      `${path}.itemKind must be "good" or "service"`,
      { allowed: ['good', 'service'] },
    );
  const optionalAmount = (key: string, element: string): TDecimal | undefined => {
    const amount = readDecimal(line, key);
    if (amount === undefined) return undefined;
    if (type !== null && !typeHasElement(type, element)) {
      issues.error(
        `${path}.${key}`,
        ERROR_CODES.FIELD_NOT_APPLICABLE_FOR_TYPE,
        `${path}.${key} (${element}) does not exist in e-CF type ${type}`,
        { element, type },
      );
      return undefined;
    }
    if (amount.units < 0n || amount.scale > 2) {
      issues.error(
        `${path}.${key}`,
        ERROR_CODES.FIELD_VALUE_INVALID,
        `${path}.${key} must be 0 or more with at most 2 decimals`,
        {},
      );
      return undefined;
    }
    return amount;
  };
  const discount = optionalAmount('discountAmount', 'DescuentoMonto');
  const surcharge = optionalAmount('surchargeAmount', 'RecargoMonto');
  const itbisWithheld = optionalAmount('itbisWithheldAmount', 'MontoITBISRetenido');
  let isrWithheld = optionalAmount('isrWithheldAmount', 'MontoISRRetenido');
  if (type === '47' && isrWithheld === undefined && !value.members.has('isrWithheldAmount')) {
    // The E47 XSD makes MontoISRRetenido mandatory on every line; no withholding is an explicit 0.
    isrWithheld = ZERO;
  }
  finishObject(line, LINE_UNSUPPORTED);

  if (quantity !== undefined && (!isPositive(quantity) || quantity.scale > 2)) {
    issues.error(
      `${path}.quantity`,
      ERROR_CODES.FIELD_VALUE_INVALID,
      `${path}.quantity must be greater than 0 with at most 2 decimals`,
      {},
    );
    return undefined;
  }
  if (unitPrice !== undefined && (unitPrice.units < 0n || unitPrice.scale > 4)) {
    issues.error(
      `${path}.unitPrice`,
      ERROR_CODES.FIELD_VALUE_INVALID,
      `${path}.unitPrice must be 0 or more with at most 4 decimals`,
      {},
    );
    return undefined;
  }
  if (
    name === undefined ||
    quantity === undefined ||
    unitPrice === undefined ||
    indicator === undefined ||
    kindCode === undefined
  )
    return undefined;
  if (computeLineAmount(quantity, unitPrice, discount, surcharge).units < 0n) {
    issues.error(
      `${path}.discountAmount`,
      ERROR_CODES.FIELD_VALUE_INVALID,
      `${path}.discountAmount exceeds quantity x unitPrice; a line amount cannot be negative`,
      { reason: 'negative_line_amount' },
    );
    return undefined;
  }
  tree['IndicadorFacturacion'] = String(indicator);
  tree['NombreItem'] = name;
  tree['IndicadorBienoServicio'] = kindCode;
  if (description !== undefined) tree['DescripcionItem'] = description;
  tree['CantidadItem'] = formatDecimalTrimmed(quantity, 0, 2);
  if (unitOfMeasure !== undefined) tree['UnidadMedida'] = unitOfMeasure;
  return { index, indicator, quantity, unitPrice, discount, surcharge, itbisWithheld, isrWithheld, tree };
}

type TAdjustmentSpec = {
  readonly key: string;
  readonly kind: 'discount' | 'surcharge';
  readonly by: 'amount' | 'percent';
  readonly value: TDecimal;
  readonly norma1007: boolean;
};

type TPricedLine = {
  readonly source: TLineDraft;
  readonly unitPrice: TDecimal;
  readonly discount: TDecimal | undefined;
  readonly surcharge: TDecimal | undefined;
  readonly amount: TDecimal;
};

/** The lines at a currency: document currency (factor null) or pesos (factor = exchange rate). */
function priceLines(lines: readonly TLineDraft[], factor: TDecimal | null): TPricedLine[] {
  return lines.map((line) => {
    const convert = (value: TDecimal | undefined, scale: number): TDecimal | undefined =>
      value === undefined ? undefined : factor === null ? value : round(multiply(value, factor), scale);
    const unitPrice = convert(line.unitPrice, 4) ?? ZERO;
    const discount = convert(line.discount, 2);
    const surcharge = convert(line.surcharge, 2);
    return {
      source: line,
      unitPrice,
      discount,
      surcharge,
      amount: computeLineAmount(line.quantity, unitPrice, discount, surcharge),
    };
  });
}

type TAdjustmentEntry = TTotalsAdjustment & { readonly spec: TAdjustmentSpec };

/**
 * One `DescuentoORecargo` per billing indicator the adjustment touches: the tax authority applies each
 * entry to one indicator's base. A percentage applies to each base; an amount is apportioned by the
 * lines' sums (amounts in pesos are converted first). A Norma 10-07 discount is one entry on I1.
 */
function buildAdjustments(
  specs: readonly TAdjustmentSpec[],
  priced: readonly TPricedLine[],
  pricesIncludeTax: boolean,
  factor: TDecimal | null,
): TAdjustmentEntry[] {
  const sums = new Map<TBillingIndicator, TDecimal>();
  for (const line of priced) {
    if (line.source.indicator === 0) continue;
    sums.set(line.source.indicator, add(sums.get(line.source.indicator) ?? ZERO, line.amount));
  }
  const indicators = [...sums.keys()].sort();
  const baseOf = (indicator: TBillingIndicator): TDecimal => {
    const itemSum = sums.get(indicator) ?? ZERO;
    return pricesIncludeTax && isTaxed(indicator)
      ? divide(itemSum, add(decimal('1'), ITBIS_RATE[indicator]), 2)
      : itemSum;
  };
  const entries: TAdjustmentEntry[] = [];
  for (const spec of specs) {
    if (spec.norma1007) {
      const gross = [...sums.values()].reduce(add, ZERO);
      const amount =
        spec.by === 'percent'
          ? divide(multiply(gross, spec.value), decimal('100'), 2)
          : factor === null
            ? spec.value
            : round(multiply(spec.value, factor), 2);
      entries.push({ kind: spec.kind, amount, indicator: 1, norma1007: true, spec });
      continue;
    }
    if (spec.by === 'percent') {
      for (const indicator of indicators) {
        const amount = divide(multiply(baseOf(indicator), spec.value), decimal('100'), 2);
        if (!isZero(amount)) entries.push({ kind: spec.kind, amount, indicator, norma1007: false, spec });
      }
      continue;
    }
    const total = factor === null ? spec.value : round(multiply(spec.value, factor), 2);
    const parts = apportion(total, indicators.map(baseOf));
    indicators.forEach((indicator, index) => {
      const amount = parts[index] ?? ZERO;
      if (!isZero(amount)) entries.push({ kind: spec.kind, amount, indicator, norma1007: false, spec });
    });
  }
  return entries;
}

type TFillInput = {
  readonly type: TEcfType | null;
  readonly lines: readonly TLineDraft[];
  readonly specs: readonly TAdjustmentSpec[];
  readonly pricesIncludeTax: boolean;
  readonly creditNoteWithoutItbis: boolean;
  readonly rate: TDecimal | null;
  readonly currency: string;
  readonly payment: { readonly tipoPago: string; readonly formaPago: string | null } | undefined;
  readonly root: TMutableTree;
  readonly paths: Map<string, string>;
};

function totalsOf(
  priced: readonly TPricedLine[],
  adjustments: readonly TTotalsAdjustment[],
  input: TFillInput,
  factor: TDecimal | null,
): TTotals {
  const lines: TTotalsLine[] = priced.map((line) => ({
    amount: line.amount,
    indicator: line.source.indicator,
    itbisWithheld:
      line.source.itbisWithheld === undefined
        ? undefined
        : factor === null
          ? line.source.itbisWithheld
          : round(multiply(line.source.itbisWithheld, factor), 2),
    isrWithheld:
      line.source.isrWithheld === undefined
        ? undefined
        : factor === null
          ? line.source.isrWithheld
          : round(multiply(line.source.isrWithheld, factor), 2),
  }));
  return computeTotals({
    lines,
    adjustments,
    pricesIncludeTax: input.pricesIncludeTax,
    withoutItbis: input.creditNoteWithoutItbis,
  });
}

/** Computes lines, adjustments and totals, in pesos and (with another currency) in that currency. */
function fillAmounts(input: TFillInput): void {
  const { root, type } = input;
  const foreign = input.rate !== null;
  // Pesos are the document's legal amounts; with another currency the client's prices are converted.
  const pesoLines = priceLines(input.lines, input.rate);
  const pesoAdjustments = buildAdjustments(input.specs, pesoLines, input.pricesIncludeTax, input.rate);
  const totals = totalsOf(pesoLines, pesoAdjustments, input, input.rate);
  const foreignLines = foreign ? priceLines(input.lines, null) : [];
  const foreignAdjustments = foreign
    ? buildAdjustments(input.specs, foreignLines, input.pricesIncludeTax, null)
    : [];
  const foreignTotals = foreign ? totalsOf(foreignLines, foreignAdjustments, input, null) : null;
  const money = (value: TDecimal): string => formatDecimal(value, 2);

  const items = pesoLines.map((line, position) => {
    const tree: TMutableTree = { ...line.source.tree };
    if (
      line.source.itbisWithheld !== undefined ||
      line.source.isrWithheld !== undefined ||
      type === '41' ||
      type === '47'
    ) {
      const retention: TMutableTree = { IndicadorAgenteRetencionoPercepcion: '1' };
      const convert = (value: TDecimal): TDecimal =>
        input.rate === null ? value : round(multiply(value, input.rate), 2);
      if (line.source.itbisWithheld !== undefined)
        retention['MontoITBISRetenido'] = money(convert(line.source.itbisWithheld));
      if (line.source.isrWithheld !== undefined)
        retention['MontoISRRetenido'] = money(convert(line.source.isrWithheld));
      tree['Retencion'] = retention;
    }
    tree['PrecioUnitarioItem'] = formatDecimalTrimmed(line.unitPrice, 2, 4);
    if (line.discount !== undefined) tree['DescuentoMonto'] = money(line.discount);
    if (line.surcharge !== undefined) tree['RecargoMonto'] = money(line.surcharge);
    const foreignLine = foreignLines[position];
    if (foreignLine !== undefined) {
      const detail: TMutableTree = { PrecioOtraMoneda: formatDecimalTrimmed(foreignLine.unitPrice, 2, 4) };
      if (foreignLine.discount !== undefined) detail['DescuentoOtraMoneda'] = money(foreignLine.discount);
      if (foreignLine.surcharge !== undefined) detail['RecargoOtraMoneda'] = money(foreignLine.surcharge);
      detail['MontoItemOtraMoneda'] = money(foreignLine.amount);
      tree['OtraMonedaDetalle'] = detail;
    }
    tree['MontoItem'] = money(line.amount);
    return tree;
  });
  setAt(root, 'ECF.DetallesItems', { Item: items });

  if (pesoAdjustments.length > 0) {
    const entries = pesoAdjustments.map((adjustment, position) => {
      input.paths.set(`ECF.DescuentosORecargos.DescuentoORecargo[${position}]`, adjustment.spec.key);
      const entry: TMutableTree = {
        NumeroLinea: String(position + 1),
        TipoAjuste: adjustment.kind === 'discount' ? 'D' : 'R',
      };
      if (adjustment.norma1007) entry['IndicadorNorma1007'] = '1';
      entry['TipoValor'] = adjustment.spec.by === 'percent' ? '%' : '$';
      if (adjustment.spec.by === 'percent')
        entry['ValorDescuentooRecargo'] = formatDecimalTrimmed(adjustment.spec.value, 2, 2);
      entry['MontoDescuentooRecargo'] = money(adjustment.amount);
      const foreignAdjustment = foreignAdjustments[position];
      if (foreignAdjustment !== undefined)
        entry['MontoDescuentooRecargoOtraMoneda'] = money(foreignAdjustment.amount);
      if (adjustment.indicator !== null)
        entry['IndicadorFacturacionDescuentooRecargo'] = String(adjustment.indicator);
      return entry;
    });
    setAt(root, 'ECF.DescuentosORecargos', { DescuentoORecargo: entries });
  }

  const taxedPresent = TAXED_INDICATORS.filter((indicator) => totals.indicatorsPresent.has(indicator));
  if (taxedPresent.length > 0 && (type === null || typeHasElement(type, 'IndicadorMontoGravado'))) {
    setAt(root, 'ECF.Encabezado.IdDoc.IndicadorMontoGravado', input.pricesIncludeTax ? '1' : '0');
  }
  if (
    input.payment !== undefined &&
    input.payment.formaPago !== null &&
    (type === null || typeHasElement(type, 'TablaFormasPago'))
  ) {
    setAt(root, 'ECF.Encabezado.IdDoc.TablaFormasPago', {
      FormaDePago: [{ FormaPago: input.payment.formaPago, MontoPago: money(totals.payable) }],
    });
  }

  const totalsTree: TMutableTree = {};
  const writeTotals = (target: TMutableTree, values: TTotals, names: TTotalNames): void => {
    if (taxedPresent.length > 0) target[names.taxableTotal] = money(values.taxableTotal);
    for (const indicator of taxedPresent)
      target[names.taxable[indicator]] = money(values.taxableByRate[indicator]);
    if (values.indicatorsPresent.has(4)) target[names.exempt] = money(values.exempt);
    if (names.rates)
      for (const indicator of taxedPresent) target[`ITBIS${indicator}`] = ITBIS_PERCENT[indicator];
    if (taxedPresent.length > 0 && !input.creditNoteWithoutItbis) {
      target[names.totalItbis] = money(values.totalItbis);
      for (const indicator of taxedPresent)
        target[names.itbis[indicator]] = money(values.itbisByRate[indicator]);
    }
    target[names.total] = money(values.total);
  };
  writeTotals(totalsTree, totals, PESO_NAMES);
  if (totals.indicatorsPresent.has(0)) totalsTree['MontoNoFacturable'] = money(totals.nonBillable);
  if (pesoAdjustments.some((adjustment) => adjustment.norma1007))
    totalsTree['ValorPagar'] = money(totals.payable);
  if (totals.hasItbisWithheld) totalsTree['TotalITBISRetenido'] = money(totals.itbisWithheld);
  if (totals.hasIsrWithheld) totalsTree['TotalISRRetencion'] = money(totals.isrWithheld);
  setAt(root, 'ECF.Encabezado.Totales', totalsTree);

  if (foreignTotals !== null && input.rate !== null) {
    const other: TMutableTree = {
      TipoMoneda: input.currency,
      TipoCambio: formatDecimalTrimmed(input.rate, 2, 4),
    };
    writeTotals(other, foreignTotals, FOREIGN_NAMES);
    setAt(root, 'ECF.Encabezado.OtraMoneda', other);
  }
}

type TTotalNames = {
  readonly taxableTotal: string;
  readonly taxable: Readonly<Record<1 | 2 | 3, string>>;
  readonly exempt: string;
  readonly totalItbis: string;
  readonly itbis: Readonly<Record<1 | 2 | 3, string>>;
  readonly total: string;
  readonly rates: boolean;
};

const PESO_NAMES: TTotalNames = {
  taxableTotal: 'MontoGravadoTotal',
  taxable: { 1: 'MontoGravadoI1', 2: 'MontoGravadoI2', 3: 'MontoGravadoI3' },
  exempt: 'MontoExento',
  totalItbis: 'TotalITBIS',
  itbis: { 1: 'TotalITBIS1', 2: 'TotalITBIS2', 3: 'TotalITBIS3' },
  total: 'MontoTotal',
  rates: true,
};

const FOREIGN_NAMES: TTotalNames = {
  taxableTotal: 'MontoGravadoTotalOtraMoneda',
  taxable: { 1: 'MontoGravado1OtraMoneda', 2: 'MontoGravado2OtraMoneda', 3: 'MontoGravado3OtraMoneda' },
  exempt: 'MontoExentoOtraMoneda',
  totalItbis: 'TotalITBISOtraMoneda',
  itbis: { 1: 'TotalITBIS1OtraMoneda', 2: 'TotalITBIS2OtraMoneda', 3: 'TotalITBIS3OtraMoneda' },
  total: 'MontoTotalOtraMoneda',
  rates: false,
};
