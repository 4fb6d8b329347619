/**
 * How the portal SAYS a document's statuses, types and events in Spanish (presentation only: the
 * statuses themselves and what they mean come from @ecf/services). Client-safe.
 */
import type { TStatusTone } from '@ecf/ui';

export const DOCUMENT_STATUS_LABELS: Record<string, string> = {
  queued_for_signing: 'En cola para firma',
  signed: 'Firmado',
  sent: 'Enviado a la DGII',
  contingency: 'En contingencia',
  accepted: 'Aceptado',
  accepted_conditional: 'Aceptado condicional',
  rejected: 'Rechazado',
  cancelled: 'Anulado',
  transmission_failed: 'Envío fallido',
};

export const DOCUMENT_STATUS_TONES: Record<string, TStatusTone> = {
  queued_for_signing: 'neutral',
  signed: 'info',
  sent: 'info',
  contingency: 'warning',
  accepted: 'success',
  accepted_conditional: 'success',
  rejected: 'danger',
  cancelled: 'neutral',
  transmission_failed: 'danger',
};

export const ECF_TYPE_LABELS: Record<string, string> = {
  E31: 'Factura de Crédito Fiscal',
  E32: 'Factura de Consumo',
  E33: 'Nota de Débito',
  E34: 'Nota de Crédito',
  E41: 'Compras',
  E43: 'Gastos Menores',
  E44: 'Regímenes Especiales',
  E45: 'Gubernamental',
  E46: 'Exportaciones',
  E47: 'Pagos al Exterior',
};

export const EVENT_LABELS: Record<string, string> = {
  submitted: 'Recibido por el servicio',
  signed: 'Firmado',
  signing_deferred: 'Firma aplazada',
  signing_failed: 'Firma fallida',
  transmission_attempt: 'Intento de envío a la DGII',
  transmission_outcome: 'Resultado del envío',
  status_poll_failed: 'Consulta de estado fallida',
  operator_notified: 'Operador notificado (72 h)',
  sent: 'Enviado a la DGII (TrackId recibido)',
  contingency: 'En contingencia',
  accepted: 'Aceptado por la DGII',
  accepted_conditional: 'Aceptado condicional por la DGII',
  rejected: 'Rechazado por la DGII',
  cancelled: 'Anulado',
  transmission_failed: 'Envío fallido',
  receiver_delivery_attempt: 'Entrega al receptor: intento',
  receiver_delivery_outcome: 'Entrega al receptor: resultado',
  receiver_delivery_not_applicable: 'Entrega al receptor: no aplica',
  receiver_delivery_deferred: 'Entrega al receptor: aplazada',
  receiver_delivery_reconciled: 'Entrega al receptor: conciliada',
  buyer_email_intent: 'Correo al comprador: intento',
  buyer_email_sent: 'Correo al comprador: enviado',
  buyer_email_failed: 'Correo al comprador: fallido',
  buyer_email_uncertain: 'Correo al comprador: resultado incierto',
};

/** The short names of the types, for tables and dense places (`ecfTypeLabel`). */
export const ECF_TYPE_SHORT_LABELS: Record<string, string> = {
  E31: 'Crédito fiscal',
  E32: 'Consumo',
  E33: 'Nota de débito',
  E34: 'Nota de crédito',
  E41: 'Compras',
  E43: 'Gastos menores',
  E44: 'Regímenes especiales',
  E45: 'Gubernamental',
  E46: 'Exportaciones',
  E47: 'Pagos al exterior',
};

/**
 * A type as every table shows it: `E31 · Crédito fiscal` (from `E31`, `31` or `31` as a number);
 * an unknown type is shown as it came.
 */
export function ecfTypeLabel(type: string | number): string {
  const text = String(type).trim();
  const code = /^\d+$/.test(text) ? `E${text}` : text.toUpperCase();
  const name = ECF_TYPE_SHORT_LABELS[code];
  return name === undefined ? text : `${code} · ${name}`;
}

export const DELIVERY_STATUS_LABELS: Record<string, string> = {
  pending: 'Pendiente',
  sending: 'Enviando',
  retry_scheduled: 'Reintento programado',
  sent: 'Entregado (ARECF recibido)',
  not_received: 'No recibido por el receptor',
  uncertain: 'Incierto',
  dispatch_failed: 'Envío fallido',
  not_applicable: 'No aplica',
};

export const PRINTING_STATUS_LABELS: Record<string, string> = {
  deliverable: 'Disponible',
  awaiting_signature: 'Esperando la firma',
  awaiting_taxauth_response: 'Esperando la respuesta de la DGII',
  not_deliverable_rejected: 'No disponible: rechazado',
  not_deliverable_not_transmitted: 'No disponible: no transmitido',
  not_deliverable_cancelled: 'No disponible: anulado',
};

export const EMAIL_OUTCOME_LABELS: Record<string, string> = {
  pending: 'En curso',
  sent: 'Enviado',
  failed: 'Fallido',
  uncertain: 'Incierto',
};

/** `8731.00` → `RD$ 8,731.00`, on the decimal TEXT (never through a float). */
export function formatAmount(text: string): string {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = '00'] = (negative ? text.slice(1) : text).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}RD$ ${grouped}.${fraction}`;
}
