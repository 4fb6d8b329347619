import { z } from 'zod';
import { ZInvitation } from './invitation.schema.ts';

export const ZListPendingInvitationsInput = z.void();
export const ZListPendingInvitationsOutput = z.object({ invitations: z.array(ZInvitation) });
