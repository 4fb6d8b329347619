import { z } from 'zod';
import {
  PARTNER_KEY_PROFILES,
  type PARTNER_WEBHOOK_EVENT_TYPES,
  type TPartnerKeyProfile,
} from '@ecf/contract';
import { ZUuid } from '../../../lib/schemas.ts';

export const PARTNER_KEY_PROFILE_LABELS: Record<TPartnerKeyProfile, string> = {
  full: 'Completa (todos los permisos)',
  onboarding: 'Alta (cuentas, certificados, certificación)',
  runtime: 'Operación (emisión y consultas)',
  webhooks: 'Webhooks',
};

export const ZPartnerAccount = z.object({
  id: ZUuid,
  externalTenantId: z.string(),
  rnc: z.string(),
  legalName: z.string(),
  productionState: z.enum(['not_requested', 'pending', 'active', 'suspended']),
  /** Filled by the certification engine (null until then). */
  certification: z.string().nullable(),
  createdAt: z.date(),
});
export const ZPartnerKey = z.object({
  id: ZUuid,
  name: z.string(),
  prefix: z.string(),
  profile: z.enum(PARTNER_KEY_PROFILES),
  createdAt: z.date(),
  lastUsedAt: z.date().nullable(),
  revokedAt: z.date().nullable(),
});
export const ZPartnerOrigin = z.object({ id: ZUuid, origin: z.string(), createdAt: z.date() });
export const ZPartnerEndpoint = z.object({
  id: ZUuid,
  name: z.string(),
  url: z.string(),
  eventTypes: z.array(z.string()),
  status: z.enum(['active', 'paused', 'retired']),
  overlapSeconds: z.number().int().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export const ZPartnerDelivery = z.object({
  id: ZUuid,
  endpointId: ZUuid,
  eventType: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  failureReason: z.string().nullable(),
  createdAt: z.date(),
  completedAt: z.date().nullable(),
});

/** The Partner event types as the picker names them (every account of the Partner). */
export const PARTNER_WEBHOOK_EVENT_TYPE_LABELS: Record<(typeof PARTNER_WEBHOOK_EVENT_TYPES)[number], string> =
  {
    'ecf.queued': 'e-CF recibido y en cola para firmar',
    'document.state_changed': 'Cambio de estado de un e-CF (firmado, enviado, aceptado, rechazado…)',
    'annulment.state_changed': 'La DGII respondió una anulación de e-NCF',
    'document.received': 'Un proveedor envió un e-CF a una cuenta (recibido)',
    'document.commercial_approval_received': 'Un cliente aceptó o rechazó un e-CF (aprobación comercial)',
    'document.commercial_approval_due': 'Un e-CF recibido vence en 3 días o menos sin aprobación comercial',
    'certificate.validated': 'Se instaló un certificado de firma',
    'certificate.expiring': 'Un certificado vence en 30 días o menos',
    'certificate.expired': 'Un certificado venció',
    'production.state_changed': 'Cambió la autorización de producción (eCF) de una cuenta',
    'certification.state_changed': 'La certificación cambió de paso o de estado',
    'certification.run_completed': 'Una corrida de certificación terminó',
    'taxauth.service_degraded': 'La DGII dejó de responder',
    'taxauth.service_restored': 'La DGII volvió a responder',
    'webhook.test': 'Prueba enviada desde el portal o la API',
  };

/** The picker's order: documents first, then accounts, certification, the tax authority, tests. */
export const PARTNER_WEBHOOK_EVENT_TYPES_PICKER_ORDER = Object.keys(
  PARTNER_WEBHOOK_EVENT_TYPE_LABELS,
) as Array<(typeof PARTNER_WEBHOOK_EVENT_TYPES)[number]>;
