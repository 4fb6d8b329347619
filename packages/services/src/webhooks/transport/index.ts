/**
 * The webhook transport, pure of the database: target rules and the SSRF guard, the signer, one
 * attempt's sender and the backoff. The delivery job (packages/services/src/webhooks/) calls it.
 */
export {
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RESPONSE_EXCERPT_BYTES,
  WEBHOOK_RESPONSE_LIMIT_BYTES,
  WEBHOOK_SIGNATURE_TOLERANCE_SECONDS,
  WEBHOOK_TIMEOUT_MS,
  WEBHOOK_URL_MAX_LENGTH,
  WEBHOOK_USER_AGENT,
} from './limits.ts';
export {
  addressRefusal,
  assertWebhookTarget,
  WEBHOOK_TARGET_REFUSALS,
  isWebhookInboxUrl,
  WEBHOOK_INBOX_PATH,
  WEBHOOK_INBOX_TOKEN_PATTERN,
  webhookInboxUrlOf,
  webhookUrlRefusal,
  WebhookTargetRefusedError,
  type TWebhookResolver,
  type TWebhookTargetOptions,
  type TWebhookTargetRefusal,
} from './target-rules.ts';
export { signWebhookBody, webhookRequestHeaders } from './sign-webhook-body.ts';
export {
  checkWebhookSignature,
  type TWebhookSignatureCheck,
  type TWebhookSignatureRefusal,
} from './check-webhook-signature.ts';
export {
  closeWebhookConnections,
  deliverWebhook,
  WEBHOOK_ATTEMPT_ERROR_CODES,
  WEBHOOK_ERROR_MESSAGE_MAX_LENGTH,
  type TDeliverWebhookOptions,
  type TWebhookDeliveryErrorCode,
  type TWebhookDeliveryOutcome,
  type TWebhookDeliveryResult,
} from './deliver-webhook.ts';
export { nextWebhookAttemptAt, webhookRetryDelayMs } from './webhook-backoff.ts';
