/**
 * The ACECF of a row of `ACEECF_Generadas`, exactly as the row is written: the tax authority
 * compares it with its workbook. Shared by the send (rows checked before anything is stored) and
 * its job (built again, signed and sent).
 */
import { buildAcecfXml, type TAcecfInput, type TXmlResult } from '@ecf/fiscal-core';

/** The builder's input from a row's cells (`Estado` 2 is a rejection with `DetalleMotivoRechazo`). */
export function acecfInputOf(values: Readonly<Record<string, string>>): TAcecfInput {
  const reason = values['DetalleMotivoRechazo'];
  return {
    rncEmisor: values['RNCEmisor'] ?? '',
    encf: values['eNCF'] ?? '',
    fechaEmision: values['FechaEmision'] ?? '',
    // A numeric cell (`7080`): the ACECF XSD wants two decimals, the builder writes them.
    montoTotal: values['MontoTotal'] ?? '',
    rncComprador: values['RNCComprador'] ?? '',
    estado: values['Estado'] === '2' ? 'rejected' : 'accepted',
    ...(reason === undefined ? {} : { rejectionReason: reason }),
    approvedAt: values['FechaHoraAprobacionComercial'] ?? '',
  };
}

/** The unsigned ACECF of a row. */
export function buildRowAcecf(values: Readonly<Record<string, string>>): TXmlResult {
  return buildAcecfXml(acecfInputOf(values));
}
