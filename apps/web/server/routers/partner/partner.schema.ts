import { z } from 'zod';
import { ZUuid } from '../../../lib/schemas.ts';

/** The Partner key profiles (client-safe copy of PARTNER_KEY_PROFILES, checked by a test). */
export const PARTNER_KEY_PROFILES_OFFERED = ['full', 'onboarding', 'runtime', 'webhooks'] as const;
export const PARTNER_KEY_PROFILE_LABELS: Record<(typeof PARTNER_KEY_PROFILES_OFFERED)[number], string> = {
  full: 'Completa (todos los permisos)',
  onboarding: 'Alta (cuentas, certificados, certificación)',
  runtime: 'Operación (emisión y consultas)',
  webhooks: 'Webhooks',
};
/** The Partner event types (client-safe copy of PARTNER_WEBHOOK_EVENT_TYPES, checked by a test). */
export const PARTNER_WEBHOOK_EVENT_TYPES_OFFERED = [
  'annulment.state_changed',
  'certificate.expired',
  'certificate.expiring',
  'certificate.validated',
  'certification.run_completed',
  'certification.state_changed',
  'document.commercial_approval_due',
  'document.commercial_approval_received',
  'document.received',
  'document.state_changed',
  'ecf.queued',
  'production.state_changed',
  'taxauth.service_degraded',
  'taxauth.service_restored',
  'webhook.test',
] as const;

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
  profile: z.enum(PARTNER_KEY_PROFILES_OFFERED),
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
