import type { TJobPayload } from '@ecf/db';
import { sweepWebhookDeliveries } from '@ecf/services';
import type { TJobContext } from './context.ts';

/**
 * Every minute: deliveries whose worker died mid-attempt go back to the queue, overdue queued
 * deliveries get a job again, leftover outbox rows are fanned out. Not retried: the next minute is.
 */
export async function sweepWebhooksJob(
  _payload: TJobPayload<'maintenance.sweep-webhooks'>,
  context: TJobContext,
): Promise<void> {
  const { recovered, requeued, fannedOut } = await sweepWebhookDeliveries({
    database: context.database,
    enqueue: context.enqueue,
    now: context.now,
  });
  if (recovered.length > 0 || requeued.length > 0 || fannedOut > 0)
    context.log.warn(
      {
        recovered: recovered.length,
        requeued: requeued.length,
        fannedOut,
        deliveryIds: requeued.slice(0, 20),
      },
      'webhook sweep put back deliveries no job was moving',
    );
}
