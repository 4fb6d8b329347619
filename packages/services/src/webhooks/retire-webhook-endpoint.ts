import type { TDatabase } from '@ecf/db';
import { AUDIT_ACTIONS } from '../audit/audit-actions.ts';
import { assertCapability } from '../identity/assert-capability.ts';
import type { TPortalActor } from '../identity/permissions.ts';
import { retireWebhookEndpointRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { webhookEndpointOf, type TWebhookEndpoint } from './webhook-endpoint-rules.ts';

/**
 * Retires an endpoint (DELETE): final, its history kept; its queued deliveries become `failed`
 * (`endpoint_retired`) in the same transaction, and a later change is 409
 * `WEBHOOK_ENDPOINT_RETIRED`. Retiring twice is harmless (one audit entry). Another tenant's
 * endpoint is NOT_FOUND.
 */
export async function retireWebhookEndpoint(options: {
  database: TDatabase;
  tenantId: string;
  endpointId: string;
  actor?: TPortalActor;
  now?: () => Date;
}): Promise<{ endpoint: TWebhookEndpoint; failedDeliveries: number }> {
  if (options.actor !== undefined) assertCapability(options.actor, 'webhooks.manage');
  if (!isUuid(options.endpointId)) throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  const at = (options.now ?? (() => new Date()))();
  const result = await retireWebhookEndpointRow(
    options.database,
    { owner: { tenantId: options.tenantId }, endpointId: options.endpointId, at },
    {
      actorUserId: options.actor?.userId ?? null,
      action: AUDIT_ACTIONS.WEBHOOK_RETIRED,
      ip: options.actor?.ip ?? null,
    },
  );
  if (result === null) throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  return { endpoint: webhookEndpointOf(result.row, at), failedDeliveries: result.failedDeliveries };
}
