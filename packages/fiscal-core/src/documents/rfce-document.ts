/**
 * RFCE (Resumen Factura de Consumo Electrónica): the summary of an e-CF 32 below RD$250,000.00 that
 * goes to the tax authority instead of the full document [FRFCE; RFCE 32 v.1.0.xsd; FACTS §4.5].
 */
import type { TEcfDocument, TEcfTree, TEcfValue } from '../model/ecf-tree.ts';
import { isEcfTree, writeOrderedXml } from '../xml/ordered-writer.ts';
import { XML_ISSUE_CODES } from '../xml/xml-issues.ts';
import type { TXmlIssue, TXmlResult } from '../xml/xml-issues.ts';
import { XSD_ORDER_TABLES } from '../xml/xsd-order.generated.ts';
import { checkAmount } from './field-checks.ts';

/** Options of {@link buildRfceXml}. */
export type TRfceOptions = {
  /** The first 6 characters of the signed e-CF 32's `SignatureValue` (FACTS §3.3). */
  securityCode: string;
};

/** RD$250,000.00 in cents: at or above it a consumer invoice goes to the tax authority in full. */
const RFCE_LIMIT_CENTS = 25_000_000n;

const TOTALS = [
  'MontoGravadoTotal',
  'MontoGravadoI1',
  'MontoGravadoI2',
  'MontoGravadoI3',
  'MontoExento',
  'TotalITBIS',
  'TotalITBIS1',
  'TotalITBIS2',
  'TotalITBIS3',
  'MontoImpuestoAdicional',
  'MontoTotal',
] as const;
// The only RFCE amounts the XSD lets be negative (Decimal18D2NegativoType).
const SIGNED_TOTALS = ['MontoNoFacturable', 'MontoPeriodo'] as const;
const ADDITIONAL_TAX_AMOUNTS = [
  'MontoImpuestoSelectivoConsumoEspecifico',
  'MontoImpuestoSelectivoConsumoAdvalorem',
  'OtrosImpuestosAdicionales',
] as const;

function child(tree: TEcfValue | undefined, name: string): TEcfValue | undefined {
  return isEcfTree(tree) ? tree[name] : undefined;
}

function text(tree: TEcfValue | undefined, name: string): string | undefined {
  const value = child(tree, name);
  return typeof value === 'string' ? value : undefined;
}

/** Repeated elements may come as a list or, for a single occurrence, as one object. */
function occurrences(value: TEcfValue | undefined): TEcfTree[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter((entry): entry is TEcfTree => isEcfTree(entry));
}

function toCents(amount: string): bigint {
  const [integer = '0', decimals = ''] = amount.replace('-', '').split('.');
  const cents = BigInt(integer) * 100n + BigInt(decimals.padEnd(2, '0'));
  return amount.startsWith('-') ? -cents : cents;
}

/**
 * Builds the unsigned RFCE of a consumer invoice (e-CF 32 with `MontoTotal` below RD$250,000.00) as
 * canonical XML in the order of RFCE 32 v.1.0.xsd: `Version`, `IdDoc` (`TipoeCF`, `eNCF`,
 * `TipoIngresos`, `TipoPago`, `TablaFormasPago`), `Emisor` (`RNCEmisor`, `RazonSocialEmisor`,
 * `FechaEmision`), `Comprador` (`RNCComprador` or `IdentificadorExtranjero`, `RazonSocialComprador`),
 * `Totales` (amounts, additional taxes without their rate, `MontoTotal`, `MontoNoFacturable`,
 * `MontoPeriodo`) and `CodigoSeguridadeCF` = the security code of the signed E32.
 *
 * Amounts are copied from the E32 and written with two decimals, because the RFCE XSD admits none or
 * two where the e-CF admits one or two. No item detail is carried.
 */
export function buildRfceXml(e32Document: TEcfDocument, options: TRfceOptions): TXmlResult {
  const issues: TXmlIssue[] = [];
  const encabezado = child(e32Document.ECF, 'Encabezado');
  const idDoc = child(encabezado, 'IdDoc');
  const emisor = child(encabezado, 'Emisor');
  const comprador = child(encabezado, 'Comprador');
  const totales = child(encabezado, 'Totales');
  const base = 'ECF.Encabezado';

  if (text(idDoc, 'TipoeCF') !== '32') {
    issues.push({
      code: XML_ISSUE_CODES.RFCE_NOT_APPLICABLE,
      path: `${base}.IdDoc.TipoeCF`,
      message: 'An RFCE summarizes an e-CF 32 only.',
    });
  }
  if (!/^[A-Za-z0-9+/]{6}$/.test(options.securityCode)) {
    issues.push({
      code: XML_ISSUE_CODES.SECURITY_CODE_INVALID,
      path: 'securityCode',
      message: 'The security code is the first 6 characters of the signed e-CF 32 SignatureValue (base64).',
    });
  }

  const amount = (value: string | undefined, path: string, allowNegative = false): string | undefined =>
    value === undefined ? undefined : checkAmount(value, path, issues, { allowNegative });

  const rfceTotales: Record<string, TEcfValue | undefined> = {};
  for (const name of TOTALS) rfceTotales[name] = amount(text(totales, name), `${base}.Totales.${name}`);
  for (const name of SIGNED_TOTALS)
    rfceTotales[name] = amount(text(totales, name), `${base}.Totales.${name}`, true);
  const taxes = occurrences(child(child(totales, 'ImpuestosAdicionales'), 'ImpuestoAdicional'));
  if (taxes.length > 0) {
    rfceTotales['ImpuestosAdicionales'] = {
      ImpuestoAdicional: taxes.map((tax, index) => {
        const entry: Record<string, TEcfValue | undefined> = { TipoImpuesto: text(tax, 'TipoImpuesto') };
        for (const name of ADDITIONAL_TAX_AMOUNTS) {
          entry[name] = amount(
            text(tax, name),
            `${base}.Totales.ImpuestosAdicionales.ImpuestoAdicional[${index}].${name}`,
          );
        }
        return entry;
      }),
    };
  }
  const montoTotal = rfceTotales['MontoTotal'];
  if (typeof montoTotal === 'string' && toCents(montoTotal) >= RFCE_LIMIT_CENTS) {
    issues.push({
      code: XML_ISSUE_CODES.RFCE_NOT_APPLICABLE,
      path: `${base}.Totales.MontoTotal`,
      message: 'A consumer invoice of RD$250,000.00 or more is sent in full, without an RFCE.',
    });
  }

  const payments = occurrences(child(child(idDoc, 'TablaFormasPago'), 'FormaDePago')).map(
    (payment, index) => ({
      FormaPago: text(payment, 'FormaPago'),
      MontoPago: amount(
        text(payment, 'MontoPago'),
        `${base}.IdDoc.TablaFormasPago.FormaDePago[${index}].MontoPago`,
      ),
    }),
  );

  if (issues.length > 0) return { success: false, issues };
  const result = writeOrderedXml(XSD_ORDER_TABLES.RFCE, {
    Encabezado: {
      Version: text(encabezado, 'Version'),
      IdDoc: {
        TipoeCF: text(idDoc, 'TipoeCF'),
        eNCF: text(idDoc, 'eNCF'),
        TipoIngresos: text(idDoc, 'TipoIngresos'),
        TipoPago: text(idDoc, 'TipoPago'),
        TablaFormasPago: payments.length > 0 ? { FormaDePago: payments } : undefined,
      },
      Emisor: {
        RNCEmisor: text(emisor, 'RNCEmisor'),
        RazonSocialEmisor: text(emisor, 'RazonSocialEmisor'),
        FechaEmision: text(emisor, 'FechaEmision'),
      },
      Comprador: {
        RNCComprador: text(comprador, 'RNCComprador'),
        IdentificadorExtranjero: text(comprador, 'IdentificadorExtranjero'),
        RazonSocialComprador: text(comprador, 'RazonSocialComprador'),
      },
      Totales: rfceTotales,
      CodigoSeguridadeCF: options.securityCode,
    },
  });
  if (result.success) return result;
  // The RFCE copies the E32's fields: report a missing one where the caller can fix it, in the E32.
  return {
    success: false,
    issues: result.issues.map((issue) => ({
      ...issue,
      path: issue.path.startsWith('RFCE.Encabezado.CodigoSeguridadeCF')
        ? 'securityCode'
        : issue.path.replace(/^RFCE\.Encabezado/, base),
    })),
  };
}
