import type { TDatabase } from '@ecf/db';
import { findPartnerWebhookEndpointRows } from '../persistence/index.ts';
import { partnerWebhookEndpointOf, type TPartnerWebhookEndpoint } from './partner-webhook-rules.ts';

/** A Partner's endpoints (retired last), newest first. */
export async function findPartnerWebhookEndpoints(options: {
  database: TDatabase;
  partnerId: string;
  now?: () => Date;
}): Promise<TPartnerWebhookEndpoint[]> {
  const now = (options.now ?? (() => new Date()))();
  return (await findPartnerWebhookEndpointRows(options.database, options.partnerId)).map((row) =>
    partnerWebhookEndpointOf(row, now),
  );
}
