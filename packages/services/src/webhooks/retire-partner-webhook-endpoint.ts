import type { TDatabase } from '@ecf/db';
import { retireWebhookEndpointRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { partnerWebhookEndpointOf, type TPartnerWebhookEndpoint } from './partner-webhook-rules.ts';

/**
 * `DELETE /webhook-endpoints/{endpointId}` of a Partner: retired (final, history kept), queued
 * deliveries failed, by the retirement of both owners (`retireWebhookEndpointRow`).
 */
export async function retirePartnerWebhookEndpoint(options: {
  database: TDatabase;
  partnerId: string;
  endpointId: string;
  now?: () => Date;
}): Promise<TPartnerWebhookEndpoint> {
  if (!isUuid(options.endpointId)) throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  const at = (options.now ?? (() => new Date()))();
  const result = await retireWebhookEndpointRow(options.database, {
    owner: { partnerId: options.partnerId },
    endpointId: options.endpointId,
    at,
  });
  if (result === null) throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  return partnerWebhookEndpointOf(result.row, at);
}
