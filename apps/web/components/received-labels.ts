/**
 * The portal's words for received documents (issue 18, task L): groups, validity, reasons an e-CF
 * was not received, commercial decisions. Client-safe.
 */
import type { TStatusTone } from '@ecf/ui';

export const RECEIVED_GROUP_LABELS: Record<string, string> = {
  pending_approval: 'Pendiente de aprobación comercial',
  accepted: 'Aceptado',
  rejected: 'Rechazado',
  not_received: 'No recibido',
};

export const RECEIVED_GROUP_TONES: Record<string, TStatusTone> = {
  pending_approval: 'warning',
  accepted: 'success',
  rejected: 'danger',
  not_received: 'neutral',
};

/** `CodigoMotivoNoRecibido` of the ARECF. */
export const NOT_RECEIVED_LABELS: Record<number, string> = {
  1: 'Error de especificación',
  2: 'Error de firma digital',
  3: 'Envío duplicado',
  4: 'RNC comprador no corresponde',
};

export const VALIDITY_LABELS: Record<string, string> = {
  valid: 'Válido (Aceptado)',
  valid_conditional: 'Válido (Aceptado condicional)',
  rejected: 'Rechazado por la DGII',
  not_found: 'No encontrado en la DGII',
  in_process: 'En proceso en la DGII',
  unknown: 'Respuesta no reconocida',
  not_applicable: 'No aplica en CerteCF',
  check_failed: 'No se pudo consultar',
};

export const DECISION_LABELS: Record<string, string> = {
  accept: 'Aceptado',
  reject: 'Rechazado',
  accepted: 'Aceptado',
  rejected: 'Rechazado',
};

export const RECEIVED_APPROVAL_STATUS_LABELS: Record<string, string> = {
  received: 'Recibida',
  rejected: 'Rechazada al recibir',
  duplicate: 'Duplicada',
};

export const CORRESPONDENCE_LABELS: Record<string, string> = {
  matched: 'Coincide con el e-CF emitido',
  mismatch: 'No coincide con el e-CF emitido',
  ecf_not_found: 'No hay un e-CF emitido con ese e-NCF',
};

/** The query keys of the received lists (the REST API's), as the pages read them from the URL. */
export const RECEIVED_QUERY_KEYS = [
  'group',
  'type',
  'encf',
  'issuerRnc',
  'from',
  'to',
  'limit',
  'cursor',
] as const;
export const RECEIVED_APPROVAL_QUERY_KEYS = ['encf', 'buyerRnc', 'from', 'to', 'limit', 'cursor'] as const;

/** The query from a page's URL: its known keys only, blank values left out. */
export function receivedQueryOf(
  searchParams: Record<string, string | string[] | undefined>,
  keys: readonly string[],
): Record<string, string> {
  const query: Record<string, string> = {};
  for (const key of keys) {
    const value = searchParams[key];
    const text = Array.isArray(value) ? value[0] : value;
    if (text !== undefined && text.trim() !== '') query[key] = text.trim();
  }
  return query;
}
