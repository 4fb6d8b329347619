import { randomUUID } from 'node:crypto';
import type { TDatabase, TEnqueue } from '@ecf/db';
import { AUDIT_ACTIONS } from '../audit/audit-actions.ts';
import { assertCapability } from '../identity/assert-capability.ts';
import type { TPortalActor } from '../identity/permissions.ts';
import { insertWebhookTest } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { buildWebhookTestBody } from './payloads.ts';

/**
 * Sends a test (the test route): queues a `webhook.test` event delivered ONLY to this endpoint,
 * subscribed to the type or not, signed and retried like any delivery; it shows in the endpoint's
 * deliveries log. A paused endpoint keeps it waiting until resumed; a retired one is 409
 * `WEBHOOK_ENDPOINT_RETIRED`; another tenant's is NOT_FOUND.
 */
export async function sendTestWebhook(options: {
  database: TDatabase;
  tenantId: string;
  endpointId: string;
  enqueue: TEnqueue;
  actor?: TPortalActor;
  /** The test request's, when the transport has one (the payload's `correlationId`). */
  correlationId?: string | null;
  now?: () => Date;
}): Promise<{ eventId: string; deliveryId: string }> {
  if (options.actor !== undefined) assertCapability(options.actor, 'webhooks.manage');
  if (!isUuid(options.endpointId)) throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  const at = (options.now ?? (() => new Date()))();
  const eventId = randomUUID();
  const result = await insertWebhookTest(
    options.database,
    {
      owner: { tenantId: options.tenantId },
      endpointId: options.endpointId,
      eventId,
      deliveryId: randomUUID(),
      at,
      correlationId: options.correlationId ?? null,
      subjectOf: (endpoint) => endpoint,
      bodyOf: (endpoint) =>
        buildWebhookTestBody({
          eventId,
          createdAt: at,
          tenantId: endpoint.tenantId,
          environment: endpoint.environment,
          correlationId: options.correlationId ?? null,
        }),
      enqueue: options.enqueue,
    },
    {
      actorUserId: options.actor?.userId ?? null,
      action: AUDIT_ACTIONS.WEBHOOK_TEST_SENT,
      ip: options.actor?.ip ?? null,
    },
  );
  if (result.kind === 'not_found') throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  if (result.kind === 'retired')
    throw new AppError('WEBHOOK_ENDPOINT_RETIRED', 'This webhook endpoint was retired.');
  return { eventId: result.eventId, deliveryId: result.deliveryId };
}
