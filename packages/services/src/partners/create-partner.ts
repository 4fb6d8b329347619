import { z } from 'zod';
import type { TDatabase } from '@ecf/db';
import { insertPartner } from '../persistence/index.ts';
import { partnerOf, type TPartner } from './partner-rules.ts';

export const ZCreatePartnerInput = z.strictObject({
  name: z.string().trim().min(1).max(200),
  plan: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional(),
  paidStatus: z.enum(['paid', 'overdue', 'unpaid']).optional(),
  billingUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
});
export type TCreatePartnerInput = z.infer<typeof ZCreatePartnerInput>;

/** Creates a Partner (admin CLI): active, on `plan` (default `starter`), unpaid until said otherwise. */
export async function createPartner(options: {
  database: TDatabase;
  input: TCreatePartnerInput;
  now?: () => Date;
}): Promise<TPartner> {
  const input = ZCreatePartnerInput.parse(options.input);
  const row = await insertPartner(options.database, {
    name: input.name,
    plan: input.plan ?? 'starter',
    paidStatus: input.paidStatus ?? 'unpaid',
    billingUrl: input.billingUrl ?? null,
    at: (options.now ?? (() => new Date()))(),
  });
  return partnerOf(row);
}
