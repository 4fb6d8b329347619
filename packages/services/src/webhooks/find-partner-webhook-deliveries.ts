import type { TDatabase } from '@ecf/db';
import type { TWebhookDeliveryRow, TWebhookDeliveryStatus } from '../persistence/index.ts';
import { webhookDeliveriesPage } from './find-webhook-deliveries.ts';

/**
 * `GET /webhook-deliveries`: every endpoint of the Partner, newest first, by cursor, optionally one
 * `status` (the page of both owners, `webhookDeliveriesPage`).
 */
export async function findPartnerWebhookDeliveries(options: {
  database: TDatabase;
  partnerId: string;
  status?: TWebhookDeliveryStatus;
  cursor?: string;
  limit?: number;
}): Promise<{ items: TWebhookDeliveryRow[]; nextCursor: string | null }> {
  return webhookDeliveriesPage({ ...options, owner: { partnerId: options.partnerId } });
}
