import { z } from 'zod';
import { ZEmail } from '../../../lib/schemas.ts';

export const ZRequestPasswordResetInput = z.object({ email: ZEmail });
/** Always the same answer: it never says whether the address has an account. */
export const ZRequestPasswordResetOutput = z.object({ requested: z.literal(true) });
