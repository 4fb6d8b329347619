import { ENVIRONMENTS, type Environment, type TDatabase } from '@ecf/db';
import type { TCertificateKeyring } from '../accounts/certificate-keyring.ts';
import { AUDIT_ACTIONS } from '../audit/audit-actions.ts';
import { assertCapability } from '../identity/assert-capability.ts';
import type { TPortalActor } from '../identity/permissions.ts';
import { insertAuditedWebhookEndpoint } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { prepareWebhookEndpoint } from './change-webhook-endpoint.ts';
import type { TWebhookResolver } from './transport/index.ts';
import {
  checkedWebhookEventTypes,
  webhookEndpointOf,
  type TWebhookEndpoint,
} from './webhook-endpoint-rules.ts';

/**
 * Creates a direct-account endpoint of (tenant, environment), active, subscribed to `eventTypes`
 * (`'all'`: the types that exist now, stored as their list). The URL passes every target rule
 * (DNS included) or the call is a field error on `url`. The signing secret is generated here,
 * stored sealed with the certificate keyring and returned ONCE (`signingSecret`); the audit entry
 * never carries it. From the portal (`actor`) the member needs `webhooks.manage`.
 */
export async function createWebhookEndpoint(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  name: string;
  url: string;
  eventTypes: 'all' | readonly string[];
  keyring: TCertificateKeyring;
  /** `WEBHOOKS_ALLOW_PRIVATE_TARGETS` (development): loopback and plain http for local receivers. */
  allowPrivateTargets: boolean;
  resolve?: TWebhookResolver;
  actor?: TPortalActor;
  now?: () => Date;
}): Promise<{ endpoint: TWebhookEndpoint; signingSecret: string }> {
  if (options.actor !== undefined) assertCapability(options.actor, 'webhooks.manage');
  if (!ENVIRONMENTS.includes(options.environment))
    throw new AppError('INVALID_REQUEST', `Unknown environment ${String(options.environment)}.`);
  const eventTypes = checkedWebhookEventTypes(options.eventTypes);
  const { signingSecret, ...endpoint } = await prepareWebhookEndpoint(options);
  const at = (options.now ?? (() => new Date()))();
  const row = await insertAuditedWebhookEndpoint(
    options.database,
    { ...endpoint, tenantId: options.tenantId, environment: options.environment, eventTypes, at },
    {
      actorUserId: options.actor?.userId ?? null,
      action: AUDIT_ACTIONS.WEBHOOK_CREATED,
      ip: options.actor?.ip ?? null,
    },
  );
  return { endpoint: webhookEndpointOf(row, at), signingSecret };
}
