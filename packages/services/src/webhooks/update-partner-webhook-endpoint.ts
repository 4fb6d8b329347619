import type { TDatabase, TEnqueue } from '@ecf/db';
import { updatePartnerWebhookEndpointRow, type TEndpointChanges } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { assertWebhookTarget, type TWebhookResolver } from './transport/index.ts';
import {
  checkedPartnerEventTypes,
  partnerWebhookEndpointOf,
  type TPartnerWebhookEndpoint,
} from './partner-webhook-rules.ts';
import { checkedWebhookName, fieldError } from './webhook-endpoint-rules.ts';

/**
 * `PATCH /webhook-endpoints/{endpointId}`: `status` (active, paused), `name`, `url` (the target
 * rules again), `eventTypes` (a non-empty list: how an endpoint gets a type added later). A
 * retired endpoint is 409 `WEBHOOK_ENDPOINT_RETIRED`; another Partner's is NOT_FOUND.
 */
export async function updatePartnerWebhookEndpoint(options: {
  database: TDatabase;
  partnerId: string;
  endpointId: string;
  patch: { status?: 'active' | 'paused'; name?: string; url?: string; eventTypes?: readonly string[] };
  allowPrivateTargets: boolean;
  enqueue: TEnqueue;
  resolve?: TWebhookResolver;
  now?: () => Date;
}): Promise<TPartnerWebhookEndpoint> {
  if (!isUuid(options.endpointId)) throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  const { patch } = options;
  if (Object.values(patch).every((value) => value === undefined))
    throw fieldError('', 'patch_empty', 'Nothing to change.');
  const changes: TEndpointChanges = {
    ...(patch.status === undefined ? {} : { status: patch.status }),
    ...(patch.name === undefined ? {} : { name: checkedWebhookName(patch.name) }),
    ...(patch.eventTypes === undefined ? {} : { eventTypes: checkedPartnerEventTypes(patch.eventTypes) }),
  };
  if (patch.url !== undefined) {
    changes.url = patch.url.trim();
    await assertWebhookTarget(changes.url, {
      allowPrivateTargets: options.allowPrivateTargets,
      resolve: options.resolve,
    });
  }
  const at = (options.now ?? (() => new Date()))();
  const result = await updatePartnerWebhookEndpointRow(options.database, {
    partnerId: options.partnerId,
    endpointId: options.endpointId,
    changes,
    at,
    enqueue: options.enqueue,
  });
  if (result.kind === 'not_found') throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  if (result.kind === 'retired')
    throw new AppError('WEBHOOK_ENDPOINT_RETIRED', 'This webhook endpoint was retired.');
  return partnerWebhookEndpointOf(result.row, at);
}
