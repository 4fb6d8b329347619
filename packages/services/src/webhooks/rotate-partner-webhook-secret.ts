import type { TDatabase } from '@ecf/db';
import type { TCertificateKeyring } from '../accounts/certificate-keyring.ts';
import { rotatePartnerWebhookSecretRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { partnerWebhookEndpointOf, type TPartnerWebhookEndpoint } from './partner-webhook-rules.ts';
import { WEBHOOK_OVERLAP_MAX_SECONDS } from './webhook-endpoint-rules.ts';
import { generateWebhookSecret, sealWebhookSecret } from './webhook-secrets.ts';

/** The overlap when the Partner names none: a day. */
export const PARTNER_ROTATION_DEFAULT_OVERLAP_SECONDS = 86_400;

/**
 * `POST /webhook-endpoints/{endpointId}/rotate-secret`: a new secret (returned ONCE); the previous
 * one keeps signing beside it (two `v1`) for `overlapSeconds`. 409 `WEBHOOK_ROTATION_IN_PROGRESS`
 * while a window is open, `WEBHOOK_ENDPOINT_RETIRED` for a retired endpoint.
 */
export async function rotatePartnerWebhookSecret(options: {
  database: TDatabase;
  partnerId: string;
  endpointId: string;
  overlapSeconds?: number;
  keyring: TCertificateKeyring;
  now?: () => Date;
}): Promise<{ endpoint: TPartnerWebhookEndpoint; signingSecret: string }> {
  if (!isUuid(options.endpointId)) throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  const overlapSeconds = Math.min(
    options.overlapSeconds ?? PARTNER_ROTATION_DEFAULT_OVERLAP_SECONDS,
    WEBHOOK_OVERLAP_MAX_SECONDS,
  );
  const signingSecret = generateWebhookSecret();
  const at = (options.now ?? (() => new Date()))();
  const result = await rotatePartnerWebhookSecretRow(options.database, {
    partnerId: options.partnerId,
    endpointId: options.endpointId,
    secret: sealWebhookSecret({
      keyring: options.keyring,
      endpointId: options.endpointId,
      secret: signingSecret,
    }),
    overlapSeconds,
    at,
  });
  if (result.kind === 'not_found') throw new AppError('NOT_FOUND', 'Webhook endpoint not found.');
  if (result.kind === 'retired')
    throw new AppError('WEBHOOK_ENDPOINT_RETIRED', 'This webhook endpoint was retired.');
  if (result.kind === 'in_progress')
    throw new AppError('WEBHOOK_ROTATION_IN_PROGRESS', 'A secret rotation is still in its overlap window.', {
      details: { previousSecretExpiresAt: result.row.previousSecretExpiresAt?.toISOString() ?? null },
    });
  return { endpoint: partnerWebhookEndpointOf(result.row, at), signingSecret };
}
