import type { TDatabase, TEnqueue } from '@ecf/db';
import { replayWebhookDeliveryRow, type TWebhookDeliveryRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';

/**
 * `POST /webhook-deliveries/{deliveryId}/replay`: a failed delivery of an active endpoint is queued
 * again (its event and attempts kept; one more attempt when all 8 were used) by the replay of both
 * owners (`replayWebhookDeliveryRow`); anything else 409 `WEBHOOK_REPLAY_NOT_ALLOWED`.
 */
export async function replayPartnerWebhookDelivery(options: {
  database: TDatabase;
  partnerId: string;
  deliveryId: string;
  enqueue: TEnqueue;
  now?: () => Date;
}): Promise<TWebhookDeliveryRow> {
  if (!isUuid(options.deliveryId)) throw new AppError('NOT_FOUND', 'Webhook delivery not found.');
  const result = await replayWebhookDeliveryRow(options.database, {
    owner: { partnerId: options.partnerId },
    deliveryId: options.deliveryId,
    at: (options.now ?? (() => new Date()))(),
    enqueue: options.enqueue,
  });
  if (result.kind === 'not_found') throw new AppError('NOT_FOUND', 'Webhook delivery not found.');
  if (result.kind === 'not_allowed')
    throw new AppError(
      'WEBHOOK_REPLAY_NOT_ALLOWED',
      'Only failed deliveries of an active endpoint are replayed.',
      {
        details: { status: result.status, endpointStatus: result.endpointStatus },
      },
    );
  return result.row;
}
