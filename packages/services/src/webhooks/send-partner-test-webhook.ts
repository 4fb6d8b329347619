import { randomUUID } from 'node:crypto';
import type { Environment, TDatabase, TEnqueue } from '@ecf/db';
import { insertWebhookTest } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { buildPartnerWebhookPayload, webhookBodyOf } from './payloads.ts';

/**
 * `POST /webhook-endpoints/{endpointId}/test` (`{fiscalAccountId, environment}`): queues a
 * `webhook.test` delivery for this endpoint only, with the Partner payload of that account and
 * environment; nothing goes to the tax authority. The caller checked the account is the Partner's.
 * `correlationId`: the test request's (the payload's and the outbox row's).
 */
export async function sendPartnerTestWebhook(options: {
  database: TDatabase;
  partnerId: string;
  endpointId: string;
  account: { fiscalAccountId: string; externalTenantId: string };
  environment: Environment;
  enqueue: TEnqueue;
  correlationId?: string | null;
  now?: () => Date;
}): Promise<{ eventId: string; deliveryId: string }> {
  if (!isUuid(options.endpointId)) throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  const at = (options.now ?? (() => new Date()))();
  const eventId = randomUUID();
  const deliveryId = randomUUID();
  const body = webhookBodyOf(
    buildPartnerWebhookPayload(
      {
        id: eventId,
        sequence: '1',
        type: 'webhook.test',
        tenantId: options.account.fiscalAccountId,
        environment: options.environment,
        documentId: null,
        episodeId: null,
        data: {},
        createdAt: at,
        correlationId: options.correlationId ?? null,
      },
      options.account,
      options.endpointId,
    ),
  );
  const result = await insertWebhookTest(options.database, {
    owner: { partnerId: options.partnerId },
    endpointId: options.endpointId,
    eventId,
    deliveryId,
    at,
    correlationId: options.correlationId ?? null,
    subjectOf: () => ({ tenantId: options.account.fiscalAccountId, environment: options.environment }),
    bodyOf: () => body,
    enqueue: options.enqueue,
  });
  if (result.kind === 'not_found') throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  if (result.kind === 'retired')
    throw new AppError('WEBHOOK_ENDPOINT_RETIRED', 'This webhook endpoint was retired.');
  return { eventId, deliveryId };
}
