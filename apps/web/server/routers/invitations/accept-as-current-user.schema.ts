import { z } from 'zod';
import { ZLinkToken } from '../../../lib/schemas.ts';

export const ZAcceptAsCurrentUserInput = z.object({ token: ZLinkToken });
export const ZAcceptAsCurrentUserOutput = z.object({ tenantId: z.uuid() });
