import { z } from 'zod';
import type { TDatabase, Tenant } from '@ecf/db';
import { isIssuerPhone, MAX_ISSUER_PHONES } from '@ecf/fiscal-core';
import { insertTenant } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';

/** A taxpayer account as an operator creates it. */
export const ZCreateTenantInput = z.strictObject({
  rnc: z.string().regex(/^(\d{9}|\d{11})$/, 'an RNC has 9 digits (or a cédula 11)'),
  legalName: z.string().trim().min(1).max(150),
  tradeName: z.string().trim().min(1).max(150).optional(),
  address: z.string().trim().min(1).max(100).optional(),
  phones: z
    .array(z.string().refine(isIssuerPhone, 'phone format NNN-NNN-NNNN'))
    .max(MAX_ISSUER_PHONES)
    .optional(),
  fiscalEmail: z.email().max(80).optional(),
  productionState: z.enum(['not_requested', 'pending', 'active', 'suspended']).optional(),
  plan: z.string().trim().min(1).max(40).optional(),
});
export type TCreateTenantInput = z.infer<typeof ZCreateTenantInput>;

/** Creates a tenant; an RNC already registered is a conflict, never a second account. */
export async function createTenant(options: {
  database: TDatabase;
  input: TCreateTenantInput;
}): Promise<Tenant> {
  const input = ZCreateTenantInput.parse(options.input);
  const inserted = await insertTenant(options.database, {
    rnc: input.rnc,
    legalName: input.legalName,
    tradeName: input.tradeName ?? null,
    address: input.address ?? null,
    phones: input.phones ?? [],
    fiscalEmail: input.fiscalEmail ?? null,
    ...(input.productionState ? { productionState: input.productionState } : {}),
    ...(input.plan ? { plan: input.plan } : {}),
  });
  if (!inserted.created) {
    throw new AppError('INVALID_REQUEST', `A tenant with RNC ${input.rnc} already exists.`, {
      details: { reason: 'rnc_taken' },
    });
  }
  return inserted.tenant;
}
