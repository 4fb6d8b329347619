import { z } from 'zod';
import { ZLinkToken, ZNewPassword, ZPersonName } from '../../../lib/schemas.ts';

export const ZAcceptAsNewUserInput = z.object({
  token: ZLinkToken,
  name: ZPersonName,
  password: ZNewPassword,
});
export const ZAcceptAsNewUserOutput = z.object({ email: z.string() });
