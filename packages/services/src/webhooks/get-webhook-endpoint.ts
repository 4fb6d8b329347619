import type { Environment, TDatabase } from '@ecf/db';
import { findWebhookEndpointRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { webhookEndpointOf, type TWebhookEndpoint } from './webhook-endpoint-rules.ts';

/**
 * One endpoint of the tenant (of `environment` when given); NOT_FOUND otherwise, another tenant's
 * id and an id of another environment included.
 */
export async function getWebhookEndpoint(options: {
  database: TDatabase;
  tenantId: string;
  endpointId: string;
  environment?: Environment;
  now?: () => Date;
}): Promise<TWebhookEndpoint> {
  const row = isUuid(options.endpointId)
    ? await findWebhookEndpointRow(options.database, {
        owner: { tenantId: options.tenantId },
        endpointId: options.endpointId,
      })
    : null;
  if (row === null || (options.environment !== undefined && row.environment !== options.environment))
    throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  return webhookEndpointOf(row, (options.now ?? (() => new Date()))());
}
