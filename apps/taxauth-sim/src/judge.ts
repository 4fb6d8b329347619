/**
 * Judges a received e-CF or RFCE the way the tax authority does (FACTS §1.4, §5): structure (XSD),
 * signature, delegation of the signer and of the token, e-NCF format and validity, then the checks
 * that burn the e-NCF (file name, squaring, the simulator's magic buyer RNCs). Used-e-NCF and
 * annulment checks need the database and happen when the submission is recorded.
 */
import { verifyXmlSignature, type TXsdValidators } from '@ecf/fiscal-core';
import { ECF_MESSAGES, fill, type TEcfMessageKey, type TMessage } from './messages.ts';
import { parseDayMonthYear } from './http.ts';
import { checkEcfSquaring, checkRfceSquaring, type TSquaringIssue } from './squaring.ts';
import { blockOf, leafText, rootNameOf } from './xml.ts';

/** Buyer RNCs that steer the outcome (documented in the README); none is a valid RNC. */
export const MAGIC_BUYER_RNC = {
  rejected: '000000001',
  acceptedConditionally: '000000002',
  foreverInProcess: '000000003',
} as const;

export const CONSUMER_THRESHOLD_CENTS = 25_000_000;

const ENCF_PATTERN = /^E(31|32|33|34|41|43|44|45|46|47)\d{10}$/;

export type TDocumentFields = {
  tipo: string | undefined;
  encf: string | undefined;
  rncEmisor: string | undefined;
  rncComprador: string | undefined;
  idExtranjero: string | undefined;
  montoTotal: string | undefined;
  totalItbis: string | undefined;
  fechaEmision: string | undefined;
  fechaFirma: string | undefined;
  vencimiento: string | undefined;
  codigoSeguridad: string | undefined;
};

export type TJudgement =
  /** Rejected for a reason that leaves the e-NCF unused (`secuenciaUtilizada=false`). */
  | { stage: 'blocked'; fields: TDocumentFields; messages: TMessage[] }
  /** Passed the blocking checks: the e-NCF will be burned; these rejections/conditions decide the state. */
  | {
      stage: 'passed';
      fields: TDocumentFields;
      rejections: TMessage[];
      conditions: TMessage[];
      pending: boolean;
    };

export function message(
  key: TEcfMessageKey,
  values: Readonly<Record<string, string>> = {},
  detail?: string,
): TMessage {
  const entry = ECF_MESSAGES[key];
  const text = fill(entry.text, values);
  return { valor: detail === undefined || detail === '' ? text : `${text}. ${detail}`, codigo: entry.codigo };
}

function amountText(cents: number): string {
  return (cents / 100).toFixed(2);
}

function squaringMessages(issues: TSquaringIssue[]): TMessage[] {
  return issues.map((issue) =>
    message('squaring', {
      campo: issue.field,
      declarado: amountText(issue.declared),
      calculado: amountText(issue.computed),
      tolerancia: amountText(issue.toleranceCents),
    }),
  );
}

function fieldsOf(xml: string, kind: 'ECF' | 'RFCE', signatureValue: string | undefined): TDocumentFields {
  const totals = blockOf(xml, 'Totales') ?? '';
  const signature = signatureValue ?? leafText(xml, 'SignatureValue');
  return {
    tipo: leafText(xml, 'TipoeCF'),
    encf: leafText(xml, 'eNCF'),
    rncEmisor: leafText(xml, 'RNCEmisor'),
    rncComprador: leafText(xml, 'RNCComprador'),
    idExtranjero: leafText(xml, 'IdentificadorExtranjero'),
    montoTotal: leafText(totals, 'MontoTotal'),
    totalItbis: leafText(totals, 'TotalITBIS'),
    fechaEmision: leafText(xml, 'FechaEmision'),
    fechaFirma: leafText(xml, 'FechaHoraFirma'),
    vencimiento: leafText(xml, 'FechaVencimientoSecuencia'),
    codigoSeguridad:
      kind === 'RFCE' ? leafText(xml, 'CodigoSeguridadeCF') : signature?.replace(/\s/g, '').slice(0, 6),
  };
}

export type TJudgeOptions = {
  xml: string;
  kind: 'ECF' | 'RFCE';
  fileName: string | undefined;
  tokenRnc: string;
  validators: TXsdValidators;
  loadTest: boolean;
};

/** Runs every check that needs no database. */
export function judgeDocument(options: TJudgeOptions): TJudgement {
  const { xml, kind } = options;
  const empty = fieldsOf('', kind, undefined);
  const root = rootNameOf(xml);
  if (root !== kind) {
    const detail =
      root === undefined
        ? 'El documento no es un XML bien formado'
        : `Se esperaba el elemento raíz ${kind} y se recibió ${root}`;
    return { stage: 'blocked', fields: empty, messages: [message('xsdInvalid', {}, detail)] };
  }

  let signatureValue: string | undefined;
  let signerId: string | undefined;
  if (!options.loadTest) {
    const structure = options.validators.validateXml(xml, kind === 'RFCE' ? 'RFCE' : undefined);
    if (!structure.success) {
      return {
        stage: 'blocked',
        fields: fieldsOf(xml, kind, undefined),
        messages: [
          message(
            'xsdInvalid',
            {},
            structure.issues
              .slice(0, 3)
              .map((issue) => issue.message)
              .join(' | '),
          ),
        ],
      };
    }
    const signature = verifyXmlSignature(xml);
    if (!signature.valid)
      return {
        stage: 'blocked',
        fields: fieldsOf(xml, kind, undefined),
        messages: [message('signatureInvalid')],
      };
    signatureValue = signature.signatureValue;
    signerId = signature.certificate.holderId;
  }

  const fields = fieldsOf(xml, kind, signatureValue);
  const rnc = fields.rncEmisor ?? '';
  const encf = fields.encf ?? '';
  // The signer and the session must both act for the issuer (delegation is modelled as identity).
  if (rnc !== options.tokenRnc || (signerId !== undefined && signerId !== rnc)) {
    return { stage: 'blocked', fields, messages: [message('notDelegated', { rnc })] };
  }
  const match = ENCF_PATTERN.exec(encf);
  if (match === null || match[1] !== fields.tipo || (kind === 'RFCE' && fields.tipo !== '32')) {
    return { stage: 'blocked', fields, messages: [message('encfInvalid', { encf, rnc })] };
  }
  const expiry = parseDayMonthYear(fields.vencimiento);
  const issued = parseDayMonthYear(fields.fechaEmision);
  if (expiry !== undefined && issued !== undefined && expiry.getTime() < issued.getTime()) {
    return {
      stage: 'blocked',
      fields,
      messages: [
        message('sequenceExpired', {
          encf,
          vencimiento: fields.vencimiento ?? '',
          emision: fields.fechaEmision ?? '',
        }),
      ],
    };
  }
  const totalCents = Math.round(Number(fields.montoTotal ?? 'NaN') * 100);
  if (fields.tipo === '32' && Number.isFinite(totalCents)) {
    if (kind === 'ECF' && totalCents < CONSUMER_THRESHOLD_CENTS)
      return { stage: 'blocked', fields, messages: [message('consumerBelowThreshold')] };
    if (kind === 'RFCE' && totalCents >= CONSUMER_THRESHOLD_CENTS)
      return { stage: 'blocked', fields, messages: [message('summaryAboveThreshold')] };
  }

  const rejections: TMessage[] = [];
  const conditions: TMessage[] = [];
  const expectedName = `${rnc}${encf}.xml`;
  if (options.fileName !== undefined && options.fileName.toLowerCase() !== expectedName.toLowerCase()) {
    rejections.push(message('fileNameInvalid', { fileName: options.fileName, expected: expectedName }));
  }
  if (fields.rncComprador === MAGIC_BUYER_RNC.rejected)
    rejections.push(message('buyerRejected', { rnc: fields.rncComprador }));
  if (fields.rncComprador === MAGIC_BUYER_RNC.acceptedConditionally)
    conditions.push(message('buyerConditional', { rnc: fields.rncComprador }));
  conditions.push(...squaringMessages(kind === 'ECF' ? checkEcfSquaring(xml) : checkRfceSquaring(xml)));
  return {
    stage: 'passed',
    fields,
    rejections,
    conditions,
    pending: fields.rncComprador === MAGIC_BUYER_RNC.foreverInProcess,
  };
}
