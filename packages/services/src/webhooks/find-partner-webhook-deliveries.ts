import type { TDatabase } from '@ecf/db';
import {
  findPartnerWebhookDeliveryRows,
  type TWebhookDeliveryRow,
  type TWebhookDeliveryStatus,
} from '../persistence/index.ts';
import { isUuid } from '../shared/references.ts';
import { fieldError } from './webhook-endpoint-rules.ts';

/** `GET /webhook-deliveries`: every endpoint of the Partner, newest first, by cursor, optionally one `status`. */
export async function findPartnerWebhookDeliveries(options: {
  database: TDatabase;
  partnerId: string;
  status?: TWebhookDeliveryStatus;
  cursor?: string;
  limit?: number;
}): Promise<{ items: TWebhookDeliveryRow[]; nextCursor: string | null }> {
  const limit = options.limit ?? 25;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw fieldError('limit', 'limit_invalid', 'limit is from 1 to 100.');
  let after: { createdAt: Date; id: string } | undefined;
  if (options.cursor !== undefined) {
    const [at, id, ...rest] = Buffer.from(options.cursor, 'base64url').toString('utf8').split('|');
    const createdAt = new Date(at ?? '');
    if (rest.length > 0 || id === undefined || !isUuid(id) || Number.isNaN(createdAt.getTime()))
      throw fieldError('cursor', 'cursor_invalid', 'The cursor is not one this list gave.');
    after = { createdAt, id };
  }
  const rows = await findPartnerWebhookDeliveryRows(options.database, {
    partnerId: options.partnerId,
    ...(options.status === undefined ? {} : { status: options.status }),
    ...(after === undefined ? {} : { after }),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page,
    nextCursor:
      rows.length > limit && last !== undefined
        ? Buffer.from(`${last.createdAt.toISOString()}|${last.id}`, 'utf8').toString('base64url')
        : null,
  };
}
