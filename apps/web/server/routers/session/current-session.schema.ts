import { z } from 'zod';
import { MEMBER_ROLES } from '../../../lib/schemas.ts';

export const ZCurrentSessionInput = z.void();

export const ZTenantSummary = z.object({
  id: z.uuid(),
  rnc: z.string(),
  name: z.string(),
});

export const ZCurrentSessionOutput = z.object({
  user: z.object({ id: z.uuid(), email: z.string(), name: z.string(), isSupport: z.boolean() }),
  /** The user's tenants and their role in each (empty for support). */
  tenants: z.array(ZTenantSummary.extend({ role: z.enum(MEMBER_ROLES) })),
  activeTenant: ZTenantSummary.nullable(),
  /** `owner` | `developer` | `accountant` | `support`; null without an active tenant. */
  role: z.enum([...MEMBER_ROLES, 'support']).nullable(),
  /** What the user may do in the active tenant (the permission table of @ecf/services). */
  capabilities: z.array(z.string()),
  expiresAt: z.iso.datetime(),
});
