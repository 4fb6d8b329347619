import type { TDatabase } from '@ecf/db';
import type { TCertificateKeyring } from '../accounts/certificate-keyring.ts';
import { AUDIT_ACTIONS } from '../audit/audit-actions.ts';
import { assertCapability } from '../identity/assert-capability.ts';
import type { TPortalActor } from '../identity/permissions.ts';
import { rotateAuditedWebhookSecret } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import {
  fieldError,
  WEBHOOK_OVERLAP_MAX_SECONDS,
  webhookEndpointOf,
  type TWebhookEndpoint,
} from './webhook-endpoint-rules.ts';
import { generateWebhookSecret, sealWebhookSecret } from './webhook-secrets.ts';

/**
 * Rotates an endpoint's signing secret: the new one is returned ONCE (`signingSecret`) and signs
 * from now on; the previous one keeps signing beside it (two `v1`) for `overlapSeconds` (0 to 7
 * days), so receivers can install the new secret without rejecting anything. A second rotation
 * while that window is open is 409 `WEBHOOK_ROTATION_IN_PROGRESS` (`details.previousSecretExpiresAt`);
 * a retired endpoint is 409 `WEBHOOK_ENDPOINT_RETIRED`. The audit entry never carries a secret.
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
  if (!isUuid(options.endpointId)) throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  const { overlapSeconds } = options;
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > WEBHOOK_OVERLAP_MAX_SECONDS)
    throw fieldError(
      'overlapSeconds',
      'overlap_invalid',
      `overlapSeconds is a whole number from 0 to ${WEBHOOK_OVERLAP_MAX_SECONDS}.`,
    );
  const signingSecret = generateWebhookSecret();
  const at = (options.now ?? (() => new Date()))();
  const result = await rotateAuditedWebhookSecret(
    options.database,
    {
      tenantId: options.tenantId,
      endpointId: options.endpointId,
      secret: sealWebhookSecret({
        keyring: options.keyring,
        endpointId: options.endpointId,
        secret: signingSecret,
      }),
      overlapSeconds,
      at,
    },
    {
      actorUserId: options.actor?.userId ?? null,
      action: AUDIT_ACTIONS.WEBHOOK_SECRET_ROTATED,
      ip: options.actor?.ip ?? null,
    },
  );
  if (result.kind === 'not_found') throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  if (result.kind === 'retired')
    throw new AppError('WEBHOOK_ENDPOINT_RETIRED', 'This webhook endpoint was retired.');
  if (result.kind === 'in_progress')
    throw new AppError('WEBHOOK_ROTATION_IN_PROGRESS', 'A secret rotation is still in its overlap window.', {
      details: { previousSecretExpiresAt: result.row.previousSecretExpiresAt?.toISOString() ?? null },
    });
  return { endpoint: webhookEndpointOf(result.row, at), signingSecret };
}
