import { z } from 'zod';
import { ZLinkToken, ZNewPassword } from '../../../lib/schemas.ts';

export const ZCompletePasswordResetInput = z.object({ token: ZLinkToken, password: ZNewPassword });
export const ZCompletePasswordResetOutput = z.object({ sessionsRevoked: z.number().int() });
