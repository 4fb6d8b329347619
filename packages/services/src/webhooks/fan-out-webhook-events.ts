import type { TDatabase, TEnqueue } from '@ecf/db';
import {
  fanOutPendingWebhookEvents,
  type TPartnerAccountLink,
  type TWebhookEventRow,
  type TWebhookFanOutEndpoint,
} from '../persistence/webhooks/webhooks.ts';
import { OUTAGE_WEBHOOK_EVENT_TYPES } from '@ecf/contract';
import { buildDirectWebhookPayload, buildPartnerWebhookPayload, webhookBodyOf } from './payloads.ts';

/** Outbox rows per transaction of the fan-out. */
const FAN_OUT_BATCH = 200;

/**
 * Which endpoints receive `event` (Versioning 4 included): direct endpoints of the event's tenant
 * (every tenant's, for an environment-wide event such as an outage episode) in its environment,
 * ACTIVE or PAUSED (a paused endpoint's deliveries wait), whose stored `eventTypes` list the type.
 * `webhook.test` never fans out (it is addressed to one endpoint), and an outage row that names an
 * account is the Partners' copy (the environment-wide row is the direct endpoints'). Partner
 * endpoints: see {@link partnerWebhookEndpointsFor}.
 */
export function webhookEndpointsFor(
  event: Pick<TWebhookEventRow, 'type' | 'tenantId' | 'environment'>,
  endpoints: readonly TWebhookFanOutEndpoint[],
): TWebhookFanOutEndpoint[] {
  if (event.type === 'webhook.test') return [];
  if (event.tenantId !== null && (OUTAGE_WEBHOOK_EVENT_TYPES as readonly string[]).includes(event.type))
    return [];
  return endpoints.filter(
    (endpoint) =>
      endpoint.system === 'direct' &&
      endpoint.tenantId !== null &&
      endpoint.environment !== null &&
      (endpoint.status === 'active' || endpoint.status === 'paused') &&
      endpoint.environment === event.environment &&
      (event.tenantId === null || endpoint.tenantId === event.tenantId) &&
      endpoint.eventTypes.includes(event.type),
  );
}

/**
 * Which Partner endpoints receive `event`: those of the Partner that manages the event's account
 * (`account`), ACTIVE or PAUSED, whose stored `eventTypes` list the type, whatever the environment
 * (the payload says which). Environment-wide rows (an outage episode's direct row: no account) and
 * events of accounts no Partner manages go to no Partner endpoint; an outage reaches Partners
 * through its per-account rows (migration 0019).
 */
export function partnerWebhookEndpointsFor(
  event: Pick<TWebhookEventRow, 'type' | 'tenantId'>,
  endpoints: readonly TWebhookFanOutEndpoint[],
  account: TPartnerAccountLink | null,
): TWebhookFanOutEndpoint[] {
  if (event.type === 'webhook.test' || account === null || event.tenantId === null) return [];
  return endpoints.filter(
    (endpoint) =>
      endpoint.system === 'partner' &&
      endpoint.partnerId === account.partnerId &&
      (endpoint.status === 'active' || endpoint.status === 'paused') &&
      endpoint.eventTypes.includes(event.type),
  );
}

/**
 * Turns every pending outbox row into its deliveries (one per subscribed endpoint, each with the
 * exact body it will always send) and enqueues the deliveries of active endpoints, a batch per
 * transaction, until the outbox is empty or `maxBatches` ran. Safe to run in several processes at
 * once (rows another run holds are skipped; an event never gets two deliveries to one endpoint).
 */
export async function fanOutWebhookEvents(options: {
  database: TDatabase;
  enqueue: TEnqueue;
  now: () => Date;
  batchSize?: number;
  maxBatches?: number;
}): Promise<{ events: number; deliveries: number }> {
  let events = 0;
  let deliveries = 0;
  const batchSize = options.batchSize ?? FAN_OUT_BATCH;
  for (let batch = 0; batch < (options.maxBatches ?? 50); batch += 1) {
    const result = await fanOutPendingWebhookEvents(options.database, {
      limit: batchSize,
      now: options.now(),
      enqueue: options.enqueue,
      route: (event, endpoints, account) => [
        ...webhookEndpointsFor(event, endpoints).map((endpoint) => ({
          endpoint,
          body: webhookBodyOf(buildDirectWebhookPayload(event, endpoint.tenantId!)),
        })),
        ...(account === null
          ? []
          : partnerWebhookEndpointsFor(event, endpoints, account).map((endpoint) => ({
              endpoint,
              body: webhookBodyOf(
                buildPartnerWebhookPayload(event, {
                  fiscalAccountId: account.fiscalAccountId,
                  externalTenantId: account.externalTenantId,
                }),
              ),
            }))),
      ],
    });
    events += result.events;
    deliveries += result.deliveries;
    if (result.events < batchSize) break;
  }
  return { events, deliveries };
}
