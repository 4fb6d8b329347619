/**
 * The two webhook payloads, as zod schemas: what a receiver gets (the docs, the OpenAPI document's
 * `webhooks` and `@ecf/sdk`'s `verifyWebhook` types come from here) and what `@ecf/services`'
 * builders parse every payload with before it is stored for delivery.
 *
 * - direct (portal webhooks): `id`, `type`, `createdAt`, `tenantId`, `environment`,
 *   `correlationId`, `document {id, type, encf, status, trackId}` (null for environment-wide
 *   events), `data {severity, message, payload}`.
 * - partner (`schemaVersion: partner.webhook.v1`): `id`, `type`, `createdAt`, `externalTenantId`,
 *   `fiscalAccountId`, `environment` (the Partner API's name: `production`, `testecf`, `certecf`),
 *   `stateVersion` (the outbox sequence: strictly increasing per resource and environment),
 *   `correlationId`, `resource`, `data`. Every link in it is a Partner route (`printing.pdfUrl`).
 *
 * `correlationId` (both): the request whose change wrote the outbox row, null when no request
 * caused it (a job, an outage). `annulment.state_changed` (both systems) is about an ANECF, not a
 * document: `document` is null (direct) and `resource` is `{ kind: 'annulment', id, state }`.
 */
import { z } from 'zod';
import { ZDocumentStatus } from './document-lists.ts';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from './webhook-event-types.ts';

const ZEnvironment = z.enum(['TesteCF', 'CerteCF', 'eCF']);
/** The Partner API's names of the environments (its routes and answers use the same). */
const ZPartnerEnvironment = z.enum(['production', 'testecf', 'certecf']);
const ZCorrelationId = z.string().min(1).max(200).nullable();
const ZEventType = z.enum(WEBHOOK_EVENT_TYPES);
const ZLastError = z.looseObject({ code: z.string() }).nullable();

/** The direct-account payload (portal webhooks). */
export const ZDirectWebhookPayload = z.strictObject({
  id: z.uuid(),
  type: ZEventType,
  createdAt: z.iso.datetime({ offset: true }),
  tenantId: z.uuid(),
  environment: ZEnvironment,
  /** The request that caused the change; null for a job's or an outage's. */
  correlationId: ZCorrelationId,
  document: z
    .strictObject({
      id: z.uuid(),
      /** e-CF type as the API spells it (`E31`). */
      type: z.string().regex(/^E\d{2}$/),
      encf: z.string(),
      status: ZDocumentStatus,
      trackId: z.string().nullable(),
    })
    .nullable(),
  data: z.strictObject({
    severity: z.enum(['info', 'warning', 'error']),
    message: z.string(),
    payload: z.record(z.string(), z.unknown()),
  }),
});
export type TDirectWebhookPayload = z.infer<typeof ZDirectWebhookPayload>;

const ZPrinting = z
  .strictObject({
    pdfUrl: z.string().nullable(),
    securityCode: z.string().nullable(),
    qrUrl: z.string().nullable(),
    signatureDate: z.string().nullable(),
  })
  .nullable();

/** `resource` of a Partner event about an issued e-CF. */
const ZPartnerDocumentResource = z.strictObject({
  kind: z.literal('document'),
  id: z.uuid(),
  type: z.string().regex(/^E\d{2}$/),
  encf: z.string(),
  status: ZDocumentStatus,
  trackId: z.string().nullable(),
  printing: ZPrinting,
  printingStatus: z.string(),
  lastError: ZLastError,
});
/** `resource` of a tax authority availability event (`dgii_service`, written `taxauth_service`). */
const ZPartnerServiceResource = z.strictObject({
  kind: z.literal('taxauth_service'),
  id: z.uuid(),
  state: z.enum(['degraded', 'restored']),
});
/** The annulment states an event announces (the tax authority answered, or a reconciliation fixed it). */
export const ANNULMENT_EVENT_STATES = ['accepted', 'rejected', 'failed', 'uncertain'] as const;
/** The state an annulment event announces (the builders parse the outbox row's state with it). */
export const ZAnnulmentEventState = z.enum(ANNULMENT_EVENT_STATES);
/** `resource` of `annulment.state_changed`. */
const ZPartnerAnnulmentResource = z.strictObject({
  kind: z.literal('annulment'),
  id: z.uuid(),
  state: ZAnnulmentEventState,
});
/** The states of a received document an event announces (issue 18). */
export const INBOUND_EVENT_STATES = ['received', 'accepted', 'rejected', 'commercial_approval_due'] as const;
/** `resource` of the receiving events: the received e-CF or ACECF (`inboundDocumentId`). */
const ZPartnerInboundResource = z.strictObject({
  kind: z.literal('inbound_document'),
  id: z.uuid(),
  state: z.enum(INBOUND_EVENT_STATES),
});
/** The states of a certification case an event announces (issue 19). */
export const CERTIFICATION_CASE_STATES = ['in_progress', 'failed', 'approved', 'closed'] as const;
/** `resource` of `certification.state_changed`: the case (its step is in `data`). */
const ZPartnerCertificationCaseResource = z.strictObject({
  kind: z.literal('certification_case'),
  id: z.uuid(),
  state: z.enum(CERTIFICATION_CASE_STATES),
});
/** `resource` of `certification.run_completed`: the run. */
const ZPartnerCertificationRunResource = z.strictObject({
  kind: z.literal('certification_run'),
  id: z.uuid(),
  state: z.literal('succeeded'),
});
/** `resource` of the certificate events (Partner only): the installed certificate. */
const ZPartnerCertificateResource = z.strictObject({
  kind: z.literal('certificate'),
  id: z.uuid(),
  state: z.enum(['validated', 'expiring', 'expired']),
});
/** `resource` of `production.state_changed` (Partner only): the account's eCF authorization. */
const ZPartnerProductionResource = z.strictObject({
  kind: z.literal('production'),
  id: z.uuid(),
  state: z.enum(['not_requested', 'pending', 'active', 'suspended']),
});
/** `resource` of `webhook.test`. */
const ZPartnerTestResource = z.strictObject({ kind: z.literal('webhook_endpoint'), id: z.uuid() });

/** The Partner payload (`partner.webhook.v1`). Partner routes come with the Partner API issue. */
export const ZPartnerWebhookPayload = z.strictObject({
  schemaVersion: z.literal('partner.webhook.v1'),
  id: z.uuid(),
  type: ZEventType,
  createdAt: z.iso.datetime({ offset: true }),
  externalTenantId: z.string().min(1).max(200),
  fiscalAccountId: z.uuid(),
  /** The Partner API's name (`production` is eCF, `testecf` TesteCF, `certecf` CerteCF). */
  environment: ZPartnerEnvironment,
  /** Orders events of the same resource and environment (strictly increasing). */
  stateVersion: z.number().int().positive(),
  /** The request that caused the change; null for a job's or an outage's. */
  correlationId: ZCorrelationId,
  resource: z.discriminatedUnion('kind', [
    ZPartnerDocumentResource,
    ZPartnerServiceResource,
    ZPartnerAnnulmentResource,
    ZPartnerInboundResource,
    ZPartnerCertificationCaseResource,
    ZPartnerCertificationRunResource,
    ZPartnerCertificateResource,
    ZPartnerProductionResource,
    ZPartnerTestResource,
  ]),
  data: z.record(z.string(), z.unknown()),
});
export type TPartnerWebhookPayload = z.infer<typeof ZPartnerWebhookPayload>;

/** The members every view of a webhook delivery has: both APIs' delivery logs and the portal's. */
export const WEBHOOK_DELIVERY_FIELDS = {
  eventId: z.uuid(),
  eventType: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  failureReason: z.string().nullable(),
};
