import { z } from 'zod';
import { ZUuid } from '../../../lib/schemas.ts';

export const ZSwitchTenantInput = z.object({ tenantId: ZUuid });
export const ZSwitchTenantOutput = z.object({ tenantId: z.uuid() });
