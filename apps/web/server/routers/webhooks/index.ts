import { createRouter } from '../../trpc/init.ts';
import { checkWebhookUrl } from './check-webhook-url.ts';
import { createWebhookEndpoint } from './create-webhook-endpoint.ts';
import { createWebhookInbox } from './create-webhook-inbox.ts';
import { getWebhookEndpoint } from './get-webhook-endpoint.ts';
import { listWebhookDeliveries } from './list-webhook-deliveries.ts';
import { listWebhookEndpoints } from './list-webhook-endpoints.ts';
import { listWebhookInboxRequests } from './list-webhook-inbox-requests.ts';
import { replayWebhookDelivery, retryWebhookDeliveryNow } from './replay-webhook-delivery.ts';
import { retireWebhookEndpoint } from './retire-webhook-endpoint.ts';
import { rotateWebhookSecret } from './rotate-webhook-secret.ts';
import { sendTestWebhook } from './send-test-webhook.ts';
import { updateWebhookEndpoint } from './update-webhook-endpoint.ts';

/**
 * The active tenant's direct-account webhook endpoints, per environment: owners and developers
 * manage them; support reads endpoints and deliveries (audited).
 */
export const webhooksRouter = createRouter({
  list: listWebhookEndpoints,
  get: getWebhookEndpoint,
  deliveries: listWebhookDeliveries,
  checkUrl: checkWebhookUrl,
  create: createWebhookEndpoint,
  update: updateWebhookEndpoint,
  retire: retireWebhookEndpoint,
  rotateSecret: rotateWebhookSecret,
  sendTest: sendTestWebhook,
  replay: replayWebhookDelivery,
  retryNow: retryWebhookDeliveryNow,
  // TesteCF test inboxes (issue 27).
  createInbox: createWebhookInbox,
  inboxRequests: listWebhookInboxRequests,
});
