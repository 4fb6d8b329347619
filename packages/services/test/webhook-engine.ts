// Support of the webhook engine's tests: endpoints inserted as the lifecycle use-cases would
// (sealed secret), and an enqueue that records the jobs it was given.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Environment, TAnyJobRequest, TDatabase, TEnqueue, WebhookEndpointStatus } from '@ecf/db';
import { createCertificateKeyring } from '../src/accounts/certificate-keyring.ts';
import { generateWebhookSecret, sealWebhookSecret } from '../src/webhooks/webhook-secrets.ts';

export const testKeyring = createCertificateKeyring({ currentKey: randomBytes(32).toString('base64') });

export async function insertTestEndpoint(
  database: TDatabase,
  input: {
    tenantId: string;
    environment?: Environment;
    url?: string;
    eventTypes: string[];
    status?: WebhookEndpointStatus;
    secret?: string;
    previous?: { secret: string; expiresAt: Date };
  },
) {
  const id = randomUUID();
  const secret = input.secret ?? generateWebhookSecret();
  const sealed = sealWebhookSecret({ keyring: testKeyring, endpointId: id, secret });
  const previous =
    input.previous === undefined
      ? undefined
      : sealWebhookSecret({ keyring: testKeyring, endpointId: id, secret: input.previous.secret });
  await database.webhookEndpoint.create({
    data: {
      id,
      system: 'direct',
      tenantId: input.tenantId,
      environment: input.environment ?? 'TesteCF',
      name: `endpoint ${id.slice(0, 8)}`,
      url: input.url ?? 'https://receiver.example.com/hook',
      eventTypes: input.eventTypes,
      status: input.status ?? 'active',
      secretKeyId: sealed.keyId,
      encryptedSecret: sealed.sealed,
      ...(previous === undefined || input.previous === undefined
        ? {}
        : {
            previousSecretKeyId: previous.keyId,
            previousEncryptedSecret: previous.sealed,
            previousSecretExpiresAt: input.previous.expiresAt,
          }),
      ...(input.status === 'retired' ? { retiredAt: new Date() } : {}),
    },
  });
  return { id, secret };
}

/** An enqueue that records what it was given (the jobs would commit with the caller's transaction). */
export function recordingEnqueue(): TEnqueue & { jobs: TAnyJobRequest[] } {
  const jobs: TAnyJobRequest[] = [];
  const enqueue = (async (requests: readonly TAnyJobRequest[]) => {
    jobs.push(...requests);
  }) as TEnqueue & { jobs: TAnyJobRequest[] };
  enqueue.jobs = jobs;
  return enqueue;
}
