import { z } from 'zod';
import { ZUuid } from '../../../lib/schemas.ts';

export const ZRevokeInvitationInput = z.object({ invitationId: ZUuid });
export const ZRevokeInvitationOutput = z.object({ revoked: z.literal(true) });
