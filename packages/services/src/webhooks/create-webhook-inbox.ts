import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Environment, TDatabase } from '@ecf/db';
import type { TCertificateKeyring } from '../accounts/certificate-keyring.ts';
import { AUDIT_ACTIONS } from '../audit/audit-actions.ts';
import { assertCapability } from '../identity/assert-capability.ts';
import type { TPortalActor } from '../identity/permissions.ts';
import { insertAuditedWebhookEndpoint } from '../persistence/index.ts';
import { webhookInboxUrlOf } from './transport/index.ts';
import {
  checkedWebhookEventTypes,
  fieldError,
  webhookEndpointOf,
  type TWebhookEndpoint,
} from './webhook-endpoint-rules.ts';
import { generateWebhookSecret, sealWebhookSecret } from './webhook-secrets.ts';

/** The name a test inbox's endpoint gets. */
export const WEBHOOK_INBOX_ENDPOINT_NAME = 'Bandeja de prueba';

/** SHA-256 of an inbox token, as `webhook_inboxes.token_sha256` keeps it. */
export function webhookInboxTokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * Creates a TesteCF test inbox (issue 27, "a first webhook on localhost"): a direct endpoint of the
 * tenant, subscribed to every event type, whose URL is the service's own
 * `{inboxBaseUrl}/webhook-inbox/{token}` (a fresh 32-byte token), with its inbox row and audit entry
 * in one transaction. The worker delivers to it over HTTP like to any endpoint (the URL policy
 * recognises the service's own inbox URLs in every deployment) and the API route records what
 * arrives. TesteCF only: any other environment is a field error on `environment`. The signing secret
 * is returned once, as for any endpoint.
 */
export async function createWebhookInbox(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  keyring: TCertificateKeyring;
  /** The API's public address (PUBLIC_BASE_URL). */
  inboxBaseUrl: string;
  actor?: TPortalActor;
  now?: () => Date;
}): Promise<{ endpoint: TWebhookEndpoint; signingSecret: string; inboxUrl: string }> {
  if (options.actor !== undefined) assertCapability(options.actor, 'webhooks.manage');
  if (options.environment !== 'TesteCF')
    throw fieldError('environment', 'inbox_testecf_only', 'Test inboxes exist only in TesteCF.');
  const token = randomBytes(32).toString('base64url');
  const inboxUrl = webhookInboxUrlOf(options.inboxBaseUrl, token);
  const id = randomUUID();
  const signingSecret = generateWebhookSecret();
  const at = (options.now ?? (() => new Date()))();
  const row = await insertAuditedWebhookEndpoint(
    options.database,
    {
      id,
      tenantId: options.tenantId,
      environment: options.environment,
      name: WEBHOOK_INBOX_ENDPOINT_NAME,
      url: inboxUrl,
      eventTypes: checkedWebhookEventTypes('all'),
      secret: sealWebhookSecret({ keyring: options.keyring, endpointId: id, secret: signingSecret }),
      at,
      inbox: { id: randomUUID(), tokenSha256: webhookInboxTokenHash(token) },
    },
    {
      actorUserId: options.actor?.userId ?? null,
      action: AUDIT_ACTIONS.WEBHOOK_CREATED,
      ip: options.actor?.ip ?? null,
    },
  );
  return { endpoint: webhookEndpointOf(row, at), signingSecret, inboxUrl };
}
