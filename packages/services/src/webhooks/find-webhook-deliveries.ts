import type { Environment, TDatabase } from '@ecf/db';
import {
  findWebhookDeliveryRows,
  type TWebhookDeliveryRow,
  type TWebhookDeliveryStatus,
  type TWebhookEndpointOwner,
} from '../persistence/index.ts';
import { isUuid } from '../shared/references.ts';
import { getWebhookEndpoint } from './get-webhook-endpoint.ts';
import { fieldError } from './webhook-endpoint-rules.ts';
import {
  WEBHOOK_DELIVERIES_DEFAULT_LIMIT,
  WEBHOOK_DELIVERIES_MAX_LIMIT,
  WEBHOOK_DELIVERY_STATUSES,
} from '@ecf/contract';

export type TWebhookDelivery = Omit<TWebhookDeliveryRow, 'endpointId'>;

/** A page's cursor: the last delivery's `(createdAt, id)`, base64url (opaque to callers). */
function cursorOf(row: TWebhookDeliveryRow): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`, 'utf8').toString('base64url');
}

function positionOf(cursor: string): { createdAt: Date; id: string } {
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (rest.length > 0 || id === undefined || !isUuid(id) || Number.isNaN(createdAt.getTime()))
    throw fieldError('cursor', 'cursor_invalid', 'The cursor is not one this list gave.');
  return { createdAt, id };
}

/**
 * A page of the owner's deliveries (of one endpoint, or of all its endpoints), newest first, by
 * cursor (`nextCursor` null on the last page), optionally of one `status`; each with every attempt.
 * A limit out of 1–100, an unknown status or a cursor this list did not give is a field error.
 */
export async function webhookDeliveriesPage(options: {
  database: TDatabase;
  owner: TWebhookEndpointOwner;
  endpointId?: string;
  status?: TWebhookDeliveryStatus | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
}): Promise<{ items: TWebhookDeliveryRow[]; nextCursor: string | null }> {
  const limit = options.limit ?? WEBHOOK_DELIVERIES_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > WEBHOOK_DELIVERIES_MAX_LIMIT)
    throw fieldError('limit', 'limit_invalid', `limit is from 1 to ${WEBHOOK_DELIVERIES_MAX_LIMIT}.`);
  if (options.status !== undefined && !WEBHOOK_DELIVERY_STATUSES.includes(options.status))
    throw fieldError('status', 'status_invalid', `status is one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}.`);
  const after = options.cursor === undefined ? undefined : positionOf(options.cursor);
  const rows = await findWebhookDeliveryRows(options.database, {
    owner: options.owner,
    ...(options.endpointId === undefined ? {} : { endpointId: options.endpointId }),
    ...(options.status === undefined ? {} : { status: options.status }),
    ...(after === undefined ? {} : { after }),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page, nextCursor: rows.length > limit && last !== undefined ? cursorOf(last) : null };
}

/**
 * An endpoint's deliveries (the page of both owners, `webhookDeliveriesPage`). NOT_FOUND for
 * another tenant's endpoint (or one of another `environment` when given).
 */
export async function findWebhookDeliveries(options: {
  database: TDatabase;
  tenantId: string;
  endpointId: string;
  environment?: Environment;
  status?: TWebhookDeliveryStatus;
  cursor?: string;
  limit?: number;
}): Promise<{ items: TWebhookDelivery[]; nextCursor: string | null }> {
  await getWebhookEndpoint({
    database: options.database,
    tenantId: options.tenantId,
    endpointId: options.endpointId,
    ...(options.environment === undefined ? {} : { environment: options.environment }),
  });
  const { items, nextCursor } = await webhookDeliveriesPage({
    ...options,
    owner: { tenantId: options.tenantId },
  });
  return { items: items.map(({ endpointId: _endpointId, ...delivery }) => delivery), nextCursor };
}
