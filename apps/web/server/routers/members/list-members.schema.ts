import { z } from 'zod';
import { ZMember } from './member.schema.ts';

export const ZListMembersInput = z.void();
export const ZListMembersOutput = z.object({ members: z.array(ZMember) });
