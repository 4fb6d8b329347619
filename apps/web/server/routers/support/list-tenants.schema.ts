import { z } from 'zod';

export const ZListTenantsInput = z.void();
export const ZListTenantsOutput = z.object({
  tenants: z.array(z.object({ id: z.uuid(), rnc: z.string(), name: z.string() })),
});
