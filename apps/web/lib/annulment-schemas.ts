/**
 * Field schemas of the sequences and annulments pages, shared by their forms (browser) and
 * procedures (server): the same rules as the REST API's `SequenceRangeRequest` and
 * `AnnulmentRequest` (@ecf/contract, whose types and limits these are), with the portal's (Spanish)
 * messages. Client-safe.
 */
import { z } from 'zod';
import { ANNULMENT_REASON_MAX_LENGTH, ECF_TYPES } from '@ecf/contract';

export { ANNULMENT_REASON_MAX_LENGTH };

/** The e-CF types a form offers: the contract's, in its order. */
export const ECF_TYPE_OPTIONS = ECF_TYPES;

export const ECF_TYPE_LABELS: Record<(typeof ECF_TYPE_OPTIONS)[number], string> = {
  '31': 'E31 Crédito fiscal',
  '32': 'E32 Consumo',
  '33': 'E33 Nota de débito',
  '34': 'E34 Nota de crédito',
  '41': 'E41 Compras',
  '43': 'E43 Gastos menores',
  '44': 'E44 Regímenes especiales',
  '45': 'E45 Gubernamental',
  '46': 'E46 Exportaciones',
  '47': 'E47 Pagos al exterior',
};

export const ZEcfTypeCode = z.enum(ECF_TYPE_OPTIONS, { error: 'Elija el tipo de e-CF.' });

export const ZEncfText = z
  .string({ error: 'Escriba un e-NCF.' })
  .trim()
  .toUpperCase()
  .regex(/^E\d{12}$/, 'Un e-NCF es E, el tipo (2 dígitos) y la secuencia (10 dígitos): E310000000001.');

/** Ranges one annulment of the portal takes (the API takes up to 10 types × 10,000). */
export const PORTAL_ANNULMENT_MAX_RANGES = 50;

export const ZSequenceRangeForm = z.object({
  type: ZEcfTypeCode,
  from: ZEncfText,
  to: ZEncfText,
  sequenceExpirationDate: z
    .string({ error: 'Elija la fecha de vencimiento de la secuencia.' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Elija la fecha de vencimiento de la secuencia.'),
});

export const ZAnnulmentRangeForm = z.object({ type: ZEcfTypeCode, from: ZEncfText, to: ZEncfText });

export const ZAnnulmentForm = z.object({
  ranges: z
    .array(ZAnnulmentRangeForm)
    .min(1, 'Agregue al menos un rango.')
    .max(PORTAL_ANNULMENT_MAX_RANGES, `Como máximo ${PORTAL_ANNULMENT_MAX_RANGES} rangos por anulación.`),
  reason: z
    .string()
    .trim()
    .max(
      ANNULMENT_REASON_MAX_LENGTH,
      `El motivo no puede pasar de ${ANNULMENT_REASON_MAX_LENGTH} caracteres.`,
    )
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
});

export const ZReconciliationForm = z.object({
  outcome: z.enum(['accepted', 'rejected'], { error: 'Elija lo que decidió la DGII.' }),
  evidence: z
    .string()
    .trim()
    .min(1, 'Pegue la respuesta de la DGII (o el texto que la prueba).')
    .max(256 * 1024, 'La evidencia no puede pasar de 256 KiB.'),
  note: z.string().trim().max(4000, 'La nota no puede pasar de 4000 caracteres.').optional(),
});

/** The five reasons a document blocks or is skipped by an annulment, as the page explains them. */
export const CONFLICT_REASON_LABELS: Record<string, string> = {
  document_already_submitted_or_taxauth_validated: 'Ya fue enviado a la DGII o validado por ella',
  document_in_contingency: 'En contingencia: pudo haber llegado a la DGII',
  document_taxauth_submission_uncertain: 'Envío a la DGII incierto',
  document_taxauth_submission_in_progress: 'Envío a la DGII en curso',
  document_already_delivered_to_receiver: 'Ya fue entregado al comprador',
};

export const ANNULMENT_STATUS_LABELS: Record<string, string> = {
  built: 'Preparada',
  sending: 'Enviándose',
  accepted: 'Aceptada',
  rejected: 'Rechazada',
  uncertain: 'Incierta',
  failed: 'Fallida (no enviada)',
};
