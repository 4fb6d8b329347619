import type { TDatabase, TEnqueue } from '@ecf/db';
import { changeWebhookEndpoint, type TEndpointPatch } from './change-webhook-endpoint.ts';
import {
  checkedPartnerEventTypes,
  partnerWebhookEndpointOf,
  type TPartnerWebhookEndpoint,
} from './partner-webhook-rules.ts';
import type { TWebhookResolver } from './transport/index.ts';

/**
 * `PATCH /webhook-endpoints/{endpointId}` of a Partner: the endpoint change of both owners
 * (`changeWebhookEndpoint`) with the Partner's event types (a non-empty list: how an endpoint gets
 * a type added later) and its view. Another Partner's endpoint is NOT_FOUND.
 */
export async function updatePartnerWebhookEndpoint(options: {
  database: TDatabase;
  partnerId: string;
  endpointId: string;
  patch: TEndpointPatch<readonly string[]>;
  allowPrivateTargets: boolean;
  enqueue: TEnqueue;
  resolve?: TWebhookResolver;
  now?: () => Date;
}): Promise<TPartnerWebhookEndpoint> {
  const at = (options.now ?? (() => new Date()))();
  const row = await changeWebhookEndpoint({
    ...options,
    owner: { partnerId: options.partnerId },
    checkEventTypes: checkedPartnerEventTypes,
    emptyPath: '',
    at,
  });
  return partnerWebhookEndpointOf(row, at);
}
