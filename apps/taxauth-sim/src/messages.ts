/**
 * Every text the simulator answers with, in one place. Texts quoted by the tax authority's
 * documents (FACTS.md §1.2–§1.9) are used verbatim; the numeric `codigo` of each e-CF validation
 * message is the simulator's own stable number (the tax authority does not publish its table).
 */

/** Validation states of an e-CF or RFCE (FACTS §1.4). */
export const STATES = {
  notFound: { codigo: 0, estado: 'No encontrado' },
  accepted: { codigo: 1, estado: 'Aceptado' },
  rejected: { codigo: 2, estado: 'Rechazado' },
  inProcess: { codigo: 3, estado: 'En Proceso' },
  acceptedConditionally: { codigo: 4, estado: 'Aceptado Condicional' },
} as const;

export type TStateCode = 0 | 1 | 2 | 3 | 4;

/** One message of a validation result, as `consultaresultado` lists them. */
export type TMessage = { valor: string; codigo: number };

/**
 * e-CF and RFCE validation messages. `burns` tells whether the e-NCF counts as used after a
 * rejection for this reason (`secuenciaUtilizada`, FACTS §1.4: only the listed reasons leave it free).
 */
export const ECF_MESSAGES = {
  xsdInvalid: {
    codigo: 1,
    burns: false,
    text: 'La estructura del archivo XML no es válido, favor proveer un XML con una estructura válida, verificar el XSD correspondiente',
  },
  signatureInvalid: { codigo: 2, burns: false, text: 'La firma del XML no es válida' },
  notDelegated: {
    codigo: 3,
    burns: false,
    text: 'El RNC del certificado no está delegado para realizar transacciones para el RNC: {rnc}',
  },
  encfInvalid: {
    codigo: 4,
    burns: false,
    text: 'El e-NCF {encf} no es válido o no está autorizado para el RNC: {rnc}',
  },
  sequenceExpired: {
    codigo: 5,
    burns: false,
    text: 'El e-NCF {encf} se encuentra vencido: FechaVencimientoSecuencia {vencimiento} es anterior a FechaEmision {emision}',
  },
  consumerBelowThreshold: {
    codigo: 6,
    burns: false,
    text: 'Las Facturas de Consumo Electrónica con un monto inferior a los RD$250,000.00 no son recibidas por este servicio, se deberá remitir su resumen (RFCE)',
  },
  summaryAboveThreshold: {
    codigo: 7,
    burns: false,
    text: 'El resumen (RFCE) solo aplica a Facturas de Consumo Electrónica con un monto inferior a los RD$250,000.00',
  },
  encfAnnulled: { codigo: 8, burns: true, text: 'El e-NCF {encf} fue anulado y no puede ser utilizado' },
  encfUsed: { codigo: 9, burns: true, text: 'El e-NCF {encf} ya fue utilizado' },
  fileNameInvalid: {
    codigo: 10,
    burns: true,
    text: 'El nombre del archivo {fileName} no corresponde con el formato {RNCEmisor}{eNCF}.xml ({expected})',
  },
  buyerRejected: {
    codigo: 11,
    burns: true,
    text: 'El RNC Comprador {rnc} no es válido (valor de prueba del simulador: siempre rechazado)',
  },
  injectedRejection: { codigo: 12, burns: true, text: 'Rechazo simulado (fallo inyectado en el simulador)' },
  squaring: {
    codigo: 13,
    burns: true,
    text: 'El monto de {campo} ({declarado}) no cuadra con el cálculo ({calculado}); diferencia mayor a la tolerancia de RD${tolerancia}',
  },
  buyerConditional: {
    codigo: 14,
    burns: true,
    text: 'El RNC Comprador {rnc} es un valor de prueba del simulador: siempre aceptado condicional',
  },
  injectedConditional: {
    codigo: 15,
    burns: true,
    text: 'Aceptado condicional simulado (fallo inyectado en el simulador)',
  },
  /**
   * Certification data tests: a field of the document is not the workbook's text (README
   * "Certification portal"). The set's value first, then the value received; an absent side is `()`.
   */
  certificationMismatch: {
    codigo: 16,
    burns: true,
    text: 'El valor del campo {campo} ({esperado}) no coincide con el valor ({recibido})',
  },
  /** After the first differences listed, how many more there are. */
  certificationMoreMismatches: {
    codigo: 16,
    burns: true,
    text: 'El documento tiene {cantidad} diferencias más con el set de pruebas',
  },
  notFound: { codigo: 0, burns: false, text: 'No existe un e-CF recibido con el trackId indicado' },
} as const;

export type TEcfMessageKey = keyof typeof ECF_MESSAGES;

/** Fills `{name}` placeholders. */
export function fill(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** Seed validation (FACTS §1.2). */
export const AUTH_MESSAGES = {
  signatureInvalid: 'Firma del certificado invalida',
  seedInvalid: 'La semilla no es válida o ha expirado, favor solicitar una nueva semilla',
  certificateExpired: 'El certificado no está vigente',
  notDelegated: 'El RNC del certificado no está delegado para realizar transacciones para el RNC: {rnc}',
  fileTypeInvalid: 'Tipo de archivo no válido, favor proveer un XML',
} as const;

/** Commercial approval (FACTS §1.8), verbatim. */
export const APPROVAL_MESSAGES = {
  fileTypeInvalid: 'Tipo de archivo no válido, favor proveer un XML',
  xsdInvalid:
    'La estructura del archivo XML no es válido, favor proveer un XML con una estructura válida, verificar el XSD correspondiente',
  signatureInvalid: 'La firma del XML no es válida',
  notDelegated: 'El RNC del certificado no está delegado para realizar transacciones para el RNC: {rnc}',
  invoiceNotFound: 'Factura no encontrada para esta Aprobación comercial.',
  notRequiredForType: 'Aprobación Comercial no es requerida para este tipo de e-CF',
  noValidEcf: 'No se encuentra un e-CF válido para esta aprobación comercial',
  approved: 'Aprobación comercial aprobada',
  rejected: 'Aprobación comercial rechazada',
} as const;

/** Range annulment (FACTS §1.9), verbatim. */
export const ANNULMENT_MESSAGES = {
  fileTypeInvalid: 'Tipo de archivo no valido, favor proveer un XML',
  xsdInvalid:
    'La estructura del archivo XML no es válido, favor proveer un XML con una estructura válida, verificar el XSD correspondiente',
  signatureInvalid: 'La firma del documento no es válida',
  typeInvalid: 'El tipo de comprobante no es válido',
  fromAfterTo: 'El valor del campoSecuenciaeNCFDesde es mayor al del campo SecuenciaeNCFHasta',
  used: 'Las secuencias que está intentando anular han sido utilizadas',
  partial: 'Las secuencias fueron anuladas correctamente. Con excepción de las secuencias del detalle',
  done: 'Las secuencias fueron anuladas correctamente.',
  lineOrder: 'El campo NoLinea no es válido, no cumple orden secuencial.',
  failed: 'No fue posible anular las siguientes secuencias',
  notDelegated: 'El RNC del certificado no está delegado para realizar transacciones para el RNC',
  /** The simulator's own text (DGII publishes none): a `CantidadeNCFAnulados` that is not the ranges' sum. */
  countMismatch: 'El campo CantidadeNCFAnulados no corresponde con la cantidad de secuencias a anular',
} as const;

/** ConsultaTrackIds parameter validation (FACTS §1.7), verbatim. */
export const TRACK_IDS_MESSAGES = {
  rncRequired: 'El campo RNC Emisor es requerido.',
  encfRequired: 'El campo ENCF es requerido.',
  rncLength: 'La longitud del RNC Emisor es inválida.',
  encfLength: 'La longitud del ENCF es inválida.',
  encfInvalid: 'El ENCF es inválido.',
  notAuthorized:
    'El RNC del token no está autorizado a consultar el trackid de este e-NCF, favor verificar que se encuentre delegado por el emisor y volver a intentarlo.',
} as const;
