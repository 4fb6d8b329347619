import type { Environment, TDatabase } from '@ecf/db';
import { findWebhookEndpointRows } from '../persistence/index.ts';
import { webhookEndpointOf, type TWebhookEndpoint } from './webhook-endpoint-rules.ts';

/** A tenant's direct endpoints of one environment (retired ones last), newest first; never a secret. */
export async function findWebhookEndpoints(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  now?: () => Date;
}): Promise<TWebhookEndpoint[]> {
  const now = (options.now ?? (() => new Date()))();
  const rows = await findWebhookEndpointRows(options.database, {
    tenantId: options.tenantId,
    environment: options.environment,
  });
  return rows.map((row) => webhookEndpointOf(row, now));
}
