import type { TDatabase } from '@ecf/db';
import { findPendingInvitationRows, type TInvitationRow } from '../persistence/index.ts';

/** A tenant's invitations not accepted nor revoked, newest first (expired ones too: `expiresAt` tells). */
export async function findPendingInvitations(options: {
  database: TDatabase;
  tenantId: string;
}): Promise<TInvitationRow[]> {
  return findPendingInvitationRows(options.database, options.tenantId);
}
