import type { TDatabase } from '@ecf/db';
import { retirePartnerWebhookEndpointRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { partnerWebhookEndpointOf, type TPartnerWebhookEndpoint } from './partner-webhook-rules.ts';

/** `DELETE /webhook-endpoints/{endpointId}`: retired (final, history kept), queued deliveries failed. */
export async function retirePartnerWebhookEndpoint(options: {
  database: TDatabase;
  partnerId: string;
  endpointId: string;
  now?: () => Date;
}): Promise<TPartnerWebhookEndpoint> {
  if (!isUuid(options.endpointId)) throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  const at = (options.now ?? (() => new Date()))();
  const result = await retirePartnerWebhookEndpointRow(options.database, { ...options, at });
  if (result.kind === 'not_found') throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  if (result.kind !== 'done') throw new Error('unexpected retirement result');
  return partnerWebhookEndpointOf(result.row, at);
}
