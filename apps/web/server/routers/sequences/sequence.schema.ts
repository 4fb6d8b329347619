import { z } from 'zod';
import { ZEnvironment } from '../api-keys/api-key.schema.ts';
import { ZSequenceRangeForm } from '../../../lib/annulment-schemas.ts';

export { ZEnvironment };

/** A registered range as the page shows it (the API's SequenceRange). */
export const ZSequenceRangeView = z.object({
  id: z.uuid(),
  type: z.string(),
  from: z.string(),
  to: z.string(),
  sequenceExpirationDate: z.string(),
  registeredAt: z.string(),
  counts: z.object({
    total: z.number().int().nonnegative(),
    used: z.number().int().nonnegative(),
    annulled: z.number().int().nonnegative(),
    free: z.number().int().nonnegative(),
  }),
});

export const ZListSequencesInput = z.object({ environment: ZEnvironment });
export const ZListSequencesOutput = z.object({ ranges: z.array(ZSequenceRangeView), canManage: z.boolean() });

export const ZRegisterSequenceInput = ZSequenceRangeForm.extend({ environment: ZEnvironment });
export const ZRegisterSequenceOutput = z.object({ range: ZSequenceRangeView });
