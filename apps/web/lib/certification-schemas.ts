/**
 * What the certification pages share between their forms (browser) and their procedures (server):
 * the fifteen steps and the ones a person attests, the workbook's size limit (all from
 * `@ecf/contract`), and how the portal says each state in Spanish. Client-safe (zod and types only).
 */
import { z } from 'zod';
import type { TStatusTone } from '@ecf/ui';
import { ATTESTATION_NOTES_MAX_LENGTH, WORKBOOK_BASE64_MAX_CHARACTERS } from '@ecf/contract';

// The steps, the parts and the limits are the contract's (the API and @ecf/services use the same).
export {
  ATTESTABLE_STEPS,
  ATTESTATION_NOTES_MAX_LENGTH,
  CERTIFICATION_PARTS,
  CERTIFICATION_STEPS,
  WORKBOOK_BASE64_MAX_CHARACTERS,
  type TAttestableStep,
  type TCertificationPart,
} from '@ecf/contract';

/** The largest workbook file whose base64 fits in that limit (about 525 KB). */
export const WORKBOOK_FILE_MAX_BYTES = Math.floor(WORKBOOK_BASE64_MAX_CHARACTERS / 4) * 3;
/** How the page states the limit. */
export const WORKBOOK_LIMIT_TEXT = 'Hasta 525 KB de archivo (700 KB en base64, el límite del servicio).';

/** A workbook read in the browser, as base64 text. */
export const ZWorkbookBase64 = z
  .string({ error: 'Elija el libro de Excel (.xlsx).' })
  .min(1, 'Elija el libro de Excel (.xlsx).')
  .max(WORKBOOK_BASE64_MAX_CHARACTERS, `El libro es demasiado grande. ${WORKBOOK_LIMIT_TEXT}`)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'El archivo no se pudo leer.');

export const ZAttestationNotes = z
  .string()
  .trim()
  .max(
    ATTESTATION_NOTES_MAX_LENGTH,
    `Las notas pueden tener hasta ${ATTESTATION_NOTES_MAX_LENGTH} caracteres.`,
  );

export const CASE_STATE_LABELS: Record<string, string> = {
  not_started: 'Sin iniciar',
  in_progress: 'En curso',
  failed: 'Fallida: reinicie las pruebas de datos',
  approved: 'Aprobada',
  closed: 'Cerrada',
};

export const CASE_STATE_TONES: Record<string, TStatusTone> = {
  not_started: 'neutral',
  in_progress: 'info',
  failed: 'danger',
  approved: 'success',
  closed: 'neutral',
};

export const STEP_STATE_LABELS: Record<string, string> = {
  done: 'Completado',
  current: 'Paso actual',
  pending: 'Pendiente',
};

export const STEP_STATE_TONES: Record<string, TStatusTone> = {
  done: 'success',
  current: 'info',
  pending: 'neutral',
};

/** Who completes a step. */
export const COMPLETED_BY_LABELS: Record<string, string> = {
  service: 'Lo completa el servicio',
  attestation: 'Lo marca una persona tras hacerlo en el portal de la DGII',
  taxauth: 'Lo completa la DGII',
};

/** How a step was completed (`source` of its completion). */
export const COMPLETION_SOURCE_LABELS: Record<string, string> = {
  set: 'al subir el set de pruebas',
  run: 'por una corrida aceptada',
  approvals: 'por las aprobaciones comerciales aceptadas',
  attestation: 'marcado por una persona',
  reception: 'al recibir en CerteCF',
  directory: 'por el directorio de la DGII',
};

export const RUN_STATE_LABELS: Record<string, string> = {
  queued: 'En cola',
  running: 'En curso',
  succeeded: 'Aceptada',
  failed: 'Fallida',
  stopped: 'Detenida',
};

export const RUN_STATE_TONES: Record<string, TStatusTone> = {
  queued: 'neutral',
  running: 'info',
  succeeded: 'success',
  failed: 'danger',
  stopped: 'warning',
};

/** Run (and approvals send) states that still change: the pages poll while in one of them. */
export const ACTIVE_RUN_STATES: readonly string[] = ['queued', 'running'];

export const ITEM_STATE_LABELS: Record<string, string> = {
  pending: 'Pendiente',
  issued: 'Emitido',
  signed: 'Firmado',
  accepted: 'Aceptado',
  rejected: 'Rechazado',
  failed: 'Fallido',
  stopped: 'No enviado',
};

export const ITEM_STATE_TONES: Record<string, TStatusTone> = {
  pending: 'neutral',
  issued: 'info',
  signed: 'info',
  accepted: 'success',
  rejected: 'danger',
  failed: 'danger',
  stopped: 'warning',
};

export const PART_LABELS: Record<string, string> = {
  data: 'Pruebas de datos',
  simulation: 'Simulación',
};

export const SOURCE_LABELS: Record<string, string> = {
  workbook: 'Libro de Excel',
  json: 'Filas JSON',
  taxauth_model: 'Modelo de la DGII',
  stored: 'Set ya subido',
};

export const PRODUCTION_STATE_LABELS: Record<string, string> = {
  not_requested: 'No solicitada',
  pending: 'En trámite',
  active: 'Activa',
  suspended: 'Suspendida',
};

/** The decision a row of `ACEECF_Generadas` asks for (`Estado`). */
export const APPROVAL_DECISION_LABELS: Record<string, string> = {
  '1': 'Aceptar',
  '2': 'Rechazar',
};

/**
 * Why a run ended without success, as the pages say it (the services' failure codes). Shared by
 * the certification page (a server component) and the run's page (a client component).
 */
export function runFailureText(
  failure: { code: string; message: string; encf: string | null; row: number | null },
  part: string,
): string {
  const where =
    failure.encf === null
      ? 'un documento'
      : `${failure.encf}${failure.row === null ? '' : ` (fila ${failure.row})`}`;
  if (failure.code === 'TAXAUTH_REJECTED')
    return part === 'data'
      ? `La DGII rechazó ${where}. Descargue un set nuevo en el portal de la DGII, reinicie las pruebas de datos y ejecútelo.`
      : `La DGII rechazó ${where}. Corrija el documento, reinicie la simulación y ejecútela de nuevo.`;
  if (failure.code === 'CERTIFICATION_DOCUMENT_FAILED')
    return `${where} no se pudo emitir: vea su fila. Reinicie la parte y ejecute un set corregido.`;
  if (failure.code === 'CERTIFICATION_PART_RESTARTED')
    return 'La parte se reinició: esta corrida quedó reemplazada.';
  if (failure.code === 'DOCUMENT_CANCELLED')
    return `${where} fue anulado: la corrida no puede seguir. Reinicie la parte y ejecútela de nuevo.`;
  // Never a raw code (issue 27, "Plain Spanish"): the run's evidence keeps the code and message.
  return `La corrida terminó sin éxito en ${where}. Reinicie la parte y ejecútela de nuevo.`;
}

/** Document statuses the tax authority has resolved: nothing to resend. */
export const FINAL_DOCUMENT_STATUSES: readonly string[] = [
  'accepted',
  'accepted_conditional',
  'rejected',
  'cancelled',
];
