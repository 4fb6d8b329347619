import { z } from 'zod';
import type { TInvitationRow } from '@ecf/services';
import { MEMBER_ROLES } from '../../../lib/schemas.ts';

/** A pending invitation as the members page shows it (never its token). */
export const ZInvitation = z.object({
  id: z.uuid(),
  email: z.string(),
  role: z.enum(MEMBER_ROLES),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  expired: z.boolean(),
  invitedBy: z.object({ name: z.string(), email: z.string() }),
});

export function invitationOf(row: TInvitationRow, now: Date): z.infer<typeof ZInvitation> {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    expired: row.expiresAt <= now,
    invitedBy: { name: row.invitedBy.name, email: row.invitedBy.email },
  };
}
