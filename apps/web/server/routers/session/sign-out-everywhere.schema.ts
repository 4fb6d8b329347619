import { z } from 'zod';

export const ZSignOutEverywhereInput = z.void();
export const ZSignOutEverywhereOutput = z.object({ sessionsRevoked: z.number().int() });
