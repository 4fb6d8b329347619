import { z } from 'zod';
import { ZEmail, ZRole } from '../../../lib/schemas.ts';
import { ZInvitation } from './invitation.schema.ts';

export const ZCreateInvitationInput = z.object({ email: ZEmail, role: ZRole });
export const ZCreateInvitationOutput = z.object({ invitation: ZInvitation });
