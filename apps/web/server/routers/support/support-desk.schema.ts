/** Shapes shared by the support desk's procedures (a tenant as the desk names it). */
import { z } from 'zod';

export const ZEnvironment = z.enum(['TesteCF', 'CerteCF', 'eCF']);
export const ZSupportTenant = z.object({ id: z.uuid(), rnc: z.string(), name: z.string() });
