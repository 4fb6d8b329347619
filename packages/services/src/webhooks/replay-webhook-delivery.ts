import type { TDatabase, TEnqueue } from '@ecf/db';
import { AUDIT_ACTIONS } from '../audit/audit-actions.ts';
import { assertCapability } from '../identity/assert-capability.ts';
import type { TPortalActor } from '../identity/permissions.ts';
import {
  replayWebhookDeliveryRow,
  retryAuditedWebhookDeliveryNow,
  type TEndpointAuditEntry,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import type { TWebhookDelivery } from './find-webhook-deliveries.ts';

type TRequeueOptions = {
  database: TDatabase;
  tenantId: string;
  deliveryId: string;
  enqueue: TEnqueue;
  actor?: TPortalActor;
  now?: () => Date;
};

/** The two ways a delivery goes back in the queue: the persistence step and its refusal's message. */
const REQUEUES = {
  replay: {
    change: (
      database: TDatabase,
      input: { tenantId: string; deliveryId: string; at: Date; enqueue: TEnqueue },
      entry: TEndpointAuditEntry,
    ) => replayWebhookDeliveryRow(database, { ...input, owner: { tenantId: input.tenantId } }, entry),
    refusal: (status: string, endpointStatus: string) =>
      status === 'failed'
        ? `Only deliveries of an active endpoint are replayed (this one is ${endpointStatus}).`
        : `Only failed deliveries are replayed (this one is ${status}).`,
  },
  retryNow: {
    change: retryAuditedWebhookDeliveryNow,
    refusal: (status: string, endpointStatus: string) =>
      `Only queued deliveries of an active endpoint are retried now (this one is ${status}, its endpoint ${endpointStatus}).`,
  },
} as const;

async function requeueWebhookDelivery(
  options: TRequeueOptions,
  how: keyof typeof REQUEUES,
): Promise<TWebhookDelivery & { endpointId: string }> {
  if (options.actor !== undefined) assertCapability(options.actor, 'webhooks.manage');
  if (!isUuid(options.deliveryId)) throw new AppError('NOT_FOUND', 'Webhook delivery not found.');
  const result = await REQUEUES[how].change(
    options.database,
    {
      tenantId: options.tenantId,
      deliveryId: options.deliveryId,
      at: (options.now ?? (() => new Date()))(),
      enqueue: options.enqueue,
    },
    {
      actorUserId: options.actor?.userId ?? null,
      action: AUDIT_ACTIONS.WEBHOOK_DELIVERY_REPLAYED,
      ip: options.actor?.ip ?? null,
    },
  );
  if (result.kind === 'not_found') throw new AppError('NOT_FOUND', 'Webhook delivery not found.');
  if (result.kind === 'not_allowed')
    throw new AppError(
      'WEBHOOK_REPLAY_NOT_ALLOWED',
      REQUEUES[how].refusal(result.status, result.endpointStatus),
      {
        details: { status: result.status, endpointStatus: result.endpointStatus },
      },
    );
  return result.row;
}

/**
 * Replays a `failed` delivery of an ACTIVE endpoint (spec, States and transitions): re-queued due
 * now with the same event (id and body) and its attempt counter; the attempts it had left stay
 * (a delivery that failed at once, a 400, may be tried until 8), and when all 8 were used one more
 * attempt is allowed. Its `webhook.deliver` job and the audit entry commit with it. Any other
 * delivery (queued, running, succeeded) or an endpoint paused or retired is 409
 * `WEBHOOK_REPLAY_NOT_ALLOWED` (`details.status`, `details.endpointStatus`); another tenant's
 * delivery is NOT_FOUND.
 */
export async function replayWebhookDelivery(
  options: TRequeueOptions,
): Promise<TWebhookDelivery & { endpointId: string }> {
  return requeueWebhookDelivery(options, 'replay');
}

/**
 * "Reintentar ahora": a `queued` delivery of an ACTIVE endpoint (waiting for its backoff) becomes due
 * now with its own `webhook.deliver` job and the audit entry (the same attempt budget: it does not
 * add an attempt). One conditional update guarded on `queued`, so a delivery a worker is sending
 * (`running`) is never sent twice; anything else (running, succeeded, failed: use the replay; a
 * paused or retired endpoint) is 409 `WEBHOOK_REPLAY_NOT_ALLOWED` with `details.status` and
 * `details.endpointStatus`. Another tenant's delivery is NOT_FOUND.
 */
export async function retryWebhookDeliveryNow(
  options: TRequeueOptions,
): Promise<TWebhookDelivery & { endpointId: string }> {
  return requeueWebhookDelivery(options, 'retryNow');
}
