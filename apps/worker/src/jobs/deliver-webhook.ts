import type { TJobPayload } from '@ecf/db';
import { runWebhookDelivery } from '@ecf/services';
import type { TJobContext } from './context.ts';

/**
 * One attempt of a webhook delivery (thin: the use-case claims, sends, records and schedules the
 * retry as a new job in the same transaction). A crash mid-attempt leaves the delivery `running`
 * with a lease; `maintenance.sweep-webhooks` puts it back in the queue when the lease lapses.
 */
export async function deliverWebhookJob(
  payload: TJobPayload<'webhook.deliver'>,
  context: TJobContext,
): Promise<void> {
  const result = await runWebhookDelivery({
    database: context.database,
    enqueue: context.enqueue,
    deliveryId: payload.deliveryId,
    keyring: context.certificateKeyring,
    now: context.now,
    allowPrivateTargets: context.webhooks?.allowPrivateTargets ?? false,
    ...(context.webhooks?.inboxBaseUrl === undefined ? {} : { inboxBaseUrl: context.webhooks.inboxBaseUrl }),
    ...(context.webhooks?.leaseMs === undefined ? {} : { leaseMs: context.webhooks.leaseMs }),
    ...(context.webhooks?.timeoutMs === undefined ? {} : { timeoutMs: context.webhooks.timeoutMs }),
  });
  if (!result.attempted) {
    context.log.debug(
      { deliveryId: payload.deliveryId, reason: result.reason },
      'webhook delivery not attempted',
    );
    return;
  }
  if (result.outcome !== 'succeeded')
    context.log.info(
      {
        deliveryId: payload.deliveryId,
        attempt: result.attempt,
        outcome: result.outcome,
        responseStatus: result.responseStatus,
        nextAttemptAt: result.nextAttemptAt?.toISOString() ?? null,
      },
      'webhook delivery attempt did not succeed',
    );
}
