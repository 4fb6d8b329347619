import type { TJobPayload } from '@ecf/db';
import { fanOutWebhookEvents } from '@ecf/services';
import type { TJobContext } from './context.ts';

/**
 * Turns pending outbox rows into deliveries. The worker also runs the use-case when the outbox
 * NOTIFYs (`webhook-outbox-listener.ts`); this queue lets any process ask for a run.
 */
export async function fanOutWebhooksJob(
  _payload: TJobPayload<'webhook.fan-out'>,
  context: TJobContext,
): Promise<void> {
  await fanOutWebhookEvents({ database: context.database, enqueue: context.enqueue, now: context.now });
}
