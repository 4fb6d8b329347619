import type { TDatabase, TEnqueue } from '@ecf/db';
import { AUDIT_ACTIONS } from '../audit/audit-actions.ts';
import { assertCapability } from '../identity/assert-capability.ts';
import type { TPortalActor } from '../identity/permissions.ts';
import { updateAuditedWebhookEndpoint, type TEndpointChanges } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { assertWebhookTarget, type TWebhookResolver } from './transport/index.ts';
import {
  checkedWebhookEventTypes,
  checkedWebhookName,
  fieldError,
  webhookEndpointOf,
  type TWebhookEndpoint,
} from './webhook-endpoint-rules.ts';

/** What a PATCH may change; absent fields stay as they are. */
export type TWebhookEndpointPatch = {
  /** `paused`: deliveries wait (no attempt used) and continue on reactivation (`active`). */
  status?: 'active' | 'paused';
  name?: string;
  url?: string;
  /** A non-empty list, or `'all'`: the types that exist now (Versioning 4: how an endpoint gets a new type). */
  eventTypes?: 'all' | readonly string[];
};

/**
 * Changes an endpoint of the tenant (PATCH): status `active`/`paused`, name (≤ 200), URL (every
 * target rule again), event types. A retired endpoint is 409 `WEBHOOK_ENDPOINT_RETIRED`; another
 * tenant's is NOT_FOUND. On resume its waiting deliveries are due at once (their `webhook.deliver`
 * jobs commit with the change). The audit entry lists only the fields that changed.
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
  if (!isUuid(options.endpointId)) throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  const { patch } = options;
  if (
    patch.status === undefined &&
    patch.name === undefined &&
    patch.url === undefined &&
    patch.eventTypes === undefined
  )
    throw fieldError('form', 'patch_empty', 'Nothing to change.');
  if (patch.status !== undefined && patch.status !== 'active' && patch.status !== 'paused')
    throw fieldError('status', 'status_invalid', 'The status is active or paused (DELETE retires).');
  const changes: TEndpointChanges = {
    ...(patch.status === undefined ? {} : { status: patch.status }),
    ...(patch.name === undefined ? {} : { name: checkedWebhookName(patch.name) }),
    ...(patch.eventTypes === undefined ? {} : { eventTypes: checkedWebhookEventTypes(patch.eventTypes) }),
  };
  if (patch.url !== undefined) {
    changes.url = patch.url.trim();
    await assertWebhookTarget(changes.url, {
      allowPrivateTargets: options.allowPrivateTargets,
      resolve: options.resolve,
    });
  }
  const at = (options.now ?? (() => new Date()))();
  const result = await updateAuditedWebhookEndpoint(
    options.database,
    {
      tenantId: options.tenantId,
      endpointId: options.endpointId,
      changes,
      at,
      enqueue: options.enqueue,
    },
    {
      actorUserId: options.actor?.userId ?? null,
      action: AUDIT_ACTIONS.WEBHOOK_UPDATED,
      ip: options.actor?.ip ?? null,
    },
  );
  if (result.kind === 'not_found') throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  if (result.kind === 'retired')
    throw new AppError('WEBHOOK_ENDPOINT_RETIRED', 'This webhook endpoint was retired.');
  return webhookEndpointOf(result.row, at);
}
