/**
 * Webhooks: the engine (outbox events, fan-out, the delivery job, payloads), the transport
 * (target rules and SSRF guard, signer, sender, backoff) and the endpoint lifecycle (create,
 * change, pause, retire, rotate the secret, test, deliveries log, replay).
 */
export * from './transport/index.ts';
export {
  DIRECT_WEBHOOK_EVENT_TYPES,
  expandWebhookEventTypes,
  isSubscribableWebhookEventType,
  WEBHOOK_EVENT_TYPES,
  type TWebhookEventType,
} from '@ecf/contract';
// Engine (W1): secrets, payloads, fan-out, the delivery job, the sweep.
export { generateWebhookSecret, openWebhookSecret, sealWebhookSecret } from './webhook-secrets.ts';
export {
  buildDirectWebhookPayload,
  buildPartnerWebhookPayload,
  buildWebhookTestBody,
  partnerPdfUrlOf,
  webhookBodyOf,
  ZDirectWebhookPayload,
  ZPartnerWebhookPayload,
  type TDirectWebhookPayload,
  type TPartnerWebhookPayload,
  type TWebhookEventRecord,
} from './payloads.ts';
export { fanOutWebhookEvents, webhookEndpointsFor } from './fan-out-webhook-events.ts';
export {
  runWebhookDelivery,
  WEBHOOK_LEASE_MS,
  type TRunWebhookDeliveryResult,
} from './run-webhook-delivery.ts';
export { sweepWebhookDeliveries, WEBHOOK_OVERDUE_SECONDS } from './sweep-webhook-deliveries.ts';
// Endpoint lifecycle (portal).
export {
  WEBHOOK_NAME_MAX_LENGTH,
  WEBHOOK_OVERLAP_MAX_SECONDS,
  type TWebhookEndpoint,
} from './webhook-endpoint-rules.ts';
export { createWebhookEndpoint } from './create-webhook-endpoint.ts';
export { updateWebhookEndpoint, type TWebhookEndpointPatch } from './update-webhook-endpoint.ts';
export { retireWebhookEndpoint } from './retire-webhook-endpoint.ts';
export { rotateWebhookSecret } from './rotate-webhook-secret.ts';
export { sendTestWebhook } from './send-test-webhook.ts';
export { findWebhookEndpoints } from './find-webhook-endpoints.ts';
export { getWebhookEndpoint } from './get-webhook-endpoint.ts';
export { findWebhookDeliveries, type TWebhookDelivery } from './find-webhook-deliveries.ts';
export { replayWebhookDelivery, retryWebhookDeliveryNow } from './replay-webhook-delivery.ts';
// TesteCF test inboxes (issue 27): an endpoint served by the API itself that records what it receives.
export { createWebhookInbox, WEBHOOK_INBOX_ENDPOINT_NAME } from './create-webhook-inbox.ts';
export { recordWebhookInboxRequest, WEBHOOK_INBOX_BODY_KEEP_BYTES } from './record-webhook-inbox-request.ts';
export { findWebhookInboxRequests, type TWebhookInboxRequest } from './find-webhook-inbox-requests.ts';
// Partner endpoints (issue 20): the same engine, `system = partner`, lifecycle through the Partner API.
export { partnerWebhookEndpointsFor } from './fan-out-webhook-events.ts';
export { type TPartnerWebhookEndpoint } from './partner-webhook-rules.ts';
export { createPartnerWebhookEndpoint } from './create-partner-webhook-endpoint.ts';
export { findPartnerWebhookEndpoints } from './find-partner-webhook-endpoints.ts';
export { updatePartnerWebhookEndpoint } from './update-partner-webhook-endpoint.ts';
export { retirePartnerWebhookEndpoint } from './retire-partner-webhook-endpoint.ts';
export {
  PARTNER_ROTATION_DEFAULT_OVERLAP_SECONDS,
  rotatePartnerWebhookSecret,
} from './rotate-partner-webhook-secret.ts';
export { sendPartnerTestWebhook } from './send-partner-test-webhook.ts';
export { findPartnerWebhookDeliveries } from './find-partner-webhook-deliveries.ts';
export { getPartnerWebhookDelivery } from './get-partner-webhook-delivery.ts';
export { replayPartnerWebhookDelivery } from './replay-partner-webhook-delivery.ts';
