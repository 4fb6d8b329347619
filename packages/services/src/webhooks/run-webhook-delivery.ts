import type { TDatabase, TEnqueue } from '@ecf/db';
import type { TCertificateKeyring } from '../accounts/certificate-keyring.ts';
import { AppError } from '../shared/errors.ts';
import {
  claimWebhookDelivery,
  recordWebhookAttempt,
  type TWebhookClaimRefusal,
} from '../persistence/webhooks/webhooks.ts';
import {
  deliverWebhook,
  nextWebhookAttemptAt,
  WEBHOOK_TIMEOUT_MS,
  type TWebhookResolver,
} from './transport/index.ts';
import { openWebhookSecret } from './webhook-secrets.ts';

/**
 * How long a claimed attempt may run before the sweep takes its worker for dead and puts the
 * delivery back in the queue: the request's timeout plus room for the two short transactions.
 */
export const WEBHOOK_LEASE_MS = WEBHOOK_TIMEOUT_MS + 50_000;

export type TRunWebhookDeliveryResult =
  | { attempted: false; reason: TWebhookClaimRefusal }
  | {
      attempted: true;
      attempt: number;
      outcome: 'succeeded' | 'retry' | 'failed';
      status: 'succeeded' | 'queued' | 'failed' | 'superseded';
      responseStatus: number | null;
      nextAttemptAt: Date | null;
    };

/**
 * The opened secrets of the endpoints this process delivered to lately, by keyring, endpoint, key
 * and sealed bytes: a rotation or a re-seal changes the sealed bytes, so a stale entry is never
 * used. Opening (AES-GCM) cost about a tenth of the worker's CPU per event under load. The clear
 * value is what signing needs in memory anyway; at most `OPENED_SECRETS_MAX` are kept.
 */
const openedSecrets = new WeakMap<TCertificateKeyring, Map<string, string>>();
const OPENED_SECRETS_MAX = 1024;

function openedSecret(
  keyring: TCertificateKeyring,
  endpointId: string,
  keyId: string,
  sealed: Uint8Array,
): string {
  let cache = openedSecrets.get(keyring);
  if (cache === undefined) {
    cache = new Map();
    openedSecrets.set(keyring, cache);
  }
  const key = `${endpointId}:${keyId}:${Buffer.from(sealed).toString('base64')}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const secret = openWebhookSecret({ keyring, endpointId, keyId, sealed });
  if (cache.size >= OPENED_SECRETS_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(key, secret);
  return secret;
}

/**
 * One attempt of a webhook delivery (the `webhook.deliver` job): claim it (queued → running, one
 * more attempt; a paused endpoint leaves it queued without using an attempt, a retired one fails
 * it), sign and POST the stored body with the endpoint's secrets (the previous one too during a
 * rotation's overlap), then record the attempt and move the delivery: succeeded, back to queued
 * with the retry's job (backoff), or failed. Each attempt is logged whatever its outcome.
 */
export async function runWebhookDelivery(options: {
  database: TDatabase;
  enqueue: TEnqueue;
  deliveryId: string;
  keyring: TCertificateKeyring | undefined;
  now: () => Date;
  allowPrivateTargets: boolean;
  /** The API's public address (PUBLIC_BASE_URL): deliveries to its own test inboxes are allowed. */
  inboxBaseUrl?: string;
  timeoutMs?: number;
  leaseMs?: number;
  random?: () => number;
  resolve?: TWebhookResolver;
}): Promise<TRunWebhookDeliveryResult> {
  if (options.keyring === undefined)
    throw new AppError(
      'INTERNAL_ERROR',
      'CERTIFICATE_MASTER_KEY is not configured: webhook secrets cannot be opened.',
    );
  const keyring = options.keyring;
  const startedAt = options.now();
  const claim = await claimWebhookDelivery(options.database, {
    deliveryId: options.deliveryId,
    now: startedAt,
    leaseUntil: new Date(startedAt.getTime() + (options.leaseMs ?? WEBHOOK_LEASE_MS)),
  });
  if ('refused' in claim) return { attempted: false, reason: claim.refused };
  const delivery = claim.claimed;
  const secrets = [
    openedSecret(keyring, delivery.endpointId, delivery.secretKeyId, delivery.encryptedSecret),
    ...(delivery.previousSecret === null
      ? []
      : [
          openedSecret(
            keyring,
            delivery.endpointId,
            delivery.previousSecret.keyId,
            delivery.previousSecret.sealed,
          ),
        ]),
  ];
  const result = await deliverWebhook({
    url: delivery.url,
    body: delivery.body,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    secrets,
    now: options.now,
    allowPrivateTargets: options.allowPrivateTargets,
    inboxBaseUrl: options.inboxBaseUrl,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.resolve === undefined ? {} : { resolve: options.resolve }),
  });
  const finishedAt = options.now();
  const nextAttemptAt = nextWebhookAttemptAt({
    attempt: delivery.attempt,
    outcome: result.outcome,
    now: finishedAt,
    maxAttempts: delivery.maxAttempts,
    ...(options.random === undefined ? {} : { random: options.random }),
  });
  const failureReason =
    result.outcome === 'failed'
      ? (result.error?.code ?? 'failed')
      : result.outcome === 'retry' && nextAttemptAt === null
        ? 'attempts_exhausted'
        : null;
  const recorded = await recordWebhookAttempt(options.database, {
    deliveryId: delivery.id,
    attempt: delivery.attempt,
    startedAt,
    durationMs: result.durationMs,
    outcome: result.outcome,
    responseStatus: result.status ?? null,
    responseExcerpt: result.responseExcerpt ?? null,
    error: result.error === undefined ? null : `${result.error.code}: ${result.error.message}`,
    nextAttemptAt,
    failureReason,
    now: finishedAt,
    enqueue: options.enqueue,
  });
  return {
    attempted: true,
    attempt: delivery.attempt,
    outcome: result.outcome,
    status: recorded.status,
    responseStatus: result.status ?? null,
    nextAttemptAt,
  };
}
