import { z } from 'zod';
import {
  DIRECT_WEBHOOK_EVENT_TYPES,
  WEBHOOK_DELIVERY_FIELDS,
  WEBHOOK_DELIVERY_STATUSES,
} from '@ecf/contract';
import type { TWebhookDelivery, TWebhookEndpoint, TWebhookTargetRefusal } from '@ecf/services';
import { ZUuid } from '../../../lib/schemas.ts';
import { ZEnvironment } from '../api-keys/api-key.schema.ts';

/** What each type announces, as the page explains it. */
export const WEBHOOK_EVENT_TYPE_LABELS: Record<string, string> = {
  'ecf.queued': 'e-CF recibido y en cola para firmar',
  'document.state_changed': 'Cambio de estado de un e-CF (firmado, enviado, aceptado, rechazado…)',
  'taxauth.service_degraded': 'La DGII dejó de responder en este ambiente',
  'taxauth.service_restored': 'La DGII volvió a responder en este ambiente',
  'annulment.state_changed': 'La DGII respondió una anulación de e-NCF (aceptada, rechazada o incierta)',
  'taxauth.public.receiver.ecf.received': 'Un proveedor le envió un e-CF (recibido)',
  'document.received': 'Un proveedor le envió un e-CF (nombre Partner)',
  'document.commercial_approval_received':
    'Un cliente aceptó o rechazó uno de sus e-CF (aprobación comercial)',
  'document.commercial_approval_due': 'Un e-CF recibido vence en 3 días o menos sin aprobación comercial',
  'certification.state_changed': 'La certificación cambió de paso o de estado (CerteCF)',
  'certification.run_completed': 'Una corrida de certificación terminó con éxito (CerteCF)',
  'production.state_changed': 'Cambió la autorización de producción (eCF) de la cuenta',
  'certificate.validated': 'Se instaló un certificado (Partner)',
  'certificate.expiring': 'Un certificado vence en 30 días o menos (Partner)',
  'certificate.expired': 'Un certificado venció (Partner)',
  'webhook.test': 'Prueba enviada desde el portal',
};

/** The portal's words for a refused URL (the transport's codes). */
export const WEBHOOK_URL_MESSAGES: Record<TWebhookTargetRefusal, string> = {
  url_invalid: 'Escriba una URL completa, por ejemplo https://erp.ejemplo.com/webhooks.',
  url_too_long: 'La URL no puede pasar de 2048 caracteres.',
  scheme_not_https: 'La URL debe empezar por https://.',
  credentials_in_url: 'La URL no puede llevar usuario ni contraseña.',
  host_not_allowed: 'Ese servidor no está permitido (localhost o un servicio de metadatos).',
  address_not_public: 'La URL apunta a una dirección que no es pública (red privada, local o reservada).',
  host_unresolvable: 'No se encontró ese servidor: revise el nombre.',
};

export const WEBHOOK_STATUS_LABELS = { active: 'Activo', paused: 'Pausado', retired: 'Eliminado' } as const;
export const DELIVERY_STATUS_LABELS = {
  queued: 'En cola',
  running: 'Enviando',
  succeeded: 'Entregado',
  failed: 'Fallido',
} as const satisfies Record<(typeof WEBHOOK_DELIVERY_STATUSES)[number], string>;
export { WEBHOOK_DELIVERY_STATUSES };

export const ZWebhookEventType = z.enum(DIRECT_WEBHOOK_EVENT_TYPES, {
  error: 'Tipo de evento desconocido.',
});
export const ZWebhookName = z
  .string({ error: 'Escriba un nombre para el endpoint.' })
  .trim()
  .min(1, 'Escriba un nombre para el endpoint.')
  .max(200, 'El nombre no puede pasar de 200 caracteres.');
export const ZWebhookUrl = z
  .string({ error: 'Escriba la URL.' })
  .trim()
  .min(1, 'Escriba la URL.')
  .max(2048, 'La URL no puede pasar de 2048 caracteres.');
/** A non-empty list, or `all` (the types that exist now). */
export const ZWebhookEventTypes = z.union([
  z.literal('all'),
  z
    .array(ZWebhookEventType, { error: 'Elija al menos un tipo de evento.' })
    .min(1, 'Elija al menos un tipo de evento.')
    .max(DIRECT_WEBHOOK_EVENT_TYPES.length, 'Elija al menos un tipo de evento.'),
]);
export const ZEndpointId = z.object({ endpointId: ZUuid });
export { ZEnvironment };

export const ZWebhookEndpoint = z.object({
  id: z.uuid(),
  environment: ZEnvironment,
  name: z.string(),
  url: z.string(),
  eventTypes: z.array(z.string()),
  status: z.enum(['active', 'paused', 'retired']),
  /** Set while a rotation's overlap lasts (the previous secret still signs until then). */
  previousSecretExpiresAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  retiredAt: z.iso.datetime().nullable(),
});

export const ZWebhookAttempt = z.object({
  attempt: z.number().int(),
  startedAt: z.iso.datetime(),
  durationMs: z.number().int(),
  outcome: z.enum(['succeeded', 'retry', 'failed']),
  responseStatus: z.number().int().nullable(),
  /** First bytes of the receiver's answer. */
  responseExcerpt: z.string().nullable(),
  error: z.string().nullable(),
});

export const ZWebhookDelivery = z.object({
  id: z.uuid(),
  ...WEBHOOK_DELIVERY_FIELDS,
  nextAttemptAt: z.iso.datetime(),
  lastAttemptAt: z.iso.datetime().nullable(),
  replayCount: z.number().int(),
  createdAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
  attemptLog: z.array(ZWebhookAttempt),
});

export function webhookEndpointOf(endpoint: TWebhookEndpoint): z.infer<typeof ZWebhookEndpoint> {
  return {
    id: endpoint.id,
    environment: endpoint.environment,
    name: endpoint.name,
    url: endpoint.url,
    eventTypes: endpoint.eventTypes,
    status: endpoint.status,
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
    retiredAt: endpoint.retiredAt?.toISOString() ?? null,
  };
}

export function webhookDeliveryOf(delivery: TWebhookDelivery): z.infer<typeof ZWebhookDelivery> {
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    maxAttempts: delivery.maxAttempts,
    nextAttemptAt: delivery.nextAttemptAt.toISOString(),
    lastAttemptAt: delivery.lastAttemptAt?.toISOString() ?? null,
    failureReason: delivery.failureReason,
    replayCount: delivery.replayCount,
    createdAt: delivery.createdAt.toISOString(),
    completedAt: delivery.completedAt?.toISOString() ?? null,
    attemptLog: delivery.attemptLog.map((attempt) => ({
      attempt: attempt.attempt,
      startedAt: attempt.startedAt.toISOString(),
      durationMs: attempt.durationMs,
      outcome: attempt.outcome,
      responseStatus: attempt.responseStatus,
      responseExcerpt: attempt.responseExcerpt,
      error: attempt.error,
    })),
  };
}
