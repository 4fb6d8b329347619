import type { TDatabase } from '@ecf/db';
import { revokePortalSessionRow } from '../persistence/index.ts';
import { isUuid } from '../shared/references.ts';

/** Signs one session out (the portal's sign-out); the JWT naming it is worthless from now on. */
export async function revokePortalSession(options: {
  database: TDatabase;
  sessionId: string;
  now?: () => Date;
}): Promise<{ revoked: boolean }> {
  if (!isUuid(options.sessionId)) return { revoked: false };
  const revoked = await revokePortalSessionRow(options.database, {
    sessionId: options.sessionId,
    at: (options.now ?? (() => new Date()))(),
  });
  return { revoked };
}
