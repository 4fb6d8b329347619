import type { TDatabase } from '@ecf/db';
import type { TCertificateKeyring } from '../accounts/certificate-keyring.ts';
import { AUDIT_ACTIONS } from '../audit/audit-actions.ts';
import { assertCapability } from '../identity/assert-capability.ts';
import type { TPortalActor } from '../identity/permissions.ts';
import { rotateEndpointSecret } from './change-webhook-endpoint.ts';
import {
  fieldError,
  WEBHOOK_OVERLAP_MAX_SECONDS,
  webhookEndpointOf,
  type TWebhookEndpoint,
} from './webhook-endpoint-rules.ts';

/**
 * Rotates a tenant endpoint's signing secret: the rotation of both owners (`rotateEndpointSecret`:
 * the new secret returned ONCE, the previous one signing beside it for `overlapSeconds`, 0 to 7
 * days, so receivers can install the new secret without rejecting anything). From the portal by a
 * member with `webhooks.manage`; the audit entry never carries a secret.
 */
export async function rotateWebhookSecret(options: {
  database: TDatabase;
  tenantId: string;
  endpointId: string;
  overlapSeconds: number;
  keyring: TCertificateKeyring;
  actor?: TPortalActor;
  now?: () => Date;
}): Promise<{ endpoint: TWebhookEndpoint; signingSecret: string }> {
  if (options.actor !== undefined) assertCapability(options.actor, 'webhooks.manage');
  const { overlapSeconds } = options;
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > WEBHOOK_OVERLAP_MAX_SECONDS)
    throw fieldError(
      'overlapSeconds',
      'overlap_invalid',
      `overlapSeconds is a whole number from 0 to ${WEBHOOK_OVERLAP_MAX_SECONDS}.`,
    );
  const at = (options.now ?? (() => new Date()))();
  const { row, signingSecret } = await rotateEndpointSecret({
    ...options,
    owner: { tenantId: options.tenantId },
    audit: {
      actorUserId: options.actor?.userId ?? null,
      action: AUDIT_ACTIONS.WEBHOOK_SECRET_ROTATED,
      ip: options.actor?.ip ?? null,
    },
    at,
  });
  return { endpoint: webhookEndpointOf(row, at), signingSecret };
}
