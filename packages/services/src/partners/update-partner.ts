import { z } from 'zod';
import type { TDatabase } from '@ecf/db';
import { updatePartnerRow, type TPartnerChanges } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { partnerOf, type TPartner } from './partner-rules.ts';

export const ZUpdatePartnerInput = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  status: z.enum(['active', 'suspended']).optional(),
  plan: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional(),
  paidStatus: z.enum(['paid', 'overdue', 'unpaid']).optional(),
  billingUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable()
    .optional(),
});
export type TUpdatePartnerInput = z.infer<typeof ZUpdatePartnerInput>;

/**
 * Changes a Partner's standing, plan or payment (admin CLI). Becoming `overdue` starts the grace
 * period now (`overdueSince`); any other payment status clears it.
 */
export async function updatePartner(options: {
  database: TDatabase;
  partnerId: string;
  input: TUpdatePartnerInput;
  now?: () => Date;
}): Promise<TPartner> {
  const input = ZUpdatePartnerInput.parse(options.input);
  const at = (options.now ?? (() => new Date()))();
  const changes: TPartnerChanges = {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.status === undefined ? {} : { status: input.status }),
    ...(input.plan === undefined ? {} : { plan: input.plan }),
    ...(input.billingUrl === undefined ? {} : { billingUrl: input.billingUrl }),
    ...(input.paidStatus === undefined
      ? {}
      : { paidStatus: input.paidStatus, overdueSince: input.paidStatus === 'overdue' ? at : null }),
  };
  const row = await updatePartnerRow(options.database, { partnerId: options.partnerId, changes, at });
  if (row === null) throw new AppError('NOT_FOUND', `No Partner ${options.partnerId}.`);
  return partnerOf(row);
}
