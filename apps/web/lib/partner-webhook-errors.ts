/**
 * What a failed Partner webhook action says (client-safe): the action named, and the reason in
 * Spanish when the service gave one (issue 27: these failures used to show one generic sentence).
 */
import type { TProcedureFailure } from './trpc-errors.ts';

export type TPartnerWebhookAction = 'create' | 'pause' | 'resume' | 'delete' | 'replay';

const ACTION_WORDS: Record<TPartnerWebhookAction, string> = {
  create: 'crear el endpoint',
  pause: 'pausar el endpoint',
  resume: 'reanudar el endpoint',
  delete: 'eliminar el endpoint',
  replay: 'reenviar la entrega',
};

/** The reasons the Partner webhook procedures answer, by the services' code. */
const REASONS: Record<string, string> = {
  WEBHOOK_ENDPOINT_RETIRED: 'el endpoint ya fue eliminado: no recibe eventos ni se puede cambiar.',
  WEBHOOK_REPLAY_NOT_ALLOWED:
    'solo se reenvía una entrega fallida de un endpoint activo. Si el endpoint está pausado, reanúdelo primero.',
  NOT_FOUND: 'el endpoint o la entrega ya no existe. Recargue la página.',
  FORBIDDEN: 'su rol no permite cambiar los webhooks del Partner.',
  PARTNER_INACTIVE: 'el Partner está suspendido.',
  TOO_MANY_REQUESTS: 'hubo demasiados intentos seguidos. Espere un momento.',
  SERVICE_UNAVAILABLE: 'el servicio está ocupado. Inténtelo de nuevo en unos segundos.',
  SESSION_INVALID: 'su sesión terminó. Inicie sesión de nuevo.',
};

/** "No se pudo pausar el endpoint «ERP»: <reason>" (the reason: the code's, or the field's hint). */
export function partnerWebhookErrorMessage(
  failure: Pick<TProcedureFailure, 'appCode' | 'code' | 'fieldErrors'>,
  action: TPartnerWebhookAction,
  name?: string,
): string {
  const what = `No se pudo ${ACTION_WORDS[action]}${name === undefined ? '' : ` «${name}»`}`;
  const reason =
    (failure.appCode === null ? undefined : REASONS[failure.appCode]) ??
    (failure.code === null ? undefined : REASONS[failure.code]);
  if (reason !== undefined) return `${what}: ${reason}`;
  if (Object.keys(failure.fieldErrors).length > 0) return `${what}: revise los campos marcados.`;
  return `${what}. Inténtelo de nuevo en unos minutos; si sigue fallando, escriba a soporte.`;
}
