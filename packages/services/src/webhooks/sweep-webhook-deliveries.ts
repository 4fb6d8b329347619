import type { TDatabase, TEnqueue } from '@ecf/db';
import { sweepWebhookDeliveryRows } from '../persistence/webhooks/webhooks.ts';
import { fanOutWebhookEvents } from './fan-out-webhook-events.ts';

/** A queued delivery this late past its `next_attempt_at` is taken as having lost its job. */
export const WEBHOOK_OVERDUE_SECONDS = 30;

/**
 * The webhook safety net (`maintenance.sweep-webhooks`, every minute; the worker's recovery loop
 * every few seconds): deliveries whose worker died mid-attempt go back to the queue (at least once,
 * never lost), overdue queued deliveries of active endpoints get a job again (this also continues a
 * resumed endpoint whose resume raced a fan-out), and outbox rows no fan-out took are fanned out.
 */
export async function sweepWebhookDeliveries(options: {
  database: TDatabase;
  enqueue: TEnqueue;
  now: () => Date;
  overdueSeconds?: number;
  fanOut?: boolean;
}): Promise<{ recovered: string[]; requeued: string[]; fannedOut: number }> {
  const fannedOut =
    options.fanOut === false
      ? 0
      : (
          await fanOutWebhookEvents({
            database: options.database,
            enqueue: options.enqueue,
            now: options.now,
          })
        ).events;
  const swept = await sweepWebhookDeliveryRows(options.database, {
    now: options.now(),
    overdueSeconds: options.overdueSeconds ?? WEBHOOK_OVERDUE_SECONDS,
    limit: 1000,
    enqueue: options.enqueue,
  });
  return { ...swept, fannedOut };
}
