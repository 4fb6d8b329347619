import { z } from 'zod';
import { ZRole, ZUuid } from '../../../lib/schemas.ts';
import { ZMember } from './member.schema.ts';

export const ZChangeMemberRoleInput = z.object({ membershipId: ZUuid, role: ZRole });
export const ZChangeMemberRoleOutput = ZMember;
