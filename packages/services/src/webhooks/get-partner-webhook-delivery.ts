import type { TDatabase } from '@ecf/db';
import { findWebhookDeliveryRow, type TWebhookDeliveryRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';

/** `GET /webhook-deliveries/{deliveryId}`: status and attempts; NOT_FOUND for another Partner's. */
export async function getPartnerWebhookDelivery(options: {
  database: TDatabase;
  partnerId: string;
  deliveryId: string;
}): Promise<TWebhookDeliveryRow> {
  const row = isUuid(options.deliveryId)
    ? await findWebhookDeliveryRow(options.database, {
        owner: { partnerId: options.partnerId },
        deliveryId: options.deliveryId,
      })
    : null;
  if (row === null) throw new AppError('NOT_FOUND', 'Webhook delivery not found.');
  return row;
}
