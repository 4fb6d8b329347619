import { z } from 'zod';
import { ZUuid } from '../../../lib/schemas.ts';
import { ZMember } from './member.schema.ts';

export const ZGetMemberInput = z.object({ membershipId: ZUuid });
export const ZGetMemberOutput = ZMember;
