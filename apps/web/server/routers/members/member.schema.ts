import { z } from 'zod';
import type { TMemberRow } from '@ecf/services';
import { MEMBER_ROLES } from '../../../lib/schemas.ts';

/** A member as the pages show it. */
export const ZMember = z.object({
  id: z.uuid(),
  role: z.enum(MEMBER_ROLES),
  since: z.iso.datetime(),
  user: z.object({ id: z.uuid(), email: z.string(), name: z.string() }),
  /** The signed-in user. */
  isYou: z.boolean(),
});

export function memberOf(row: TMemberRow, userId: string): z.infer<typeof ZMember> {
  return {
    id: row.id,
    role: row.role,
    since: row.createdAt.toISOString(),
    user: row.user,
    isYou: row.user.id === userId,
  };
}
