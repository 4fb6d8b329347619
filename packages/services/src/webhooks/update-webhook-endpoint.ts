import type { TDatabase, TEnqueue } from '@ecf/db';
import { AUDIT_ACTIONS } from '../audit/audit-actions.ts';
import { assertCapability } from '../identity/assert-capability.ts';
import type { TPortalActor } from '../identity/permissions.ts';
import { changeWebhookEndpoint, type TEndpointPatch } from './change-webhook-endpoint.ts';
import type { TWebhookResolver } from './transport/index.ts';
import {
  checkedWebhookEventTypes,
  webhookEndpointOf,
  type TWebhookEndpoint,
} from './webhook-endpoint-rules.ts';

/**
 * What a PATCH may change; absent fields stay as they are. `eventTypes`: a non-empty list, or
 * `'all'`: the types that exist now (Versioning 4: how an endpoint gets a new type).
 */
export type TWebhookEndpointPatch = TEndpointPatch<'all' | readonly string[]>;

/**
 * Changes an endpoint of the tenant (PATCH): the endpoint change of both owners
 * (`changeWebhookEndpoint`: status, name, URL with every target rule again, event types; a retired
 * endpoint is 409, another tenant's NOT_FOUND), from the portal by a member with `webhooks.manage`,
 * with an audit entry that lists only the fields that changed.
 */
export async function updateWebhookEndpoint(options: {
  database: TDatabase;
  tenantId: string;
  endpointId: string;
  patch: TWebhookEndpointPatch;
  allowPrivateTargets: boolean;
  /** Enqueues the `webhook.deliver` jobs of a resumed endpoint's waiting deliveries (in the change's transaction). */
  enqueue: TEnqueue;
  resolve?: TWebhookResolver;
  actor?: TPortalActor;
  now?: () => Date;
}): Promise<TWebhookEndpoint> {
  if (options.actor !== undefined) assertCapability(options.actor, 'webhooks.manage');
  const at = (options.now ?? (() => new Date()))();
  const row = await changeWebhookEndpoint({
    ...options,
    owner: { tenantId: options.tenantId },
    checkEventTypes: checkedWebhookEventTypes,
    emptyPath: 'form',
    audit: {
      actorUserId: options.actor?.userId ?? null,
      action: AUDIT_ACTIONS.WEBHOOK_UPDATED,
      ip: options.actor?.ip ?? null,
    },
    at,
  });
  return webhookEndpointOf(row, at);
}
