import type { TDatabase, TEnqueue } from '@ecf/db';
import { AUDIT_ACTIONS } from '../audit/audit-actions.ts';
import { assertCapability } from '../identity/assert-capability.ts';
import type { TPortalActor } from '../identity/permissions.ts';
import { retryAuditedWebhookDeliveryNow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import type { TWebhookDelivery } from './find-webhook-deliveries.ts';

/**
 * "Reintentar ahora": a `queued` delivery of an ACTIVE endpoint (waiting for its backoff) becomes due
 * now with its own `webhook.deliver` job and the audit entry (the same attempt budget: it does not
 * add an attempt). One conditional update guarded on `queued`, so a delivery a worker is sending
 * (`running`) is never sent twice; anything else (running, succeeded, failed: use the replay; a
 * paused or retired endpoint) is 409 `WEBHOOK_REPLAY_NOT_ALLOWED` with `details.status` and
 * `details.endpointStatus`. Another tenant's delivery is NOT_FOUND.
 */
export async function retryWebhookDeliveryNow(options: {
  database: TDatabase;
  tenantId: string;
  deliveryId: string;
  enqueue: TEnqueue;
  actor?: TPortalActor;
  now?: () => Date;
}): Promise<TWebhookDelivery & { endpointId: string }> {
  if (options.actor !== undefined) assertCapability(options.actor, 'webhooks.manage');
  if (!isUuid(options.deliveryId)) throw new AppError('NOT_FOUND', 'Webhook delivery not found.');
  const result = await retryAuditedWebhookDeliveryNow(
    options.database,
    {
      tenantId: options.tenantId,
      deliveryId: options.deliveryId,
      at: (options.now ?? (() => new Date()))(),
      enqueue: options.enqueue,
    },
    {
      actorUserId: options.actor?.userId ?? null,
      action: AUDIT_ACTIONS.WEBHOOK_DELIVERY_REPLAYED,
      ip: options.actor?.ip ?? null,
    },
  );
  if (result.kind === 'not_found') throw new AppError('NOT_FOUND', 'Webhook delivery not found.');
  if (result.kind === 'not_allowed')
    throw new AppError(
      'WEBHOOK_REPLAY_NOT_ALLOWED',
      `Only queued deliveries of an active endpoint are retried now (this one is ${result.status}, its endpoint ${result.endpointStatus}).`,
      { details: { status: result.status, endpointStatus: result.endpointStatus } },
    );
  return result.row;
}
