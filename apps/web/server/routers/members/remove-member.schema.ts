import { z } from 'zod';
import { ZUuid } from '../../../lib/schemas.ts';

export const ZRemoveMemberInput = z.object({ membershipId: ZUuid });
export const ZRemoveMemberOutput = z.object({ removed: z.literal(true), sessionsDetached: z.number().int() });
