import { PARTNER_KEY_PROFILES, PARTNER_WEBHOOK_EVENT_TYPES } from '@ecf/contract';
import { z } from 'zod';
import { ZUuid } from '../../../lib/schemas.ts';
import {
  ZPartnerAccount,
  ZPartnerDelivery,
  ZPartnerEndpoint,
  ZPartnerKey,
  ZPartnerOrigin,
} from './partner.schema.ts';

/** A page of 100 accounts from `offset`; `q` the account search (issue 27): the start of an RNC or part of a name. */
export const ZListAccountsInput = z
  // `q` is checked by the procedure (`accountSearchOf` of @ecf/services): this file reaches client components.
  .object({ offset: z.number().int().min(0).max(1_000_000).default(0), q: z.string().max(100).optional() })
  .optional();
export const ZListAccountsOutput = z.object({ items: z.array(ZPartnerAccount), total: z.number().int() });
export const ZListKeysOutput = z.object({ keys: z.array(ZPartnerKey) });
export const ZCreateKeyInput = z.object({
  name: z.string().trim().min(1, 'Escriba un nombre.').max(200),
  profile: z.enum(PARTNER_KEY_PROFILES),
});
export const ZCreateKeyOutput = z.object({ key: z.string(), row: ZPartnerKey });
export const ZRevokeKeyInput = z.object({ keyId: ZUuid });
export const ZListOriginsOutput = z.object({ origins: z.array(ZPartnerOrigin) });
export const ZOriginInput = z.object({ origin: z.string().trim().min(1).max(255) });
export const ZListEndpointsOutput = z.object({ endpoints: z.array(ZPartnerEndpoint) });
export const ZCreateEndpointInput = z.object({
  name: z.string().trim().min(1, 'Escriba un nombre.').max(200),
  url: z.string().trim().min(1, 'Escriba la URL.').max(2048),
  eventTypes: z.union([z.literal('all'), z.array(z.enum(PARTNER_WEBHOOK_EVENT_TYPES)).min(1)]),
});
export const ZCreateEndpointOutput = z.object({
  endpoint: ZPartnerEndpoint,
  signingSecret: z.string().nullable(),
  replayed: z.boolean(),
});
export const ZUpdateEndpointInput = z.object({
  endpointId: ZUuid,
  status: z.enum(['active', 'paused']).optional(),
  name: z.string().trim().min(1).max(200).optional(),
});
export const ZEndpointIdInput = z.object({ endpointId: ZUuid });
export const ZEndpointOutput = z.object({ endpoint: ZPartnerEndpoint });
export const ZListDeliveriesInput = z.object({
  status: z.enum(['queued', 'running', 'succeeded', 'failed']).optional(),
  cursor: z.string().max(500).optional(),
});
export const ZListDeliveriesOutput = z.object({
  items: z.array(ZPartnerDelivery),
  nextCursor: z.string().nullable(),
});
export const ZReplayInput = z.object({ deliveryId: ZUuid });
export const ZReplayOutput = z.object({ delivery: ZPartnerDelivery });
export const ZBillingInput = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
    .optional(),
});
export const ZBillingOutput = z.object({
  month: z.string(),
  plan: z.string(),
  quota: z.number().int(),
  accepted: z.number().int(),
  remaining: z.number().int(),
  accounts: z.array(
    z.object({ fiscalAccountId: ZUuid, externalTenantId: z.string().nullable(), accepted: z.number().int() }),
  ),
  /** The current Dominican month (the billing period): the month picker goes no further. */
  currentMonth: z.string(),
  /** Where the Partner pays (the Partner API's `details.billingUrl` of a 402); null when none is set. */
  billingUrl: z.string().nullable(),
  paidStatus: z.enum(['paid', 'overdue', 'unpaid']),
});
