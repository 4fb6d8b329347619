import { add, compare, decimal, formatDecimal, parseDecimal, type TDecimal } from '../decimal/decimal.ts';
import { additionalTaxKindOf, BULK_UNIT_OF_MEASURE, iscProductOf } from '../calculation/additional-taxes.ts';
import { computeLineItbis, type TBillingIndicator } from '../calculation/totals.ts';
import {
  dayNumber,
  dominicanDateOf,
  formatTaxauthDate,
  parseTaxauthDate,
  parseTaxauthDateTime,
  type TCalendarDate,
} from '../input/dates.ts';
import {
  clientPathOf,
  elementsAt,
  leavesAt,
  textAt,
  type TDocumentDraft,
  type TMutableTree,
} from '../input/draft.ts';
import { isSequenceExpirationApplicable } from '../input/type-applicability.ts';
import { ECF_TYPES } from '../model/ecf-tree.ts';
import type { TValidationContext } from './context.ts';
import { isIssuerPhone, MAX_ISSUER_PHONES } from './issuer-phones.ts';
import {
  ERROR_CODES,
  WARNING_CODES,
  type TErrorCode,
  type TIssueCollector,
  type TWarningCode,
} from './issues.ts';

/** Rule 10: an E32 at or above this total needs buyer identification. */
export const CONSUMER_INVOICE_THRESHOLD = decimal('250000.00');
/** Rule 21: tolerated clock skew of a client signature time. */
export const SIGNATURE_CLOCK_MARGIN_MS = 2 * 60 * 1000;

const ID = 'ECF.Encabezado.IdDoc';
const ISSUER = 'ECF.Encabezado.Emisor';
const BUYER = 'ECF.Encabezado.Comprador';
const TOTALS = 'ECF.Encabezado.Totales';
const REFERENCE = 'ECF.InformacionReferencia';
const ITEMS = 'ECF.DetallesItems.Item';

/** Helpers bound to one draft: read tree values, report on the client's paths, skip fields already in error. */
type TRuleKit = {
  readonly draft: TDocumentDraft;
  readonly issues: TIssueCollector;
  text(treePath: string): string | undefined;
  date(treePath: string): TCalendarDate | null;
  amount(treePath: string): TDecimal | null;
  pathOf(treePath: string): string;
  hasErrorAt(treePath: string): boolean;
  error(treePath: string, code: TErrorCode, message: string, details?: Record<string, unknown>): void;
  warn(treePath: string, code: TWarningCode, message: string, details?: Record<string, unknown>): void;
};

/** Rule helpers over a draft, reporting into `issues`. */
export function createRuleKit(draft: TDocumentDraft, issues: TIssueCollector): TRuleKit {
  const pathOf = (treePath: string): string => clientPathOf(draft, treePath);
  const text = (treePath: string): string | undefined => textAt(draft.root, treePath);
  return {
    draft,
    issues,
    text,
    date: (treePath) => {
      const value = text(treePath);
      return value === undefined ? null : parseTaxauthDate(value);
    },
    amount: (treePath) => {
      const value = text(treePath);
      return value === undefined ? null : parseDecimal(value);
    },
    pathOf,
    hasErrorAt: (treePath) => {
      if (issues.errors.length === 0) return false;
      const path = pathOf(treePath);
      return issues.errors.some((error) => error.path === path);
    },
    error: (treePath, code, message, details) => issues.error(pathOf(treePath), code, message, details),
    warn: (treePath, code, message, details) => issues.warn(pathOf(treePath), code, message, details),
  };
}

/** Rules 4-21 that apply to the document whatever format it came in (formats already checked their own syntax). */
export async function applyDocumentRules(
  draft: TDocumentDraft,
  context: TValidationContext,
  issues: TIssueCollector,
): Promise<void> {
  const kit = createRuleKit(draft, issues);
  checkIdentity(kit);
  checkIssuer(kit, context);
  checkPaymentDueDate(kit);
  await checkSequenceExpiration(kit, context);
  checkSignatureDate(kit, context);
  checkRates(kit);
  checkNorma1007(kit);
  checkExchangeRate(kit);
  checkPagination(kit);
  checkSpecificConsumptionTax(kit);
  checkWithholding(kit);
  checkCreditNoteItbis(kit);
  await checkReference(kit, context);
  await checkBuyer(kit, context);
}

function checkIdentity(kit: TRuleKit): void {
  if (kit.draft.format !== 'taxauth_json') return;
  const typePath = `${ID}.TipoeCF`;
  const type = kit.text(typePath);
  if (type === undefined) kit.error(typePath, ERROR_CODES.FIELD_REQUIRED, 'TipoeCF is required');
  else if (kit.draft.type === null)
    kit.error(typePath, ERROR_CODES.FIELD_VALUE_INVALID, `TipoeCF must be one of ${ECF_TYPES.join(', ')}`, {
      value: type,
      allowed: ECF_TYPES,
    });
  const encfPath = `${ID}.eNCF`;
  if (kit.text(encfPath) === undefined) kit.error(encfPath, ERROR_CODES.FIELD_REQUIRED, 'eNCF is required');
  if (kit.text(`${ISSUER}.FechaEmision`) === undefined && !kit.hasErrorAt(`${ISSUER}.FechaEmision`))
    kit.error(`${ISSUER}.FechaEmision`, ERROR_CODES.FIELD_REQUIRED, 'FechaEmision is required');
  if (kit.text(`${TOTALS}.MontoTotal`) === undefined && !kit.hasErrorAt(`${TOTALS}.MontoTotal`))
    kit.error(`${TOTALS}.MontoTotal`, ERROR_CODES.FIELD_REQUIRED, 'MontoTotal is required');
  if (elementsAt(kit.draft.root, ITEMS).length === 0)
    kit.error('ECF.DetallesItems', ERROR_CODES.FIELD_REQUIRED, 'DetallesItems.Item needs at least one item');
}

/** eNCF format and its type digits (both formats). */
function checkEncf(kit: TRuleKit): void {
  const encfPath = `${ID}.eNCF`;
  const encf = kit.text(encfPath);
  if (encf === undefined) return;
  if (!/^E\d{12}$/.test(encf)) {
    kit.error(
      encfPath,
      ERROR_CODES.FIELD_VALUE_INVALID,
      'An eNCF is the letter E, the two-digit type and ten digits (E310000000001)',
      { value: encf, reason: 'encf_format' },
    );
  } else if (kit.draft.type !== null && encf.slice(1, 3) !== kit.draft.type) {
    kit.error(encfPath, ERROR_CODES.FIELD_VALUE_INVALID, `eNCF ${encf} is not of type ${kit.draft.type}`, {
      value: encf,
      reason: 'encf_type_mismatch',
    });
  }
}

function checkIssuer(kit: TRuleKit, context: TValidationContext): void {
  checkEncf(kit);
  const rncPath = `${ISSUER}.RNCEmisor`;
  const rnc = kit.text(rncPath);
  if (rnc === undefined) {
    if (!kit.hasErrorAt(rncPath))
      kit.error(rncPath, ERROR_CODES.FIELD_REQUIRED, 'The issuer RNC is required');
  } else if (rnc !== context.account.rnc) {
    kit.error(
      rncPath,
      ERROR_CODES.ISSUER_RNC_MISMATCH,
      `The issuer RNC ${rnc} is not the RNC of the authenticated account`,
      { expected: context.account.rnc, received: rnc },
    );
  }
  // Rule 14: at most 3 phones, each NNN-NNN-NNNN.
  const phonesPath = `${ISSUER}.TablaTelefonoEmisor.TelefonoEmisor`;
  const phones = leavesAt(kit.draft.root, phonesPath);
  if (phones.length > MAX_ISSUER_PHONES)
    kit.error(
      phonesPath,
      ERROR_CODES.ISSUER_PHONE_INVALID,
      `At most ${MAX_ISSUER_PHONES} issuer phones are allowed, got ${phones.length}`,
      { count: phones.length, max: MAX_ISSUER_PHONES },
    );
  phones.forEach((phone, index) => {
    if (!isIssuerPhone(phone))
      kit.error(
        `${phonesPath}[${index}]`,
        ERROR_CODES.ISSUER_PHONE_INVALID,
        `Issuer phone ${JSON.stringify(phone)} must be NNN-NNN-NNNN`,
        { value: phone },
      );
  });
}

function checkPaymentDueDate(kit: TRuleKit): void {
  const path = `${ID}.FechaLimitePago`;
  // Official format, FechaLimitePago b): the due date is on or after the issue date.
  const dueDate = kit.date(path);
  const issueDate = kit.date(`${ISSUER}.FechaEmision`);
  if (dueDate !== null && issueDate !== null && dayNumber(dueDate) < dayNumber(issueDate)) {
    kit.error(path, ERROR_CODES.FIELD_VALUE_INVALID, 'The payment due date is before the issue date', {
      reason: 'due_date_before_issue_date',
    });
  }
  // Rule 13: a credit sale names its due date, except payments abroad (E47).
  if (kit.text(`${ID}.TipoPago`) !== '2' || kit.draft.type === '47') return;
  if (kit.text(path) === undefined && !kit.hasErrorAt(path))
    kit.error(
      path,
      ERROR_CODES.PAYMENT_DUE_DATE_REQUIRED,
      'A credit sale (TipoPago 2) requires the payment due date',
      {},
    );
}

async function checkSequenceExpiration(kit: TRuleKit, context: TValidationContext): Promise<void> {
  const type = kit.draft.type;
  if (type === null) return;
  const path = `${ID}.FechaVencimientoSecuencia`;
  const text = kit.text(path);
  if (!isSequenceExpirationApplicable(type)) {
    if (text !== undefined && kit.draft.format === 'taxauth_json') {
      kit.error(
        path,
        ERROR_CODES.SEQUENCE_EXPIRATION_DATE_NOT_APPLICABLE,
        `E${type} sequences have no expiration date; remove FechaVencimientoSecuencia`,
        { type },
      );
    }
    return;
  }
  if (text === undefined) {
    if (!kit.hasErrorAt(path))
      kit.error(
        path,
        ERROR_CODES.SEQUENCE_EXPIRATION_DATE_REQUIRED,
        `E${type} requires the sequence expiration date; it is never defaulted`,
        { type },
      );
    return;
  }
  const expiration = parseTaxauthDate(text);
  if (expiration === null) return; // reported as SEQUENCE_EXPIRATION_DATE_INVALID while reading
  const issueDate = kit.date(`${ISSUER}.FechaEmision`);
  if (issueDate !== null) {
    if (dayNumber(expiration) < dayNumber(issueDate)) {
      kit.error(
        path,
        ERROR_CODES.SEQUENCE_EXPIRED_AT_ISSUE_DATE,
        `The sequence expired on ${formatTaxauthDate(expiration)}, before the issue date ${formatTaxauthDate(issueDate)}`,
        {
          expiration: formatTaxauthDate(expiration),
          issueDate: formatTaxauthDate(issueDate),
        },
      );
    } else {
      const legalMax = { year: issueDate.year + 1, month: 12, day: 31 };
      if (dayNumber(expiration) > dayNumber(legalMax)) {
        kit.warn(
          path,
          WARNING_CODES.SEQUENCE_EXPIRATION_BEYOND_LEGAL_MAX,
          `Sequences expire at the latest on 31-12 of the year after issue (${formatTaxauthDate(legalMax)})`,
          { legalMax: formatTaxauthDate(legalMax) },
        );
      }
      const today = dominicanDateOf(context.now.getTime());
      if (dayNumber(expiration) < dayNumber(today)) {
        kit.warn(
          path,
          WARNING_CODES.SEQUENCE_EXPIRED_AT_SEND_DATE,
          `The sequence expired on ${formatTaxauthDate(expiration)}; the tax authority may reject it when it is sent today`,
          { today: formatTaxauthDate(today) },
        );
      }
    }
  }
  const encf = kit.text(`${ID}.eNCF`);
  // Only a well-formed eNCF is looked up: rule 2 already refused any other (checkEncf).
  if (encf !== undefined && !kit.hasErrorAt(`${ID}.eNCF`) && context.findRegisteredRange !== undefined) {
    const range = await context.findRegisteredRange(encf);
    const registered = range === null ? null : parseTaxauthDate(range.sequenceExpirationDate);
    if (range !== null && (registered === null || dayNumber(registered) !== dayNumber(expiration))) {
      kit.error(
        path,
        ERROR_CODES.SEQUENCE_EXPIRATION_RANGE_MISMATCH,
        `The registered range of ${encf} expires on ${range.sequenceExpirationDate}`,
        { registered: range.sequenceExpirationDate },
      );
    }
  }
}

function checkSignatureDate(kit: TRuleKit, context: TValidationContext): void {
  const path = 'ECF.FechaHoraFirma';
  const text = kit.text(path);
  if (text === undefined || kit.hasErrorAt(path)) return;
  const instant = parseTaxauthDateTime(text);
  if (instant === null) {
    kit.error(
      path,
      ERROR_CODES.SIGNATURE_DATE_INVALID,
      `FechaHoraFirma must be DD-MM-YYYY HH:mm:ss, got ${JSON.stringify(text)}`,
      { value: text },
    );
  } else if (instant > context.now.getTime() + SIGNATURE_CLOCK_MARGIN_MS) {
    kit.error(
      path,
      ERROR_CODES.SIGNATURE_DATE_IN_FUTURE,
      'The signature time is later than the current Dominican Republic time (2 minutes margin)',
      { value: text },
    );
  }
}

function checkRates(kit: TRuleKit): void {
  const expected: ReadonlyArray<readonly [string, string]> = [
    ['ITBIS1', '18'],
    ['ITBIS2', '16'],
    ['ITBIS3', '0'],
  ];
  for (const [element, rate] of expected) {
    const path = `${TOTALS}.${element}`;
    const value = kit.amount(path);
    const text = kit.text(path);
    if (text === undefined) continue;
    if (value === null || compare(value, decimal(rate)) !== 0)
      kit.error(path, ERROR_CODES.ITBIS_RATE_MISMATCH, `${element} must be ${rate}`, {
        expected: rate,
        received: text,
      });
  }
  const anyRateTotal = ['TotalITBIS1', 'TotalITBIS2', 'TotalITBIS3'].some(
    (element) => kit.text(`${TOTALS}.${element}`) !== undefined,
  );
  if (anyRateTotal && kit.text(`${TOTALS}.TotalITBIS`) === undefined) {
    kit.error(
      `${TOTALS}.TotalITBIS`,
      ERROR_CODES.TOTAL_ITBIS_REQUIRED,
      'TotalITBIS is required whenever a TotalITBISn is present',
      {},
    );
  }
}

function checkNorma1007(kit: TRuleKit): void {
  if (kit.draft.format !== 'taxauth_json') return; // the simplified contract reports it on globalDiscountNorma1007
  const pricesIncludeTax = kit.text(`${ID}.IndicadorMontoGravado`) === '1';
  elementsAt(kit.draft.root, 'ECF.DescuentosORecargos.DescuentoORecargo').forEach((entry, index) => {
    if (entry['IndicadorNorma1007'] === '1' && !pricesIncludeTax) {
      kit.error(
        `ECF.DescuentosORecargos.DescuentoORecargo[${index}].IndicadorNorma1007`,
        ERROR_CODES.NORMA_1007_REQUIRES_ITBIS_INCLUDED,
        'A Norma 10-07 discount requires IndicadorMontoGravado 1',
        {},
      );
    }
  });
}

function checkExchangeRate(kit: TRuleKit): void {
  if (kit.draft.format !== 'taxauth_json') return;
  const other = elementsAt(kit.draft.root, 'ECF.Encabezado.OtraMoneda');
  if (other.length === 0) return;
  const path = 'ECF.Encabezado.OtraMoneda.TipoCambio';
  if (kit.hasErrorAt(path)) return;
  const rate = kit.amount(path);
  if (rate === null || rate.units <= 0n)
    kit.error(path, ERROR_CODES.EXCHANGE_RATE_INVALID, 'OtraMoneda requires TipoCambio greater than 0', {
      received: kit.text(path) ?? null,
    });
}

function checkPagination(kit: TRuleKit): void {
  const pages = elementsAt(kit.draft.root, 'ECF.Paginacion.Pagina');
  if (pages.length === 0) return;
  const itemCount = elementsAt(kit.draft.root, ITEMS).length;
  const problems: string[] = [];
  const declared = kit.text(`${ID}.TotalPaginas`);
  if (declared === undefined) problems.push('TotalPaginas is missing');
  else if (declared !== String(pages.length))
    problems.push(`TotalPaginas is ${declared} but ${pages.length} pages are described`);
  let expectedFrom = 1;
  pages.forEach((page, index) => {
    const leaf = (name: string): string => {
      const value = page[name];
      return typeof value === 'string' ? value : '';
    };
    const from = Number(leaf('NoLineaDesde'));
    const to = Number(leaf('NoLineaHasta'));
    if (leaf('PaginaNo') !== String(index + 1))
      problems.push(`page ${index + 1} has PaginaNo ${leaf('PaginaNo') || '(none)'}`);
    if (from !== expectedFrom || !(to >= from))
      problems.push(
        `page ${index + 1} covers lines ${leaf('NoLineaDesde')}-${leaf('NoLineaHasta')}, expected to start at ${expectedFrom}`,
      );
    expectedFrom = to + 1;
  });
  if (expectedFrom - 1 !== itemCount)
    problems.push(`pages cover ${expectedFrom - 1} lines but there are ${itemCount}`);
  if (problems.length > 0)
    kit.error(
      'ECF.Paginacion',
      ERROR_CODES.PAGINATION_INVALID,
      `Paginacion is inconsistent: ${problems.join('; ')}`,
      { problems },
    );
}

/**
 * Rule 7 (format notes 23-24, fields 105-108): when the invoice has ISC codes 006-039 on an item not
 * sold in bulk (`UnidadMedida` 18), the specific ISC amount must be on it: at least one group of
 * `Totales.ImpuestosAdicionales` carries `MontoImpuestoSelectivoConsumoEspecifico`. The note speaks
 * of the invoice, not of each group: the tax authority's own workbooks write a beer line with code
 * 006 (specific, with the amount) and 023 (ad valorem, with its own amount only). Without any, each
 * group lacking it is an error (as the tax authority rejects the invoice); with one somewhere, a
 * group whose items get their specific ISC from nowhere is only a warning. An ad valorem group
 * (023-039) gets it from its items' own specific code of the same product (006-018 for alcohol,
 * 019-022 for cigarettes) when each such item carries one that has a group, or from its own amount.
 */
function checkSpecificConsumptionTax(kit: TRuleKit): void {
  const lines = elementsAt(kit.draft.root, ITEMS).map((item) => ({
    bulk: item['UnidadMedida'] === BULK_UNIT_OF_MEASURE,
    codes: elementsAt(item, 'TablaImpuestoAdicional.ImpuestoAdicional')
      .map((tax) => tax['TipoImpuesto'])
      .filter((code): code is string => typeof code === 'string'),
  }));
  const isSelective = (code: string): boolean => {
    const kind = additionalTaxKindOf(code);
    return kind === 'isc_specific' || kind === 'isc_ad_valorem';
  };
  if (!lines.some((line) => !line.bulk && line.codes.some(isSelective))) return;

  const groupsPath = `${TOTALS}.ImpuestosAdicionales.ImpuestoAdicional`;
  const groups = elementsAt(kit.draft.root, groupsPath);
  const declaredCodes = new Set(groups.map((group) => group['TipoImpuesto']));
  const carriesSpecific = (group: TMutableTree): boolean =>
    group['MontoImpuestoSelectivoConsumoEspecifico'] !== undefined;
  const lacking: Array<{ index: number; code: string }> = [];
  groups.forEach((group, index) => {
    const code = group['TipoImpuesto'];
    if (typeof code !== 'string' || !isSelective(code) || carriesSpecific(group)) return;
    const carriers = lines.filter((line) => !line.bulk && line.codes.includes(code));
    if (carriers.length === 0) return;
    const product = iscProductOf(code);
    const ownSpecific = (line: (typeof lines)[number]): boolean =>
      line.codes.some(
        (other) =>
          additionalTaxKindOf(other) === 'isc_specific' &&
          iscProductOf(other) === product &&
          declaredCodes.has(other),
      );
    if (additionalTaxKindOf(code) === 'isc_ad_valorem' && carriers.every(ownSpecific)) return;
    lacking.push({ index, code });
  });

  const invoiceCarriesSpecific = groups.some(carriesSpecific);
  for (const { index, code } of lacking) {
    const path = `${groupsPath}[${index}].MontoImpuestoSelectivoConsumoEspecifico`;
    if (invoiceCarriesSpecific)
      kit.warn(
        path,
        WARNING_CODES.ISC_SPECIFIC_AMOUNT_MISSING,
        `Additional tax ${code} has no specific ISC for its items (neither MontoImpuestoSelectivoConsumoEspecifico on this group nor a specific code of the same product on each item); another group carries one, so the tax authority's check passes, but this group's amounts cannot be recomputed`,
        { taxCode: code },
      );
    else
      kit.error(
        path,
        ERROR_CODES.ISC_SPECIFIC_AMOUNT_REQUIRED,
        `Additional tax ${code} on an item not sold in bulk requires MontoImpuestoSelectivoConsumoEspecifico on the invoice, and no group carries it`,
        { taxCode: code },
      );
  }
  if (!invoiceCarriesSpecific && lacking.length === 0)
    kit.error(
      `${TOTALS}.ImpuestosAdicionales`,
      ERROR_CODES.ISC_SPECIFIC_AMOUNT_REQUIRED,
      'Items not sold in bulk carry ISC codes 006-039 but no group of Totales.ImpuestosAdicionales carries MontoImpuestoSelectivoConsumoEspecifico',
      { taxCodes: [...new Set(lines.flatMap((line) => (line.bulk ? [] : line.codes.filter(isSelective))))] },
    );
}

function checkWithholding(kit: TRuleKit): void {
  const pricesIncludeTax = kit.text(`${ID}.IndicadorMontoGravado`) === '1';
  elementsAt(kit.draft.root, ITEMS).forEach((item, index) => {
    const base = `${ITEMS}[${index}]`;
    const retention = item['Retencion'];
    if (retention === undefined || typeof retention === 'string' || Array.isArray(retention)) return;
    const withheld = parseAmount(retention['MontoITBISRetenido']);
    const amount = parseAmount(item['MontoItem']);
    const indicator = Number(item['IndicadorFacturacion']);
    if (withheld !== null && amount !== null && [0, 1, 2, 3, 4].includes(indicator)) {
      const lineItbis = computeLineItbis(amount, indicator as TBillingIndicator, pricesIncludeTax);
      if (compare(withheld, lineItbis) > 0) {
        kit.error(
          `${base}.Retencion.MontoITBISRetenido`,
          ERROR_CODES.ITBIS_RETENTION_EXCEEDS_LINE_ITBIS,
          `ITBIS withheld ${formatDecimal(withheld, 2)} exceeds the line's ITBIS ${formatDecimal(lineItbis, 2)}`,
          {
            declared: formatDecimal(withheld, 2),
            lineItbis: formatDecimal(lineItbis, 2),
          },
        );
      }
    }
    const isr = parseAmount(retention['MontoISRRetenido']);
    if (kit.draft.type === '41' && isr !== null && isr.units > 0n && item['IndicadorBienoServicio'] !== '2') {
      kit.error(
        `${base}.Retencion.MontoISRRetenido`,
        ERROR_CODES.ISR_RETENTION_REQUIRES_SERVICE,
        'E41 withholds income tax (ISR) only on services (IndicadorBienoServicio 2)',
        {},
      );
    }
    if (retention['IndicadorAgenteRetencionoPercepcion'] === '2') {
      kit.warn(
        `${base}.Retencion.IndicadorAgenteRetencionoPercepcion`,
        WARNING_CODES.PERCEPTION_REGIME_NOT_IN_FORCE,
        'The perception regime is not in force',
        {},
      );
    }
  });
  for (const element of ['TotalITBISPercepcion', 'TotalISRPercepcion']) {
    if (kit.text(`${TOTALS}.${element}`) !== undefined)
      kit.warn(
        `${TOTALS}.${element}`,
        WARNING_CODES.PERCEPTION_REGIME_NOT_IN_FORCE,
        'The perception regime is not in force',
        {},
      );
  }
}

function parseAmount(value: unknown): TDecimal | null {
  return typeof value === 'string' ? parseDecimal(value) : null;
}

function checkCreditNoteItbis(kit: TRuleKit): void {
  if (kit.draft.type !== '34' || kit.text(`${ID}.IndicadorNotaCredito`) !== '1') return;
  const declared = ['TotalITBIS', 'TotalITBIS1', 'TotalITBIS2', 'TotalITBIS3'].find(
    (element) => kit.text(`${TOTALS}.${element}`) !== undefined,
  );
  if (declared !== undefined) {
    kit.warn(
      `${TOTALS}.${declared}`,
      WARNING_CODES.CREDIT_NOTE_ITBIS_NOT_RETURNED,
      'A credit note issued more than 30 days after the invoice (IndicadorNotaCredito 1) does not return ITBIS; the declared ITBIS is not deductible',
      {},
    );
  }
}

async function checkReference(kit: TRuleKit, context: TValidationContext): Promise<void> {
  const type = kit.draft.type;
  const isNote = type === '33' || type === '34';
  const codePath = `${REFERENCE}.CodigoModificacion`;
  const code = kit.text(codePath);
  const referencedEncf = kit.text(`${REFERENCE}.NCFModificado`);
  if (
    isNote &&
    referencedEncf === undefined &&
    !kit.hasErrorAt(REFERENCE) &&
    !kit.hasErrorAt(`${REFERENCE}.NCFModificado`)
  ) {
    kit.error(
      `${REFERENCE}.NCFModificado`,
      ERROR_CODES.FIELD_REQUIRED,
      'A debit or credit note must reference the modified e-CF',
    );
  }
  if (code === '4') {
    kit.error(
      codePath,
      ERROR_CODES.CONTINGENCY_PAPER_REPLACEMENT_UNSUPPORTED,
      'Replacing a paper receipt issued in contingency (CodigoModificacion 4) is not supported',
      {},
    );
  } else if (code === '5') {
    const applicable = type === '31' && referencedEncf?.startsWith('E32') === true;
    if (!applicable)
      kit.error(
        codePath,
        ERROR_CODES.REFERENCE_CODE_NOT_APPLICABLE,
        'CodigoModificacion 5 (consumer invoice reference) applies only to an E31 referencing an E32',
        { type },
      );
  }

  const issueDate = kit.date(`${ISSUER}.FechaEmision`);
  const referenceDatePath = `${REFERENCE}.FechaNCFModificado`;
  const referenceDate = kit.date(referenceDatePath);
  if (
    isNote &&
    issueDate !== null &&
    referenceDate !== null &&
    dayNumber(referenceDate) > dayNumber(issueDate)
  ) {
    kit.error(
      referenceDatePath,
      ERROR_CODES.REFERENCE_DATE_AFTER_ISSUE_DATE,
      "The modified e-CF date is after this note's issue date",
      { referenceDate: formatTaxauthDate(referenceDate), issueDate: formatTaxauthDate(issueDate) },
    );
  }
  if (type === '34' && kit.draft.format === 'taxauth_json' && issueDate !== null && referenceDate !== null) {
    const indicatorPath = `${ID}.IndicadorNotaCredito`;
    const declared = kit.text(indicatorPath);
    const expected = dayNumber(issueDate) - dayNumber(referenceDate) > 30 ? '1' : '0';
    if (declared !== undefined && declared !== expected) {
      kit.error(
        indicatorPath,
        ERROR_CODES.CREDIT_NOTE_INDICATOR_MISMATCH,
        `IndicadorNotaCredito must be ${expected}: ${dayNumber(issueDate) - dayNumber(referenceDate)} calendar days separate the invoice and the note`,
        { expected, declared },
      );
    }
  }

  if (!isNote || referencedEncf === undefined || context.lookupReferencedDocument === undefined) return;
  const original = await context.lookupReferencedDocument(referencedEncf);
  if (original === null) return; // clarification 16: not issued through the service, nothing to compare
  const encfPath = `${REFERENCE}.NCFModificado`;
  if (original.status === 'rejected' || original.status === 'cancelled' || original.annulled === true) {
    kit.error(
      encfPath,
      ERROR_CODES.REFERENCED_ENCF_NOT_ACCEPTED,
      `The referenced e-CF ${referencedEncf} was ${original.annulled === true ? 'annulled' : original.status}`,
      { status: original.annulled === true ? 'annulled' : original.status },
    );
  }
  const buyerPath =
    kit.text(`${BUYER}.RNCComprador`) !== undefined
      ? `${BUYER}.RNCComprador`
      : `${BUYER}.IdentificadorExtranjero`;
  const buyerId = kit.text(buyerPath);
  if (buyerId !== undefined && original.buyerId !== null && buyerId !== original.buyerId) {
    kit.error(
      buyerPath,
      ERROR_CODES.REFERENCED_BUYER_MISMATCH,
      `The referenced e-CF was issued to ${original.buyerId}`,
      { expected: original.buyerId, received: buyerId },
    );
  }
  const originalDate = parseTaxauthDate(original.issueDate);
  if (
    referenceDate !== null &&
    originalDate !== null &&
    dayNumber(referenceDate) !== dayNumber(originalDate)
  ) {
    kit.error(
      referenceDatePath,
      ERROR_CODES.REFERENCED_DATE_MISMATCH,
      `The referenced e-CF was issued on ${formatTaxauthDate(originalDate)}`,
      { expected: formatTaxauthDate(originalDate), received: formatTaxauthDate(referenceDate) },
    );
  }
  const total = kit.amount(`${TOTALS}.MontoTotal`);
  const originalTotal = parseDecimal(original.totalAmount);
  const creditedSoFar = parseDecimal(original.creditNotesTotal);
  if (
    type === '34' &&
    total !== null &&
    originalTotal !== null &&
    creditedSoFar !== null &&
    compare(add(creditedSoFar, total), originalTotal) > 0
  ) {
    kit.error(
      `${TOTALS}.MontoTotal`,
      ERROR_CODES.CREDIT_NOTES_EXCEED_ORIGINAL,
      'Credit notes on the referenced e-CF would exceed its total',
      {
        original: formatDecimal(originalTotal, 2),
        creditedSoFar: formatDecimal(creditedSoFar, 2),
        declared: formatDecimal(total, 2),
      },
    );
  }
  if (
    referencedEncf.startsWith('E32') &&
    originalTotal !== null &&
    compare(originalTotal, CONSUMER_INVOICE_THRESHOLD) >= 0
  )
    requireBuyerId(kit, 'the modified consumer invoice is of RD$250,000 or more');
}

function requireBuyerId(kit: TRuleKit, reason: string): void {
  const path = `${BUYER}.RNCComprador`;
  if (kit.text(path) !== undefined || kit.text(`${BUYER}.IdentificadorExtranjero`) !== undefined) return;
  if (
    kit.issues.errors.some(
      (error) => error.path === kit.pathOf(path) && error.code === ERROR_CODES.BUYER_ID_REQUIRED,
    )
  )
    return;
  kit.error(
    path,
    ERROR_CODES.BUYER_ID_REQUIRED,
    `Buyer identification (RNCComprador or IdentificadorExtranjero) is required: ${reason}`,
    {},
  );
}

async function checkBuyer(kit: TRuleKit, context: TValidationContext): Promise<void> {
  const type = kit.draft.type;
  const rncPath = `${BUYER}.RNCComprador`;
  const rnc = kit.text(rncPath);
  const foreignId = kit.text(`${BUYER}.IdentificadorExtranjero`);
  if (rnc !== undefined && foreignId !== undefined) {
    kit.error(
      `${BUYER}.IdentificadorExtranjero`,
      ERROR_CODES.BUYER_ID_EXCLUSIVE,
      'RNCComprador and IdentificadorExtranjero are mutually exclusive',
      {},
    );
  }
  if (
    kit.draft.format === 'taxauth_json' &&
    (type === '31' || type === '41' || type === '45') &&
    rnc === undefined
  ) {
    requireBuyerId(kit, `E${type} always identifies the buyer by RNC`);
  }
  const total = kit.amount(`${TOTALS}.MontoTotal`);
  if (type === '32' && total !== null && compare(total, CONSUMER_INVOICE_THRESHOLD) >= 0)
    requireBuyerId(kit, 'a consumer invoice of RD$250,000 or more');
  if (
    (type === '33' || type === '34') &&
    total !== null &&
    compare(total, CONSUMER_INVOICE_THRESHOLD) >= 0 &&
    kit.text(`${REFERENCE}.NCFModificado`)?.startsWith('E32') === true
  ) {
    requireBuyerId(kit, 'a note of RD$250,000 or more on a consumer invoice');
  }
  // Rule 18: registry warnings never block, and the check digit is never verified.
  if (rnc !== undefined && context.lookupTaxpayer !== undefined) {
    const record = await context.lookupTaxpayer(rnc);
    if (record === null) {
      kit.warn(
        rncPath,
        WARNING_CODES.BUYER_RNC_NOT_IN_TAXAUTH_REGISTRY,
        `Buyer RNC ${rnc} is not in the tax authority's registry`,
        {},
      );
    } else if (!['ACTIVO', 'ACTIVE'].includes(record.status.toUpperCase())) {
      kit.warn(
        rncPath,
        WARNING_CODES.BUYER_RNC_NOT_ACTIVE_IN_TAXAUTH,
        `Buyer RNC ${rnc} is ${record.status} in the tax authority's registry`,
        { status: record.status },
      );
    }
  }
}

/** Exposed for the squaring step. */
export type { TRuleKit, TMutableTree };
