import type { TDatabase } from '@ecf/db';
import type { TCertificateKeyring } from '../accounts/certificate-keyring.ts';
import { insertPartnerWebhookEndpoint } from '../persistence/index.ts';
import { prepareWebhookEndpoint } from './change-webhook-endpoint.ts';
import type { TWebhookResolver } from './transport/index.ts';
import {
  checkedPartnerEventTypes,
  partnerWebhookEndpointOf,
  type TPartnerWebhookEndpoint,
} from './partner-webhook-rules.ts';

/**
 * `POST /webhook-endpoints` of a Partner: every environment's events of its accounts, for the
 * types listed (omitted: every Partner type that exists now). The URL passes the target rules (DNS
 * included). The signing secret is returned ONCE; the same URL again (an endpoint not retired)
 * answers that endpoint with `replayed: true` and no secret.
 */
export async function createPartnerWebhookEndpoint(options: {
  database: TDatabase;
  partnerId: string;
  name: string;
  url: string;
  eventTypes?: readonly string[];
  keyring: TCertificateKeyring;
  allowPrivateTargets: boolean;
  resolve?: TWebhookResolver;
  now?: () => Date;
}): Promise<{ replayed: boolean; endpoint: TPartnerWebhookEndpoint; signingSecret: string | null }> {
  const eventTypes = checkedPartnerEventTypes(options.eventTypes);
  const { signingSecret, ...endpoint } = await prepareWebhookEndpoint(options);
  const at = (options.now ?? (() => new Date()))();
  const result = await insertPartnerWebhookEndpoint(options.database, {
    ...endpoint,
    partnerId: options.partnerId,
    eventTypes,
    at,
  });
  return {
    replayed: result.replayed,
    endpoint: partnerWebhookEndpointOf(result.row, at),
    signingSecret: result.replayed ? null : signingSecret,
  };
}
