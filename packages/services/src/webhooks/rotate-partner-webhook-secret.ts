import type { TDatabase } from '@ecf/db';
import type { TCertificateKeyring } from '../accounts/certificate-keyring.ts';
import { rotateEndpointSecret } from './change-webhook-endpoint.ts';
import { partnerWebhookEndpointOf, type TPartnerWebhookEndpoint } from './partner-webhook-rules.ts';
import { WEBHOOK_OVERLAP_MAX_SECONDS } from './webhook-endpoint-rules.ts';

/** The overlap when the Partner names none: a day. */
export const PARTNER_ROTATION_DEFAULT_OVERLAP_SECONDS = 86_400;

/**
 * `POST /webhook-endpoints/{endpointId}/rotate-secret` of a Partner: the rotation of both owners
 * (`rotateEndpointSecret`), the overlap a day unless named (at most 7 days).
 */
export async function rotatePartnerWebhookSecret(options: {
  database: TDatabase;
  partnerId: string;
  endpointId: string;
  overlapSeconds?: number;
  keyring: TCertificateKeyring;
  now?: () => Date;
}): Promise<{ endpoint: TPartnerWebhookEndpoint; signingSecret: string }> {
  const at = (options.now ?? (() => new Date()))();
  const { row, signingSecret } = await rotateEndpointSecret({
    ...options,
    owner: { partnerId: options.partnerId },
    overlapSeconds: Math.min(
      options.overlapSeconds ?? PARTNER_ROTATION_DEFAULT_OVERLAP_SECONDS,
      WEBHOOK_OVERLAP_MAX_SECONDS,
    ),
    at,
  });
  return { endpoint: partnerWebhookEndpointOf(row, at), signingSecret };
}
