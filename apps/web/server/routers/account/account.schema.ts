import { z } from 'zod';
import type { TAccountSettings } from '@ecf/services';
import { ENVIRONMENTS } from '../../../lib/environments.ts';

const PRODUCTION_STATES = ['not_requested', 'pending', 'active', 'suspended'] as const;

/** The account as its page shows it: the profile, the settings and each environment's state. */
export const ZAccount = z.object({
  rnc: z.string(),
  legalName: z.string(),
  tradeName: z.string().nullable(),
  address: z.string().nullable(),
  phones: z.array(z.string()),
  fiscalEmail: z.string().nullable(),
  productionState: z.enum(PRODUCTION_STATES),
  buyerEmailEnvironments: z.array(z.enum(ENVIRONMENTS)),
  paymentTermDays: z.number().int().nullable(),
  deferredSendAuthorized: z.boolean(),
  environments: z.array(
    z.object({ environment: z.enum(ENVIRONMENTS), open: z.boolean(), buyerEmail: z.boolean() }),
  ),
  updatedAt: z.iso.datetime(),
});
export type TAccount = z.infer<typeof ZAccount>;

export function accountOf(settings: TAccountSettings): TAccount {
  return {
    rnc: settings.rnc,
    legalName: settings.legalName,
    tradeName: settings.tradeName,
    address: settings.address,
    phones: settings.phones,
    fiscalEmail: settings.fiscalEmail,
    productionState: settings.productionState,
    buyerEmailEnvironments: settings.buyerEmailEnvironments,
    paymentTermDays: settings.paymentTermDays,
    deferredSendAuthorized: settings.deferredSendAuthorized,
    environments: settings.environments,
    updatedAt: settings.updatedAt.toISOString(),
  };
}
